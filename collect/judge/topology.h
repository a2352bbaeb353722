/*
 * topology.h: the topology the bound stands on, checked against the rows
 * (pure logic over the points' fabrics, read/fabric.h, and their rows).
 * Slurm's topology.conf or a site's fabric file says which leaf each node
 * hangs off; after a hardware swap a cable may sit elsewhere, and every
 * bound and verdict built on the file is then wrong. Each alternative that
 * moves one node to another leaf of the campaign is tried on every row of
 * TOPO_MIN_BYTES per peer or more that a link bounds (uniform, the point's
 * first algorithm; its median time, as eff_bound). A row fits a topology
 * when its bound / time is within TOPO_LOW..TOPO_HIGH: above it the row ran
 * faster than that topology allows (impossible but for noise), below it
 * something else holds the row. A row is won by the alternative when it
 * fits the alternative and not the declared, lost when the reverse. An
 * alternative fits better when it wins TOPO_MIN_WINS rows or more, loses
 * none, and every row it changes fits it (a slow link's rows, far below
 * every alternative's bound, move none). The declared topology is verified
 * when rows were judged and no alternative fits better.
 */
#ifndef COLLECT_TOPOLOGY_H
#define COLLECT_TOPOLOGY_H

#include <stddef.h>

#include "fpoint.h"

#define TOPO_MIN_BYTES 1048576   /* smaller rows are a shaper's burst and latency's as much as the links' */
#define TOPO_MIN_WINS 2
#define TOPO_LOW 0.5             /* a row's median below half of its bound: something else holds it */
#define TOPO_HIGH 1.15
#define TOPO_NODES 64            /* a campaign of more nodes is not checked (nodes x leaves alternatives) */
#define TOPO_WORLD 1024          /* ... nor a point of more tasks (each alternative's bound of each level) */
#define TOPO_NAME 64

struct topo_move {
	char node[TOPO_NAME], from[TOPO_NAME], to[TOPO_NAME];
	long changed, wins, losses, bad;   /* rows it changed; won, lost, out of TOPO_LOW..TOPO_HIGH */
	double lo, hi;               /* the changed rows' bound / time */
};

struct topo {
	struct topo_move *m;
	long n;
	size_t cap;
	long rows;                   /* rows judged under the declared topology */
	double lo, hi;               /* ... their bound / time */
	long nodes;                  /* the campaign's nodes with a known leaf; past TOPO_NODES none is moved */
};

/* The alternatives of the campaign's points (each node to each other leaf named); 0, or -1 (memory). */
int topo_open(struct topo *t, const struct fpoint *pts, long np);
/* Point p's rows (n of them) judged under the declared topology and each alternative; 0, or -1 (memory). */
int topo_point(struct topo *t, const struct fpoint *p, const struct mrow *rows, long n);
/*
 * The outcome: -1 not judged (no row, or past TOPO_NODES), 0 verified, else how many
 * alternatives fit best (into best[max]: the most rows won, then the
 * fewest out of band, then the nearest their bound).
 */
int topo_outcome(const struct topo *t, const struct topo_move **best, int max);
void topo_release(struct topo *t);

#endif
