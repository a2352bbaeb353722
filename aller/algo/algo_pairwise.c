/*
 * algo_pairwise.c: a hand-written exchange: at step k every rank posts a
 * receive from (rank - k) mod g and a send to (rank + k) mod g
 * (algo_pairwise_step), ALGO_PAIRWISE_WINDOW steps at a time, then
 * MPI_Waitall of them (one window when g <= 64: all steps at once). The
 * requests, 2 x min(g, window), are allocated per count and left
 * MPI_REQUEST_NULL by each MPI_Waitall, so no reset is timed. Uneven
 * blocks (--split) go as MPI_LONGs from their displacements.
 */
#include "algo.h"

#include <stdlib.h>

static long window(const struct algo_call *a)
{
	return a->g < ALGO_PAIRWISE_WINDOW ? a->g : ALGO_PAIRWISE_WINDOW;
}

static int count_open(struct algo_call *a)
{
	MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * (size_t)window(a));

	for (long i = 0; req && i < 2 * window(a); i++)
		req[i] = MPI_REQUEST_NULL;
	a->state = req;
	return req ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static void count_close(struct algo_call *a)
{
	free(a->state);
	a->state = NULL;
}

/* Steps k0 .. k0 + n - 1 into req[0 .. 2n - 1]. */
static int post(struct algo_call *a, long k0, long n, MPI_Request *req)
{
	int rc = MPI_SUCCESS;

	for (long i = 0; i < n && rc == MPI_SUCCESS; i++) {
		long to, from;
		algo_pairwise_step(a->rank, k0 + i, a->g, &to, &from);
		if (a->v)
			rc = MPI_Irecv(a->recv + a->v->rdispls[from], (int)a->v->rcounts[from],
				       MPI_LONG, (int)from, 0, a->comm, &req[2 * i]);
		else
			rc = MPI_Irecv(a->recv + from * a->count, a->n, a->type, (int)from, 0,
				       a->comm, &req[2 * i]);
		if (rc == MPI_SUCCESS && a->v)
			rc = MPI_Isend(a->send + a->v->sdispls[to], (int)a->v->scounts[to], MPI_LONG,
				       (int)to, 0, a->comm, &req[2 * i + 1]);
		else if (rc == MPI_SUCCESS)
			rc = MPI_Isend(a->send + to * a->count, a->n, a->type, (int)to, 0, a->comm,
				       &req[2 * i + 1]);
	}
	return rc;
}

static int call(struct algo_call *a)
{
	MPI_Request *req = a->state;
	long w = window(a);
	int rc = MPI_SUCCESS, done = MPI_SUCCESS;

	for (long k0 = 0; k0 < a->g && rc == MPI_SUCCESS && done == MPI_SUCCESS; k0 += w) {
		long n = a->g - k0 < w ? a->g - k0 : w;
		rc = post(a, k0, n, req);
		done = MPI_Waitall((int)(2 * n), req, MPI_STATUSES_IGNORE);
	}
	return rc != MPI_SUCCESS ? rc : done;
}

const struct algo_op algo_pairwise = { .id = ALGO_PAIRWISE, .count_open = count_open,
				       .count_close = count_close, .call = call };
