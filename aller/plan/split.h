/*
 * split.h: how an uneven all-to-all divides its data among peers (--split),
 * as pure logic.
 *
 * In a communicator of g tasks at per-peer count c, task i sends count(i, j)
 * longs to task j (ranks in the communicator). c stays the mean: the counts
 * of every spec add up to g x g x c, so the size axis keeps its meaning.
 * Every task computes the same counts from (spec, seed, communicator colour,
 * g, c, iteration): a task needs its own row (what it sends) and column (what
 * it receives), each O(g) from a table of at most g + 1 numbers; nothing of
 * size g x g is built (but the matrix a user gives).
 *
 *   uniform       c to every peer (the plain all-to-all)
 *   spread:F      nccl-tests' alltoallv spread: sender i gives peer j, at
 *                 distance d = (j - i) mod g, the share (1 - F) / g +
 *                 F x d / (g (g - 1) / 2) of its g x c: F = 0 uniform, F = 1
 *                 nothing to itself and the most to the peer before it
 *   zipf:S[:SEED] each sender ranks its peers in its own pseudo-random order
 *                 (from SEED, its colour and rank) and gives the peer of place
 *                 k (1..g) a share proportional to 1 / k^S: the first gets
 *                 g^S times what the last gets; default seed 1
 *   hot:K:F       receivers 0..K-1 of every communicator get the fraction F
 *                 of all the traffic, the others share 1 - F (DeepEP's
 *                 unbalanced ratio); K >= g: uniform
 *   idle:F        the last floor(F x g) receivers (at most g - 1) get
 *                 nothing, the others share everything evenly
 *   rotate:K:F    hot:K:F where the hot receivers move on by K each call:
 *                 at call t (warm-ups counted from 0) they are (t x K + m)
 *                 mod g, m < K
 *   lognormal:SIGMA[:SEED]
 *                 each receiver (an expert) has a load exp(SIGMA x z), z a
 *                 standard normal drawn from SEED, the communicator's colour
 *                 and the receiver (the same on every task), and every sender
 *                 gives each peer a share proportional to its load: the
 *                 per-expert skew of mixture-of-experts routing as DeepEP
 *                 models it; SIGMA 0 is uniform; default seed 1
 *   nodes:F       balanced across nodes, skewed among a node's tasks: every
 *                 node of the communicator receives the same share of each
 *                 sender's data, and of a node's share its first task gets
 *                 F, the others (1 - F) evenly (DeepEP#343: balance per
 *                 node hides imbalance per GPU); F = 1 / tasks per node is
 *                 uniform; the nodes come from split_plan_nodes (without
 *                 them: all on one node)
 *   matrix:FILE   an N x N matrix of non-negative weights (whitespace
 *                 separated, '#' comments; row: sender, column: receiver),
 *                 scaled so that its mean is c; measured at the levels whose
 *                 communicators all have N tasks
 *
 * Shares become whole counts by cumulative rounding: the first k shares of a
 * row end at floor(total x (sum of their weights) / (sum of all)), so a row
 * adds up exactly and no count is negative.
 */
#ifndef ALLER_SPLIT_H
#define ALLER_SPLIT_H

#include <stddef.h>

#define SPLIT_MAX 16           /* --split given at most this often */
#define SPLIT_SPEC_MAX 256     /* the longest spec */
#define SPLIT_DEFAULT_SEED 1UL
#define SPLIT_MATRIX_MAX 65536L /* the largest N of a matrix file */
/* the most bytes of weights a file's split may hold in every task (N x N x matrices x 8) */
#define SPLIT_WEIGHTS_MAX (256L << 20)

enum split_kind { SPLIT_UNIFORM, SPLIT_SPREAD, SPLIT_ZIPF, SPLIT_HOT, SPLIT_IDLE, SPLIT_ROTATE,
		  SPLIT_MATRIX, SPLIT_LOGNORMAL, SPLIT_NODES, SPLIT_TRACE };

struct split {
	enum split_kind kind;
	char spec[SPLIT_SPEC_MAX];  /* as given */
	double f;                   /* spread's F, zipf's S, hot's, idle's, rotate's and nodes' F, lognormal's SIGMA */
	long k;                     /* hot's and rotate's K */
	unsigned long seed;         /* zipf, lognormal */
	long n;                     /* matrix, trace: N, once loaded */
	long nmat;                  /* ... how many matrices (a matrix: 1) */
	double *cum;                /* ... nmat x N x N running sums of the weights, row by row,
				     * starting again with each matrix */
};

/* Parses one spec; 0, or -1 with a one-line message (what, which value, what is allowed). */
int split_parse(struct split *s, const char *spec, char *err, size_t errlen);
/* Whether a and b measure the same split (zipf:1.2 and zipf:1.2:1 do). */
int split_same(const struct split *a, const struct split *b);
/*
 * The spec as the header records it, one word that --split takes back:
 * zipf and lognormal with their seed ("zipf:1.2" -> "zipf:1.2:1"), the
 * others as given.
 */
void split_describe(const struct split *s, char *buf, size_t len);
/* Whether the counts differ from peer to peer (anything but uniform). */
int split_uneven(const struct split *s);
/* Whether the counts change from call to call (rotate). */
int split_varies(const struct split *s);
/* Whether a level of communicators of g tasks is measured (a matrix: N only). */
int split_fits(const struct split *s, long g);

/* A matrix file's text: N and the running sums; 0, or -1 with a message naming the file. */
int split_matrix_parse(const char *text, const char *file, long *n, double **cum, char *err,
		       size_t errlen);
/*
 * A trace file's text: N, the matrices and their running sums, one after
 * the other; 0, or -1 with a message naming the file, the matrix and the line.
 */
int split_trace_parse(const char *text, const char *file, long *n, long *nmat, double **cum,
		      char *err, size_t errlen);
/* Whether the split reads a file (matrix, trace). */
int split_has_file(const struct split *s);
/* A matrix's or trace's file: the spec after "matrix:" or "trace:". */
const char *split_file(const struct split *s);
/* Reads and parses its file (s->n, s->nmat, s->cum); 0, or -1 with a message. */
int split_matrix_load(struct split *s, char *err, size_t errlen);
/*
 * Bytes of weights a loaded file's split holds in every task; 0 for the
 * others. split_weights_check: 0 when at most SPLIT_WEIGHTS_MAX, else -1
 * with a message naming the file, N, the matrices and the bound.
 */
double split_weights(const struct split *s);
int split_weights_check(const struct split *s, char *err, size_t errlen);
void split_free(struct split *s);

/* The counts of one (spec, communicator, count, call). */
struct split_plan {
	const struct split *s;
	long g, c, color, iter;
	long *pos;                  /* per position (distance, place or receiver), or NULL */
};

/* 0, or -1 out of memory. */
int split_plan_init(struct split_plan *p, const struct split *s, long g, long c, long color,
		    long iter);
void split_plan_free(struct split_plan *p);
/*
 * nodes:F: the communicator's tasks' nodes (node[k] of its rank k, any
 * integers; the first of a node is its lowest rank) for the table; 0, or -1
 * out of memory. A no-op for the other kinds.
 */
int split_plan_nodes(struct split_plan *p, const int *node);
/* Longs sender i sends to receiver j (0 <= i, j < g). */
long split_count(const struct split_plan *p, long i, long j);

/* A task's blocks: what it sends to and receives from each peer, packed in rank order. */
struct split_layout {
	long g;
	long *scounts, *sdispls, *rcounts, *rdispls;   /* each g longs */
	long stotal, rtotal;
};

/* Allocates the four arrays of g; 0 or -1. */
int split_layout_alloc(struct split_layout *v, long g);
/* Task `me`'s row and column of the plan. */
void split_layout_fill(struct split_layout *v, const struct split_plan *p, long me);
void split_layout_free(struct split_layout *v);
/* The largest count or displacement, to know whether int counts can carry them. */
long split_layout_max(const struct split_layout *v);

#endif
