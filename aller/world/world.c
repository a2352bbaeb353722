/* world.c: node discovery with MPI_Comm_split_type (see world.h). */
#include "world_comm.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "must.h"
#include "world.h"
#include "hostmap.h"
#include "strbuf.h"

static MPI_Comm measured = MPI_COMM_NULL;

MPI_Comm world_comm(const struct world *w)
{
	(void)w;
	return measured;
}

int world_init(struct world *w, MPI_Comm comm)
{
	MPI_Comm node, leaders;
	char name[WORLD_NAME_MAX] = "";
	int len, is_leader, ok;

	memset(w, 0, sizeof(*w));
	measured = comm;
	MPI_MUST(MPI_Comm_rank(measured, &w->rank));
	MPI_MUST(MPI_Comm_size(measured, &w->size));
	MPI_MUST(MPI_Comm_split_type(measured, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &node));
	MPI_MUST(MPI_Comm_rank(node, &w->local_rank));
	MPI_MUST(MPI_Comm_size(node, &w->local_size));
	is_leader = w->local_rank == 0;

	MPI_MUST(MPI_Allreduce(&w->local_size, &w->tpn_min, 1, MPI_INT, MPI_MIN, measured));
	MPI_MUST(MPI_Allreduce(&w->local_size, &w->tpn_max, 1, MPI_INT, MPI_MAX, measured));
	MPI_MUST(MPI_Comm_split(measured, is_leader ? 0 : MPI_UNDEFINED, w->rank, &leaders));
	if (is_leader) {
		MPI_MUST(MPI_Comm_rank(leaders, &w->node));
		MPI_MUST(MPI_Comm_size(leaders, &w->nnodes));
	}
	MPI_MUST(MPI_Bcast(&w->node, 1, MPI_INT, 0, node));
	MPI_MUST(MPI_Bcast(&w->nnodes, 1, MPI_INT, 0, node));

	if (w->rank == 0)
		w->names = calloc((size_t)w->nnodes, WORLD_NAME_MAX);
	ok = w->rank != 0 || w->names != NULL;
	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, measured));
	if (!ok) {
		MPI_MUST(MPI_Comm_free(&node));
		if (leaders != MPI_COMM_NULL)
			MPI_MUST(MPI_Comm_free(&leaders));
		return -1;
	}
	MPI_MUST(MPI_Get_processor_name(name, &len));
	memcpy(w->host, name, WORLD_NAME_MAX);
	if (is_leader) {   /* world rank 0 is the leaders' rank 0 */
		MPI_MUST(MPI_Gather(name, WORLD_NAME_MAX, MPI_CHAR, w->names, WORLD_NAME_MAX, MPI_CHAR, 0,
				    leaders));
		MPI_MUST(MPI_Comm_free(&leaders));
	}
	MPI_MUST(MPI_Comm_free(&node));
	return 0;
}

int world_place(const struct placement *p, MPI_Comm comm, MPI_Comm *placed)
{
	struct world w;
	int key;

	if (world_init(&w, comm) != 0)
		return -1;
	key = placement_key(p, w.node, w.nnodes, w.local_rank, w.tpn_max, w.rank);
	world_release(&w);
	MPI_MUST(MPI_Comm_split(comm, 0, key, placed));
	return 0;
}

int world_nodes(const struct world *w, int **node)
{
	int ok;

	*node = w->rank == 0 ? malloc(sizeof(int) * (size_t)w->size) : NULL;
	ok = w->rank != 0 || *node;
	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, measured));
	if (!ok) {
		free(*node);
		*node = NULL;
		return -1;
	}
	MPI_MUST(MPI_Gather(&w->node, 1, MPI_INT, *node, 1, MPI_INT, 0, measured));
	return 0;
}

void world_release(struct world *w)
{
	free(w->names);
	w->names = NULL;
}

const char *world_host(const struct world *w)
{
	return w->host;
}

/* Ranks grouped by node in one pass (a counting sort): node n's are ranks[at[n]..at[n+1]). */
static void ranks_by_node(const int *nodes, int size, int nnodes, long *ranks, long *at)
{
	memset(at, 0, sizeof(long) * (size_t)(nnodes + 1));
	for (int r = 0; r < size; r++)
		at[nodes[r] + 1]++;
	for (int n = 0; n < nnodes; n++)
		at[n + 1] += at[n];
	for (int r = 0; r < size; r++)
		ranks[at[nodes[r]]++] = r;
	for (int n = nnodes; n > 0; n--)
		at[n] = at[n - 1];
	at[0] = 0;
}

/* The device lines of the first WORLD_DEVICE_NODES nodes (ranks, at: ranks_by_node's). */
static void device_lines(const struct world *w, const long *ranks, const long *at,
			 const struct hostmap_device *ids, struct hostmap_device *mine_ids,
			 struct strbuf *d)
{
	for (int n = 0; n < w->nnodes; n++) {
		const long *mine = ranks + at[n];
		long k = at[n + 1] - at[n];
		if (n == WORLD_DEVICE_NODES) {
			strbuf_addf(d, "... %d more hosts not listed\n", w->nnodes - n);
			break;
		}
		for (long i = 0; i < k; i++)
			mine_ids[i] = ids[mine[i]];
		hostmap_devices(d, w->names[n], k, mine, mine_ids);
	}
}

int world_host_map(const struct world *w, const char *device_id, const char *desc, char **map,
		   char **devices)
{
	int node = w->node;
	int *nodes = NULL;
	struct hostmap_device *ids = NULL, *mine_ids = NULL, id;
	long *ranks = NULL, *at = NULL;
	struct strbuf d;
	int ok = 1;

	*map = NULL;
	if (devices)
		*devices = NULL;
	memset(&id, 0, sizeof(id));
	snprintf(id.id, sizeof(id.id), "%s", device_id ? device_id : "");
	snprintf(id.desc, sizeof(id.desc), "%s", desc ? desc : "");
	if (w->rank == 0) {
		nodes = malloc(sizeof(int) * (size_t)w->size);
		if (devices) {   /* device ids only with device buffers (the same on every task) */
			ids = malloc(sizeof(*ids) * (size_t)w->size);
			mine_ids = malloc(sizeof(*mine_ids) * (size_t)w->size);
		}
		ranks = malloc(sizeof(long) * (size_t)w->size);
		at = malloc(sizeof(long) * (size_t)(w->nnodes + 1));
		ok = nodes && ranks && at && (!devices || (ids && mine_ids));
	}
	MPI_MUST(MPI_Bcast(&ok, 1, MPI_INT, 0, measured));
	if (ok) {
		MPI_MUST(MPI_Gather(&node, 1, MPI_INT, nodes, 1, MPI_INT, 0, measured));
		if (devices)
			MPI_MUST(MPI_Gather(&id, (int)sizeof(id), MPI_CHAR, ids, (int)sizeof(id),
					    MPI_CHAR, 0, measured));
	}
	if (ok && w->rank == 0) {
		ranks_by_node(nodes, w->size, w->nnodes, ranks, at);
		strbuf_init(&d);
		if (devices)
			device_lines(w, ranks, at, ids, mine_ids, &d);
		*map = hostmap_lines(w->nnodes, w->names[0], WORLD_NAME_MAX, ranks, at);
		if (devices)
			*devices = strbuf_detach(&d);
		else
			strbuf_release(&d);
		ok = *map && (!devices || *devices);
	}
	free(nodes);
	free(ids);
	free(mine_ids);
	free(ranks);
	free(at);
	return ok ? 0 : -1;
}
