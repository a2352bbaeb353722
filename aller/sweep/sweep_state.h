/* sweep_state.h: the sweep's shared state, owned by no .c file: a level (sweep.c), a count (sweep_count.c) and its calls (sweep_calls.c). */
#ifndef ALLER_SWEEP_STATE_H
#define ALLER_SWEEP_STATE_H

#include <mpi.h>

#include "algo/algo.h"
#include "partition.h"
#include "plan/stats.h"
#include "world/failure.h"

struct moe_run;
struct sweep;   /* sweep.h: the sweep's own fields, which every file of the sweep reads */

/* One level: its partition and this task's communicator in it. */
struct level {
	struct partition p;   /* p.target: the level's target communicator size */
	/* This task's communicator (comm, color, rank and size g in it) and
	 * buffers, held once: each count's call copies it and adds the count;
	 * a.level is the algorithm's per-level state. */
	struct algo_call a;
	char *hosts;          /* the communicator's hosts, for the timeout message */
	const struct algo_op *op;  /* the algorithm of the data set being measured */
	const struct split *split; /* ... and its split (--split) */
	unsigned char *offnode; /* [g]: 1 where the communicator's task is on another node, 2
				 * where also under another leaf (both leaves known) */
	int *nodes;           /* [g]: the node of each of the communicator's tasks */
	long noff, nofl;      /* ... how many are on another node, under another leaf */
};

/* Collective: the data set's set-up failure (failure_data_set), counted for the exit status (sweep.c). */
int sweep_set_failed(struct sweep *s, const struct level *l, int index, const char *what, int rc,
		     const char *why);

/* Maxima reduced with the statistics' (MPI_MAX): the split's, after stats_pack's. */
enum { SPLIT_IO = STATS_NMAX, SPLIT_DIR, SPLIT_NEG_IN, COUNT_NMAX };

/* What one count measures, on this task (sweep_count.c; its calls, sweep_calls.c). */
struct count_run {
	int index;
	struct algo_call a;    /* what the algorithm's calls move: the level's, and the count */
	long iters;            /* its timed calls: ITERS, --time-per-size's or --ci's (0: not chosen yet) */
	long slot, nslots;     /* --cold-cache: a call's slot (longs) and how many the ring has */
	double warm;           /* this task's longest warm-up iteration, wall seconds */
	int poisoned;          /* the receive buffer of the next call is poisoned */
	int uneven;            /* --split: a.v is this task's blocks of the call at hand */
	struct split_plan plan;
	struct split_layout v;
	struct verify_blocks sblk, rblk; /* v's, for the fill and the check */
	double in, out;        /* longs this task received and sent in its timed concurrent calls */
	double off_in, off_out; /* ... of them from and to tasks on other nodes */
	double leaf_in, leaf_out; /* ... and under other leaves */
	const unsigned char *offnode; /* the level's */
	long noff, nofl;
	double *nodes;         /* [5 x nodes]: per node off_out, off_in, in + out, leaf_out, leaf_in bytes per call */
	long active;           /* the communicator of an isolation pass; -1: all at once */
	struct stats st;       /* the concurrent pass */
	struct stats busy;     /* --congestion: the second pass, the aggressors busy */
	int congested;         /* ... which ran */
	double *keep;          /* ... [COUNT_NMAX + options_calls_max]: the first pass's slowest_t, kept */
	double *slowest_t;     /* [COUNT_NMAX + options_calls_max]: max reductions, then per-iteration times */
	double slow;           /* this task's slowest sample */
	double alone, together; /* this task's timed seconds: its communicator alone, and in all */
	double *iso;           /* [2 x ncomms]: the sums of alone and together per communicator */
	long wrong, wrong_iter;
	struct mismatch first;
	const char *wrong_phase; /* --moe: the first wrong element's phase, or NULL (the dispatch) */
	struct moe_run *moe;    /* --moe's buffers and state for the count (moe.h), or NULL */
	double moe_sum[3];     /* ... its phases' seconds summed, kept when it closes */
	int moe_on;
	double stream_s, host_s; /* --timing=nccl: per call on the stream (NAN unknown) and by the
				  * host's loop, the slowest task's */
	char failed[256];      /* the first failed buffer operation's message, or "" */
};

/*
 * Collective: one pass of a count (sweep_calls.c): its warm-ups, then its
 * timed calls as --timing says, with the fill, poison and check they need.
 */
void sweep_pass(struct sweep *s, const struct level *l, struct count_run *c);
/* The split's blocks of call `it` (warm-ups from 0): the layout, the check's guard. */
void sweep_layout_at(struct sweep *s, struct count_run *c, long it);

/* sweep_count: the data set failed and was said so; its other counts are skipped. */
#define SWEEP_SET_FAILED (-1)
/*
 * Collective: one count at one level with l->op and l->split: the calls, the
 * verdict, the row. 0 (also for a count whose uneven blocks do not fit the
 * buffers: said in its place), 1 (verification), 3, or SWEEP_SET_FAILED.
 */
int sweep_count(struct sweep *s, struct level *l, int index, long count);

#endif
