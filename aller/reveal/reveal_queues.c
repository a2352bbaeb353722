/*
 * reveal_queues.c: the queues pass of --reveal=queues: after a level's timed
 * pass, a few exchanges watched through ob1's posted and unexpected queue
 * lengths name late senders and late receivers.
 */
#include "reveal_impl.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "traffic.h"
#include "world/failure.h"

#define QUEUE_TAG 7311
#define LATE_TAG 7312

/* A task found late, sent to rank 0: its world rank, colour, node, peers and observations. */
enum { LATE_RANK, LATE_COLOR, LATE_NODE, LATE_PEERS, LATE_SENDER, LATE_RECEIVER, LATE_N };

/* One queue variable bound to the level's communicator, g elements; 0 or -1. */
static int bind_queue(struct reveal *r, const char *name, MPI_Comm comm, long g,
		      MPI_T_pvar_handle *h)
{
	int idx, count;

	if (MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_SIZE, &idx) != MPI_SUCCESS ||
	    MPI_T_pvar_handle_alloc(r->ses, idx, &comm, h, &count) != MPI_SUCCESS)
		return -1;
	if (count != g) {
		MPI_MUST(MPI_T_pvar_handle_free(r->ses, h));
		return -1;
	}
	return 0;
}

/*
 * One exchange of the queues pass, after a barrier on the world. A sender is
 * late when its message has not arrived a window after the receive was
 * posted (the receive is still in the posted queue): adds to late[its rank in
 * comm]. A receiver is late when messages of most peers were already waiting
 * in its unexpected queue as it arrived, each for longer than the window:
 * every message carries the nanoseconds from its sender's barrier exit to
 * the send, so the wait needs no synchronised clocks, only barrier exits
 * closer together than the window. Adds to *lr.
 */
static void queue_round(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
			MPI_T_pvar_handle hu, MPI_T_pvar_handle hp, unsigned *q, MPI_Request *req,
			long *buf, long *late, long *lr)
{
	long g = partition_size(p, color), me = partition_key(p, r->w->rank), early = 0;
	unsigned *waiting = q, *posted = q + g;
	int n = 0, flag = 0, done = 0;
	double exit, arrived, t0;

	MPI_MUST(MPI_Barrier(MPI_COMM_WORLD));
	exit = MPI_Wtime();
	if (r->delay_rank == r->w->rank)
		usleep((useconds_t)r->delay_us);
	for (int k = 0; k < 8; k++)   /* progress: move arrived messages into the queue */
		MPI_MUST(MPI_Iprobe(MPI_ANY_SOURCE, QUEUE_TAG, comm, &flag, MPI_STATUS_IGNORE));
	MPI_MUST(MPI_T_pvar_read(r->ses, hu, waiting));
	arrived = MPI_Wtime();
	for (long i = 0; i < g; i++)
		if (i != me)
			MPI_MUST(MPI_Irecv(buf + g + i, 1, MPI_LONG, (int)i, QUEUE_TAG, comm, &req[n++]));
	for (long i = 0; i < g; i++) {
		buf[i] = (long)(1e9 * (MPI_Wtime() - exit));
		if (i != me)
			MPI_MUST(MPI_Isend(buf + i, 1, MPI_LONG, (int)i, QUEUE_TAG, comm, &req[n++]));
	}
	t0 = MPI_Wtime();
	while (!done && MPI_Wtime() - t0 < REVEAL_QUEUE_WINDOW)
		MPI_MUST(MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE));
	if (!done) {
		MPI_MUST(MPI_T_pvar_read(r->ses, hp, posted));
		for (long i = 0; i < g; i++)
			if (i != me && posted[i] > 0)
				late[i]++;
	}
	MPI_MUST(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
	for (long i = 0; i < g; i++)
		early += i != me && waiting[i] > 0 &&
			 1e9 * (arrived - exit) - (double)buf[g + i] > 1e9 * REVEAL_QUEUE_WINDOW;
	if (g > 1 && traffic_late(early, 1, g - 1))
		(*lr)++;
}

static int by_rank(const void *a, const void *b)
{
	long x = ((const long *)a)[LATE_RANK], y = ((const long *)b)[LATE_RANK];
	return (x > y) - (x < y);
}

/*
 * Collective: the "# late:" lines of a level at rank 0. Each task sums its
 * peers' observations of itself (a reduce-scatter in its communicator), so
 * it alone judges itself; only late tasks send rank 0 a record.
 */
static void late_lines(const struct reveal *r, const struct partition *p, long color,
		       MPI_Comm comm, int level, long *late, long lr, FILE *out)
{
	long g = partition_size(p, color), seen = 0, me[LATE_N], nlate, *all = NULL, k = 0;
	int mine;

	MPI_MUST(MPI_Reduce_scatter_block(MPI_IN_PLACE, late, 1, MPI_LONG, MPI_SUM, comm));
	me[LATE_RANK] = r->w->rank;
	me[LATE_COLOR] = color;
	me[LATE_NODE] = r->w->node;
	me[LATE_PEERS] = g - 1;
	me[LATE_SENDER] = late[0];
	me[LATE_RECEIVER] = lr;
	mine = traffic_late(me[LATE_SENDER], REVEAL_QUEUE_ROUNDS, g - 1) ||
	       traffic_late(lr, REVEAL_QUEUE_ROUNDS, 1);
	nlate = mine;
	MPI_MUST(MPI_Reduce(out ? MPI_IN_PLACE : &nlate, &nlate, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
	if (mine && !out)
		MPI_MUST(MPI_Send(me, LATE_N, MPI_LONG, 0, LATE_TAG, MPI_COMM_WORLD));
	if (!out)
		return;
	all = malloc(sizeof(long) * LATE_N * (size_t)(nlate > 0 ? nlate : 1));
	if (mine && all)
		memcpy(all + LATE_N * k++, me, sizeof(me));
	for (long i = mine; i < nlate; i++) {
		long rec[LATE_N];
		MPI_MUST(MPI_Recv(rec, LATE_N, MPI_LONG, MPI_ANY_SOURCE, LATE_TAG, MPI_COMM_WORLD,
				  MPI_STATUS_IGNORE));
		if (all)
			memcpy(all + LATE_N * k++, rec, sizeof(rec));
	}
	qsort(all, (size_t)k, sizeof(long) * LATE_N, by_rank);
	for (long i = 0; i < k; i++) {
		const long *v = all + LATE_N * i;
		int sender = traffic_late(v[LATE_SENDER], REVEAL_QUEUE_ROUNDS, v[LATE_PEERS]);
		int receiver = traffic_late(v[LATE_RECEIVER], REVEAL_QUEUE_ROUNDS, 1);
		seen++;
		fprintf(out, "# %s: level %d comm %ld rank %ld host %s:", ALLER_KEY_LATE, level,
			v[LATE_COLOR], v[LATE_RANK], r->w->names[v[LATE_NODE]]);
		if (sender)
			fprintf(out, " late sender (%ld of %ld observations by %ld peers)",
				v[LATE_SENDER], REVEAL_QUEUE_ROUNDS * v[LATE_PEERS], v[LATE_PEERS]);
		if (receiver)
			fprintf(out, " late receiver (%ld of %d rounds)", v[LATE_RECEIVER],
				REVEAL_QUEUE_ROUNDS);
		fputc('\n', out);
	}
	if (!seen)
		fprintf(out, "# %s: level %d none (%d rounds in each of %ld communicators)\n",
			ALLER_KEY_LATE, level, REVEAL_QUEUE_ROUNDS, p->ncomms);
	free(all);
}

void reveal_queues(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		   int level, FILE *out)
{
	long g = partition_size(p, color), lr = 0;
	MPI_T_pvar_handle hu = MPI_T_PVAR_HANDLE_NULL, hp = MPI_T_PVAR_HANDLE_NULL;
	unsigned *q = malloc(2 * sizeof(unsigned) * (size_t)g);
	MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(2 * g));
	long *buf = calloc((size_t)(2 * g), sizeof(long));
	long *late = calloc((size_t)g, sizeof(long));   /* per peer, then (late_lines) mine */
	int bound = 0, failed = !q || !req || !buf || !late;

	if (!r->queues) {
		free(q);
		free(req);
		free(buf);
		free(late);
		return;
	}
	if (!failed) {
		failed = bind_queue(r, REVEAL_QUEUE_UNEXPECTED, comm, g, &hu) != 0;
		bound = !failed;
		failed = failed || bind_queue(r, REVEAL_QUEUE_POSTED, comm, g, &hp) != 0;
		bound += !failed;
	}
	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
	if (failed) {
		if (out)
			fprintf(out, "# %s: level %d queues unavailable (out of memory, or the queue "
				"counters do not bind to this communicator)\n", ALLER_KEY_LATE, level);
	} else {
		for (int k = 0; k < REVEAL_QUEUE_ROUNDS; k++)
			queue_round(r, p, color, comm, hu, hp, q, req, buf, late, &lr);
		late_lines(r, p, color, comm, level, late, lr, out);
	}
	if (bound > 0)
		MPI_MUST(MPI_T_pvar_handle_free(r->ses, &hu));
	if (bound > 1)
		MPI_MUST(MPI_T_pvar_handle_free(r->ses, &hp));
	free(q);
	free(req);
	free(buf);
	free(late);
}
