/*
 * sweep.c: levels (communicator sizes) x counts x iterations.
 *
 * Only MPI_Alltoall sits between the two MPI_Wtime calls; filling, poisoning
 * and checking the buffers, and all reductions, happen outside.
 */
#include "sweep.h"

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bigcount.h"
#include "hist.h"
#include "partition.h"
#include "stats.h"
#include "strbuf.h"
#include "timeout.h"

struct level {
	struct partition p;
	long color, g;
	MPI_Comm comm;
	long *peers;
	char *hosts;          /* the communicator's hosts, for the timeout message */
};

/* A failed MPI call: one message (the lowest rank concerned first), exit 3. */
static void check_mpi(const struct sweep *s, int rc, int lowest, const char *what, int index,
		      long count)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len;

	if (rc == MPI_SUCCESS)
		return;
	MPI_Error_string(rc, msg, &len);
	if (!lowest)
		sleep(1);
	fprintf(stderr, "aller: error: rank %d on %s: %s failed at level %d, count %ld: %s\n",
		s->w->rank, world_host(s->w), what, index, count, msg);
	MPI_Abort(MPI_COMM_WORLD, 3);
}

/*
 * The communicator's distinct host names, at most 8 of them spelled out:
 * a bitmap of the nodes, OR-reduced over the communicator.
 */
static char *comm_hosts(const struct sweep *s, struct level *l, int index)
{
	int nwords = (s->w->nnodes + 63) / 64, distinct = 0;
	uint64_t *bits = calloc((size_t)nwords, sizeof(uint64_t));
	struct strbuf b;

	if (!bits)
		return NULL;
	bits[s->w->node / 64] |= 1ULL << (s->w->node % 64);
	check_mpi(s, MPI_Allreduce(MPI_IN_PLACE, bits, nwords, MPI_UINT64_T, MPI_BOR, l->comm),
		  s->w->rank == 0, "MPI_Allreduce (hosts)", index, 0);
	strbuf_init(&b);
	for (int n = 0; n < s->w->nnodes; n++) {
		if (!(bits[n / 64] >> (n % 64) & 1))
			continue;
		if (distinct++ < 8)
			strbuf_addf(&b, "%s%s", distinct > 1 ? "," : "", s->w->names[n]);
	}
	if (distinct > 8)
		strbuf_addf(&b, ",... (%d hosts)", distinct);
	free(bits);
	return strbuf_detach(&b);
}

static int level_open(const struct sweep *s, int index, struct level *l)
{
	long rank = s->w->rank;
	int ok;

	memset(l, 0, sizeof(*l));
	partition_init(&l->p, s->w->size, partition_level_target(s->w->size, index),
		       s->opt->strided);
	l->color = partition_color(&l->p, rank);
	l->g = partition_size(&l->p, l->color);
	check_mpi(s, MPI_Comm_split(MPI_COMM_WORLD, (int)l->color, (int)partition_key(&l->p, rank),
				    &l->comm), rank == 0, "MPI_Comm_split", index, 0);
	l->peers = malloc(sizeof(long) * (size_t)l->g);
	ok = l->peers != NULL;
	if (ok) {
		for (long i = 0; i < l->g; i++)
			l->peers[i] = partition_member(&l->p, l->color, i);
		ok = s->b->ops->set_peers(s->b, l->peers, l->g) == 0;
	}
	if (world_agree_failed(s->w, !ok, "out of memory for the communicator's peers"))
		return -1;
	if (s->opt->timeout > 0)
		l->hosts = comm_hosts(s, l, index);
	return 0;
}

static void level_close(struct level *l)
{
	MPI_Comm_free(&l->comm);
	free(l->peers);
	free(l->hosts);
}

/* Prepares the timeout message of one count (the handler adds the phase). */
static void timeout_set(const struct sweep *s, const struct level *l, int index, long count)
{
	char where[1536];

	if (s->opt->timeout <= 0)
		return;
	snprintf(where, sizeof(where), " at level %d (commsize %ld), count %ld, communicator %ld "
		 "of %ld on hosts %s (seen by rank %d on %s)\n", index, l->g, count, l->color,
		 l->p.ncomms, l->hosts ? l->hosts : "?", s->w->rank, world_host(s->w));
	timeout_prepare(s->opt->timeout, where, partition_key(&l->p, s->w->rank) == 0,
			s->w->rank == 0);
}

/* What one count measures, on this task. */
struct count_run {
	long count;
	int index;
	MPI_Datatype type;
	int n;                 /* MPI count of `type` */
	int big;               /* MPI-4: MPI_Alltoall_c with the count itself */
	struct stats st;
	double *slowest_t;     /* [STATS_NMAX + iters]: max reductions, then per-iteration times */
	double slow;           /* this task's slowest sample */
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

/* One call: barrier, timed MPI_Alltoall; returns its seconds. */
static double timed_call(struct sweep *s, const struct level *l, struct count_run *c, int timed)
{
	double t0, t1;
	int err;

	timeout_arm(s->opt->timeout, TIMEOUT_BARRIER);
	check_mpi(s, MPI_Barrier(MPI_COMM_WORLD), s->w->rank == 0, "MPI_Barrier", c->index,
		  c->count);
	if (timed)
		reveal_call_before(s->reveal);
	timeout_arm(s->opt->timeout, TIMEOUT_CALL);
	if (s->hang_rank == s->w->rank && s->calls == 0)
		sleep(60);
	if (timed && s->slow_rank == s->w->rank)   /* arrives late; its peers wait in the call */
		usleep((useconds_t)s->slow_us);
#if MPI_VERSION >= 4
	if (c->big) {
		t0 = MPI_Wtime();
		err = MPI_Alltoall_c(s->b->send, c->count, MPI_LONG, s->b->recv, c->count, MPI_LONG,
				     l->comm);
		t1 = MPI_Wtime();
	} else
#endif
	{
		t0 = MPI_Wtime();
		err = MPI_Alltoall(s->b->send, c->n, c->type, s->b->recv, c->n, c->type, l->comm);
		t1 = MPI_Wtime();
	}
	timeout_disarm(s->opt->timeout);
	if (timed)
		reveal_call_after(s->reveal);
	s->calls++;
	s->in_calls += t1 - t0;
	check_mpi(s, err, partition_key(&l->p, s->w->rank) == 0, "MPI_Alltoall", c->index, c->count);
	return t1 - t0 > 0 ? t1 - t0 : MPI_Wtick();
}

/* Whether call `it` (warm-ups first) is checked. */
static int checked(const struct options *o, long it)
{
	return o->verify == VERIFY_ALL || (o->verify == VERIFY_WARMUP && it < o->warmup);
}

/*
 * Warm-ups and timed iterations, with the fill, poison and check they need;
 * the check of one call poisons for the next checked one in the same pass.
 */
static void run_calls(struct sweep *s, const struct level *l, struct count_run *c)
{
	const struct buffer_ops *ops = s->b->ops;
	const struct options *o = s->opt;
	long me = s->w->rank, total = o->warmup + o->iters, n = l->g * c->count;
	double gib = stats_gib(c->count, l->g);
	int poisoned = 0;

	if (!o->fresh) {
		timeout_arm(s->opt->timeout, TIMEOUT_FILL);
		op_done(c, s->b, ops->fill(s->b, l->g, c->count, me, VERIFY_REUSED));
	}
	for (long it = 0; it < total; it++) {
		int timed = it >= o->warmup, check = checked(o, it);
		int next = it + 1 < total && checked(o, it + 1);
		double t;

		timeout_arm(s->opt->timeout, TIMEOUT_FILL);
		if (o->fresh && !(s->stale_rank == me && it > 0))
			op_done(c, s->b, ops->fill(s->b, l->g, c->count, me, it));
		if (check && !poisoned)
			op_done(c, s->b, ops->poison(s->b, n));
		t = timed_call(s, l, c, timed);
		if (s->corrupt_rank == me)
			op_done(c, s->b, ops->corrupt(s->b, n / 2));
		poisoned = 0;
		if (check) {
			struct mismatch m;
			long w = ops->check(s->b, l->g, c->count, me, o->fresh ? it : VERIFY_REUSED,
					    next, &m);
			op_done(c, s->b, w);
			if (w < 0)
				w = 0;
			if (w > 0 && c->wrong == 0) {
				c->first = m;
				c->wrong_iter = it;
			}
			c->wrong += w;
			poisoned = next;
		}
		if (!timed)
			continue;
		stats_add(&c->st, t, gib);
		c->slowest_t[STATS_NMAX + it - o->warmup] = t;
		if (t > c->slow)
			c->slow = t;
	}
}

/*
 * Collective: 3 when a buffer operation failed anywhere, 1 when any task
 * received a wrong element, each with one message; else 0.
 */
static int count_verdict(const struct sweep *s, const struct level *l, const struct count_run *c)
{
	char msg[640];

	snprintf(msg, sizeof(msg), "%s at level %d, count %ld", c->failed, c->index, c->count);
	if (world_agree_failed(s->w, c->failed[0] != 0, msg))
		return 3;
	if (s->opt->verify == VERIFY_NONE)
		return 0;
	snprintf(msg, sizeof(msg), "verification failed at level %d (communicator %ld of %ld, "
		 "commsize %ld), count %ld, iteration %ld%s: element %ld from rank %ld: "
		 "expected 0x%016lx, received 0x%016lx (%ld wrong elements over all checked calls)",
		 c->index, l->color, l->p.ncomms, l->g, c->count, c->wrong_iter,
		 c->wrong_iter < s->opt->warmup ? " (warm-up)" : "", c->first.element, c->first.peer,
		 (unsigned long)c->first.expected, (unsigned long)c->first.received, c->wrong);
	return world_agree_failed(s->w, c->wrong > 0, msg) ? 1 : 0;
}

/* Collective: reduces the samples to rank 0, which prints the row. */
static void count_row(const struct sweep *s, const struct level *l, struct count_run *c,
		      double *sums)
{
	long iters = s->opt->iters, me = s->w->rank;
	struct { double t; int rank; } slow = { c->slow, s->w->rank }, slowest;
	struct row row;
	double total, agg = 0;

	stats_pack(&c->st, c->slowest_t, sums);
	check_mpi(s, MPI_Reduce(me == 0 ? MPI_IN_PLACE : c->slowest_t, c->slowest_t,
				(int)(STATS_NMAX + iters), MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD),
		  me == 0, "MPI_Reduce (maxima)", c->index, c->count);
	check_mpi(s, MPI_Reduce(me == 0 ? MPI_IN_PLACE : sums, sums, STATS_NSUM, MPI_DOUBLE,
				MPI_SUM, 0, MPI_COMM_WORLD),
		  me == 0, "MPI_Reduce (sums)", c->index, c->count);
	check_mpi(s, MPI_Reduce(&slow, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, 0, MPI_COMM_WORLD),
		  me == 0, "MPI_Reduce (slowest)", c->index, c->count);
	if (me != 0)
		return;
	total = stats_gib(c->count, 1) * partition_sum_sizes(&l->p);
	for (long i = 0; i < iters; i++)
		agg += total / c->slowest_t[STATS_NMAX + i];
	row.comms = l->p.ncomms;
	row.commsize = partition_max_size(&l->p);
	row.count = c->count;
	row.gib = stats_gib(c->count, row.commsize);
	stats_unpack(&row.s, c->slowest_t, sums);
	row.aggbw = agg / (double)iters;
	row.slowest = slowest.rank;
	row.busbw = stats_busbw(c->count, row.commsize, stats_tavg(&row.s));
	output_row(s->out, &row);
}

/* One count at one level: the calls, the verdict, the row. */
static int run_count(struct sweep *s, struct level *l, int index, long count)
{
	struct count_run *c = calloc(1, sizeof(*c));
	double *sums = malloc(sizeof(double) * STATS_NSUM);
	int rc = 0;

	if (c)
		c->slowest_t = malloc(sizeof(double) * (size_t)(STATS_NMAX + s->opt->iters));
	if (world_agree_failed(s->w, !c || !sums || !c->slowest_t,
			       "out of memory for the statistics")) {
		if (c)
			free(c->slowest_t);
		free(c);
		free(sums);
		return 3;
	}
	c->count = count;
	c->index = index;
	c->wrong_iter = -1;
	bigcount_type(count, &c->type, &c->n, &c->big);
	stats_init(&c->st);
	timeout_set(s, l, index, count);
	reveal_count_begin(s->reveal);
	run_calls(s, l, c);
	if (c->type != MPI_LONG)
		MPI_Type_free(&c->type);
	rc = count_verdict(s, l, c);
	if (rc == 0) {
		count_row(s, l, c, sums);
		reveal_count_end(s->reveal, &l->p, l->color, l->comm, index, count, s->out);
	}
	free(c->slowest_t);
	free(c);
	free(sums);
	return rc;
}

/* One level: its communicators, its selected counts, the queues pass. */
static int run_level(struct sweep *s, int index)
{
	long target = partition_level_target(s->w->size, index);
	struct level l;
	int first, n, rc = 0;

	if (!select_level(&s->opt->sel, s->w->size, target))
		return 0;
	select_counts(&s->opt->sel, s->opt->longs, target, &first, &n);
	if (n == 0)
		return 0;
	if (level_open(s, index, &l) != 0)
		return 3;
	if (s->w->rank == 0)
		output_level(s->out, s->info, index, &l.p, s->sets++ == 0);
	reveal_level_begin(s->reveal, l.comm);
	for (int i = first; i < first + n && rc == 0; i++)
		rc = run_count(s, &l, index, partition_count(s->opt->longs, target, i));
	if (rc == 0)
		reveal_queues(s->reveal, &l.p, l.color, l.comm, index, s->out);
	reveal_level_end(s->reveal);
	level_close(&l);
	return rc;
}

int sweep_run(struct sweep *s)
{
	int nlevels = partition_nlevels(s->w->size), rc = 0;

	timeout_install();
	for (int index = 0; index < nlevels && rc == 0; index++)
		rc = run_level(s, index);
	return rc;
}
