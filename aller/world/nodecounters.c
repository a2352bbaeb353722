/* nodecounters.c: see nodecounters.h. */
#include "nodecounters.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faults.h"
#include "must.h"
#include "strbuf.h"
#include "world.h"
#include "world_comm.h"

static void read_now(const struct world *w, struct counters *c)
{
	memset(c, 0, sizeof(*c));
	if (w->local_rank == 0)
		counters_read(faults()->sysfs, faults()->proc, getenv("OMPI_MCA_btl_tcp_if_include"), c);
}

void node_counters_begin(const struct world *w, struct counters *c)
{
	read_now(w, c);
}

char *node_counters_end(const struct world *w, const struct counters *before, double sent)
{
	long n = w->nnodes, named = n < NODECOUNTERS_NAMED ? n : NODECOUNTERS_NAMED;
	char (*line)[NODECOUNTERS_LINE] = calloc((size_t)named + 1, NODECOUNTERS_LINE);
	double *bytes = calloc((size_t)n + 1, sizeof(double));
	struct counters *now = malloc(sizeof(*now));
	struct strbuf b;
	int ok = line && bytes && now, all;

	MPI_MUST(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, world_comm(w)));
	if (!all) {
		free(line);
		free(bytes);
		free(now);
		return NULL;
	}
	read_now(w, now);
	if (w->local_rank == 0 && w->node < named)
		counters_line(before, now, line[w->node], NODECOUNTERS_LINE);
	bytes[w->node] = sent;
	MPI_MUST(MPI_Reduce(w->rank == 0 ? MPI_IN_PLACE : bytes, bytes, (int)n, MPI_DOUBLE, MPI_SUM, 0,
			    world_comm(w)));
	MPI_MUST(MPI_Reduce(w->rank == 0 ? MPI_IN_PLACE : line, line, (int)(named * NODECOUNTERS_LINE),
			    MPI_UNSIGNED_CHAR, MPI_MAX, 0, world_comm(w)));
	strbuf_init(&b);
	for (long i = 0; w->rank == 0 && i < named; i++)
		strbuf_addf(&b, "%s aller offnode_tx_B=%.0f%s%s\n", w->names[i], bytes[i], line[i][0] ? "; " : "",
			    line[i]);
	if (w->rank == 0 && n > named)
		strbuf_addf(&b, "%ld more nodes not listed\n", n - named);
	free(line);
	free(bytes);
	free(now);
	if (w->rank != 0) {
		strbuf_release(&b);
		return NULL;
	}
	return strbuf_detach(&b);
}
