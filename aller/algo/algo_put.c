/*
 * algo_put.c: one-sided: every rank puts block i of its send buffer into
 * rank i's receive buffer, at its own block, between two MPI_Win_fence. The
 * window covers the receive buffer and is created once per level (the
 * communicator is new), outside the timing. With uneven blocks (--split)
 * each target's displacement of this task's block is asked of it once per
 * count (MPI_Alltoall of one long), outside the timing.
 *
 * Under Open MPI 4 aller chooses the osc component (osc.h) before MPI_Init
 * unless OMPI_MCA_osc is set; where the user's choice allows osc rdma, the
 * levels it cannot serve (commsize 1, or two communicators on one node) are
 * refused before MPI_Win_create, by every task of a communicator alike.
 */
#include "algo.h"

#include <stdio.h>
#include <stdlib.h>

#include "osc.h"
#include "world/failure.h"

#if defined(OPEN_MPI) && defined(OMPI_MAJOR_VERSION)
#define OMPI_MAJOR OMPI_MAJOR_VERSION
#else
#define OMPI_MAJOR 0
#endif

static const char *osc_set;   /* what aller set OMPI_MCA_osc to, or NULL */

void algo_put_prepare(void)
{
	const char *osc = osc_choice(getenv("OMPI_MCA_osc"), OMPI_MAJOR);

	if (osc && setenv("OMPI_MCA_osc", osc, 1) == 0)
		osc_set = osc;
}

const char *algo_put_osc(void)
{
	static char note[256];
	const char *env = getenv("OMPI_MCA_osc");

	if (OMPI_MAJOR == 0)
		return NULL;
	if (osc_set)
		snprintf(note, sizeof(note), "%s (set by aller: OMPI_MCA_osc was unset; Open MPI %d's "
			 "osc rdma cannot make every window put needs)", osc_set, OMPI_MAJOR);
	else
		snprintf(note, sizeof(note), "%s (OMPI_MCA_osc%s)", env && *env ? env : "default",
			 env && *env ? ", the user's" : " unset");
	return note;
}

/*
 * Collective over the world: why osc rdma cannot serve this level, agreed by
 * the communicator's tasks, or NULL. A node is shared when its tasks belong
 * to more than one communicator.
 */
static const char *rdma_refusal(const struct algo_call *a)
{
	MPI_Comm node;
	int mine[2] = { (int)a->color, -(int)a->color }, seen[2] = { 0, 0 }, why;

	if (!osc_rdma_possible(getenv("OMPI_MCA_osc"), OMPI_MAJOR))
		return NULL;
	if (MPI_Comm_split_type(a->world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
	    MPI_SUCCESS) {
		MPI_MUST(MPI_Allreduce(mine, seen, 2, MPI_INT, MPI_MIN, node));
		MPI_MUST(MPI_Comm_free(&node));
	}
	why = a->g == 1 ? 1 : seen[0] != -seen[1] ? 2 : 0;
	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &why, 1, MPI_INT, MPI_MAX, a->comm));
	if (why == 1)
		return "Open MPI's osc rdma cannot make a window on one task (open-mpi/ompi#10726); "
		       "unset OMPI_MCA_osc (aller then chooses pt2pt) or set it to pt2pt";
	if (why == 2)
		return "Open MPI's osc rdma names a window's shared memory by its communicator's id, "
		       "which the concurrent communicators of a node share: their windows collide "
		       "(MPI_Put hangs); unset OMPI_MCA_osc (aller then chooses pt2pt) or set it to "
		       "pt2pt";
	return NULL;
}

static int level_open(struct algo_call *a)
{
	MPI_Win *win = malloc(sizeof(*win));
	int rc;

	if (!win)
		return MPI_ERR_NO_MEM;
	if ((a->hint = rdma_refusal(a)) != NULL) {
		free(win);
		return MPI_ERR_WIN;
	}
	rc = MPI_Win_create(a->recv, (MPI_Aint)a->longs * (MPI_Aint)sizeof(long), 1, MPI_INFO_NULL,
			    a->comm, win);
	if (rc != MPI_SUCCESS) {
		free(win);
		return rc;
	}
	MPI_MUST(MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN));
	a->level = win;
	return MPI_SUCCESS;
}

static void level_close(struct algo_call *a)
{
	MPI_Win *win = a->level;

	if (win)
		MPI_MUST(MPI_Win_free(win));
	free(win);
	a->level = NULL;
}

/* Uneven blocks: where this task's block lands in each target's receive buffer. */
static int count_open(struct algo_call *a)
{
	long *at;
	int rc;

	if (!a->v)
		return MPI_SUCCESS;
	if (!(at = malloc(sizeof(long) * (size_t)a->g)))
		return MPI_ERR_NO_MEM;
	rc = MPI_Alltoall(a->v->rdispls, 1, MPI_LONG, at, 1, MPI_LONG, a->comm);
	if (rc != MPI_SUCCESS) {
		free(at);
		return rc;
	}
	a->state = at;
	return MPI_SUCCESS;
}

static void count_close(struct algo_call *a)
{
	free(a->state);
	a->state = NULL;
}

static int call(struct algo_call *a)
{
	MPI_Win win = *(MPI_Win *)a->level;
	MPI_Aint at = ((MPI_Aint)a->at + (MPI_Aint)a->rank * a->count) * (MPI_Aint)sizeof(long);
	const long *disp = a->state;
	int rc = MPI_Win_fence(MPI_MODE_NOPRECEDE, win);

	for (long i = 0; i < a->g && rc == MPI_SUCCESS; i++) {
		long to = (a->rank + i) % a->g;   /* spread the targets, as pairwise does */
		if (a->v)
			rc = MPI_Put(a->send + a->v->sdispls[to], (int)a->v->scounts[to], MPI_LONG,
				     (int)to, ((MPI_Aint)a->at + disp[to]) * (MPI_Aint)sizeof(long),
				     (int)a->v->scounts[to], MPI_LONG, win);
		else
			rc = MPI_Put(a->send + to * a->count, a->n, a->type, (int)to, at, a->n,
				     a->type, win);
	}
	if (rc != MPI_SUCCESS)
		return rc;
	return MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
}

const struct algo_op algo_put = { .id = ALGO_PUT, .level_open = level_open,
				  .level_close = level_close, .count_open = count_open,
				  .count_close = count_close, .call = call };
