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

/* Collective: the best rate of NODELIMITS_COPY_REPS copies of n bytes every task starts together. */
static double best_of(const struct world *w, struct buffers *b, char *src, char *dst, size_t n,
		      int ok, int warm)
{
	double best = 0;

	for (int i = 0; i < NODELIMITS_COPY_REPS + warm; i++) {   /* a device's first copy warms it up */
		double t;
		MPI_MUST(MPI_Barrier(world_comm(w)));
		t = ok && n > 0 ? copy_once(b, src, dst, n) : -1;
		if (t > 0 && i >= warm && 2.0 * (double)n / t / 1e9 > best)
			best = 2.0 * (double)n / t / 1e9;
	}
	return best;
}

/*
 * The node's share first (host: buffers of its own, as small runs always
 * had), then, where the task's buffers are larger, doubling up to their
 * size on the buffers themselves (not yet filled): a limit measured at the
 * sizes the sweep moves, so no row beats it for want of a large enough copy.
 */
double buffers_copy_rate(const struct world *w, struct buffers *b, long *bytes)
{
	size_t n = copy_bytes(w), have = (size_t)b->longs * sizeof(long), next;
	int device = b->ops->copy != NULL;
	char *src = device ? NULL : malloc(n), *dst = device ? NULL : malloc(n);
	int ok = device || (src && dst);
	double best, r;

	if (device && n > have)
		n = have;
	if (!device && ok) {
		memset(src, 1, n);
		memset(dst, 0, n);
	}
	best = best_of(w, b, src, dst, n, ok, device);
	*bytes = (long)n;
	free(src);
	free(dst);
	/* every task doubles as often: the sizes follow the largest buffer of any */
	for (long most = (long)have; ; n = next) {
		MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_LONG, MPI_MAX, world_comm(w)));
		if ((size_t)most <= n)
			break;
		next = 2 * n < (size_t)most ? 2 * n : (size_t)most;
		r = best_of(w, b, (char *)b->send, (char *)b->recv, next <= have ? next : 0,
			    next <= have, device);
		if (r > best) {
			best = r;
			*bytes = (long)next;
		}
	}
	return best;
}
