/* plan.c: the run's plan (plan.h). */
#include "plan.h"

#include <math.h>
#include <stdio.h>

int plan_level(const struct options *o, long world, int from, struct plan_level *l)
{
	for (int i = from; i < partition_nlevels(world); i++) {
		long target = partition_level_target(world, i);
		if (!select_level(&o->sel, world, target))
			continue;
		l->index = i;
		l->target = target;
		partition_init(&l->p, world, target, o->strided);
		l->ncounts = select_counts(&o->sel, o->longs, target, l->counts);
		return 0;
	}
	return -1;
}

int plan_split_fits(const struct split *sp, const struct plan_level *l)
{
	return split_fits(sp, partition_min_size(&l->p)) &&
	       split_fits(sp, partition_max_size(&l->p));
}

double plan_budget_seconds(const struct options *o, long world, long *rows)
{
	struct plan_level l;
	double passes = 0;

	*rows = 0;
	for (int i = 0; plan_level(o, world, i, &l) == 0; i = l.index + 1) {
		long sets = 0;
		for (int k = 0; k < o->nsplits; k++)
			sets += plan_split_fits(&o->splits[k], &l);
		sets *= o->algos.n;
		*rows += sets * l.ncounts;
		passes += (double)sets * l.ncounts *
			  (1.0 + (o->isolate == ISOLATE_NONE || l.p.ncomms < 2 ? 0
				  : o->isolate == ISOLATE_FIRST ? 1 : (double)l.p.ncomms));
	}
	return o->time_per_size > 0 ? passes * o->time_per_size : 0;
}

/* Whether a level of the plan has communicators of n tasks, all of them. */
static int has_level(const struct options *o, long world, long n)
{
	struct plan_level l;

	for (int i = 0; plan_level(o, world, i, &l) == 0; i = l.index + 1)
		if (partition_min_size(&l.p) == n && partition_max_size(&l.p) == n)
			return 1;
	return 0;
}

/* Whether a floor at a size holds at some row of the plan (a floor without @SIZE always). */
static int floor_reached(const struct options *o, long world, const struct floor *f)
{
	struct plan_level l;

	if (f->min <= 0 || f->bytes == 0)
		return 1;
	for (int i = 0; plan_level(o, world, i, &l) == 0; i = l.index + 1)
		for (int k = 0; k < l.ncounts; k++)
			if (floor_holds_at(f, l.counts[k] * (long)sizeof(long)))
				return 1;
	return 0;
}

/* A floor at a size the sweep never measures would pass silently: 0, or -1 naming it. */
static int floors_measured(const struct options *o, long world, char *err, size_t errlen)
{
	const struct floor *fl[2] = { &o->min_busbw, &o->min_eff };
	const char *opt[2] = { "--min-busbw", "--min-eff" };

	for (int i = 0; i < 2; i++)
		if (!floor_reached(o, world, fl[i])) {
			snprintf(err, errlen, "%s holds at %ld B per peer%s, a size this sweep of a world "
				 "of %ld never measures: give a size it measures (a power of two times 8 "
				 "B, up to LONGS x 8 / the world)", opt[i], fl[i]->bytes,
				 fl[i]->from_up ? " and above" : "", world);
			return -1;
		}
	return 0;
}

int plan_check_world(const struct options *o, long world, char *err, size_t errlen, char *note,
		     size_t notelen)
{
	note[0] = '\0';
	if (o->congestion > 0 && options_aggressors(o, world) < 1) {
		snprintf(err, errlen, "--congestion=%g makes no aggressor of a world of %ld: give a "
			 "larger fraction or more tasks (at least %.15g)", o->congestion, world,
			 ceil(1 / o->congestion));
		return -1;
	}
	world -= options_aggressors(o, world);   /* the sweep runs on the victims */
	if (o->pairs > 0 && world < 2) {
		snprintf(err, errlen, "'--pairs' measures pairs of tasks, and a world of %ld has none: "
			 "run two tasks or more (one per node)", world);
		return -1;
	}
	if (o->pairs > 0)
		return 0;
	if (o->longs < world) {
		snprintf(err, errlen, "longs %ld is smaller than the world size %ld: each peer needs "
			 "at least one long (use LONGS >= %ld)", o->longs, world, world);
		return -1;
	}
	for (int i = 0; i < o->nsplits; i++)
		if (split_has_file(&o->splits[i]) && !has_level(o, world, o->splits[i].n)) {
			snprintf(err, errlen, "the matrix of --split=%s is %ld x %ld, and no measured "
				 "level of a world of %ld has communicators of %ld tasks: give a "
				 "matrix of a communicator size (world, world/2, ..., 1)",
				 o->splits[i].spec, o->splits[i].n, o->splits[i].n, world,
				 o->splits[i].n);
			return -1;
		}
	if (select_check(&o->sel, world, o->longs, err, errlen, note, notelen) != 0)
		return -1;
	return floors_measured(o, world, err, errlen);
}
