/*
 * sweep_count.c: one count at one level with one algorithm and split: its
 * set-up (the split's blocks, whether they fit, --cold-cache's slots), its
 * passes (sweep_calls.c: with --isolate communicator 0, or each in turn,
 * first alone while the others wait at the world barrier; then all at
 * once), the verdict and the row. Every pass has the same warm-ups,
 * iterations, fill, poison and check; only the algorithm's call sits
 * between the two MPI_Wtime calls, and all reductions happen outside.
 */
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "plan/bigcount.h"
#include "world/eff.h"
#include "plan/floor.h"
#include "plan/stats.h"
#include "moe.h"
#include "sweep.h"
#include "sweep_state.h"
#include "timeout.h"
#include "world/failure.h"
#include "world/world_comm.h"
#include "text.h"

/* Prepares the timeout message of one count (the handler adds the phase). */
static void timeout_set(const struct sweep *s, const struct level *l, int index, long count)
{
	char where[1536];

	if (s->opt->timeout <= 0)
		return;
	snprintf(where, sizeof(where), " at level %d (commsize %ld), algorithm %s, count %ld, "
		 "communicator %ld of %ld on hosts %s (seen by rank %d on %s)\n", index, l->a.g,
		 algo_name(l->op->id), count, l->a.color, l->p.ncomms, l->hosts ? l->hosts : "?",
		 s->w->rank, world_host(s->w));
	timeout_prepare(s->opt->timeout, where, l->a.rank == 0,
			s->w->rank == 0);
}

/* The isolation passes of --isolate at a level of two or more communicators. */
static int isolating(const struct sweep *s, const struct level *l)
{
	return s->opt->isolate != ISOLATE_NONE && l->p.ncomms > 1;
}

static long isolated_comms(const struct sweep *s, const struct level *l)
{
	return !isolating(s, l) ? 0 : s->opt->isolate == ISOLATE_ALL ? l->p.ncomms : 1;
}

/*
 * Collective: 3 when a buffer operation failed anywhere, 1 when any task
 * received a wrong element, each with one message; else 0.
 */
static int count_verdict(const struct sweep *s, const struct level *l, const struct count_run *c)
{
	char msg[640];

	snprintf(msg, sizeof(msg), "%s at level %d, count %ld", c->failed, c->index, c->a.count);
	if (failure_agree(s->w, c->failed[0] != 0, msg))
		return 3;
	if (s->opt->verify == VERIFY_NONE)
		return 0;
	snprintf(msg, sizeof(msg), "verification failed at level %d (communicator %ld of %ld, "
		 "commsize %ld), algorithm %s, count %ld, iteration %ld%s%s%s%s: element %ld from "
		 "rank %ld: expected 0x%016lx, received 0x%016lx (%ld wrong elements over all "
		 "checked calls)", c->index, l->a.color, l->p.ncomms, l->a.g, algo_name(l->op->id),
		 c->a.count, c->wrong_iter, c->wrong_iter < s->opt->warmup ? " (warm-up)" : "",
		 isolating(s, l) ? " (alone or together)" : "", c->wrong_phase ? ", --moe's " : "",
		 c->wrong_phase ? c->wrong_phase : "", c->first.element, c->first.peer,
		 (unsigned long)c->first.expected, (unsigned long)c->first.received, c->wrong);
	return failure_agree(s->w, c->wrong > 0, msg) ? 1 : 0;
}

/*
 * Collective: the isolation columns of the row (rank 0): per isolated
 * communicator its tavg alone and together, from each task's sums.
 */
static void isolation_row(const struct sweep *s, const struct level *l, struct count_run *c,
			  struct row *row)
{
	long n = isolated_comms(s, l), iters = c->iters;
	double sum = 0, worst = 0;

	for (int i = 0; i < 4; i++)
		row->isolate[i] = NAN;
	if (n == 0)
		return;
	memset(c->iso, 0, sizeof(double) * 2 * (size_t)n);
	if (l->a.color < n) {
		c->iso[l->a.color] = c->alone;
		c->iso[n + l->a.color] = c->together;
	}
	failure_mpi(s->w, MPI_Reduce(s->w->rank == 0 ? MPI_IN_PLACE : c->iso, c->iso, (int)(2 * n),
				      MPI_DOUBLE, MPI_SUM, 0, world_comm(s->w)),
			s->w->rank == 0, "MPI_Reduce (isolation)", c->index, c->a.count);
	if (s->w->rank != 0)
		return;
	for (long k = 0; k < n; k++) {
		double tasks = (double)partition_size(&l->p, k) * (double)iters;
		double factor = (c->iso[n + k] / tasks) / (c->iso[k] / tasks);
		if (k == 0) {
			row->isolate[0] = c->iso[0] / tasks;
			row->isolate[1] = factor;
		}
		sum += factor;
		worst = factor > worst ? factor : worst;
	}
	if (n > 1) {
		row->isolate[2] = sum / (double)n;
		row->isolate[3] = worst;
	}
}

/*
 * The split's columns (rank 0), from the reduced maxima and sums: the busiest
 * task's in+out over the mean's, nccl-tests' alltoallv bus bandwidth (the
 * busiest task's larger direction per call, over tavg, x (g - 1) / g) and the
 * task that received the most, unless every task received alike.
 */
static void split_columns(const struct sweep *s, const double *max, double sum_io,
			  double in_max, int hot, struct row *row)
{
	double g = (double)row->commsize, busiest = max[SPLIT_DIR] / (double)row->iters;

	row->imbalance = max[SPLIT_IO] / (sum_io / (double)s->w->size);
	row->vbusbw = busiest * (double)sizeof(long) / stats_tavg(&row->s) / 1e9 * (g - 1) / g;
	row->hottest = in_max == -max[SPLIT_NEG_IN] ? NAN : (double)hot;
}

/*
 * Collective, --congestion: the count's second pass with the aggressors
 * running, into c->busy; the first pass's figures (aggressors idle) stay the
 * row's.
 */
static void congested_pass(struct sweep *s, const struct level *l, struct count_run *c)
{
	size_t n = sizeof(double) * (size_t)(COUNT_NMAX + options_calls_max(s->opt));
	struct stats idle = c->st;
	double slow = c->slow, in = c->in, out = c->out, off_in = c->off_in, off_out = c->off_out;
	double leaf_in = c->leaf_in, leaf_out = c->leaf_out;

	memcpy(c->keep, c->slowest_t, n);
	stats_init(&c->st);
	congest_start(s->congest, world_comm(s->w));
	sweep_pass(s, l, c);
	congest_stop(s->congest);
	c->busy = c->st;
	c->congested = 1;
	c->st = idle;
	c->slow = slow;
	c->in = in;
	c->out = out;
	c->off_in = off_in;
	c->off_out = off_out;
	c->leaf_in = leaf_in;
	c->leaf_out = leaf_out;
	memcpy(c->slowest_t, c->keep, n);
}

/* Collective: the congestion columns of the row (rank 0): NAN ("-") without --congestion. */
static void congestion_row(const struct sweep *s, struct count_run *c, struct row *row)
{
	double max[STATS_NMAX], sums[STATS_NSUM];
	struct stats b;
	int me = s->w->rank;

	for (int i = 0; i < 3; i++)
		row->congest[i] = NAN;
	if (!c->congested)
		return;
	stats_pack(&c->busy, max, sums);
	failure_mpi(s->w, MPI_Reduce(me == 0 ? MPI_IN_PLACE : max, max, STATS_NMAX, MPI_DOUBLE,
				      MPI_MAX, 0, world_comm(s->w)), me == 0, "MPI_Reduce (congestion)",
		    c->index, c->a.count);
	failure_mpi(s->w, MPI_Reduce(me == 0 ? MPI_IN_PLACE : sums, sums, STATS_NSUM, MPI_DOUBLE,
				      MPI_SUM, 0, world_comm(s->w)), me == 0, "MPI_Reduce (congestion)",
		    c->index, c->a.count);
	if (me != 0)
		return;
	stats_unpack(&b, max, sums);
	row->congest[0] = stats_tavg(&b);
	row->congest[1] = stats_tavg(&b) / stats_tavg(&row->s);
	row->congest[2] = stats_tp99(&b) / stats_tp99(&row->s);
}

/*
 * Collective: the row's offnode_B, netbw_GBs, eff, bound_s and bottleneck
 * (rank 0), from every node's sums of its tasks' bytes per call (world/eff.h).
 */
static void eff_row(const struct sweep *s, struct count_run *c, struct row *row)
{
	long n = s->w->nnodes, node = s->w->node;
	double per_call = (double)sizeof(long) / (double)c->iters, *a = c->nodes;
	int me = s->w->rank;

	memset(a, 0, sizeof(double) * 5 * (size_t)n);
	a[node] = c->off_out * per_call;
	a[n + node] = c->off_in * per_call;
	a[2 * n + node] = (c->in + c->out) * per_call;
	a[3 * n + node] = c->leaf_out * per_call;
	a[4 * n + node] = c->leaf_in * per_call;
	failure_mpi(s->w, MPI_Reduce(me == 0 ? MPI_IN_PLACE : a, a, (int)(5 * n), MPI_DOUBLE,
				      MPI_SUM, 0, world_comm(s->w)), me == 0, "MPI_Reduce (nodes)",
		    c->index, c->a.count);
	if (me == 0) {
		struct eff_sums sums = { a, a + n, a + 2 * n, a + 3 * n, a + 4 * n };
		eff_compute(s->limits, &sums, stats_tavg(&row->s), &row->eff);
	}
}

/*
 * Rank 0: a row below --min-busbw or --min-eff, named after it and on
 * stderr; a communicator of one task has no bus (busbw 0 by definition),
 * a row whose limit is unknown no eff: neither is judged by that floor.
 */
static void floor_check(struct sweep *s, const struct level *l, int level, const struct row *row)
{
	long bytes = row->count * (long)sizeof(long);
	char size[32], text[256];

	format_bytes(size, sizeof(size), bytes);
	for (int i = 0; i < 2; i++) {
		const struct floor *f = i ? &s->opt->min_eff : &s->opt->min_busbw;
		double v = i ? row->eff.eff : row->busbw;
		if ((i ? isnan(v) : row->commsize < 2) || !floor_fails(f, bytes, v))
			continue;
		s->floor_failed++;
		snprintf(text, sizeof(text), "level %d (commsize %ld, %s), %s per peer: %s %.4g%s, "
			 "below the floor of %g", level, row->commsize, algo_name(l->op->id), size,
			 f->kind->what, v, f->kind->unit, f->min);
		output_floor_failed(s->out, text);
		text_error(0, "aller: floor failed: level %d (commsize %ld, %s), %s per peer: %s "
			"%.4g%s is below --min-%s=%g\n", level, row->commsize, algo_name(l->op->id),
			size, f->kind->what, v, f->kind->unit, f->kind->what, f->min);
	}
}

/* Collective: reduces the samples to rank 0, which prints the row. */
static void count_row(struct sweep *s, const struct level *l, struct count_run *c,
		      double *sums)
{
	long iters = c->iters, me = s->w->rank;
	struct { double t; int rank; } mine[2] = { { c->slow, s->w->rank }, { c->in, s->w->rank } },
				       found[2];
	struct row row;
	double total, agg = 0, *max = c->slowest_t;

	stats_pack(&c->st, max, sums);
	max[SPLIT_IO] = c->in + c->out;
	max[SPLIT_DIR] = c->in > c->out ? c->in : c->out;
	max[SPLIT_NEG_IN] = -c->in;
	sums[STATS_NSUM] = c->in + c->out;
	failure_mpi(s->w, MPI_Reduce(me == 0 ? MPI_IN_PLACE : max, max, (int)(COUNT_NMAX + iters),
				      MPI_DOUBLE, MPI_MAX, 0, world_comm(s->w)),
			me == 0, "MPI_Reduce (maxima)", c->index, c->a.count);
	failure_mpi(s->w, MPI_Reduce(me == 0 ? MPI_IN_PLACE : sums, sums, STATS_NSUM + 1,
				      MPI_DOUBLE, MPI_SUM, 0, world_comm(s->w)),
			me == 0, "MPI_Reduce (sums)", c->index, c->a.count);
	failure_mpi(s->w, MPI_Reduce(mine, found, 2, MPI_DOUBLE_INT, MPI_MAXLOC, 0,
				      world_comm(s->w)), me == 0, "MPI_Reduce (slowest)", c->index,
			c->a.count);
	isolation_row(s, l, c, &row);
	if (me == 0)
		stats_unpack(&row.s, max, sums);
	congestion_row(s, c, &row);
	eff_row(s, c, &row);
	/* its bytes off the node, timed calls and warm-ups (the NICs' counters are held against them) */
	s->off_sent += c->off_out * (double)sizeof(long) * (double)(c->iters + s->opt->warmup) / (double)c->iters;
	moe_row(s, c, &row);
	if (me != 0)
		return;
	/* --moe's trip moves the blocks there and back */
	total = stats_gib(c->a.count, 1) * partition_sum_sizes(&l->p) * (c->moe_on ? 2 : 1);
	for (long i = 0; i < iters; i++)
		agg += total / max[COUNT_NMAX + i];
	row.comms = l->p.ncomms;
	row.commsize = partition_max_size(&l->p);
	row.count = c->a.count;
	row.iters = iters;
	row.gib = stats_gib(c->a.count, row.commsize) * (c->moe_on ? 2 : 1);
	row.aggbw = agg / (double)iters;
	row.slowest = found[0].rank;
	row.busbw = stats_busbw(c->a.count, row.commsize, stats_tavg(&row.s)) * (c->moe_on ? 2 : 1);
	split_columns(s, max, sums[STATS_NSUM], found[1].t, found[1].rank, &row);
	output_row(s->out, &row);
	if (s->opt->timing == TIMING_NCCL)
		output_stream_time(s->out, c->a.count, c->stream_s, c->host_s);
	floor_check(s, l, c->index, &row);
}

static void count_free(struct count_run *c, double *sums)
{
	if (c) {
		free(c->slowest_t);
		free(c->keep);
		free(c->iso);
		free(c->nodes);
		split_layout_free(&c->v);
		split_plan_free(&c->plan);
	}
	free(c);
	free(sums);
}

/* Collective: the count's memory on every task, or 3 (one message). */
static int count_alloc(struct sweep *s, const struct level *l, struct count_run **cp,
		       double **sums)
{
	struct count_run *c = calloc(1, sizeof(*c));
	size_t per_call = sizeof(double) * (size_t)(COUNT_NMAX + options_calls_max(s->opt));

	*sums = malloc(sizeof(double) * (STATS_NSUM + 1));
	if (c) {
		c->slowest_t = malloc(per_call);
		c->iso = malloc(sizeof(double) * 2 * (size_t)(isolated_comms(s, l) + 1));
		c->nodes = malloc(sizeof(double) * 5 * (size_t)s->w->nnodes);
		if (s->congest)
			c->keep = malloc(per_call);
	}
	if (failure_agree(s->w, !c || !*sums || !c->slowest_t || !c->iso || !c->nodes ||
			       (s->congest && !c->keep),
			       "out of memory for the statistics")) {
		count_free(c, *sums);
		return 3;
	}
	*cp = c;
	return 0;
}

/*
 * Collective: with an uneven split, this task's blocks of the first call and
 * whether every task's fit the buffers and MPI's int counts; *skip when not
 * (rank 0 says why in the count's place). An MPI error code (out of memory)
 * for the set-up's verdict, else MPI_SUCCESS.
 */
static int split_open(struct sweep *s, const struct level *l, struct count_run *c, int *skip)
{
	double need[3] = { 0, 0, 0 };   /* failed, largest total, largest count or displacement */
	char why[256];
	int ok;

	*skip = 0;
	c->uneven = split_uneven(l->split) || s->opt->moe;   /* --moe's counts need the layout */
	if (!c->uneven)
		return MPI_SUCCESS;
	ok = split_layout_alloc(&c->v, c->a.g) == 0 &&
	     split_plan_init(&c->plan, l->split, c->a.g, c->a.count, c->a.color, 0) == 0 &&
	     split_plan_nodes(&c->plan, l->nodes) == 0;
	if (ok) {
		sweep_layout_at(s, c, 0);
		c->a.v = &c->v;
		need[1] = (double)(c->v.stotal > c->v.rtotal ? c->v.stotal : c->v.rtotal);
		need[2] = (double)split_layout_max(&c->v);
	}
	need[0] = !ok;
	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, need, 3, MPI_DOUBLE, MPI_MAX, world_comm(s->w)));
	if (need[0] > 0)
		return ok ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	c->slot = (long)need[1] + 1;   /* --cold-cache's slots: the largest blocks, and a guard */
	if (need[1] > (double)s->opt->longs)
		snprintf(why, sizeof(why), "the busiest task sends or receives %.0f longs, more than "
			 "its buffer's %ld (LONGS): raise LONGS to measure it", need[1], s->opt->longs);
	else if (need[2] > (double)INT_MAX)
		snprintf(why, sizeof(why), "a block ends at long %.0f, past MPI's int counts",
			 need[2]);
	else
		return MPI_SUCCESS;
	*skip = 1;
	if (s->w->rank == 0)
		output_skipped(s->out, c->a.count, why);
	return MPI_SUCCESS;
}

/*
 * Collective: the algorithm's arguments for this count, and its per-count
 * state (outside the timing): 0, 1 when its set-up failed anywhere (said
 * once), 2 when its uneven blocks do not fit (said in its place).
 */
static int count_open(struct sweep *s, struct level *l, struct count_run *c)
{
	int rc, skip, opened;

	bigcount_type(c->a.count, l->op->large_counts, &c->a.type, &c->a.n, &c->a.big);
	rc = split_open(s, l, c, &skip);
	if (!c->uneven)
		c->slot = l->a.g * c->a.count;
	c->nslots = s->opt->cold_cache >= 0 && s->b->longs / c->slot > 1 ? s->b->longs / c->slot : 1;
	if (!skip && rc == MPI_SUCCESS && l->op->count_open)
		rc = l->op->count_open(&c->a);
	opened = !skip && rc == MPI_SUCCESS;
	if (opened && s->opt->moe)
		rc = moe_open(s->b, l, c);
	if (!skip && !sweep_set_failed(s, l, c->index, "preparing the count", rc, NULL))
		return 0;
	moe_close(l, c);
	if (opened && l->op->count_close)
		l->op->count_close(&c->a);
	if (c->a.type != MPI_LONG)
		MPI_MUST(MPI_Type_free(&c->a.type));
	return skip ? 2 : 1;
}

static void count_close(struct level *l, struct count_run *c)
{
	moe_close(l, c);
	if (l->op->count_close)
		l->op->count_close(&c->a);
	if (c->a.type != MPI_LONG)
		MPI_MUST(MPI_Type_free(&c->a.type));
}

int sweep_count(struct sweep *s, struct level *l, int index, long count)
{
	struct count_run *c;
	double *sums;
	int rc;

	if (count_alloc(s, l, &c, &sums) != 0)
		return 3;
	c->a = l->a;
	c->a.count = count;
	c->offnode = l->offnode;
	c->noff = l->noff;
	c->nofl = l->nofl;
	c->index = index;
	c->wrong_iter = -1;
	stats_init(&c->st);
	rc = count_open(s, l, c);
	if (rc != 0) {
		count_free(c, sums);
		return rc == 2 ? 0 : SWEEP_SET_FAILED;
	}
	timeout_set(s, l, index, count);
	for (long k = 0; k < isolated_comms(s, l); k++) {
		c->active = k;
		sweep_pass(s, l, c);
	}
	c->active = -1;
	reveal_count_begin(s->reveal);
	sweep_pass(s, l, c);
	if (s->congest)
		congested_pass(s, l, c);
	count_close(l, c);
	rc = count_verdict(s, l, c);
	if (rc == 0) {
		char split[SPLIT_SPEC_MAX + 24];
		split_describe(l->split, split, sizeof(split));
		samples_count(s->samples, index, algo_name(l->op->id), split, count, l->a.color,
			      c->iters, c->slowest_t + COUNT_NMAX);
		count_row(s, l, c, sums);
		if (s->reveal) {
			struct capture cap;
			rc = reveal_count_end(s->reveal, &l->p, l->a.color, l->a.comm, index, count,
					      l->op->coll_counted, output_capture(&cap, s->out));
			output_release(&cap, s->out);
		}
	}
	count_free(c, sums);
	return rc;
}
