/*
 * reveal_queues.c: the queues pass of --reveal=queues: after a level's timed
 * pass, a few exchanges watched through ob1's posted and unexpected queue
 * lengths name late senders and late receivers.
 */
#include "reveal_impl.h"

#include <stdlib.h>
#include <unistd.h>

#include "format.h"
#include "traffic.h"

#define QUEUE_TAG 7311

/* One queue variable bound to the level's communicator, g elements; 0 or -1. */
static int bind_queue(struct reveal *r, const char *name, MPI_Comm comm, long g,
		      MPI_T_pvar_handle *h)
{
	int idx, count;

	if (MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_SIZE, &idx) != MPI_SUCCESS ||
	    MPI_T_pvar_handle_alloc(r->ses, idx, &comm, h, &count) != MPI_SUCCESS)
		return -1;
	if (count != g) {
		MPI_T_pvar_handle_free(r->ses, h);
		return -1;
	}
	return 0;
}

/*
 * One exchange of the queues pass, after a barrier on the world. A sender is
 * late when its message has not arrived a window after the receive was
 * posted (the receive is still in the posted queue): adds to late[its world
 * rank]. A receiver is late when messages of most peers were already waiting
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

	MPI_Barrier(MPI_COMM_WORLD);
	exit = MPI_Wtime();
	if (r->delay_rank == r->w->rank)
		usleep((useconds_t)r->delay_us);
	for (int k = 0; k < 8; k++)   /* progress: move arrived messages into the queue */
		MPI_Iprobe(MPI_ANY_SOURCE, QUEUE_TAG, comm, &flag, MPI_STATUS_IGNORE);
	MPI_T_pvar_read(r->ses, hu, waiting);
	arrived = MPI_Wtime();
	for (long i = 0; i < g; i++)
		if (i != me)
			MPI_Irecv(buf + g + i, 1, MPI_LONG, (int)i, QUEUE_TAG, comm, &req[n++]);
	for (long i = 0; i < g; i++) {
		buf[i] = (long)(1e9 * (MPI_Wtime() - exit));
		if (i != me)
			MPI_Isend(buf + i, 1, MPI_LONG, (int)i, QUEUE_TAG, comm, &req[n++]);
	}
	t0 = MPI_Wtime();
	while (!done && MPI_Wtime() - t0 < REVEAL_QUEUE_WINDOW)
		MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
	if (!done) {
		MPI_T_pvar_read(r->ses, hp, posted);
		for (long i = 0; i < g; i++)
			if (i != me && posted[i] > 0)
				late[partition_member(p, color, i)]++;
	}
	MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
	for (long i = 0; i < g; i++)
		early += i != me && waiting[i] > 0 &&
			 1e9 * (arrived - exit) - (double)buf[g + i] > 1e9 * REVEAL_QUEUE_WINDOW;
	if (g > 1 && traffic_late(early, 1, g - 1))
		(*lr)++;
}

/* Rank 0: the "# late:" lines of a level from the reduced observations. */
static void late_lines(const struct reveal *r, const struct partition *p, int level,
		       const long *v, FILE *out)
{
	long world = r->w->size, named = 0;

	for (long q = 0; q < world; q++) {
		long c = partition_color(p, q), peers = partition_size(p, c) - 1;
		int sender = traffic_late(v[q], REVEAL_QUEUE_ROUNDS, peers);
		int receiver = traffic_late(v[world + q], REVEAL_QUEUE_ROUNDS, 1);
		if (!sender && !receiver)
			continue;
		named++;
		fprintf(out, "# %s: level %d comm %ld rank %ld host %s:", ALLER_KEY_LATE, level, c, q,
			r->w->names[v[2 * world + q]]);
		if (sender)
			fprintf(out, " late sender (%ld of %ld observations by %ld peers)", v[q],
				REVEAL_QUEUE_ROUNDS * peers, peers);
		if (receiver)
			fprintf(out, " late receiver (%ld of %d rounds)", v[world + q],
				REVEAL_QUEUE_ROUNDS);
		fputc('\n', out);
	}
	if (!named)
		fprintf(out, "# %s: level %d none (%d rounds in each of %ld communicators)\n",
			ALLER_KEY_LATE, level, REVEAL_QUEUE_ROUNDS, p->ncomms);
}

void reveal_queues(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		   int level, FILE *out)
{
	long world = r->w->size, g = partition_size(p, color), lr = 0;
	MPI_T_pvar_handle hu = MPI_T_PVAR_HANDLE_NULL, hp = MPI_T_PVAR_HANDLE_NULL;
	unsigned *q = malloc(2 * sizeof(unsigned) * (size_t)g);
	MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(2 * g));
	long *buf = calloc((size_t)(2 * g), sizeof(long));
	long *v = calloc((size_t)(3 * world), sizeof(long));
	int bound = 0, failed = !q || !req || !buf || !v;

	if (!r->queues) {
		free(q);
		free(req);
		free(buf);
		free(v);
		return;
	}
	if (!failed) {
		failed = bind_queue(r, REVEAL_QUEUE_UNEXPECTED, comm, g, &hu) != 0;
		bound = !failed;
		failed = failed || bind_queue(r, REVEAL_QUEUE_POSTED, comm, g, &hp) != 0;
		bound += !failed;
	}
	MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (failed) {
		if (out)
			fprintf(out, "# %s: level %d queues unavailable (out of memory, or the queue "
				"counters do not bind to this communicator)\n", ALLER_KEY_LATE, level);
	} else {
		for (int k = 0; k < REVEAL_QUEUE_ROUNDS; k++)
			queue_round(r, p, color, comm, hu, hp, q, req, buf, v, &lr);
		v[world + r->w->rank] = lr;
		v[2 * world + r->w->rank] = r->w->node;
		MPI_Reduce(out ? MPI_IN_PLACE : v, v, (int)(3 * world), MPI_LONG, MPI_SUM, 0,
			   MPI_COMM_WORLD);
		if (out)
			late_lines(r, p, level, v, out);
	}
	if (bound > 0)
		MPI_T_pvar_handle_free(r->ses, &hu);
	if (bound > 1)
		MPI_T_pvar_handle_free(r->ses, &hp);
	free(q);
	free(req);
	free(buf);
	free(v);
}
