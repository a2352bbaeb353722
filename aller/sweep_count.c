/*
 * sweep_count.c: one count at one level with one algorithm. With --isolate,
 * communicator 0 (or each in turn) first runs alone while the others wait
 * at the world barrier; then all run at once. Every pass has the same
 * warm-ups, iterations, fill, poison and check; only the algorithm's call
 * sits between the two MPI_Wtime calls, and all reductions happen outside.
 */
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bigcount.h"
#include "stats.h"
#include "sweep_impl.h"
#include "timeout.h"

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

/* Maxima reduced with the statistics' (MPI_MAX): the split's, after stats_pack's. */
enum { SPLIT_IO = STATS_NMAX, SPLIT_DIR, SPLIT_NEG_IN, COUNT_NMAX };

/* What one count measures, on this task. */
struct count_run {
	int index;
	struct algo_call a;    /* what the algorithm's calls move: the level's, and the count */
	int uneven;            /* --split: a.v is this task's blocks of the call at hand */
	struct split_plan plan;
	struct split_layout v;
	struct verify_blocks sblk, rblk; /* v's, for the fill and the check */
	double in, out;        /* longs this task received and sent in its timed concurrent calls */
	long active;           /* the communicator of an isolation pass; -1: all at once */
	struct stats st;       /* the concurrent pass */
	double *slowest_t;     /* [COUNT_NMAX + iters]: max reductions, then per-iteration times */
	double slow;           /* this task's slowest sample */
	double alone, together; /* this task's timed seconds: its communicator alone, and in all */
	double *iso;           /* [2 x ncomms]: the sums of alone and together per communicator */
	long wrong, wrong_iter;
	struct mismatch first;
	char failed[256];      /* the first failed buffer operation's message, or "" */
};

/* A buffer operation's status: the first failure is kept for the count's verdict. */
static void op_done(struct count_run *c, const struct buffers *b, long rc)
{
	if (rc < 0 && !c->failed[0])
		snprintf(c->failed, sizeof(c->failed), "%s", b->err[0] ? b->err : "buffer error");
}

/* The test hooks before a call (faults.h): a no-op unless one is set. */
static void faults_before_call(struct sweep *s, const struct level *l, const struct count_run *c,
			       int timed)
{
	const struct faults *f = s->faults;
	int concurrent = c->active < 0;
	long me = s->w->rank;

	if (f->trace)
		fprintf(stderr, "aller: trace: rank %ld level %d algo %s count %ld %s%s\n", me,
			c->index, algo_name(l->op->id), c->a.count, concurrent ? "together" : "alone",
			timed ? "" : " warm-up");
	if (f->hang_rank == me && s->calls == 0)
		sleep(60);
	/* arrives late; its peers wait in the call */
	if (timed && f->slow_rank == me && (concurrent || !f->slow_together)) {
		double until = MPI_Wtime() + (double)f->slow_us * 1e-6;
		if (!f->slow_busy)
			usleep((useconds_t)f->slow_us);
		else
			while (MPI_Wtime() < until)
				;
	}
}

/*
 * One call: the world barrier, then the timed call of the algorithm; its
 * seconds. In an isolation pass the other communicators' tasks only take
 * part in the barrier (and return 0).
 */
static double timed_call(struct sweep *s, const struct level *l, struct count_run *c, int timed)
{
	int concurrent = c->active < 0, err;
	double t0, t1;

	timeout_arm(s->opt->timeout, TIMEOUT_BARRIER);
	failure_mpi(s->w, MPI_Barrier(MPI_COMM_WORLD), s->w->rank == 0, "MPI_Barrier", c->index,
			c->a.count);
	if (!concurrent && c->active != l->a.color)
		return 0;
	if (timed && concurrent)
		reveal_call_before(s->reveal);
	timeout_arm(s->opt->timeout, TIMEOUT_CALL);
	faults_before_call(s, l, c, timed);
	t0 = MPI_Wtime();
	err = l->op->call(&c->a);
	t1 = MPI_Wtime();
	timeout_disarm(s->opt->timeout);
	if (timed && concurrent)
		reveal_call_after(s->reveal);
	s->calls++;
	s->in_calls += t1 - t0;
	failure_mpi(s->w, err, l->a.rank == 0, algo_name(l->op->id),
			c->index, c->a.count);
	return t1 - t0 > 0 ? t1 - t0 : MPI_Wtick();
}

/* Whether call `it` (warm-ups first) is checked. */
static int checked(const struct options *o, long it)
{
	return o->verify == VERIFY_ALL || (o->verify == VERIFY_WARMUP && it < o->warmup);
}

/* A checked call's verdict, kept for the count's. Returns whether it poisoned for the next. */
static int check_call(struct sweep *s, struct count_run *c, long it, int next)
{
	const struct options *o = s->opt;
	struct mismatch m;
	long w = s->b->ops->check(s->b, c->a.g, c->a.count, s->w->rank,
				  o->fresh ? it : VERIFY_REUSED, next, &m, c->uneven ? &c->rblk : NULL);

	op_done(c, s->b, w);
	if (w < 0)
		w = 0;
	if (w > 0 && c->wrong == 0) {
		c->first = m;
		c->wrong_iter = it;
	}
	c->wrong += w;
	return next;
}

/* A timed sample: the concurrent pass's statistics, or an isolation pass's sum. */
static void sample(const struct sweep *s, struct count_run *c, long it, double t)
{
	if (c->active >= 0) {
		c->alone += t;
		return;
	}
	c->together += t;
	if (c->uneven) {
		stats_add(&c->st, t, (double)(c->v.stotal + c->v.rtotal) * (double)sizeof(long) /
					     (1024.0 * 1024.0 * 1024.0));
		c->in += (double)c->v.rtotal;
		c->out += (double)c->v.stotal;
	} else {
		stats_add(&c->st, t, stats_gib(c->a.count, c->a.g));
		c->in += (double)(c->a.g * c->a.count);
		c->out += (double)(c->a.g * c->a.count);
	}
	c->slowest_t[COUNT_NMAX + it - s->opt->warmup] = t;
	if (t > c->slow)
		c->slow = t;
}

/* The split's blocks of call `it` (warm-ups from 0): the layout, the check's guard. */
static void layout_at(struct sweep *s, struct count_run *c, long it)
{
	c->plan.iter = it;
	split_layout_fill(&c->v, &c->plan, c->a.rank);
	c->sblk = (struct verify_blocks){ c->v.scounts, c->v.sdispls, -1 };
	c->rblk = (struct verify_blocks){ c->v.rcounts, c->v.rdispls,
					  c->v.rtotal < s->b->longs ? c->v.rtotal : -1 };
}

/*
 * A split whose blocks move from call to call (rotate): before call `it`, the
 * new layout and the algorithm's per-count state for it (outside the timing;
 * put's asks every target, so every task of the communicator does this).
 */
static void relayout(struct sweep *s, const struct level *l, struct count_run *c, long it)
{
	int rc = MPI_SUCCESS;

	layout_at(s, c, it);
	if (l->op->count_close)
		l->op->count_close(&c->a);
	if (l->op->count_open)
		rc = l->op->count_open(&c->a);
	if (rc != MPI_SUCCESS && !c->failed[0])
		snprintf(c->failed, sizeof(c->failed), "%s: preparing call %ld of a moving split "
			 "failed (MPI error %d)", algo_name(l->op->id), it, rc);
}

/* The longs a checked call may write: its blocks, and the guard after them. */
static long written(const struct level *l, const struct count_run *c)
{
	if (!c->uneven)
		return l->a.g * c->a.count;
	return c->rblk.guard >= 0 ? c->v.rtotal + 1 : c->v.rtotal;
}

/*
 * One pass: warm-ups and timed iterations, with the fill, poison and check
 * they need; the check of one call poisons for the next checked one.
 */
static void run_calls(struct sweep *s, const struct level *l, struct count_run *c)
{
	const struct buffer_ops *ops = s->b->ops;
	const struct options *o = s->opt;
	long me = s->w->rank, total = o->warmup + o->iters;
	int poisoned = 0, member = c->active < 0 || c->active == l->a.color;
	int varies = c->uneven && split_varies(l->split);
	const struct verify_blocks *sblk = c->uneven ? &c->sblk : NULL;

	/* moving blocks are written before each checked call only: an unchecked call's
	 * data does not matter, and writing it would evict what the loop of plain calls keeps */
	if (member && !o->fresh && !varies) {
		timeout_arm(s->opt->timeout, TIMEOUT_FILL);
		op_done(c, s->b, ops->fill(s->b, l->a.g, c->a.count, me, VERIFY_REUSED, sblk));
	}
	for (long it = 0; it < total; it++) {
		int timed = it >= o->warmup, check = member && checked(o, it);
		int next = it + 1 < total && checked(o, it + 1);
		double t;

		timeout_arm(s->opt->timeout, TIMEOUT_FILL);
		if (varies) {
			relayout(s, l, c, it);
			poisoned = 0;   /* the next call's blocks lie elsewhere */
		}
		if (member && (o->fresh || (varies && check)) &&
		    !(s->faults->stale_rank == me && it > 0))
			op_done(c, s->b, ops->fill(s->b, l->a.g, c->a.count, me,
						   o->fresh ? it : VERIFY_REUSED, sblk));
		if (check && !poisoned)
			op_done(c, s->b, ops->poison(s->b, written(l, c)));
		t = timed_call(s, l, c, timed);
		if (!member)
			continue;
		if (s->faults->corrupt_rank == me)
			op_done(c, s->b, ops->corrupt(s->b, written(l, c) / 2));
		poisoned = check ? check_call(s, c, it, next) : 0;
		if (timed)
			sample(s, c, it, t);
	}
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
		 "commsize %ld), algorithm %s, count %ld, iteration %ld%s%s: element %ld from rank "
		 "%ld: expected 0x%016lx, received 0x%016lx (%ld wrong elements over all checked "
		 "calls)", c->index, l->a.color, l->p.ncomms, l->a.g, algo_name(l->op->id), c->a.count,
		 c->wrong_iter, c->wrong_iter < s->opt->warmup ? " (warm-up)" : "",
		 isolating(s, l) ? " (alone or together)" : "", c->first.element, c->first.peer,
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
	long n = isolated_comms(s, l), iters = s->opt->iters;
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
				      MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD),
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
	double g = (double)row->commsize, busiest = max[SPLIT_DIR] / (double)s->opt->iters;

	row->imbalance = max[SPLIT_IO] / (sum_io / (double)s->w->size);
	row->vbusbw = busiest * (double)sizeof(long) / stats_tavg(&row->s) / 1e9 * (g - 1) / g;
	row->hottest = in_max == -max[SPLIT_NEG_IN] ? NAN : (double)hot;
}

/* Collective: reduces the samples to rank 0, which prints the row. */
static void count_row(const struct sweep *s, const struct level *l, struct count_run *c,
		      double *sums)
{
	long iters = s->opt->iters, me = s->w->rank;
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
				      MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD),
			me == 0, "MPI_Reduce (maxima)", c->index, c->a.count);
	failure_mpi(s->w, MPI_Reduce(me == 0 ? MPI_IN_PLACE : sums, sums, STATS_NSUM + 1,
				      MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD),
			me == 0, "MPI_Reduce (sums)", c->index, c->a.count);
	failure_mpi(s->w, MPI_Reduce(mine, found, 2, MPI_DOUBLE_INT, MPI_MAXLOC, 0,
				      MPI_COMM_WORLD), me == 0, "MPI_Reduce (slowest)", c->index,
			c->a.count);
	isolation_row(s, l, c, &row);
	if (me != 0)
		return;
	total = stats_gib(c->a.count, 1) * partition_sum_sizes(&l->p);
	for (long i = 0; i < iters; i++)
		agg += total / max[COUNT_NMAX + i];
	row.comms = l->p.ncomms;
	row.commsize = partition_max_size(&l->p);
	row.count = c->a.count;
	row.gib = stats_gib(c->a.count, row.commsize);
	stats_unpack(&row.s, max, sums);
	row.aggbw = agg / (double)iters;
	row.slowest = found[0].rank;
	row.busbw = stats_busbw(c->a.count, row.commsize, stats_tavg(&row.s));
	split_columns(s, max, sums[STATS_NSUM], found[1].t, found[1].rank, &row);
	output_row(s->out, &row);
}

static void count_free(struct count_run *c, double *sums)
{
	if (c) {
		free(c->slowest_t);
		free(c->iso);
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

	*sums = malloc(sizeof(double) * (STATS_NSUM + 1));
	if (c) {
		c->slowest_t = malloc(sizeof(double) * (size_t)(COUNT_NMAX + s->opt->iters));
		c->iso = malloc(sizeof(double) * 2 * (size_t)(isolated_comms(s, l) + 1));
	}
	if (failure_agree(s->w, !c || !*sums || !c->slowest_t || !c->iso,
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
	c->uneven = split_uneven(l->split);
	if (!c->uneven)
		return MPI_SUCCESS;
	ok = split_layout_alloc(&c->v, c->a.g) == 0 &&
	     split_plan_init(&c->plan, l->split, c->a.g, c->a.count, c->a.color, 0) == 0;
	if (ok) {
		layout_at(s, c, 0);
		c->a.v = &c->v;
		need[1] = (double)(c->v.stotal > c->v.rtotal ? c->v.stotal : c->v.rtotal);
		need[2] = (double)split_layout_max(&c->v);
	}
	need[0] = !ok;
	MPI_Allreduce(MPI_IN_PLACE, need, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	if (need[0] > 0)
		return ok ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	if (need[1] > (double)s->b->longs)
		snprintf(why, sizeof(why), "the busiest task sends or receives %.0f longs, more than "
			 "its buffer's %ld (LONGS): raise LONGS to measure it", need[1], s->b->longs);
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
	int rc, skip;

	bigcount_type(c->a.count, l->op->large_counts, &c->a.type, &c->a.n, &c->a.big);
	rc = split_open(s, l, c, &skip);
	if (!skip && rc == MPI_SUCCESS && l->op->count_open)
		rc = l->op->count_open(&c->a);
	if (!skip && !sweep_set_failed(s, l, c->index, "preparing the count", rc, NULL))
		return 0;
	if (!skip && rc == MPI_SUCCESS && l->op->count_close)
		l->op->count_close(&c->a);
	if (c->a.type != MPI_LONG)
		MPI_Type_free(&c->a.type);
	return skip ? 2 : 1;
}

static void count_close(struct level *l, struct count_run *c)
{
	if (l->op->count_close)
		l->op->count_close(&c->a);
	if (c->a.type != MPI_LONG)
		MPI_Type_free(&c->a.type);
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
		run_calls(s, l, c);
	}
	c->active = -1;
	reveal_count_begin(s->reveal);
	run_calls(s, l, c);
	count_close(l, c);
	rc = count_verdict(s, l, c);
	if (rc == 0) {
		count_row(s, l, c, sums);
		reveal_count_end(s->reveal, &l->p, l->a.color, l->a.comm, index, count,
				 l->op->coll_counted, s->out);
	}
	count_free(c, sums);
	return rc;
}
