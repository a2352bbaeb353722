/* congest.c: --congestion's aggressors and the victims' side of it (see congest.h). */
#include "congest.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>

#include "algo/algo.h"
#include "world/failure.h"

#define CONGEST_TAG 4712
enum { CMD_START = 1, CMD_STOP, CMD_QUIT, CMD_RUNNING };

int congest_split(struct congest *c, const struct options *o, MPI_Comm *side)
{
	int rank, size;

	MPI_MUST(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	MPI_MUST(MPI_Comm_size(MPI_COMM_WORLD, &size));
	c->o = o;
	c->aggressor = options_aggressor(o, rank);
	c->victims_leader = c->aggressors_leader = -1;
	for (int r = 0; r < size; r++) {
		if (options_aggressor(o, r) && c->aggressors_leader < 0)
			c->aggressors_leader = r;
		if (!options_aggressor(o, r) && c->victims_leader < 0)
			c->victims_leader = r;
	}
	c->leader = rank == (c->aggressor ? c->aggressors_leader : c->victims_leader);
	return MPI_Comm_split(MPI_COMM_WORLD, c->aggressor, rank, side) == MPI_SUCCESS ? 0 : -1;
}

/* The leader's next command, to every aggressor. */
static int command(const struct congest *c, MPI_Comm side)
{
	int cmd = CMD_QUIT;

	if (c->leader)
		MPI_MUST(MPI_Recv(&cmd, 1, MPI_INT, c->victims_leader, CONGEST_TAG, MPI_COMM_WORLD,
				  MPI_STATUS_IGNORE));
	MPI_MUST(MPI_Bcast(&cmd, 1, MPI_INT, 0, side));
	return cmd;
}

/* Back to back until the victims say stop; the leader says when the first call is done. */
static void aggress(const struct congest *c, const struct algo_op *op, struct algo_call *a,
		    MPI_Comm side)
{
	int stop = 0, running = CMD_RUNNING, flag, cmd;

	for (long calls = 0; !stop; calls++) {
		op->call(a);
		if (c->leader && calls == 0)
			MPI_MUST(MPI_Send(&running, 1, MPI_INT, c->victims_leader, CONGEST_TAG, MPI_COMM_WORLD));
		if (c->leader) {
			MPI_MUST(MPI_Iprobe(c->victims_leader, CONGEST_TAG, MPI_COMM_WORLD, &flag,
					    MPI_STATUS_IGNORE));
			if (flag) {
				MPI_MUST(MPI_Recv(&cmd, 1, MPI_INT, c->victims_leader, CONGEST_TAG, MPI_COMM_WORLD,
						  MPI_STATUS_IGNORE));
				stop = 1;
			}
		}
		MPI_MUST(MPI_Bcast(&stop, 1, MPI_INT, 0, side));
	}
}

int congest_aggress(struct congest *c, MPI_Comm side)
{
	const struct algo_op *op = algo_op(c->o->congest_algo);
	long count = (c->o->congest_bytes + (long)sizeof(long) - 1) / (long)sizeof(long);
	struct algo_call a = { 0 };
	int rank, size, ok, cmd;

	MPI_MUST(MPI_Comm_rank(side, &rank));
	MPI_MUST(MPI_Comm_size(side, &size));
	a.comm = a.world = side;
	a.rank = rank;
	a.g = size;
	a.count = count;
	a.type = MPI_LONG;
	a.n = (int)count;
	a.longs = size * count;
	a.send = calloc((size_t)a.longs, sizeof(long));
	a.recv = calloc((size_t)a.longs, sizeof(long));
	ok = a.send && a.recv;
	if (ok && op->level_open)
		ok = op->level_open(&a) == MPI_SUCCESS;
	if (ok && op->count_open)
		ok = op->count_open(&a) == MPI_SUCCESS;
	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, side));
	if (!ok) {   /* the victims would measure no congestion: nothing is measured */
		if (rank == 0)
			text_error(0, "aller: error: --congestion: the aggressors cannot set up %s of "
				"%ld bytes per peer (out of memory?): use a smaller SIZE\n",
				algo_name(c->o->congest_algo), c->o->congest_bytes);
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	while ((cmd = command(c, side)) != CMD_QUIT)
		if (cmd == CMD_START)
			aggress(c, op, &a, side);
	if (op->count_close)
		op->count_close(&a);
	if (op->level_close)
		op->level_close(&a);
	free(a.send);
	free(a.recv);
	return 0;
}

void congest_start(const struct congest *c, MPI_Comm victims)
{
	int cmd = CMD_START;

	if (c->leader) {
		MPI_MUST(MPI_Send(&cmd, 1, MPI_INT, c->aggressors_leader, CONGEST_TAG, MPI_COMM_WORLD));
		MPI_MUST(MPI_Recv(&cmd, 1, MPI_INT, c->aggressors_leader, CONGEST_TAG, MPI_COMM_WORLD,
				  MPI_STATUS_IGNORE));
	}
	MPI_MUST(MPI_Barrier(victims));
}

void congest_stop(const struct congest *c)
{
	int cmd = CMD_STOP;

	if (c->leader)
		MPI_MUST(MPI_Send(&cmd, 1, MPI_INT, c->aggressors_leader, CONGEST_TAG, MPI_COMM_WORLD));
}

void congest_quit(const struct congest *c)
{
	int cmd = CMD_QUIT;

	if (c->leader)
		MPI_MUST(MPI_Send(&cmd, 1, MPI_INT, c->aggressors_leader, CONGEST_TAG, MPI_COMM_WORLD));
}
