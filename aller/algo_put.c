/*
 * algo_put.c: one-sided: every rank puts block i of its send buffer into
 * rank i's receive buffer, at its own block, between two MPI_Win_fence. The
 * window covers the receive buffer and is created once per level (the
 * communicator is new), outside the timing.
 *
 * Open MPI 4.1's osc rdma component (its default without UCX) cannot make a
 * window on one task (open-mpi/ompi#10726): there the failure's hint says
 * so, and how to choose another component.
 */
#include "algo.h"

#include <stdlib.h>

static int level_open(struct algo_call *a)
{
	MPI_Win *win = malloc(sizeof(*win));
	int rc;

	if (!win)
		return MPI_ERR_NO_MEM;
	rc = MPI_Win_create(a->recv, (MPI_Aint)a->longs * (MPI_Aint)sizeof(long), 1, MPI_INFO_NULL,
			    a->comm, win);
	if (rc != MPI_SUCCESS) {
		if (a->g == 1)
			a->hint = "MPI_Win_create on one task: with Open MPI 4.1 that is its osc "
				  "rdma component (open-mpi/ompi#10726): set OMPI_MCA_osc=pt2pt (or "
				  "ucx), or leave commsize 1 out with --commsizes";
		free(win);
		return rc;
	}
	MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN);
	a->level = win;
	return MPI_SUCCESS;
}

static void level_close(struct algo_call *a)
{
	MPI_Win *win = a->level;

	if (win)
		MPI_Win_free(win);
	free(win);
	a->level = NULL;
}

static int call(struct algo_call *a)
{
	MPI_Win win = *(MPI_Win *)a->level;
	MPI_Aint at = (MPI_Aint)a->rank * a->count * (MPI_Aint)sizeof(long);
	int rc = MPI_Win_fence(MPI_MODE_NOPRECEDE, win);

	for (long i = 0; i < a->g && rc == MPI_SUCCESS; i++) {
		long to = (a->rank + i) % a->g;   /* spread the targets, as pairwise does */
		rc = MPI_Put(a->send + to * a->count, a->n, a->type, (int)to, at, a->n, a->type, win);
	}
	if (rc != MPI_SUCCESS)
		return rc;
	return MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
}

const struct algo_op algo_put = { .id = ALGO_PUT, .level_open = level_open,
				  .level_close = level_close, .call = call };
