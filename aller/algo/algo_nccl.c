/*
 * algo_nccl.c (make CUDA=1 NCCL=1): the exchange by NCCL, --transport=nccl.
 * MPI only bootstraps: rank 0's unique id is broadcast and every rank joins
 * one NCCL communicator of the world, once; each level splits it with
 * ncclCommSplit by the same colours and keys as the MPI partition. A call is
 * ncclAlltoAll on the rank's stream (grouped ncclSend/ncclRecv where the
 * library predates it), timed by MPI_Wtime until the stream is done: host
 * time around the whole exchange, as the MPI algorithms are timed (CUDA
 * events would leave out the launch and the wait, and need the stream's own
 * clock to be compared across ranks). The wait polls the stream and
 * ncclCommGetAsyncError: a communicator that failed (a peer gone, a network
 * error) is aborted and the call fails, rather than waiting for ever; a call
 * that only hangs is ended by --timeout's alarm, as any other.
 * --split's uneven blocks go as grouped ncclSend/ncclRecv of their own sizes.
 * --timing=nccl (nccl-tests' loop): ITERS exchanges enqueued back to back on
 * the stream and one wait, the batch's stream time from two CUDA events.
 * No MPI call touches device memory, so the MPI library need not be CUDA-aware.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

#include "algo.h"
#include "world/failure.h"
#include "text.h"

static ncclComm_t world;
static cudaStream_t stream;
static int ready;
static cudaEvent_t ev_start, ev_end;   /* --timing=nccl's batch on the stream */
static int events, batch;

/* A failed NCCL or CUDA call: one line from this rank, and an MPI error code for the harness. */
static int failed(const char *what, const char *why)
{
	int rank = 0;

	MPI_MUST(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	text_error(0, "aller: error: rank %d: %s: %s\n", rank, what, why);
	return MPI_ERR_OTHER;
}

#define NCCL_OK(call, what)                                                    \
	do {                                                                   \
		ncclResult_t r_ = (call);                                      \
		if (r_ != ncclSuccess)                                         \
			return failed(what, ncclGetErrorString(r_));           \
	} while (0)
#define CUDA_OK(call, what)                                                    \
	do {                                                                   \
		cudaError_t e_ = (call);                                       \
		if (e_ != cudaSuccess)                                         \
			return failed(what, cudaGetErrorString(e_));           \
	} while (0)

/* Collective on MPI_COMM_WORLD, once: the world's NCCL communicator. */
static int world_open(void)
{
	ncclUniqueId id;
	int rank, size, rc;

	MPI_MUST(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	MPI_MUST(MPI_Comm_size(MPI_COMM_WORLD, &size));
	if (rank == 0)
		NCCL_OK(ncclGetUniqueId(&id), "ncclGetUniqueId");
	rc = MPI_Bcast(&id, (int)sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS)
		return rc;
	CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
	NCCL_OK(ncclCommInitRank(&world, size, id, rank), "ncclCommInitRank");
	ready = 1;
	return MPI_SUCCESS;
}

static int level_open(struct algo_call *a)
{
	ncclComm_t *comm = malloc(sizeof(*comm));
	int rc = ready ? MPI_SUCCESS : world_open();

	if (!comm)
		return MPI_ERR_NO_MEM;
	if (rc != MPI_SUCCESS) {
		free(comm);
		return rc;
	}
	if (ncclCommSplit(world, (int)a->color, (int)a->rank, comm, NULL) != ncclSuccess) {
		free(comm);
		return failed("ncclCommSplit", "the level's communicators");
	}
	a->level = comm;
	return MPI_SUCCESS;
}

static void level_close(struct algo_call *a)
{
	ncclComm_t *comm = a->level;

	if (comm)
		ncclCommDestroy(*comm);
	free(comm);
	a->level = NULL;
}

/* Until the stream is done, or the communicator failed (then aborted). */
static int wait_done(const struct algo_call *a)
{
	const ncclComm_t *comm = a->level;

	for (;;) {
		ncclResult_t async = ncclSuccess;
		cudaError_t e = cudaStreamQuery(stream);
		if (e == cudaSuccess)
			return MPI_SUCCESS;
		if (e != cudaErrorNotReady)
			return failed("the NCCL stream", cudaGetErrorString(e));
		if (ncclCommGetAsyncError(*comm, &async) == ncclSuccess && async != ncclSuccess &&
		    async != ncclInProgress) {
			ncclCommAbort(*comm);   /* the harness ends the run (MPI_Abort) next */
			return failed("ncclAlltoAll (communicator aborted)", ncclGetErrorString(async));
		}
	}
}

/* --split's uneven blocks: grouped ncclSend/ncclRecv, each block its own size (0: none); posted. */
static int call_uneven(struct algo_call *a, ncclComm_t comm)
{
	const struct split_layout *v = a->v;

	NCCL_OK(ncclGroupStart(), "ncclGroupStart");
	for (long k = 0; k < a->g; k++) {
		if (v->scounts[k] > 0)
			NCCL_OK(ncclSend(a->send + v->sdispls[k], (size_t)v->scounts[k], ncclInt64,
					 (int)k, comm, stream), "ncclSend");
		if (v->rcounts[k] > 0)
			NCCL_OK(ncclRecv(a->recv + v->rdispls[k], (size_t)v->rcounts[k], ncclInt64,
					 (int)k, comm, stream), "ncclRecv");
	}
	NCCL_OK(ncclGroupEnd(), "ncclGroupEnd");
	return MPI_SUCCESS;
}

/* One exchange onto the stream; nothing waited for. */
static int post(struct algo_call *a)
{
	ncclComm_t comm = *(ncclComm_t *)a->level;

	if (a->v)
		return call_uneven(a, comm);
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
	NCCL_OK(ncclAlltoAll(a->send, a->recv, (size_t)a->count, ncclInt64, comm, stream),
		"ncclAlltoAll");
#else
	NCCL_OK(ncclGroupStart(), "ncclGroupStart");
	for (long k = 0; k < a->g; k++) {
		NCCL_OK(ncclSend(a->send + k * a->count, (size_t)a->count, ncclInt64, (int)k, comm,
				 stream), "ncclSend");
		NCCL_OK(ncclRecv(a->recv + k * a->count, (size_t)a->count, ncclInt64, (int)k, comm,
				 stream), "ncclRecv");
	}
	NCCL_OK(ncclGroupEnd(), "ncclGroupEnd");
#endif
	return MPI_SUCCESS;
}

static int call(struct algo_call *a)
{
	int rc = post(a);

	return rc == MPI_SUCCESS ? wait_done(a) : rc;
}

/* --timing=nccl: the first exchange of a batch records the start event. */
static int enqueue(struct algo_call *a)
{
	if (!batch) {
		if (!events) {
			CUDA_OK(cudaEventCreate(&ev_start), "cudaEventCreate");
			CUDA_OK(cudaEventCreate(&ev_end), "cudaEventCreate");
			events = 1;
		}
		CUDA_OK(cudaEventRecord(ev_start, stream), "cudaEventRecord");
		batch = 1;
	}
	return post(a);
}

/* ... and one wait for the batch: its time on the stream from the two events. */
static int sync_batch(struct algo_call *a)
{
	float ms = 0;
	int rc;

	a->stream_s = NAN;
	if (!batch)
		return MPI_SUCCESS;
	batch = 0;
	CUDA_OK(cudaEventRecord(ev_end, stream), "cudaEventRecord");
	if ((rc = wait_done(a)) != MPI_SUCCESS)
		return rc;
	CUDA_OK(cudaEventElapsedTime(&ms, ev_start, ev_end), "cudaEventElapsedTime");
	a->stream_s = ms / 1e3;
	return MPI_SUCCESS;
}

const char *algo_nccl_version(void)
{
	static char text[32];
	int v = 0;

	if (algo_nccl_stubbed())
		return "nccl (stub: MPI_Alltoall on host buffers, tests only)";
	if (ncclGetVersion(&v) != ncclSuccess)
		return "nccl (version unknown)";
	/* 22809: 2.28.9 */
	snprintf(text, sizeof(text), "nccl %d.%d.%d", v / 10000, v / 100 % 100, v % 100);
	return text;
}

/* The whole count moves as one ncclInt64 count (size_t): no derived datatype. */
const struct algo_op algo_nccl = { .id = ALGO_NCCL, .level_open = level_open,
				   .level_close = level_close, .call = call, .enqueue = enqueue,
				   .sync = sync_batch, .large_counts = 1 };
