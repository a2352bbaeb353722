/* algo.c: the table of algorithms (algo.h). */
#include "algo.h"

const struct algo_op *algo_op(enum algo_id id)
{
	static const struct algo_op *const ops[ALGO_N] = {
		[ALGO_ALLTOALL] = &algo_alltoall, [ALGO_IALLTOALL] = &algo_ialltoall,
		[ALGO_PERSISTENT] = &algo_persistent, [ALGO_ALLTOALLV] = &algo_alltoallv,
		[ALGO_PAIRWISE] = &algo_pairwise, [ALGO_PUT] = &algo_put,
#ifdef ALLER_NCCL
		[ALGO_NCCL] = &algo_nccl,
#endif
	};
	return id >= 0 && id < ALGO_N ? ops[id] : NULL;
}

#ifndef ALLER_NCCL
const char *algo_nccl_version(void)
{
	return NULL;
}
#endif
