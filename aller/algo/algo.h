/*
 * algo.h: one all-to-all algorithm behind one interface (the nccl-tests
 * pattern: the harness, sweep_count.c, times and verifies; each algorithm is one
 * small file that only moves the data). Every algorithm leaves in recv what
 * MPI_Alltoall would: block i of rank j's send lands as block j of rank i's
 * recv, so one fill and one check serve them all. Those that take uneven
 * blocks (format.h's ALGO_CAN_SPLIT) read their sizes from a->v.
 */
#ifndef ALLER_ALGO_H
#define ALLER_ALGO_H

#include <mpi.h>

#include "algo_list.h"
#include "plan/split.h"

/* What one count's calls move, and where. */
struct algo_call {
	MPI_Comm comm;
	MPI_Comm world;            /* the measured world (MPI_COMM_WORLD, or --congestion's side) */
	long color;                /* the communicator's colour in the level's partition */
	long rank, g;              /* in comm */
	long count;                /* longs per peer */
	MPI_Datatype type;         /* `n` of them move `count` longs (bigcount.h) */
	int n;
	int big;                   /* MPI-4: the _c call with `count` MPI_LONGs */
	long *send, *recv;         /* each g x count longs */
	/* --split: this task's uneven blocks, their counts and displacements fit an
	 * int (sweep_count.c makes sure); NULL: every block `count` longs. */
	const struct split_layout *v;
	long longs;                /* the buffers' size, for a window */
	long at;                   /* where send and recv begin in them (--cold-cache's slot) */
	void *level;               /* the algorithm's own per level (a window) */
	const char *hint;          /* a failed level_open's advice, or NULL */
	void *state;               /* ... and per count (requests, counts) */
	double stream_s;           /* --timing=nccl: the last batch's seconds on the stream, NAN unknown */
};

struct algo_op {
	enum algo_id id;
	/* Optional: per level (the communicator is new), outside the timing. */
	int (*level_open)(struct algo_call *a);
	void (*level_close)(struct algo_call *a);
	/* Optional: per count, outside the timing. */
	int (*count_open)(struct algo_call *a);
	void (*count_close)(struct algo_call *a);
	/* The timed part: one complete exchange. An MPI error code. */
	int (*call)(struct algo_call *a);
	/*
	 * Optional (--timing=nccl, nccl-tests' loop): one exchange enqueued on the
	 * stream without waiting, and the wait for every one enqueued since the
	 * last sync, which sets a->stream_s (the batch on the stream, by CUDA
	 * events: launch and wait left out). An MPI error code each.
	 */
	int (*enqueue)(struct algo_call *a);
	int (*sync)(struct algo_call *a);
	/* Whether it takes MPI-4's large-count (_c) calls; else a derived datatype. */
	int large_counts;
	/* Whether --reveal's coll counters see its payload (Open MPI's coll monitoring
	 * wraps the blocking and non-blocking collectives, not the persistent ones). */
	int coll_counted;
};

const struct algo_op *algo_op(enum algo_id id);

/* Each algorithm's operations, algo_<name> (format.h's list). */
#define ALGO_EXTERN_(ID, name, can, per_peer, what) extern const struct algo_op algo_##name;
ALLER_ALGOS(ALGO_EXTERN_)
#undef ALGO_EXTERN_

/* Before MPI_Init, when put is asked for: Open MPI's osc component (osc.h). */
void algo_put_prepare(void);
/* The "# osc:" header text under Open MPI (what put runs on, and who chose it), else NULL. */
const char *algo_put_osc(void);

/* A NCCL=1 build: the library's version ("2.28.9"); else NULL. */
const char *algo_nccl_version(void);

#endif
