/* algo.c: the table of algorithms (algo.h). */
#include "algo.h"

#include <math.h>

/*
 * ALLER_TEST_NCCL_STUB (algo_list.h): MPI_Alltoall under the nccl name, and
 * MPI_Alltoallv for --split's uneven blocks.
 */
static int stub_count_open(struct algo_call *a)
{
	return a->v ? algo_alltoallv.count_open(a) : MPI_SUCCESS;
}

static void stub_count_close(struct algo_call *a)
{
	if (a->v)
		algo_alltoallv.count_close(a);
}

static int stub_call(struct algo_call *a)
{
	return a->v ? algo_alltoallv.call(a) : algo_alltoall.call(a);
}

/* The stub's "stream": the exchange happens at once (MPI), the wait is nothing; no events. */
static int stub_enqueue(struct algo_call *a)
{
	return stub_call(a);
}

static int stub_sync(struct algo_call *a)
{
	a->stream_s = NAN;
	return MPI_SUCCESS;
}

static const struct algo_op algo_nccl_stub = { .id = ALGO_NCCL, .count_open = stub_count_open,
					       .count_close = stub_count_close, .call = stub_call,
					       .enqueue = stub_enqueue, .sync = stub_sync,
					       .large_counts = 1, .coll_counted = 1 };

const struct algo_op *algo_op(enum algo_id id)
{
#define ALGO_OP_(ID, name, can, per_peer, what) [ALGO_##ID] = &algo_##name,
	static const struct algo_op *const ops[ALGO_N] = {
		ALLER_MPI_ALGOS(ALGO_OP_)
#undef ALGO_OP_
#ifdef ALLER_NCCL
		[ALGO_NCCL] = &algo_nccl,
#endif
	};
	if (id == ALGO_NCCL && algo_nccl_stubbed())
		return &algo_nccl_stub;
	return id >= 0 && id < ALGO_N ? ops[id] : NULL;
}

#ifndef ALLER_NCCL
const char *algo_nccl_version(void)
{
	return algo_nccl_stubbed() ? "nccl (stub: MPI_Alltoall on host buffers, tests only)" : NULL;
}
#endif
