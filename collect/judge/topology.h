/*
 * topology.h: the topology the bound stands on (Slurm's topology.conf, a site's fabric file: which leaf each node
 * hangs off) checked against the rows: pure logic over the points' fabrics (read/fabric.h) and rows. After a hardware
 * swap a cable may sit elsewhere, and every bound built on the file is then wrong. Each alternative that moves one
 * node to another leaf of the campaign is tried on every row of TOPO_MIN_BYTES per peer or more that a link bounds
 * (uniform, the point's first algorithm; its median time, as eff_bound). A row fits a topology when its bound / time
 * is within TOPO_LOW..TOPO_HIGH: above, it ran faster than that topology allows (impossible but for noise); below,
 * something else holds it. An alternative wins a row that fits it and not the declared, or that fits it at TOPO_GAIN
 * times the declared's ratio or more where another row reads TOPO_GAIN times that declared ratio (a flow the declared
 * misses shares its link: half of the bound as declared, all of it moved; a load that halves every row wins none);
 * it loses one that fits the declared and not it. It fits better when it wins TOPO_MIN_WINS rows or more and at least
 * TOPO_OUTVOTE times as many as it changes and does not fit (lost, or fitting neither): a slow link's rows, far below
 * every alternative's bound, move no node, and one link that a CPU hog slowed does not hide a moved cable that four
 * others show. The declared topology is verified when rows were judged and none fits better. Only the points of at
 * most TOPO_NODES nodes are checked (their nodes x leaves alternatives): a larger campaign by its smaller points.
 *
 * An aller --pairs point is judged the same way, link by link: at each of its steps every task sends its message at
 * once, and each link's least time is the step's flows sharing the fabric's links (flows.h, trees only); its ratio is
 * that time / the link's measured one (its best of the step's exchanges, which may be one where a flow beside it
 * started late: it fits up to TOPO_PAIRS_HIGH). On a 2:1 fabric two flows share an uplink in some steps and none in
 * others, which the declared topology predicts and a moved cable does not (those links read twice their bound).
 */
#ifndef COLLECT_TOPOLOGY_H
#define COLLECT_TOPOLOGY_H

#include <stddef.h>

#include "fpoint.h"

#define TOPO_MIN_BYTES 1048576   /* smaller rows are a shaper's burst and latency's as much as the links' */
#define TOPO_MIN_WINS 2
#define TOPO_OUTVOTE 2           /* ... and wins this many times those it changes and does not fit */
#define TOPO_LOW 0.5             /* a row's median below half of its bound: something else holds it */
#define TOPO_HIGH 1.15
#define TOPO_GAIN 1.5            /* ... or fits the alternative at this many times the declared's ratio: a flow missed */
#define TOPO_PAIRS_HIGH 1.5      /* a --pairs link's best time may be one where a flow beside it started late */
#define TOPO_NODES 64            /* a point of more nodes is not checked, nor any where its points checked span more */
#define TOPO_WORLD 1024          /* ... nor a point of more tasks (each alternative's bound of each level) */
#define TOPO_PAIRS 128           /* ... nor a --pairs point of more tasks (its steps' flows, each alternative) */
#define TOPO_NAME 64
#define TOPO_EXPLAINED 0.8       /* a --pairs slow link at this share of what its step leaves it: the topology's */

struct topo_move {
	char node[TOPO_NAME], from[TOPO_NAME], to[TOPO_NAME];
	long changed, wins, losses, bad, gains;   /* rows it changed; won, lost, out of TOPO_LOW..TOPO_HIGH; won by TOPO_GAIN */
	double lo, hi, ghi;          /* the changed rows' bound / time; the highest declared of those won by TOPO_GAIN */
};

/*
 * A --pairs point's links under the declared topology: r[(k - 1) x n + i],
 * the link from task i at step k; then as many of what each got (topo_link).
 */
struct topo_links {
	long point, n;
	double *r;
};

struct topo {
	struct topo_move *m;
	long n;
	size_t cap;
	long rows, pairs;            /* rows and --pairs links judged under the declared topology */
	double lo, hi;               /* ... their bound / time (both) */
	long nodes;                  /* the nodes with a known leaf of its points checked; past TOPO_NODES none is moved */
	int past;                    /* a point of more than TOPO_NODES nodes, not checked */
	struct topo_links *links;    /* each --pairs point judged */
	long nlinks;
	size_t links_cap;
};

/* The alternatives of the campaign's points (each node to each other leaf named); 0, or -1 (memory). */
int topo_open(struct topo *t, const struct fpoint *pts, long np);
/* Point p's rows (n of them) judged under the declared topology and each alternative; 0, or -1 (memory). */
int topo_point(struct topo *t, const struct fpoint *p, const struct mrow *rows, long n);
/*
 * Point p's --pairs matrix (bw[src x n + dst] GB/s, n tasks, `bytes` a
 * message; TOPO_MIN_BYTES or more) judged the same way; 0, or -1 (memory).
 */
int topo_pairs(struct topo *t, const struct fpoint *p, const double *bw, long n, double bytes);
/*
 * The link from task src to task dst of --pairs point `point` under the declared topology: how much of what
 * the fabric allows it in its step it got (1: all), alone (its least time as the step's flows share the links
 * / its measured time) or with the flows that share its bottleneck (their rates together), whichever is more,
 * but alone where that is below TOPO_LOW; NAN where it was not judged, or where a node moved fits better
 * (topo_outcome: the shares are then not the fabric's).
 */
double topo_link(const struct topo *t, long point, long src, long dst);
/*
 * The outcome: -1 not judged (no row nor link, or past TOPO_NODES), 0 verified, else how many alternatives
 * fit best (into best[max]: the most rows won, then the fewest out of band, then the nearest their bound).
 */
int topo_outcome(const struct topo *t, const struct topo_move **best, int max);
/* The rows move m wins (those by TOPO_GAIN where a row reads TOPO_GAIN times their declared ratio or more). */
long topo_won(const struct topo *t, const struct topo_move *m);
void topo_release(struct topo *t);

#endif
