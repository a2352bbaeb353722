/* setup.c: see setup.h. */
#include "setup.h"
#include "text.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include "footprint.h"
#include "gpu.h"
#include "memcheck.h"
#include "world/failure.h"
#include "world/world_comm.h"

/* What the MPI library's own query says of device pointers, and its name (NULL: none). */
static enum gpu_query query_cuda(const char **name)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT)
	*name = "MPIX_Query_cuda_support()";
	return MPIX_Query_cuda_support() ? GPU_QUERY_YES : GPU_QUERY_NO;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
	int yes = 0;
	*name = "MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA)";
	return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &yes) == MPI_SUCCESS && yes
		       ? GPU_QUERY_YES : GPU_QUERY_NO;
#else
	*name = NULL;
	return GPU_QUERY_NONE;
#endif
}

/*
 * Collective: one device per rank, by the ids each rank of a node sees
 * (gpu_assign); ranks that share a device are a warning, or with strict
 * (NCCL, which cannot) an error. 0 or 3.
 */
static int pick_device(const struct world *w, struct buffers *b, int strict)
{
	struct gpu_seen mine, *all = NULL;
	int *pick = NULL, shared = 0, failed, sharers = 0;
	char err[512] = "";
	MPI_Comm node;

	memset(&mine, 0, sizeof(mine));
	failed = b->ops->visible(b, &mine, err, sizeof(err)) != 0;
	if (failure_agree(w, failed, err))
		return 3;
	all = malloc(sizeof(*all) * (size_t)w->local_size);
	pick = malloc(sizeof(int) * (size_t)w->local_size);
	if (failure_agree(w, !all || !pick, "out of memory for the devices of the node")) {
		free(all);
		free(pick);
		return 3;
	}
	MPI_MUST(MPI_Comm_split_type(world_comm(w), MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &node));
	MPI_MUST(MPI_Allgather(&mine, (int)sizeof(mine), MPI_BYTE, all, (int)sizeof(mine), MPI_BYTE, node));
	MPI_MUST(MPI_Comm_free(&node));
	shared = gpu_assign(w->local_size, all, pick);
	for (int r = 0; r < w->local_size; r++)
		sharers += pick[r] >= 0 && pick[w->local_rank] >= 0 &&
			   strcmp(all[r].id[pick[r]], all[w->local_rank].id[pick[w->local_rank]]) == 0;
	b->device_sharers = sharers;
	failed = pick[w->local_rank] < 0;
	snprintf(err, sizeof(err), "no usable CUDA device: none visible");
	if (!failed)
		failed = b->ops->select(b, pick[w->local_rank], err, sizeof(err)) != 0;
	free(all);
	free(pick);
	if (failure_agree(w, failed, err))
		return 3;
	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &shared, 1, MPI_INT, MPI_SUM, world_comm(w)));
	if (strict && shared > 0) {
		if (w->rank == 0)
			text_error(0, "aller: error: %d rank(s) share their GPU with another rank of "
				"their node, which NCCL cannot: give each rank a GPU of its own "
				"(--gpus-per-task=1), or fewer ranks per node\n", shared);
		return 3;
	}
	if (shared > 0 && w->rank == 0)
		text_error(0, "aller: warning: %d rank(s) share their GPU with another rank of "
			"their node (the header's device lines say which): give each rank a GPU "
			"of its own (--gpus-per-task=1), or fewer ranks per node\n", shared);
	return 0;
}

/*
 * Collective: whether every rank's buffers (longs each) fit, before any rank
 * allocates, with aller's own state in host memory (footprint.h: rank 0's
 * besides on its node); 0 or -1.
 */
static int fits(const struct options *o, const struct world *w, const struct buffers *b,
		long longs)
{
	char err[512] = "", what[64];
	struct footprint_in f;
	double available, state = 0;
	int sharers;

	b->ops->available(b, w->local_size, &available, &sharers, what, sizeof(what));
	footprint_from(&f, o, w->size, w->nnodes);
	if (b->device < 0)
		state = footprint_task(&f) + (w->node == 0 ? footprint_rank0(&f) / sharers : 0);
	return failure_agree(w, memcheck(longs, sharers, state, available, what, world_host(w),
					      err, sizeof(err)) != 0, err) ? -1 : 0;
}

/*
 * Collective: the longs of each buffer, LONGS and with --cold-cache a ring
 * as large as BYTES or the largest last-level cache of any task (sysfs),
 * said in b->cache; 0, or 2 when no task knows its cache (rank 0 says so).
 */
static int buffer_longs(const struct options *o, const struct world *w, struct buffers *b,
			long *longs)
{
	long bytes = o->cold_cache;
	const char *from = "sysfs";
	int level = 0;

	*longs = o->longs;
	if (o->cold_cache < 0) {
		snprintf(b->cache, sizeof(b->cache), "hot (every call reuses one pair of buffers)");
		return 0;
	}
	if (bytes == 0) {
		bytes = memcheck_llc_any("/sys/devices/system/cpu/cpu0/cache", &level, sysconf, &from);
		MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_LONG, MPI_MAX, world_comm(w)));
		MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &level, 1, MPI_INT, MPI_MAX, world_comm(w)));
		if (bytes <= 0) {
			if (w->rank == 0)
				text_error(0, "aller: error: '--cold-cache' found no last-level cache "
					"size in /sys/devices/system/cpu/cpu0/cache or sysconf: give one, "
					"--cold-cache=BYTES (e.g. 32M)\n");
			return 2;
		}
	}
	*longs += (bytes + (long)sizeof(long) - 1) / (long)sizeof(long);
	snprintf(b->cache, sizeof(b->cache), "cold: each call its own slot of a ring of LONGS + %ld "
		 "longs per buffer (%ld bytes beyond LONGS: %s%s), slots of the count's blocks, in "
		 "turn", *longs - o->longs, bytes, o->cold_cache > 0 ? "--cold-cache's" : level == 3 ?
		 "the largest L3 cache of the tasks, " : "the largest last-level cache of the tasks, ",
		 o->cold_cache > 0 ? "" : from);
	return 0;
}

int buffers_setup(const struct options *o, const struct world *w, struct buffers *b,
			 char *aware, size_t awarelen)
{
	char err[512] = "";
	int failed;
	long longs;
	const char *query;

	memset(b, 0, sizeof(*b));
	b->ops = o->buffers == BUFFERS_CUDA ? buffers_cuda_ops() : &buffers_host_ops;
	if (!b->ops) {
		if (w->rank == 0)
			text_error(0, "aller: error: %s\n", BUFFERS_NO_CUDA);
		return 2;
	}
	failed = b->ops->init(b, err, sizeof(err)) != 0;
	if (failure_agree(w, failed, err))
		return 3;
	if (b->ops->visible && pick_device(w, b, o->transport == TRANSPORT_NCCL) != 0)
		return 3;
	if (o->transport == TRANSPORT_NCCL)
		snprintf(aware, awarelen, "not needed (NCCL moves the data; MPI only bootstraps)");
	else if (o->buffers == BUFFERS_CUDA) {
		enum gpu_query q = query_cuda(&query);
		failed = !gpu_mpi_takes_cuda(query, q, o->cuda_aware ? GPU_AWARE_YES : GPU_AWARE_AUTO,
					     aware, awarelen);
		if (failure_agree(w, failed, aware))
			return 3;
	}
	if ((failed = buffer_longs(o, w, b, &longs)) != 0)
		return failed;
	if (fits(o, w, b, longs) != 0)
		return 3;
	failed = b->ops->alloc(b, longs, err, sizeof(err)) != 0;
	if (failure_agree(w, failed, err))
		return 3;
	return 0;
}
