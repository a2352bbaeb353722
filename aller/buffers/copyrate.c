/* copyrate.c: see copyrate.h. */
#include "copyrate.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "world/failure.h"
#include "world/nodelimits.h"
#include "world/world.h"
#include "world/world_comm.h"

#define COPY_NODE_BYTES (64L << 20)   /* source (and destination) of a node's tasks together */
#define COPY_MIN_BYTES (1L << 20)

/* This task's copy size: the node's share, at least COPY_MIN_BYTES. */
static size_t copy_bytes(const struct world *w)
{
	long n = COPY_NODE_BYTES / (w->local_size > 0 ? w->local_size : 1);

	return (size_t)(n < COPY_MIN_BYTES ? COPY_MIN_BYTES : n);
}

/* One copy of n bytes: the device's own (timed there), else memcpy; seconds, -1 on an error. */
static double copy_once(struct buffers *b, char *src, char *dst, size_t n)
{
	double t;

	if (b->ops->copy)
		return b->ops->copy(b, (long)n);
	t = MPI_Wtime();
	memcpy(dst, src, n);
	__asm__ volatile("" : : "r"(dst) : "memory");   /* the copy is not elided */
	return MPI_Wtime() - t;
}

double buffers_copy_rate(const struct world *w, struct buffers *b, long *bytes)
{
	size_t n = copy_bytes(w), have = (size_t)b->longs * sizeof(long);
	int device = b->ops->copy != NULL;
	char *src = device ? NULL : malloc(n), *dst = device ? NULL : malloc(n);
	int ok = device || (src && dst);
	double best = 0;

	if (device && n > have)
		n = have;
	if (!device && ok) {
		memset(src, 1, n);
		memset(dst, 0, n);
	}
	*bytes = (long)n;
	for (int i = 0; i < NODELIMITS_COPY_REPS + device; i++) {   /* a device's first copy warms it up */
		double t;
		MPI_MUST(MPI_Barrier(world_comm(w)));
		t = ok && n > 0 ? copy_once(b, src, dst, n) : -1;
		if (t > 0 && i >= device && 2.0 * (double)n / t / 1e9 > best)
			best = 2.0 * (double)n / t / 1e9;
	}
	free(src);
	free(dst);
	return best;
}

