/*
 * moe.h: --moe, each call a mixture-of-experts step's round trip on every
 * communicator (DeepSpeed's and Megatron's token dispatchers):
 *   counts    MPI_Alltoall of one long per peer: how many longs each block
 *             of the split holds, the receivers learning what comes;
 *   dispatch  the data set's algorithm (alltoallv or pairwise) moving the
 *             blocks, as the split puts them;
 *   combine   the same algorithm with the layout reversed: each task sends
 *             every block it received back to where it came from, into a
 *             buffer of its own, which then equals what it sent.
 * The phases are timed apart inside the call (tavg is the whole trip) and
 * each is verified: the counts against the split's, the dispatch by the
 * harness's check, the combine against the send buffer (host buffers).
 */
#ifndef ALLER_MOE_H
#define ALLER_MOE_H

#include "sweep_impl.h"

struct moe_run {
	long *scnt, *rcnt;          /* [g]: the counts sent and received */
	long *back;                 /* the combine's receive buffer, stotal longs and a guard */
	struct split_layout rev;    /* the dispatch's layout reversed (its arrays, not owned) */
	struct algo_call ra;        /* the combine's call */
	int ra_open;
	double last[3];             /* the call at hand's counts, dispatch and combine seconds */
	double sum[3];              /* ... summed over the timed calls of the concurrent pass */
};

/* Per count, outside the timing, after the algorithm's count_open: an MPI error code. */
int moe_open(const struct level *l, struct count_run *c);
/* After the passes: the memory and the combine's state freed, the sums kept (c->moe_sum). */
void moe_close(const struct level *l, struct count_run *c);
/* The timed round trip: an MPI error code. */
int moe_call(const struct level *l, struct count_run *c);
/* Before a checked call: the counts and the combine's buffer poisoned. */
void moe_poison(struct count_run *c);
/* After a test's damage (ALLER_TEST_MOE_CORRUPT: 1 counts, 2 combine): one element wrong. */
void moe_corrupt(struct count_run *c, int phase);
/*
 * After a checked call: the wrong counts and combined elements (the first in
 * *m, its phase in *phase: "counts" or "combine").
 */
long moe_check(const struct level *l, const struct count_run *c, struct mismatch *m,
	       const char **phase);
/* Collective: the row's tcounts_s, tdispatch_s and tcombine_s (rank 0), NAN without --moe. */
void moe_row(struct sweep *s, struct count_run *c, struct row *row);

#endif
