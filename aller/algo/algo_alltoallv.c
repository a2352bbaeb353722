/*
 * algo_alltoallv.c: MPI_Alltoallv with equal counts, to exercise the v path.
 * The counts and displacements are made per count, outside the timing; when
 * g x n passes INT_MAX the blocks become one element of a resized datatype.
 */
#include "algo.h"

#include <limits.h>
#include <stdlib.h>

struct vstate {
	MPI_Datatype type;         /* a->type, or the block as one element */
	int *counts, *displs;
};

static int count_open(struct algo_call *a)
{
	struct vstate *v = calloc(1, sizeof(*v));
	int n = a->n, unit = (long)a->g * a->n <= INT_MAX;

	if (!v || !(v->counts = malloc(sizeof(int) * (size_t)a->g)) ||
	    !(v->displs = malloc(sizeof(int) * (size_t)a->g))) {
		if (v)
			free(v->counts);
		free(v);
		return MPI_ERR_NO_MEM;
	}
	v->type = a->type;
	if (!unit) {
		MPI_Type_contiguous(a->n, a->type, &v->type);
		MPI_Type_commit(&v->type);
		n = 1;
	}
	for (long i = 0; i < a->g; i++) {
		v->counts[i] = n;
		v->displs[i] = (int)i * n;
	}
	a->state = v;
	return MPI_SUCCESS;
}

static void count_close(struct algo_call *a)
{
	struct vstate *v = a->state;

	if (!v)
		return;
	if (v->type != a->type)
		MPI_Type_free(&v->type);
	free(v->counts);
	free(v->displs);
	free(v);
	a->state = NULL;
}

static int call(struct algo_call *a)
{
	struct vstate *v = a->state;

	return MPI_Alltoallv(a->send, v->counts, v->displs, v->type, a->recv, v->counts, v->displs,
			     v->type, a->comm);
}

const struct algo_op algo_alltoallv = { .id = ALGO_ALLTOALLV, .count_open = count_open,
					.count_close = count_close, .call = call,
					.coll_counted = 1 };
