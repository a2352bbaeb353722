/*
 * sweep_calls.c: the calls of one pass of a count: warm-ups, then the timed
 * calls as --timing says, with the fill, poison and check they need.
 *
 *   barrier (aller's)  a world barrier before each call, MPI_Wtime around the
 *                      call only: all communicators start together;
 *   osu (OSU's)        MPI_Wtime around the call, a world barrier after it,
 *                      taken once the call is checked and the next one's
 *                      buffers prepared (OSU's barrier is the last thing
 *                      before its next call): no task's check is inside
 *                      another's next call;
 *   loop (IMB's)       one world barrier, then the timed calls back to back
 *                      between two MPI_Wtime: each task's time per call is
 *                      the loop's / ITERS; the data of the last call checked.
 *
 * With --cold-cache each call uses its own slot of a ring larger than the
 * last-level cache (c->slot longs each, c->nslots of them): its send and
 * receive blocks have not been touched for nslots - 1 calls. With
 * --time-per-size the timed calls are chosen after the warm-ups, from the
 * longest warm-up iteration of any task, and cut short at 1, 2, 4, ...
 * calls when the budget is spent; with --ci they go on from there (or
 * ITERS), doubling, until the median is known within REL, at most MAX: every
 * task agrees.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "moe.h"
#include "sweep.h"
#include "sweep_state.h"
#include "timeout.h"
#include "world/world_comm.h"

/* A buffer operation's status: the first failure is kept for the count's verdict. */
static void op_done(struct count_run *c, const struct buffers *b, long rc)
{
	if (rc < 0 && !c->failed[0])
		snprintf(c->failed, sizeof(c->failed), "%s", b->err[0] ? b->err : "buffer error");
}

/* Call `it`'s slot of the ring (0 without --cold-cache): where its buffers are. */
static long slot_of(const struct count_run *c, long it)
{
	return c->nslots > 1 ? it % c->nslots * c->slot : 0;
}

static void use_slot(const struct sweep *s, struct count_run *c, long it)
{
	c->a.at = slot_of(c, it);
	c->a.send = s->b->send + c->a.at;
	c->a.recv = s->b->recv + c->a.at;
}

/* The test hooks before a call (faults.h): a no-op unless one is set. */
static void faults_before_call(struct sweep *s, const struct level *l, const struct count_run *c,
			       long it)
{
	const struct faults *f = s->faults;
	int concurrent = c->active < 0, timed = it >= s->opt->warmup;
	long me = s->w->rank;

	if (f->trace)
		fprintf(stderr, "aller: trace: rank %ld level %d algo %s count %ld %s%s\n", me,
			c->index, algo_name(l->op->id), c->a.count, concurrent ? "together" : "alone",
			timed ? "" : " warm-up");
	if (f->hang_rank == me && s->calls == 0)
		sleep(60);
	/* arrives late; its peers wait in the call */
	if (timed && f->slow_rank == me && (concurrent || !f->slow_together) &&
	    (f->slow_iter < 0 || f->slow_iter == it - s->opt->warmup)) {
		double until = MPI_Wtime() + (double)f->slow_us * 1e-6;
		if (!f->slow_busy)
			usleep((useconds_t)f->slow_us);
		else
			while (MPI_Wtime() < until)
				;
	}
}

/* A test hook inside the timed region: every task stalls in one call (a system hiccup). */
static void stall(const struct sweep *s, const struct count_run *c, long it)
{
	if (s->faults->stall_iter >= 0 && c->active < 0 &&
	    it - s->opt->warmup == s->faults->stall_iter)
		usleep((useconds_t)s->faults->stall_us);
}

static void world_barrier(struct sweep *s, const struct count_run *c)
{
	double t0 = MPI_Wtime();

	timeout_arm(s->opt->timeout, TIMEOUT_BARRIER);
	failure_mpi(s->w, MPI_Barrier(world_comm(s->w)), s->w->rank == 0, "MPI_Barrier", c->index,
		    c->a.count);
	s->part[SWEEP_BARRIER] += MPI_Wtime() - t0;
}

/* A buffer operation's status, and its time in part `p` of the sweep's. */
static void op_timed(struct sweep *s, struct count_run *c, enum sweep_part p, double t0, long rc)
{
	s->part[p] += MPI_Wtime() - t0;
	op_done(c, s->b, rc);
}

/*
 * One call: the world barrier before it (--timing=barrier; with osu the one
 * after the previous call, which waits until that call's check and this
 * call's preparation are done: after a warm-up, one of its own), the timed
 * call of the algorithm; its seconds. In an isolation pass the other
 * communicators' tasks only take part in the barrier (and return 0).
 */
static double timed_call(struct sweep *s, const struct level *l, struct count_run *c, long it)
{
	int concurrent = c->active < 0, timed = it >= s->opt->warmup, err;
	double t0, t1;

	world_barrier(s, c);
	if (!concurrent && c->active != l->a.color)
		return 0;
	if (timed && concurrent)
		reveal_call_before(s->reveal);
	timeout_arm(s->opt->timeout, TIMEOUT_CALL);
	faults_before_call(s, l, c, it);
	t0 = MPI_Wtime();
	stall(s, c, it);
	err = c->moe ? moe_call(l, c) : l->op->call(&c->a);
	t1 = MPI_Wtime();
	timeout_disarm(s->opt->timeout);
	if (timed && concurrent)
		reveal_call_after(s->reveal);
	s->calls++;
	s->in_calls += t1 - t0;
	failure_mpi(s->w, err, l->a.rank == 0, algo_name(l->op->id), c->index, c->a.count);
	return t1 - t0 > 0 ? t1 - t0 : MPI_Wtick();
}

/*
 * ALLER_TEST_NCCL_STUB=trace: the events of --timing=nccl's timed loop at
 * rank 0, for the tests: a line per count, from its first timed call ('['
 * opens it) to the end of its check (']' closes it).
 */
static int tracing;

static void trace(const struct sweep *s, const struct count_run *c, char event)
{
	if (event == '[')
		tracing = s->faults->nccl_trace && s->opt->timing == TIMING_NCCL && s->w->rank == 0;
	if (!tracing)
		return;
	if (event == '[')
		fprintf(stderr, "aller: nccl trace: count %ld: ", c->a.count);
	else
		fputc(event == ']' ? '\n' : event, stderr);
	if (event == ']')
		tracing = 0;
}

/* Whether call `it` (warm-ups first) is checked. */
static int checked(const struct options *o, long it)
{
	return o->verify == VERIFY_ALL || (o->verify == VERIFY_WARMUP && it < o->warmup);
}

/* --moe: the counts' and the combine's verdict of a checked call, kept for the count's. */
static void check_moe(struct sweep *s, const struct level *l, struct count_run *c, long it)
{
	struct mismatch m;
	const char *phase = NULL;
	double t0 = MPI_Wtime();
	long w = moe_check(l, c, &m, &phase);

	op_timed(s, c, SWEEP_CHECK, t0, w);
	if (w < 0)
		w = 0;
	if (w > 0 && c->wrong == 0) {
		c->first = m;
		c->wrong_iter = it;
		c->wrong_phase = phase;
	}
	c->wrong += w;
}

/* A checked call's verdict, kept for the count's. Returns whether it poisoned for the next. */
static int check_call(struct sweep *s, struct count_run *c, long it, int next)
{
	const struct options *o = s->opt;
	struct mismatch m;
	double t0 = MPI_Wtime();
	long w = s->b->ops->check(s->b, c->a.at, c->a.g, c->a.count, s->w->rank,
				  o->fresh ? it : VERIFY_REUSED, next, &m, c->uneven ? &c->rblk : NULL);

	if (s->faults->slow_check_rank == s->w->rank)
		usleep((useconds_t)s->faults->slow_check_us);
	op_timed(s, c, SWEEP_CHECK, t0, w);
	trace(s, c, 'c');
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
		/* --moe's trip moves the blocks there and back: both count */
		double trip = c->moe ? 2 : 1, in = trip * (double)c->v.rtotal;
		double out = trip * (double)c->v.stotal;
		stats_add(&c->st, t, (in + out) * (double)sizeof(long) / (1024.0 * 1024.0 * 1024.0));
		c->in += in;
		c->out += out;
		for (long j = 0; c->noff > 0 && j < c->a.g; j++)
			if (c->offnode[j]) {
				c->off_in += (double)c->v.rcounts[j] * trip;
				c->off_out += (double)c->v.scounts[j] * trip;
				c->leaf_in += c->offnode[j] == 2 ? (double)c->v.rcounts[j] * trip : 0;
				c->leaf_out += c->offnode[j] == 2 ? (double)c->v.scounts[j] * trip : 0;
			}
		for (int k = 0; c->moe && k < 3; k++)
			c->moe->sum[k] += c->moe->last[k];
	} else {
		stats_add(&c->st, t, stats_gib(c->a.count, c->a.g));
		c->in += (double)(c->a.g * c->a.count);
		c->out += (double)(c->a.g * c->a.count);
		c->off_in += (double)(c->noff * c->a.count);
		c->off_out += (double)(c->noff * c->a.count);
		c->leaf_in += (double)(c->nofl * c->a.count);
		c->leaf_out += (double)(c->nofl * c->a.count);
	}
	c->slowest_t[COUNT_NMAX + it - s->opt->warmup] = t;
	if (t > c->slow)
		c->slow = t;
}

void sweep_layout_at(struct sweep *s, struct count_run *c, long it)
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

	sweep_layout_at(s, c, it);
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

static int member(const struct level *l, const struct count_run *c)
{
	return c->active < 0 || c->active == l->a.color;
}

static int varies(const struct level *l, const struct count_run *c)
{
	return c->uneven && split_varies(l->split);
}

/*
 * Before a pass: data written once per slot (reused data; moving blocks are
 * written before each checked call only: an unchecked call's data does not
 * matter, and writing it would evict what a loop of plain calls keeps), and
 * with --cold-cache the whole ring poisoned (each check poisons its slot
 * again).
 */
static void pass_begin(struct sweep *s, const struct level *l, struct count_run *c)
{
	const struct options *o = s->opt;
	const struct verify_blocks *sblk = c->uneven ? &c->sblk : NULL;

	c->poisoned = 0;
	if (!member(l, c))
		return;
	timeout_arm(o->timeout, TIMEOUT_FILL);
	if (!o->fresh && !varies(l, c))
		for (long k = 0; k < c->nslots; k++) {
			double t0 = MPI_Wtime();
			op_timed(s, c, SWEEP_FILL, t0, s->b->ops->fill(s->b, k * c->slot, l->a.g,
				 c->a.count, s->w->rank, VERIFY_REUSED, sblk));
		}
	if (c->nslots > 1 && !varies(l, c) && o->verify != VERIFY_NONE) {
		double t0 = MPI_Wtime();
		op_timed(s, c, SWEEP_POISON, t0, s->b->ops->poison(s->b, 0, c->nslots * c->slot));
		c->poisoned = 1;
	}
}

/* Before call `it`: its slot, its layout (moving blocks), its data, its poison. */
static void prepare_call(struct sweep *s, const struct level *l, struct count_run *c, long it)
{
	const struct options *o = s->opt;
	int check = member(l, c) && checked(o, it);
	double t0;

	timeout_arm(o->timeout, TIMEOUT_FILL);
	use_slot(s, c, it);
	if (varies(l, c)) {
		relayout(s, l, c, it);
		c->poisoned = 0;   /* the next call's blocks lie elsewhere */
	}
	if (!member(l, c))
		return;
	t0 = MPI_Wtime();
	if ((o->fresh || (varies(l, c) && check)) && !(s->faults->stale_rank == s->w->rank && it > 0))
		op_timed(s, c, SWEEP_FILL, t0, s->b->ops->fill(s->b, c->a.at, l->a.g, c->a.count,
			 s->w->rank, o->fresh ? it : VERIFY_REUSED, c->uneven ? &c->sblk : NULL));
	t0 = MPI_Wtime();
	if (check && !c->poisoned)
		op_timed(s, c, SWEEP_POISON, t0, s->b->ops->poison(s->b, c->a.at, written(l, c)));
	t0 = MPI_Wtime();
	if (check && c->moe)
		op_timed(s, c, SWEEP_POISON, t0, moe_poison(c));
}

/* After call `it`: the test's damage, the check (which poisons for the next), the sample. */
static void finish_call(struct sweep *s, const struct level *l, struct count_run *c, long it,
			double t, long total)
{
	const struct options *o = s->opt;
	/* a ring's every slot stays poisoned: the next call is another slot's */
	int next = (it + 1 < total && checked(o, it + 1)) || (c->nslots > 1 && !varies(l, c));

	if (!member(l, c))
		return;
	if (s->faults->corrupt_rank == s->w->rank)
		op_done(c, s->b, s->b->ops->corrupt(s->b, c->a.at, written(l, c) / 2));
	if (c->moe && s->faults->moe_corrupt && s->w->rank == 0)
		op_done(c, s->b, moe_corrupt(c, s->faults->moe_corrupt));
	if (c->moe && checked(o, it))
		check_moe(s, l, c, it);
	c->poisoned = checked(o, it) ? check_call(s, c, it, next) : 0;
	if (it >= o->warmup)
		sample(s, c, it, t);
}

/*
 * Collective: --time-per-size's timed calls: as many as fit the budget at
 * the longest warm-up iteration of any task, within --min-iters..ITERS.
 */
static long budget_iters(struct sweep *s, struct count_run *c)
{
	const struct options *o = s->opt;
	double t = c->warm;
	long n;

	failure_mpi(s->w, MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, world_comm(s->w)),
		    s->w->rank == 0, "MPI_Allreduce (the warm-up's time)", c->index, c->a.count);
	n = t > 0 && o->time_per_size / t < (double)o->iters ? (long)(o->time_per_size / t)
							      : o->iters;
	return n < o->min_iters ? o->min_iters : n;
}

/*
 * --timing=loop (IMB's) and nccl (nccl-tests', with --transport=nccl): the
 * timed calls back to back after one world barrier; each task's sample is
 * the loop's time / its calls. loop waits for each call; nccl enqueues each
 * on the stream (the warm-ups' last was waited for) and synchronises once,
 * and its stream time per call (CUDA events) and the host's, the slowest
 * task's, go to c->stream_s and c->host_s for the '# stream_time:' line.
 * The check after the loop sees the last call's data. The trace: "e" a
 * call enqueued, "s" synchronised, "t" the timer stopped, "c" checked.
 */
static void back_to_back(struct sweep *s, const struct level *l, struct count_run *c)
{
	long first = s->opt->warmup, n = c->iters, total = first + n;
	int err = MPI_SUCCESS, nccl = s->opt->timing == TIMING_NCCL && l->op->enqueue;
	double t0, t = 0, both[2] = { -1, 0 };   /* stream (-1: unknown), host */

	prepare_call(s, l, c, total - 1);
	world_barrier(s, c);
	if (member(l, c)) {
		timeout_arm(s->opt->timeout * n, TIMEOUT_FILL);   /* the alarm: the loop's */
		timeout_arm(s->opt->timeout, TIMEOUT_CALL);
		trace(s, c, '[');
		c->a.stream_s = NAN;
		t0 = MPI_Wtime();
		for (long k = 0; k < n && err == MPI_SUCCESS; k++) {
			use_slot(s, c, first + k);
			faults_before_call(s, l, c, first + k);
			stall(s, c, first + k);
			err = nccl ? l->op->enqueue(&c->a) : l->op->call(&c->a);
			trace(s, c, 'e');
		}
		if (nccl && err == MPI_SUCCESS)
			err = l->op->sync(&c->a);
		t = (MPI_Wtime() - t0) / (double)n;
		timeout_disarm(s->opt->timeout);
		trace(s, c, 's');
		trace(s, c, 't');
		s->calls += n;
		s->in_calls += t * (double)n;
		both[0] = isfinite(c->a.stream_s) ? c->a.stream_s / (double)n : -1;
		both[1] = t;
		failure_mpi(s->w, err, l->a.rank == 0, algo_name(l->op->id), c->index, c->a.count);
		for (long k = 0; k < n - 1; k++)
			sample(s, c, first + k, t);
		finish_call(s, l, c, total - 1, t, total);
		trace(s, c, ']');
	}
	if (s->opt->timing != TIMING_NCCL)
		return;
	failure_mpi(s->w, MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_DOUBLE, MPI_MAX, world_comm(s->w)),
		    s->w->rank == 0, "MPI_Allreduce (the stream's time)", c->index, c->a.count);
	c->stream_s = both[0] >= 0 ? both[0] : NAN;
	c->host_s = both[1];
}

/*
 * Collective: whether --time-per-size's budget is spent after `done` timed
 * calls since `start`: asked at 1, 2, 4, 8, ... calls (outside the timing),
 * every task agreeing, so a machine that slows down after the warm-up
 * overruns the budget at most twice; never before --min-iters calls.
 */
static int budget_spent(struct sweep *s, struct count_run *c, long done, long most,
			double start)
{
	double spent;

	if ((done & (done - 1)) != 0 || done >= most || done < s->opt->min_iters)
		return 0;
	spent = MPI_Wtime() - start;
	failure_mpi(s->w, MPI_Allreduce(MPI_IN_PLACE, &spent, 1, MPI_DOUBLE, MPI_MAX,
					world_comm(s->w)),
		    s->w->rank == 0, "MPI_Allreduce (the budget)", c->index, c->a.count);
	return spent >= s->opt->time_per_size;
}

/*
 * Collective: whether --ci's precision is reached after `done` timed calls:
 * asked at `least` (ITERS, or the budget's), twice that, four times, ...
 * (outside the timing), from every task's samples summed, so every task
 * agrees: the 95% interval of the median within REL of it.
 */
static int precise(struct sweep *s, struct count_run *c, long done, long least)
{
	double max[STATS_NMAX], sum[STATS_NSUM];
	struct stats all;
	long times = done / least;

	if (done % least != 0 || (times & (times - 1)) != 0)
		return 0;
	stats_pack(&c->st, max, sum);
	failure_mpi(s->w, MPI_Allreduce(MPI_IN_PLACE, max, STATS_NMAX, MPI_DOUBLE, MPI_MAX,
					world_comm(s->w)),
		    s->w->rank == 0, "MPI_Allreduce (--ci's extremes)", c->index, c->a.count);
	failure_mpi(s->w, MPI_Allreduce(MPI_IN_PLACE, sum, STATS_NSUM, MPI_DOUBLE, MPI_SUM,
					world_comm(s->w)),
		    s->w->rank == 0, "MPI_Allreduce (--ci's histogram)", c->index, c->a.count);
	stats_unpack(&all, max, sum);
	return stats_tmed_rel(&all) <= s->opt->ci_rel;
}

void sweep_pass(struct sweep *s, const struct level *l, struct count_run *c)
{
	const struct options *o = s->opt;
	int deciding = c->iters == 0 && o->time_per_size > 0;
	int ci = c->iters == 0 && o->ci_rel > 0;
	long least, most;
	double start;

	pass_begin(s, l, c);
	for (long it = 0; it < o->warmup; it++) {
		double w0 = MPI_Wtime(), t;
		prepare_call(s, l, c, it);
		t = timed_call(s, l, c, it);
		finish_call(s, l, c, it, t, o->warmup + (c->iters ? c->iters : o->iters));
		w0 = MPI_Wtime() - w0;   /* the iteration's wall time: barrier, buffers, call */
		if (w0 > c->warm)
			c->warm = w0;
	}
	if (c->iters == 0)
		c->iters = o->time_per_size > 0 ? budget_iters(s, c) : o->iters;
	if (o->timing == TIMING_LOOP || o->timing == TIMING_NCCL) {
		back_to_back(s, l, c);
		return;
	}
	/* the first pass decides: at least the budget's or ITERS, with --ci up to MAX */
	least = c->iters;
	most = ci && o->ci_max > least ? o->ci_max : least;
	start = MPI_Wtime();
	for (long k = 0; k < most; k++) {
		long it = o->warmup + k;
		prepare_call(s, l, c, it);
		finish_call(s, l, c, it, timed_call(s, l, c, it), o->warmup + most);
		if ((deciding && budget_spent(s, c, k + 1, most, start)) ||
		    (ci && precise(s, c, k + 1, least)))
			most = k + 1;
	}
	c->iters = most;
}
