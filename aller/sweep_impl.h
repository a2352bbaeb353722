/* sweep_impl.h: what sweep.c (levels) and sweep_count.c (one count) share. */
#ifndef ALLER_SWEEP_IMPL_H
#define ALLER_SWEEP_IMPL_H

#include <mpi.h>

#include "algo/algo.h"
#include "partition.h"
#include "sweep.h"

/* One level: its partition and this task's communicator in it. */
struct level {
	struct partition p;
	long color, g;
	MPI_Comm comm;
	long *peers;
	char *hosts;          /* the communicator's hosts, for the timeout message */
	const struct algo_op *op;  /* the algorithm of the data set being measured */
	void *op_level;            /* its per-level state (algo_call.level) */
};

/* A failed MPI call: one message (the lowest rank concerned first), exit 3. */
void sweep_check_mpi(const struct sweep *s, int rc, int lowest, const char *what, int index,
		     long count);

/*
 * Collective: a failed set-up of the data set (rc on this task; why: the
 * algorithm's own reason, else MPI's error string), agreed by all; the
 * failure is named in the data set's place ("# failed: ...") and on stderr,
 * and counted; the sweep goes on with the next data set. Whether it failed.
 */
int sweep_set_failed(struct sweep *s, const struct level *l, int index, const char *what, int rc,
		     const char *why);

/* sweep_count: the data set failed and was said so; its other counts are skipped. */
#define SWEEP_SET_FAILED (-1)
/*
 * Collective: one count at one level with l->op: the calls, the verdict, the
 * row. 0, 1 (verification), 3, or SWEEP_SET_FAILED.
 */
int sweep_count(struct sweep *s, struct level *l, int index, long count);

#endif
