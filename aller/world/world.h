/* world.h: where the tasks run: ranks, nodes, host names (MPI). */
#ifndef ALLER_WORLD_H
#define ALLER_WORLD_H

#include <stddef.h>

#define WORLD_NAME_MAX 256
#define WORLD_DEVICE_NODES 64   /* hosts whose devices the header lists, at most */

struct world {
	int rank, size;
	int local_rank, local_size;   /* within this shared-memory node */
	int nnodes, node;             /* number of nodes, this task's node index */
	int tpn_min, tpn_max;         /* tasks per node */
	char host[WORLD_NAME_MAX];    /* this task's node's name */
	char (*names)[WORLD_NAME_MAX]; /* rank 0 only: every node's name, by node index */
};

/*
 * Collective on the measured world (world_comm.h: MPI_COMM_WORLD, or
 * --congestion's victims). 0, or -1 (out of memory).
 */
void world_release(struct world *w);
const char *world_host(const struct world *w);

/*
 * Collective: the host-to-ranks map (hostmap.h's lines), and when
 * devices is non-NULL "name device-id ranges" per device (hostmap_devices) of
 * the first WORLD_DEVICE_NODES hosts, then "... N more hosts not listed";
 * both only at rank 0 (malloc'd, NULL elsewhere). device_id and desc: this
 * rank's device and what the header says of it (NULL: none), gathered only
 * when devices is non-NULL (on every task alike).
 */
int world_host_map(const struct world *w, const char *device_id, const char *desc, char **map,
		   char **devices);
#endif
