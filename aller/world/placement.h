/*
 * placement.h: --placement, the order of the measured world's tasks that the
 * partitions are cut from, as pure logic (world.c renumbers the world by it,
 * before the levels are made; the communicators then group other tasks).
 *
 *   block          a node's tasks together, the nodes in order: contiguous
 *                  communicators stay inside nodes as long as they fit
 *   cyclic         one task of each node in turn: contiguous communicators
 *                  span as many nodes as they have tasks (up to all)
 *   random[:SEED]  a pseudo-random order from SEED (default 1)
 *
 * Without --placement the launcher's order is kept (often block; srun
 * --distribution=cyclic makes it cyclic).
 */
#ifndef ALLER_PLACEMENT_H
#define ALLER_PLACEMENT_H

#include <stddef.h>

enum placement_kind { PLACEMENT_LAUNCHER, PLACEMENT_BLOCK, PLACEMENT_CYCLIC, PLACEMENT_RANDOM };

struct placement {
	enum placement_kind kind;
	unsigned long seed;   /* random's (1 unless given) */
};

/* Parses block, cyclic or random[:SEED]; 0, or -1 with a one-line message. */
int placement_parse(struct placement *p, const char *spec, char *err, size_t errlen);
/* The spec as the header records it, random with its seed: "random:1". */
void placement_describe(const struct placement *p, char *buf, size_t len);
/*
 * The task's key in the placed order (MPI_Comm_split's; ties keep the
 * launcher's order): the task on node `node` of `nnodes`, with rank `local`
 * among the node's tasks (at most tpn_max), launcher's rank `rank`.
 */
int placement_key(const struct placement *p, int node, int nnodes, int local, int tpn_max,
		  int rank);

#endif
