/* gpu.c: see gpu.h. */
#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_id(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Whether two ranks see the same set of devices (in any order). */
static int same_set(const struct gpu_seen *a, const struct gpu_seen *b)
{
	char x[GPU_MAX_VISIBLE][GPU_ID_MAX], y[GPU_MAX_VISIBLE][GPU_ID_MAX];

	if (a->n != b->n)
		return 0;
	memcpy(x, a->id, sizeof(x[0]) * (size_t)a->n);
	memcpy(y, b->id, sizeof(y[0]) * (size_t)b->n);
	qsort(x, (size_t)a->n, sizeof(x[0]), cmp_id);
	qsort(y, (size_t)b->n, sizeof(y[0]), cmp_id);
	return memcmp(x, y, sizeof(x[0]) * (size_t)a->n) == 0;
}

int gpu_assign(int nranks, const struct gpu_seen *seen, int *pick)
{
	int shared = 0;

	for (int r = 0; r < nranks; r++) {
		int before = 0, first = r;
		const char *id;
		for (int q = r - 1; q >= 0; q--)
			if (same_set(&seen[q], &seen[r])) {
				before++;
				first = q;
			}
		pick[r] = -1;
		if (seen[r].n == 0)
			continue;
		/* the group's devices in its first rank's order, then where that is in ours */
		id = seen[first].id[before % seen[r].n];
		for (int i = 0; i < seen[r].n; i++)
			if (strcmp(seen[r].id[i], id) == 0)
				pick[r] = i;
	}
	for (int r = 0; r < nranks; r++) {
		for (int q = 0; q < r && pick[r] >= 0; q++)
			if (pick[q] >= 0 && strcmp(seen[q].id[pick[q]], seen[r].id[pick[r]]) == 0) {
				shared++;
				break;
			}
	}
	return shared;
}

int gpu_mpi_takes_cuda(const char *query_name, enum gpu_query q, enum gpu_aware_opt o,
		       char *how, size_t len)
{
	if (o == GPU_AWARE_YES) {
		if (q == GPU_QUERY_NO)
			snprintf(how, len, "yes (--cuda-aware=yes; the library's %s answers 0)",
				 query_name);
		else
			snprintf(how, len, "yes (--cuda-aware=yes, not asked of the library)");
		return 1;
	}
	if (q == GPU_QUERY_YES) {
		snprintf(how, len, "yes (%s answers 1)", query_name);
		return 1;
	}
	if (q == GPU_QUERY_NO)
		snprintf(how, len, "the MPI library is not CUDA-aware (%s answers 0): use a "
			 "CUDA-aware MPI, --buffers=host, or --cuda-aware=yes if it is one that "
			 "answers wrongly", query_name);
	else
		snprintf(how, len, "cannot tell whether the MPI library is CUDA-aware (it has no "
			 "query: Open MPI's MPIX_Query_cuda_support or MPICH's "
			 "MPIX_GPU_query_support): give --cuda-aware=yes if it is, or use "
			 "--buffers=host");
	return 0;
}
