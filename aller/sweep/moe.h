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
 * harness's check, the combine against the send buffer. With
 * --transport=nccl the data phases are NCCL's grouped ncclSend/ncclRecv
 * (algo_nccl.c's uneven call); the counts stay an MPI_Alltoall of host
 * longs. Device buffers (--buffers=cuda) get a device combine buffer from
 * the back end (buffers.h's extra_alloc), copied to the host to be checked,
 * outside the timing.
 */
#ifndef ALLER_MOE_H
#define ALLER_MOE_H

#include "buffers/buffers.h"
#include "output.h"
#include "sweep_state.h"

struct moe_run {
	struct buffers *b;          /* the run's buffers, whose memory back is in */
	long *scnt, *rcnt;          /* [g]: the counts sent and received */
	long *back;                 /* the combine's receive buffer, stotal longs and a guard */
	long *host;                 /* device memory: [2 x (stotal + 1)] host copies of back and send */
	struct split_layout rev;    /* the dispatch's layout reversed (its arrays, not owned) */
	struct algo_call ra;        /* the combine's call */
	int ra_open;
	double last[3];             /* the call at hand's counts, dispatch and combine seconds */
	double sum[3];              /* ... summed over the timed calls of the concurrent pass */
};

/* Per count, outside the timing, after the algorithm's count_open: an MPI error code. */
int moe_open(struct buffers *b, const struct level *l, struct count_run *c);
/* After the passes: the memory and the combine's state freed, the sums kept (c->moe_sum). */
void moe_close(const struct level *l, struct count_run *c);
/* The timed round trip: an MPI error code. */
int moe_call(const struct level *l, struct count_run *c);
/* Before a checked call: the counts and the combine's buffer poisoned; 0, or -1 (b->err). */
int moe_poison(struct count_run *c);
/* A test's damage (ALLER_TEST_MOE_CORRUPT: 1 counts, 2 combine): one element wrong; 0 or -1. */
int moe_corrupt(struct count_run *c, int phase);
/*
 * After a checked call: the wrong counts and combined elements (the first in
 * *m, its phase in *phase: "counts" or "combine"), or -1 when device memory
 * could not be read (b->err).
 */
long moe_check(const struct level *l, const struct count_run *c, struct mismatch *m,
	       const char **phase);
/* Collective: the row's tcounts_s, tdispatch_s and tcombine_s (rank 0), NAN without --moe. */
void moe_row(struct sweep *s, struct count_run *c, struct row *row);

#endif
