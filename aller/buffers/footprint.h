/*
 * footprint.h: the bytes aller keeps beside its two buffers, as pure
 * arithmetic, for the memory check (memcheck.h) and the scale test.
 *
 * Per task, at its largest level (the communicator of g = the world's P
 * tasks at level 0): what grows with g is what the sweep needs (MPI's
 * per-peer counts of alltoallv, a --split's blocks, put's targets, the
 * queues pass's per-peer state); what grows with P is --reveal's counters
 * (MPI_T reads one array of P per counter) and --isolate=all's sums per
 * communicator (P communicators at the last level). Peers are computed,
 * not stored; host names are rank 0's alone, which also keeps the host map.
 */
#ifndef ALLER_FOOTPRINT_H
#define ALLER_FOOTPRINT_H

#include "algo/algo_list.h"
#include "options.h"

/* reveal_impl.h's REVEAL_MATRIX_MAX, the largest traffic matrix (it checks they agree) */
#define FOOTPRINT_MATRIX_MAX 256

struct footprint_in {
	long world, nnodes, iters;
	long algo_per_peer;   /* footprint_algo_per_peer */
	int reveal_vars;      /* --reveal's per-peer counters: 4 (pml), 2 (coll), 0 */
	int queues, isolate_all, uneven, devices;
	int pairs;            /* --pairs: rank 0 keeps the matrix */
	double weights;       /* --split=matrix: and trace: files' weights, loaded (split_weights) */
};

/* What the options ask for, in a world of `world` tasks on `nnodes` nodes. */
void footprint_from(struct footprint_in *f, const struct options *o, long world, long nnodes);
/* Bytes per peer of the largest per-count state of the algorithms asked for. */
long footprint_algo_per_peer(const struct algo_list *l);
/* Any task's bytes beside its buffers, at its largest level. */
double footprint_task(const struct footprint_in *f);
/* What rank 0 keeps besides: names, the host map, --reveal's matrix. */
double footprint_rank0(const struct footprint_in *f);

#endif
