/*
 * gpu.h: GPUs as pure logic, without CUDA or MPI: which device each rank of
 * a node takes, and whether the MPI library may
 * be given device pointers. buffers_cuda.cu and run.c feed it what CUDA and
 * MPI say; the unit tests feed it cases.
 */
#ifndef ALLER_GPU_H
#define ALLER_GPU_H

#include <stddef.h>

#include "world/hostmap.h"   /* GPU_ID_MAX */

#define GPU_MAX_VISIBLE 32   /* devices one rank may see */

/* What one rank of a node sees: its visible devices' ids, in CUDA's order. */
struct gpu_seen {
	int n;
	char id[GPU_MAX_VISIBLE][GPU_ID_MAX];
};

/*
 * The device of each rank of one node (seen[0..nranks-1] in local rank
 * order): ranks that see the same set of GPUs form a group, and a rank takes
 * the device at its index within its group modulo the group's device count;
 * pick[r] is that index in its own visible list (-1 when it sees none).
 * With --gpu-bind=closest and tasks alternating sockets, ranks 0,2,4,6 see
 * one socket's GPUs and take one each. Returns the number of ranks whose
 * device a rank before them already took (0: one rank per GPU).
 */
int gpu_assign(int nranks, const struct gpu_seen *seen, int *pick);

/* What the library's own query said of device pointers. */
enum gpu_query { GPU_QUERY_NONE, GPU_QUERY_NO, GPU_QUERY_YES };
/* --cuda-aware: ask the library (auto), or take the user's word (yes). */
enum gpu_aware_opt { GPU_AWARE_AUTO, GPU_AWARE_YES };

/*
 * Whether the MPI library takes device pointers: 1 with what the header
 * says (how), or 0 with why not (a one-line message). query_name is the
 * call asked ("MPIX_Query_cuda_support()"), or NULL when the library has none.
 */
int gpu_mpi_takes_cuda(const char *query_name, enum gpu_query q, enum gpu_aware_opt o,
		       char *how, size_t len);

#endif
