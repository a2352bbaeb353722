/*
 * algo_pairwise.c: a hand-written exchange: at step k every rank posts a
 * receive from (rank - k) mod g and a send to (rank + k) mod g
 * (algo_pairwise_step), all steps at once, then MPI_Waitall. The requests
 * are allocated per count, outside the timing. Uneven blocks (--split) go
 * as MPI_LONGs from their displacements.
 */
#include "algo.h"

#include <stdlib.h>

static int count_open(struct algo_call *a)
{
	a->state = malloc(sizeof(MPI_Request) * 2 * (size_t)a->g);
	return a->state ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static void count_close(struct algo_call *a)
{
	free(a->state);
	a->state = NULL;
}

static int call(struct algo_call *a)
{
	MPI_Request *req = a->state;
	int rc = MPI_SUCCESS, done;

	for (long i = 0; i < 2 * a->g; i++)
		req[i] = MPI_REQUEST_NULL;
	for (long k = 0; k < a->g && rc == MPI_SUCCESS; k++) {
		long to, from;
		algo_pairwise_step(a->rank, k, a->g, &to, &from);
		if (a->v)
			rc = MPI_Irecv(a->recv + a->v->rdispls[from], (int)a->v->rcounts[from],
				       MPI_LONG, (int)from, 0, a->comm, &req[2 * k]);
		else
			rc = MPI_Irecv(a->recv + from * a->count, a->n, a->type, (int)from, 0,
				       a->comm, &req[2 * k]);
		if (rc == MPI_SUCCESS && a->v)
			rc = MPI_Isend(a->send + a->v->sdispls[to], (int)a->v->scounts[to], MPI_LONG,
				       (int)to, 0, a->comm, &req[2 * k + 1]);
		else if (rc == MPI_SUCCESS)
			rc = MPI_Isend(a->send + to * a->count, a->n, a->type, (int)to, 0, a->comm,
				       &req[2 * k + 1]);
	}
	done = MPI_Waitall((int)(2 * a->g), req, MPI_STATUSES_IGNORE);
	return rc != MPI_SUCCESS ? rc : done;
}

const struct algo_op algo_pairwise = { .id = ALGO_PAIRWISE, .count_open = count_open,
				       .count_close = count_close, .call = call };
