/*
 * sweep.c: levels (communicator sizes) x counts x iterations.
 *
 * Only MPI_Alltoall sits between the two MPI_Wtime calls; filling, poisoning
 * and checking the buffers, and all reductions, happen outside.
 */
#include "sweep.h"

#include <limits.h>
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "partition.h"
#include "stats.h"
#include "strbuf.h"

/* What the SIGALRM handler writes; prepared before each call. */
static char timeout_msg[2048];
static size_t timeout_len;

static void on_alarm(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, timeout_msg, timeout_len) < 0) {
		/* nothing left to do */
	}
	_exit(3);
}

struct level {
	struct partition p;
	long color, g;
	MPI_Comm comm;
	long *peers;
	char *hosts;          /* the communicator's hosts, for the timeout message */
};

/* The communicator's distinct host names, at most 8 of them spelled out. */
static char *comm_hosts(const struct sweep *s, struct level *l)
{
	int *nodes = malloc(sizeof(int) * (size_t)l->g);
	char *seen = calloc((size_t)s->w->nnodes, 1);
	struct strbuf b;
	int distinct = 0;

	if (!nodes || !seen) {
		free(nodes);
		free(seen);
		return NULL;
	}
	MPI_Allgather(&s->w->node, 1, MPI_INT, nodes, 1, MPI_INT, l->comm);
	strbuf_init(&b);
	for (long i = 0; i < l->g; i++) {
		if (seen[nodes[i]]++)
			continue;
		if (distinct++ < 8)
			strbuf_addf(&b, "%s%s", distinct > 1 ? "," : "", s->w->names[nodes[i]]);
	}
	if (distinct > 8)
		strbuf_addf(&b, ",... (%d hosts)", distinct);
	free(nodes);
	free(seen);
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
	MPI_Comm_split(MPI_COMM_WORLD, (int)l->color, (int)partition_key(&l->p, rank), &l->comm);
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
		l->hosts = comm_hosts(s, l);
	return 0;
}

static void level_close(struct level *l)
{
	MPI_Comm_free(&l->comm);
	free(l->peers);
	free(l->hosts);
}

/* The datatype and count that move `count` longs per peer, also above INT_MAX. */
static void count_type(long count, MPI_Datatype *type, int *n)
{
	MPI_Datatype chunk, body, rest, both;
	long q, r;

	if (!partition_bigcount(count, &q, &r)) {
		*type = MPI_LONG;
		*n = (int)count;
		return;
	}
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

static void arm_timeout(const struct sweep *s, const struct level *l, int index, long count)
{
	int n;

	if (s->opt->timeout <= 0)
		return;
	n = snprintf(timeout_msg, sizeof(timeout_msg),
		     "aller: error: MPI_Alltoall did not finish within --timeout=%ld s at level %d "
		     "(commsize %ld), count %ld, communicator %ld of %ld on hosts %s "
		     "(seen by rank %d on %s)\n",
		     s->opt->timeout, index, l->g, count, l->color, l->p.ncomms,
		     l->hosts ? l->hosts : "?", s->w->rank, world_host(s->w));
	timeout_len = n < 0 ? 0 : (size_t)n >= sizeof(timeout_msg) ? sizeof(timeout_msg) - 1 : (size_t)n;
	alarm((unsigned)s->opt->timeout);
}

static void disarm_timeout(const struct sweep *s)
{
	if (s->opt->timeout > 0)
		alarm(0);
}

/* One count at one level: warm-up plus timed iterations, then reductions. */
static int run_count(struct sweep *s, struct level *l, int index, long count)
{
	const struct buffer_ops *ops = s->b->ops;
	long iters = s->opt->iters, me = s->w->rank, wrong = 0, wrong_iter = -1;
	double gib = stats_gib(count, l->g);
	double *vmax = malloc(sizeof(double) * (size_t)(STATS_NMAX + iters));
	double vsum[STATS_NSUM];
	struct { double t; int rank; } slow = { 0, s->w->rank }, slowest;
	struct mismatch first = { 0, 0, 0, 0 };
	struct stats st;
	MPI_Datatype type;
	int n, rc = 0;

	if (world_agree_failed(s->w, vmax == NULL, "out of memory for the statistics")) {
		free(vmax);
		return 3;
	}
	count_type(count, &type, &n);
	stats_init(&st);
	reveal_count_begin(s->reveal);
	for (long it = 0; it <= iters; it++) {
		double t0, t1;
		int err;

		if (s->opt->verify) {
			ops->fill(s->b, l->g, count, me, it);
			ops->poison(s->b, l->g * count);
		}
		MPI_Barrier(MPI_COMM_WORLD);
		if (it > 0)
			reveal_call_before(s->reveal);
		arm_timeout(s, l, index, count);
		if (s->hang_rank == me && index == 0 && it == 0)
			sleep(60);
		t0 = MPI_Wtime();
		err = MPI_Alltoall(s->b->send, n, type, s->b->recv, n, type, l->comm);
		t1 = MPI_Wtime();
		disarm_timeout(s);
		if (it > 0)
			reveal_call_after(s->reveal);
		s->in_calls += t1 - t0;
		if (err != MPI_SUCCESS) {
			char msg[MPI_MAX_ERROR_STRING];
			int len;
			MPI_Error_string(err, msg, &len);
			fprintf(stderr, "aller: error: rank %ld on %s: MPI_Alltoall failed at level %d, "
				"count %ld: %s\n", me, world_host(s->w), index, count, msg);
			MPI_Abort(MPI_COMM_WORLD, 3);
		}
		if (s->corrupt_rank == me)
			ops->corrupt(s->b, (l->g * count) / 2);
		if (s->opt->verify) {
			struct mismatch m;
			long w = ops->check(s->b, l->g, count, me, it, &m);
			if (w > 0 && wrong == 0) {
				first = m;
				wrong_iter = it;
			}
			wrong += w;
		}
		if (it == 0)
			continue;
		if (t1 - t0 <= 0)
			t1 = t0 + MPI_Wtick();
		stats_add(&st, t1 - t0, gib);
		vmax[STATS_NMAX + it - 1] = t1 - t0;
		if (t1 - t0 > slow.t)
			slow.t = t1 - t0;
	}
	if (type != MPI_LONG)
		MPI_Type_free(&type);

	if (s->opt->verify) {
		char msg[512];
		snprintf(msg, sizeof(msg), "verification failed at level %d (communicator %ld of %ld, "
			 "commsize %ld), count %ld, iteration %ld%s: element %ld from rank %ld: "
			 "expected 0x%016lx, received 0x%016lx (%ld wrong elements over all iterations)", index, l->color,
			 l->p.ncomms, l->g, count, wrong_iter, wrong_iter == 0 ? " (warm-up)" : "",
			 first.element, first.peer, (unsigned long)first.expected,
			 (unsigned long)first.received, wrong);
		if (world_agree_failed(s->w, wrong > 0, msg))
			rc = 1;
	}

	stats_pack(&st, vmax, vsum);
	MPI_Reduce(me == 0 ? MPI_IN_PLACE : vmax, vmax, (int)(STATS_NMAX + iters), MPI_DOUBLE,
		   MPI_MAX, 0, MPI_COMM_WORLD);
	MPI_Reduce(me == 0 ? MPI_IN_PLACE : vsum, vsum, STATS_NSUM, MPI_DOUBLE, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	MPI_Reduce(&slow, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, 0, MPI_COMM_WORLD);
	if (me == 0 && rc == 0) {
		struct row row;
		double total = stats_gib(count, 1) * partition_sum_sizes(&l->p), agg = 0;
		for (long i = 0; i < iters; i++)
			agg += total / vmax[STATS_NMAX + i];
		row.comms = l->p.ncomms;
		row.commsize = partition_max_size(&l->p);
		row.count = count;
		row.gib = stats_gib(count, row.commsize);
		stats_unpack(&row.s, vmax, vsum);
		row.aggbw = agg / (double)iters;
		row.slowest = slowest.rank;
		output_row(s->out, &row);
	}
	if (rc == 0)
		reveal_count_end(s->reveal, &l->p, l->color, l->comm, index, count, s->out);
	free(vmax);
	return rc;
}

int sweep_run(struct sweep *s)
{
	int nlevels = partition_nlevels(s->w->size);
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);

	for (int index = 0; index < nlevels; index++) {
		struct level l;
		int ncounts, rc = 0;

		if (level_open(s, index, &l) != 0)
			return 3;
		if (s->w->rank == 0)
			output_level(s->out, s->info, index, &l.p);
		reveal_level_begin(s->reveal, l.comm);
		ncounts = partition_ncounts(s->opt->longs, l.p.target);
		for (int i = 0; i < ncounts && rc == 0; i++)
			rc = run_count(s, &l, index, partition_count(s->opt->longs, l.p.target, i));
		if (rc == 0)
			reveal_queues(s->reveal, &l.p, l.color, l.comm, index, s->out);
		reveal_level_end(s->reveal);
		level_close(&l);
		if (rc != 0)
			return rc;
	}
	return 0;
}
