/*
 * nodelimits.h: every node's limits, gathered at start (MPI): the line rate
 * of its NICs (limits.h: one task per node reads sysfs, or --line-rate /
 * ALLER_LINE_RATE declares it) and its memory copy bandwidth, measured once
 * with all its tasks copying at once (buffers/copyrate.h). Rank 0 keeps them per node, for the rows' eff
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
	long copy_bytes;          /* rank 0: what its tasks copied, each */
	double *llc;              /* rank 0: per node, its last-level cache's bytes; 0 unknown */
};

#define NODELIMITS_COPY_REPS 3

/*
 * Collective: copy is this task's copy rate (buffers_copy_rate, measured with
 * every task at once), of about copy_bytes, on its device or not; llc its
 * CPU's last-level cache in bytes (0 unknown). 0, or -1 when out of memory
 * (every task agreeing).
 */
int node_limits_gather(struct node_limits *nl, const struct options *o, const struct world *w,
		       double copy, long copy_bytes, long llc, int device);
void node_limits_free(struct node_limits *nl);

#endif
