/*
 * sweep.c: levels (communicator sizes) x counts x iterations.
 *
 * Only MPI_Alltoall sits between the two MPI_Wtime calls; filling, poisoning
 * and checking the buffers, and all reductions, happen outside.
 */
#include "sweep.h"

#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hist.h"
#include "partition.h"
#include "stats.h"
#include "strbuf.h"

/*
 * --timeout: an alarm armed from the fill (or poison) of a call to its end.
 * The handler writes a message prepared before, with the phase it caught.
 * Only one rank should speak: the lowest rank of the communicator speaks at
 * once; the others wait 2 s first (the launcher ends them when the first one
 * exits), and ranks caught in the barrier, who wait for someone else, stay
 * silent but for world rank 0, after 3 s.
 */
enum phase { PHASE_FILL, PHASE_BARRIER, PHASE_CALL };
static const char *const phase_name[] = { "preparing the buffers", "MPI_Barrier",
					  "MPI_Alltoall" };
static volatile sig_atomic_t phase;
static char timeout_head[128], timeout_tail[1536];
static size_t head_len, tail_len;
static int timeout_lowest, timeout_world0;

static void say(const char *s, size_t n)
{
	if (write(STDERR_FILENO, s, n) < 0) {
		/* nothing left to do */
	}
}

static void on_alarm(int sig)
{
	const char *p = phase_name[phase];

	(void)sig;
	if (phase == PHASE_BARRIER) {
		sleep(3);
		if (!timeout_world0)
			_exit(3);
	} else if (!timeout_lowest) {
		sleep(2);
	}
	say(timeout_head, head_len);
	say(p, strlen(p));
	say(timeout_tail, tail_len);
	_exit(3);
}

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

const char *sweep_large_counts(void)
{
#if MPI_VERSION >= 4
	return "MPI_Alltoall_c (MPI-4) for counts above INT_MAX";
#else
	return "one element of a derived datatype (chunks of 2^30 longs) for counts above INT_MAX";
#endif
}

/*
 * The datatype and count that move `count` longs per peer, also above
 * INT_MAX: with MPI-4, *big is set and MPI_Alltoall_c takes the count as it
 * is; before, it is one element of a derived datatype.
 */
static void count_type(long count, MPI_Datatype *type, int *n, int *big)
{
	MPI_Datatype chunk, body, rest, both;
	long q, r;

	*big = 0;
	if (!partition_bigcount(count, &q, &r)) {
		*type = MPI_LONG;
		*n = (int)count;
		return;
	}
#if MPI_VERSION >= 4
	*type = MPI_LONG;
	*n = 0;
	*big = 1;
	return;
#endif
	MPI_Type_contiguous((int)PARTITION_CHUNK, MPI_LONG, &chunk);
	MPI_Type_contiguous((int)q, chunk, &body);
	if (r > 0) {
		int lens[2] = { 1, 1 };
		MPI_Aint disp[2] = { 0, (MPI_Aint)(q * PARTITION_CHUNK * (long)sizeof(long)) };
		MPI_Datatype types[2];
		MPI_Type_contiguous((int)r, MPI_LONG, &rest);
		types[0] = body;
		types[1] = rest;
		MPI_Type_create_struct(2, lens, disp, types, &both);
		MPI_Type_free(&rest);
		MPI_Type_free(&body);
	} else {
		both = body;
	}
	MPI_Type_create_resized(both, 0, (MPI_Aint)(count * (long)sizeof(long)), type);
	MPI_Type_commit(type);
	MPI_Type_free(&both);
	MPI_Type_free(&chunk);
	*n = 1;
}

/* Prepares the timeout message of one count (the handler adds the phase). */
static void timeout_prepare(const struct sweep *s, const struct level *l, int index, long count)
{
	int n;

	if (s->opt->timeout <= 0)
		return;
	n = snprintf(timeout_head, sizeof(timeout_head), "aller: error: no progress within "
		     "--timeout=%ld s in ", s->opt->timeout);
	head_len = n < 0 ? 0 : (size_t)n >= sizeof(timeout_head) ? sizeof(timeout_head) - 1 : (size_t)n;
	n = snprintf(timeout_tail, sizeof(timeout_tail),
		     " at level %d (commsize %ld), count %ld, communicator %ld of %ld on hosts %s "
		     "(seen by rank %d on %s)\n", index, l->g, count, l->color, l->p.ncomms,
		     l->hosts ? l->hosts : "?", s->w->rank, world_host(s->w));
	tail_len = n < 0 ? 0 : (size_t)n >= sizeof(timeout_tail) ? sizeof(timeout_tail) - 1 : (size_t)n;
	timeout_lowest = partition_key(&l->p, s->w->rank) == 0;
	timeout_world0 = s->w->rank == 0;
}

static void arm(const struct sweep *s, enum phase ph)
{
	phase = ph;
	if (s->opt->timeout > 0 && ph != PHASE_BARRIER && ph != PHASE_CALL)
		alarm((unsigned)s->opt->timeout);
}

static void disarm(const struct sweep *s)
{
	if (s->opt->timeout > 0)
		alarm(0);
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
};

/* One call: barrier, timed MPI_Alltoall; returns its seconds. */
static double timed_call(struct sweep *s, const struct level *l, struct count_run *c, int timed)
{
	double t0, t1;
	int err;

	arm(s, PHASE_BARRIER);
	check_mpi(s, MPI_Barrier(MPI_COMM_WORLD), s->w->rank == 0, "MPI_Barrier", c->index,
		  c->count);
	if (timed)
		reveal_call_before(s->reveal);
	arm(s, PHASE_CALL);
	if (s->hang_rank == s->w->rank && s->calls == 0)
		sleep(60);
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
	disarm(s);
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
		arm(s, PHASE_FILL);
		ops->fill(s->b, l->g, c->count, me, VERIFY_REUSED);
	}
	for (long it = 0; it < total; it++) {
		int timed = it >= o->warmup, check = checked(o, it);
		int next = it + 1 < total && checked(o, it + 1);
		double t;

		arm(s, PHASE_FILL);
		if (o->fresh && !(s->stale_rank == me && it > 0))
			ops->fill(s->b, l->g, c->count, me, it);
		if (check && !poisoned)
			ops->poison(s->b, n);
		t = timed_call(s, l, c, timed);
		if (s->corrupt_rank == me)
			ops->corrupt(s->b, n / 2);
		poisoned = 0;
		if (check) {
			struct mismatch m;
			long w = ops->check(s->b, l->g, c->count, me, o->fresh ? it : VERIFY_REUSED,
					    next, &m);
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

/* Collective: whether any task received a wrong element (1), with one message. */
static int count_verdict(const struct sweep *s, const struct level *l, const struct count_run *c)
{
	char msg[640];

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
	count_type(count, &c->type, &c->n, &c->big);
	stats_init(&c->st);
	timeout_prepare(s, l, index, count);
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
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	for (int index = 0; index < nlevels && rc == 0; index++)
		rc = run_level(s, index);
	return rc;
}
