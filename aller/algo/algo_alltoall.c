/* algo_alltoall.c: MPI_Alltoall, aller's original call. */
#include "algo.h"

static int call(struct algo_call *a)
{
#if MPI_VERSION >= 4
	if (a->big)
		return MPI_Alltoall_c(a->send, a->count, MPI_LONG, a->recv, a->count, MPI_LONG,
				      a->comm);
#endif
	return MPI_Alltoall(a->send, a->n, a->type, a->recv, a->n, a->type, a->comm);
}

const struct algo_op algo_alltoall = { .id = ALGO_ALLTOALL, .call = call, .large_counts = 1,
				       .coll_counted = 1 };
