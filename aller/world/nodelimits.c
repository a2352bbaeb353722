/* nodelimits.c: see nodelimits.h. */
#include "nodelimits.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "failure.h"
#include "faults.h"
#include "limits.h"
#include "options.h"
#include "strbuf.h"
#include "world_comm.h"

#define DESC_MAX 512

/* The node's NIC line: its rate (returned, GB/s each way; 0 unknown), whence, or unknown. */
static double nic_line(const struct options *o, char *d, size_t len)
{
	char nics[DESC_MAX - 96];
	double gbs = limits_nic(faults()->sysfs, getenv("OMPI_MCA_btl_tcp_if_include"), nics,
				sizeof(nics));

	if (o->line_rate > 0) {
		snprintf(d, len, "%g GB/s each way, declared by %s (sysfs: %s)", o->line_rate,
			 o->line_rate_by, nics);
		return o->line_rate;
	}
	if (gbs > 0)
		snprintf(d, len, "%g GB/s each way: %s", gbs, nics);
	else
		snprintf(d, len, "%s; declare it with --line-rate", nics);
	return gbs;
}

/* Rank 0: the named nodes' lines, then the rest in one. */
static char *limit_lines(const struct node_limits *nl, const struct world *w,
			 char (*desc)[DESC_MAX], int device)
{
	const struct eff_limits *e = &nl->e;
	char copy[32];
	struct strbuf b;

	format_bytes(copy, sizeof(copy), nl->copy_bytes);
	strbuf_init(&b);
	for (long i = 0; i < e->nnodes && i < NODELIMITS_NAMED; i++) {
		strbuf_addf(&b, "nic %s: %s", w->names[i], desc[i]);
		if (e->nic[i] > 0 && e->tasks[i] > 1)
			strbuf_addf(&b, " (%g tasks share it: %.4g GB/s each)", e->tasks[i],
				    e->nic[i] / e->tasks[i]);
		if (e->copy[i] > 0)
			strbuf_addf(&b, "\ncopy %s: %.4g GB/s read + written, %g tasks copying about "
				    "%s each at once%s, best of %d", w->names[i], e->copy[i], e->tasks[i],
				    copy, device ? " from device to device (their buffers)" : "",
				    NODELIMITS_COPY_REPS);
		else
			strbuf_addf(&b, "\ncopy %s: unknown: %s", w->names[i], device ?
				    "the device's copy failed" : "out of memory for the copy");
		if (nl->llc[i] > 0 && !device)
			strbuf_addf(&b, "\ncache %s: %.0f bytes, its last-level cache (sysfs): a row inside "
				    "the node whose tasks move less than this a call may run from it, above "
				    "the copy rate (eff above 1)", w->names[i], nl->llc[i]);
		strbuf_addf(&b, "\n");
	}
	if (e->nnodes > NODELIMITS_NAMED) {
		double lo = 1e300, hi = 0;
		long unknown = 0;
		for (long i = NODELIMITS_NAMED; i < e->nnodes; i++) {
			unknown += !(e->nic[i] > 0);
			lo = e->nic[i] > 0 && e->nic[i] < lo ? e->nic[i] : lo;
			hi = e->nic[i] > hi ? e->nic[i] : hi;
		}
		strbuf_addf(&b, "nic: %ld more nodes not listed: %g..%g GB/s each way, %ld unknown\n",
			    e->nnodes - NODELIMITS_NAMED, hi > 0 ? lo : 0, hi, unknown);
	}
	return strbuf_detach(&b);
}

/* Rank 0's per-node arrays (nic, copy, tasks, llc: one block), or NULL elsewhere and when out of memory. */
static int alloc_arrays(struct node_limits *nl, const struct world *w)
{
	double *a = w->rank == 0 ? calloc(4 * (size_t)w->nnodes, sizeof(double)) : NULL;

	memset(nl, 0, sizeof(*nl));
	nl->e.nnodes = w->nnodes;
	if (a) {
		nl->e.nic = a;
		nl->e.copy = a + w->nnodes;
		nl->e.tasks = a + 2 * w->nnodes;
		nl->llc = a + 3 * w->nnodes;
	}
	return w->rank != 0 || a != NULL;
}

int node_limits_gather(struct node_limits *nl, const struct options *o, const struct world *w,
		       double copy, long copy_bytes, long llc, int device)
{
	long n = w->nnodes, named = n < NODELIMITS_NAMED ? n : NODELIMITS_NAMED;
	double *mine = calloc(3 * (size_t)n, sizeof(double));
	char (*desc)[DESC_MAX] = calloc((size_t)named, DESC_MAX);
	int ok = alloc_arrays(nl, w) && mine && desc;

	if (failure_agree(w, !ok, "out of memory for the nodes' limits")) {
		free(mine);
		free(desc);
		node_limits_free(nl);
		return -1;
	}
	if (w->local_rank == 0) {
		mine[w->node] = nic_line(o, w->node < named ? desc[w->node] : (char[DESC_MAX]){ 0 },
					 DESC_MAX);
		mine[n + w->node] = (double)llc;
	}
	MPI_MUST(MPI_Reduce(w->rank == 0 ? MPI_IN_PLACE : mine, mine, (int)(2 * n), MPI_DOUBLE,
			    MPI_MAX, 0, world_comm(w)));
	if (w->rank == 0) {
		memcpy(nl->e.nic, mine, sizeof(double) * (size_t)n);
		memcpy(nl->llc, mine + n, sizeof(double) * (size_t)n);
	}
	memset(mine, 0, sizeof(double) * 2 * (size_t)n);   /* both halves: the tasks' is summed */
	mine[w->node] = copy;
	mine[n + w->node] = 1;
	MPI_MUST(MPI_Reduce(w->rank == 0 ? MPI_IN_PLACE : mine, mine, (int)(2 * n), MPI_DOUBLE,
			    MPI_SUM, 0, world_comm(w)));
	MPI_MUST(MPI_Reduce(w->rank == 0 ? MPI_IN_PLACE : desc, desc, (int)(named * DESC_MAX),
			    MPI_UNSIGNED_CHAR, MPI_MAX, 0, world_comm(w)));
	if (w->rank == 0) {
		memcpy(nl->e.copy, mine, sizeof(double) * 2 * (size_t)n);
		nl->copy_bytes = copy_bytes;
		nl->lines = limit_lines(nl, w, desc, device);
	}
	free(mine);
	free(desc);
	return 0;
}

void node_limits_free(struct node_limits *nl)
{
	free(nl->e.nic);
	free(nl->lines);
	memset(nl, 0, sizeof(*nl));
}
