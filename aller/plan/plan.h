/*
 * plan.h: the run's plan, enumerated in one place: the levels of a world
 * the selection measures (largest communicators first), each with its
 * partition and the counts that fit; at each level the data sets of every
 * algorithm and every split that fits its communicators. The sweep runs it,
 * --check-args checks it against a world and --time-per-size's budget
 * counts it. Pure: no MPI.
 */
#ifndef ALLER_PLAN_H
#define ALLER_PLAN_H

#include <stddef.h>

#include "options.h"
#include "partition.h"
#include "select.h"

struct plan_level {
	int index;            /* partition_level_target(world, index) is its target */
	long target;
	struct partition p;
	int ncounts;          /* the selection's counts at this level, largest first (may be 0) */
	long counts[SELECT_MAX_COUNTS];
};

/*
 * The first level the selection measures at index `from` or after: 0 with
 * *l filled in, or -1 when none is left. for (int i = 0; plan_level(o, w,
 * i, &l) == 0; i = l.index + 1) visits them all.
 */
int plan_level(const struct options *o, long world, int from, struct plan_level *l);

/* Whether split sp has a data set at level l: a matrix only where every communicator is N x N. */
int plan_split_fits(const struct split *sp, const struct plan_level *l);

/*
 * What needs the world's size: LONGS at least the world, the selection's
 * levels and sizes, a level for every --split=matrix (loaded). 0, or -1
 * with a message; a note (or "") otherwise.
 */
int plan_check_world(const struct options *o, long world, char *err, size_t errlen, char *note,
		     size_t notelen);

/*
 * --time-per-size's bound on a run's timed calls in a world of that size:
 * the (level, count, algorithm, split) data set rows times their passes
 * (--isolate) times the budget, in seconds; 0 without a budget. *rows: the
 * rows.
 */
double plan_budget_seconds(const struct options *o, long world, long *rows);

#endif
