/*
 * nodelimits.h: every node's limits, gathered at start (MPI): the line rate
 * of its NICs (limits.h: one task per node reads sysfs, or --line-rate /
 * ALLER_LINE_RATE declares it) and its memory copy bandwidth, measured once
 * with all its tasks copying at once (a short STREAM-like copy, bytes read +
 * written per second). Rank 0 keeps them per node, for the rows' eff
 * (world/eff.h), and the header's '# limit:' lines.
 */
#ifndef ALLER_NODELIMITS_H
#define ALLER_NODELIMITS_H

#include "world/eff.h"

struct options;
struct world;

#define NODELIMITS_NAMED 64   /* nodes the header names one by one, at most */

struct node_limits {
	struct eff_limits e;      /* rank 0: per node; NULL arrays elsewhere */
	char *lines;              /* rank 0: '# limit:' values, one per line (malloc'd) */
};

/*
 * Collective. `cuda`: the buffers are on devices, whose copy is not measured
 * (said, never guessed). 0, or -1 when out of memory (every task agreeing).
 */
int node_limits_gather(struct node_limits *nl, const struct options *o, const struct world *w,
		       int cuda);
void node_limits_free(struct node_limits *nl);

#endif
