/*
 * algo_alltoallv.c: MPI_Alltoallv, with equal counts (the v path of a plain
 * all-to-all) or --split's uneven ones. The counts and displacements are
 * made per count, outside the timing; when g x n passes INT_MAX the equal
 * blocks become one element of a contiguous datatype.
 */
#include "algo.h"
#include "world/failure.h"

#include <limits.h>
#include <stdlib.h>

struct vstate {
	MPI_Datatype type;         /* a->type, or the block as one element */
	int *counts, *displs;
	int *rcounts, *rdispls;    /* uneven: what this task receives; else counts, displs */
};

static int count_open(struct algo_call *a)
{
	struct vstate *v = calloc(1, sizeof(*v));
	int n = a->n, unit = (long)a->g * a->n <= INT_MAX;

	if (!v || !(v->counts = malloc(sizeof(int) * 4 * (size_t)a->g))) {
		free(v);
		return MPI_ERR_NO_MEM;
	}
	v->displs = v->counts + a->g;
	v->rcounts = a->v ? v->counts + 2 * a->g : v->counts;
	v->rdispls = a->v ? v->counts + 3 * a->g : v->displs;
	v->type = a->type;
	if (a->v) {
		v->type = MPI_LONG;
		for (long i = 0; i < a->g; i++) {
			v->counts[i] = (int)a->v->scounts[i];
			v->displs[i] = (int)a->v->sdispls[i];
			v->rcounts[i] = (int)a->v->rcounts[i];
			v->rdispls[i] = (int)a->v->rdispls[i];
		}
		a->state = v;
		return MPI_SUCCESS;
	}
	if (!unit) {
		MPI_MUST(MPI_Type_contiguous(a->n, a->type, &v->type));
		MPI_MUST(MPI_Type_commit(&v->type));
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
		MPI_MUST(MPI_Type_free(&v->type));
	free(v->counts);
	free(v);
	a->state = NULL;
}

static int call(struct algo_call *a)
{
	struct vstate *v = a->state;

	return MPI_Alltoallv(a->send, v->counts, v->displs, v->type, a->recv, v->rcounts,
			     v->rdispls, v->type, a->comm);
}

const struct algo_op algo_alltoallv = { .id = ALGO_ALLTOALLV, .count_open = count_open,
					.count_close = count_close, .call = call,
					.coll_counted = 1 };
