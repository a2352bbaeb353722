/* algo_ialltoall.c: MPI_Ialltoall, then MPI_Wait (no overlap: the cost of the request). */
#include "algo.h"

static int call(struct algo_call *a)
{
	MPI_Request req;
	int rc = MPI_Ialltoall(a->send, a->n, a->type, a->recv, a->n, a->type, a->comm, &req);

	return rc == MPI_SUCCESS ? MPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

const struct algo_op algo_ialltoall = { .id = ALGO_IALLTOALL, .call = call, .coll_counted = 1 };
