/*
 * nodecounters.h: every node's network counters over the run (MPI): each
 * node's first task reads them before the sweep and after it (counters.h),
 * and rank 0 tells the difference of each node, with what aller's own calls
 * sent off the node, as the '# nic_counters:' lines at the end. A NIC's
 * bytes far from aller's, or drops, errors and retransmits, are what a
 * network engineer looks at first (collect cites them in its findings).
 */
#ifndef ALLER_NODECOUNTERS_H
#define ALLER_NODECOUNTERS_H

#include "world/counters.h"

struct world;

#define NODECOUNTERS_NAMED 64    /* nodes told one by one, at most */
#define NODECOUNTERS_LINE 1024

/* Collective: the node's counters now, read by its first task (elsewhere c is empty). */
void node_counters_begin(const struct world *w, struct counters *c);
/*
 * Collective: the counters again and each node's difference, with sent
 * (this task's bytes to tasks on other nodes, its calls' sum) summed over
 * the node's tasks: at rank 0 "NODE aller offnode_tx_B=N; IF k=v ..." a
 * line (malloc'd; NULL elsewhere, and when out of memory).
 */
char *node_counters_end(const struct world *w, const struct counters *before, double sent);

#endif
