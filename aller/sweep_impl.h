/* sweep_impl.h: what sweep.c (levels) and sweep_count.c (one count) share. */
#ifndef ALLER_SWEEP_IMPL_H
#define ALLER_SWEEP_IMPL_H

#include <mpi.h>

#include "algo/algo.h"
#include "failure.h"
#include "partition.h"
#include "sweep.h"

/* One level: its partition and this task's communicator in it. */
struct level {
	struct partition p;   /* p.target: the level's target communicator size */
	/* This task's communicator (comm, color, rank and size g in it) and
	 * buffers, held once: each count's call copies it and adds the count;
	 * a.level is the algorithm's per-level state. */
	struct algo_call a;
	long *peers;
	char *hosts;          /* the communicator's hosts, for the timeout message */
	const struct algo_op *op;  /* the algorithm of the data set being measured */
	const struct split *split; /* ... and its split (--split) */
};

/* Collective: the data set's set-up failure (failure_data_set), counted for the exit status. */
static inline int sweep_set_failed(struct sweep *s, const struct level *l, int index,
				   const char *what, int rc, const char *why)
{
	int failed = failure_data_set(s->w, s->out, algo_name(l->op->id), index, l->a.g, what,
				      rc, why);

	s->failed_sets += failed;
	return failed;
}

/* sweep_count: the data set failed and was said so; its other counts are skipped. */
#define SWEEP_SET_FAILED (-1)
/*
 * Collective: one count at one level with l->op and l->split: the calls, the
 * verdict, the row. 0 (also for a count whose uneven blocks do not fit the
 * buffers: said in its place), 1 (verification), 3, or SWEEP_SET_FAILED.
 */
int sweep_count(struct sweep *s, struct level *l, int index, long count);

#endif
