/* footprint.c: see footprint.h; each term names what it counts. */
#include "footprint.h"

#include "algo/algo_list.h"
#include "gpu.h"
#include "world/world.h"

#define MATRIX_MAX FOOTPRINT_MATRIX_MAX

void footprint_from(struct footprint_in *f, const struct options *o, long world, long nnodes)
{
	f->world = world;
	f->nnodes = nnodes;
	f->iters = options_calls_max(o);
	f->algo_per_peer = footprint_algo_per_peer(&o->algos);
	/* the tier is chosen later: the most an asked one may bind (pml: 4 counters) */
	f->reveal_vars = o->reveal == REVEAL_COLL ? 2
		       : o->reveal == REVEAL_OFF || o->reveal == REVEAL_GENERIC ? 0 : 4;
	f->queues = o->reveal == REVEAL_QUEUES;
	f->isolate_all = o->isolate == ISOLATE_ALL;
	f->uneven = options_uneven(o);
	f->devices = o->buffers == BUFFERS_CUDA;
	f->pairs = o->pairs > 0;
	f->weights = 0;
	for (int i = 0; i < o->nsplits; i++)   /* split_weights: N x N x matrices (0 but for files) */
		f->weights += (double)o->splits[i].n * (double)o->splits[i].n *
			      (double)o->splits[i].nmat * sizeof(double);
}

long footprint_algo_per_peer(const struct algo_list *l)
{
	long most = 0;

	for (int i = 0; i < l->n; i++)   /* alltoallv's counts and displacements, put's offsets (format.h) */
		most = algo_per_peer(l->id[i]) > most ? algo_per_peer(l->id[i]) : most;
	return most;
}

double footprint_task(const struct footprint_in *f)
{
	double g = (double)f->world, p = (double)f->world, bytes = 0;

	bytes += WORLD_NAME_MAX;                                  /* this task's host name */
	bytes += (double)f->nnodes / 8 + 8 * WORLD_NAME_MAX;     /* a communicator's hosts (timeouts) */
	bytes += 16.0 * (double)f->iters + 1024;                  /* a count's samples and maxima */
	bytes += 2.0 * ALGO_PAIRWISE_WINDOW * 8;                  /* pairwise's window of requests */
	bytes += (double)f->algo_per_peer * g;
	if (f->uneven)   /* the plan (positions, weights) and the four arrays of a layout */
		bytes += 6.0 * 8 * g;
	if (f->queues)   /* queue lengths, requests, stamps, observations */
		bytes += (2.0 * 4 + 2.0 * 8 + 2.0 * 8 + 8) * g;
	if (f->reveal_vars > 0)   /* MPI_T's array, the tracked deltas, a matrix row */
		bytes += 8 * p + 8.0 * f->reveal_vars * (p <= MATRIX_MAX ? p : g) + 16.0 * MATRIX_MAX;
	if (f->isolate_all)
		bytes += 16 * (p + 1);
	bytes += f->weights;   /* every task holds the files' running sums */
	return bytes;
}

double footprint_rank0(const struct footprint_in *f)
{
	double p = (double)f->world, n = (double)f->nnodes, m = p < MATRIX_MAX ? p : MATRIX_MAX;
	double bytes = WORLD_NAME_MAX * n;                       /* every host's name */

	bytes += (4 + 8) * p + 8 * (n + 1) + 64 * n;              /* the host map: nodes, ranks, text */
	if (f->devices)
		bytes += 2.0 * GPU_ID_MAX * p;
	if (f->reveal_vars > 0)
		bytes += 16 * m * m + 8 * m;
	if (f->pairs)   /* the gathered times, the bandwidths, the medians' scratch (twice) */
		bytes += (16 + 8 + 16) * p * p;
	return bytes;
}
