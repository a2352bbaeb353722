/*
 * algo_persistent.c: a persistent all-to-all, created once per count outside
 * the timing, then MPI_Start and MPI_Wait per call: MPI_Alltoall_init (MPI-4)
 * or Open MPI's MPIX_Alltoall_init (mpiext pcollreq). Where neither exists,
 * algo_unavailable() refuses it before MPI starts.
 */
#include "algo.h"
#include "world/failure.h"

#include <stdlib.h>

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#if MPI_VERSION >= 4
#define ALLTOALL_INIT MPI_Alltoall_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define ALLTOALL_INIT MPIX_Alltoall_init
#endif

static int count_open(struct algo_call *a)
{
#ifdef ALLTOALL_INIT
	MPI_Request *req = malloc(sizeof(*req));
	int rc;

	if (!req)
		return MPI_ERR_NO_MEM;
	rc = ALLTOALL_INIT(a->send, a->n, a->type, a->recv, a->n, a->type, a->comm, MPI_INFO_NULL,
			   req);
	if (rc != MPI_SUCCESS) {
		free(req);
		return rc;
	}
	a->state = req;
	return MPI_SUCCESS;
#else
	(void)a;
	return MPI_ERR_UNSUPPORTED_OPERATION;
#endif
}

static void count_close(struct algo_call *a)
{
	MPI_Request *req = a->state;

	if (req)
		MPI_MUST(MPI_Request_free(req));
	free(req);
	a->state = NULL;
}

static int call(struct algo_call *a)
{
	MPI_Request *req = a->state;
	int rc = MPI_Start(req);

	return rc == MPI_SUCCESS ? MPI_Wait(req, MPI_STATUS_IGNORE) : rc;
}

const struct algo_op algo_persistent = { .id = ALGO_PERSISTENT, .count_open = count_open,
					 .count_close = count_close, .call = call };
