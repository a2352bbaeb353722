/* fabricmap.c: see fabricmap.h. */
#include "fabricmap.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "fabricfile.h"
#include "world/eff.h"
#include "world/failure.h"
#include "world/must.h"
#include "world/world.h"
#include "world/world_comm.h"

/* Rank 0: the file's leaves, each node's leaf and its declared NIC rate where '# limit:' has none. */
static void from_file(struct eff_limits *e, const struct fabricfile *ff, const struct world *w)
{
	for (long k = 0; ff && k < ff->nsw; k++) {
		long up = ff->sw[k].parent;
		e->uplink[k] = bound_rate(ff->sw[k].rate);
		if (up >= 0 && up < ff->nsw && strcmp(ff->sw[up].rate, "-") && !e->above)
			e->above = up + 1;   /* a switch above a leaf, with an uplink: a tree deeper than two tiers */
	}
	for (long i = 0; i < e->nnodes; i++) {
		long at = ff ? fabricfile_node_at(ff, w->names[i]) : -1;
		e->bound_nic[i] = bound_nic_rate(e->nic[i], at >= 0 ? ff->node[at].rate : NULL);
		if (at >= 0)
			e->leaf[i] = ff->node[at].leaf;
	}
}

int fabric_map(struct eff_limits *e, const struct fabricfile *ff, int declared, const struct world *w)
{
	long n = w->nnodes, nl = w->rank == 0 && ff ? ff->nsw : 0;
	int me0 = w->rank == 0, ok;

	if (!declared && !me0)
		return 0;   /* no leaf known to anyone: nothing to tell (a NULL leaf: unknown) */
	e->leaf = malloc(sizeof(long) * (size_t)n);
	e->uplink = me0 ? calloc((size_t)nl + 1, sizeof(double)) : NULL;
	e->bound_nic = me0 ? calloc((size_t)n, sizeof(double)) : NULL;
	e->node_name = me0 ? malloc(sizeof(char *) * (size_t)n) : NULL;
	e->leaf_name = me0 ? malloc(sizeof(char *) * ((size_t)nl + 1)) : NULL;
	ok = e->leaf && (!me0 || (e->uplink && e->bound_nic && e->node_name && e->leaf_name));
	if (!declared && !ok) {
		fabric_map_free(e);   /* rank 0 alone: its rows then have no bound_s */
		return 0;
	}
	if (declared && failure_agree(w, !ok, "out of memory for the fabric's map")) {
		fabric_map_free(e);
		return -1;
	}
	for (long i = 0; i < n; i++)
		e->leaf[i] = -1;
	if (me0) {
		for (long i = 0; i < n; i++)
			((const char **)e->node_name)[i] = w->names[i];
		for (long k = 0; k < nl; k++)
			((const char **)e->leaf_name)[k] = strdup(ff->sw[k].name);
		from_file(e, ff, w);
	}
	if (declared) {
		MPI_MUST(MPI_Bcast(&nl, 1, MPI_LONG, 0, world_comm(w)));
		MPI_MUST(MPI_Bcast(e->leaf, (int)n, MPI_LONG, 0, world_comm(w)));
	}
	e->nleaves = nl;
	return 0;
}

void fabric_map_free(struct eff_limits *e)
{
	for (long k = 0; e->leaf_name && k < e->nleaves; k++)
		free((char *)e->leaf_name[k]);
	free(e->leaf);
	free(e->uplink);
	free(e->bound_nic);
	free((void *)e->node_name);
	free((void *)e->leaf_name);
	e->leaf = NULL;
	e->uplink = e->bound_nic = NULL;
	e->node_name = e->leaf_name = NULL;
	e->nleaves = 0;
}
