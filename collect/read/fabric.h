/*
 * fabric.h: a point's fabric from the facts its output records (never
 * re-read from the output: the merge's point facts, facts.tsv downstream):
 * its host lines (which node each task of the measured world ran on, in its
 * placed order: any --placement), node_switch and '# fabric:' lines (each
 * node's leaf, each leaf's uplink rate, or else its uplink_linkspeed: Slurm's
 * LinkSpeed in the unit the campaign gave, each node's built NIC rate; a
 * switch's parent; a dragonfly's groups and global links; with rails each
 * NIC's, NODE:IF, a node's tasks spread over its NICs in their order, or
 * on the NICs the MPI stack was told to use: aller's task_nics) and
 * '# limit:' lines (each node's NIC rate as aller judged it, before the
 * fabric's). Facts are "key value" lines (a tab or a space after the key).
 */
#ifndef COLLECT_FABRIC_H
#define COLLECT_FABRIC_H

#include <stddef.h>

#include "bound.h"
#include "namehash.h"

#define FABRIC_NAME 64
#define FABRIC_WORLD (1L << 16)   /* more tasks than this: not judged */
#define FABRIC_LEVELS 17          /* partition levels of FABRIC_WORLD tasks */
#define FABRIC_RAILS 16           /* a node's NICs, at most */

struct fabric {
	long nnodes, nleaves, world;
	long room, last;        /* while it is read: nodes' names it has room for; the last host line's node */
	long switch_room;       /* ... and switches' */
	char (*node)[FABRIC_NAME], (*leafname)[FABRIC_NAME];
	const char **node_name, **leaf_name;   /* ... as bound.h's struct takes them (once read) */
	long *leaf;             /* per node: its leaf, -1 unknown */
	long *parent;           /* per switch (leafname's): the switch above it, -1 the spine */
	double *nic, *uplink;   /* per node, per leaf: decimal GB/s each way, 0 unknown */
	double *nic_burst, *up_burst;  /* per node, per leaf: a shaper's burst, bytes, 0 none known */
	long *group;            /* per switch: its dragonfly group ('# fabric: group'), -1 none */
	char (*groupname)[FABRIC_NAME];
	const char **group_name;   /* ... as bound.h's struct takes them (once read) */
	long ngroups, global_links;   /* '# fabric: global LINKS RATE ROUTING' */
	double global_rate;
	int adaptive;
	double *gpu;            /* per node (rails: per NIC, its node's): its GPUs' port rate ('# fabric: gpu_rate'), 0 none */
	int gpus;               /* ... some node has one */
	long nrails, *host;     /* rails ('# fabric: switch NODE:IF ...'): the nodes above are their NICs, host[] each one's node */
	long stripe[FABRIC_RAILS], nstripe;   /* ... each task's bytes striped over these rails ('# fabric: task_nics'), 0: not */
	int told;               /* ... the MPI stack named a rail: the tasks on it (before a GPU's nearest NIC) */
	long *task;             /* per task: its node (with rails its NIC) */
	char *hosts;            /* while it is read: the host lines' values, for hosts.h */
	size_t hosts_len;       /* its room */
	struct namehash nodes, leaves;   /* while it is read: the names' hashes */
	struct fabric_memo *memo;  /* fabric_row's bound per byte, per mode and level (linear in its bytes) */
};

/* From a point's facts, world tasks; 0, or -1 (no host lines, a task on no known host, memory). */
int fabric_open(struct fabric *f, const char *facts, long world);
/* Its nodes, leaves, rates and names: bound.h's one fabric struct. */
struct bound_fabric fabric_bound(const struct fabric *f);
/* The partition of a row of `mode` (strided or not) at partition level `level`; 0, or -1 (no such level). */
int fabric_partition(const struct fabric *f, const char *mode, int level, struct partition *p);
/*
 * The bound of a row of `mode` (strided or not) at partition level `level`,
 * `bytes` per peer, uniform; 0, or -1 (memory, no such level). The loads are
 * worked out once per level and mode (the rows of a level differ only in
 * their bytes, which scale every load alike).
 */
int fabric_row(const struct fabric *f, const char *mode, int level, double bytes, struct bound *b);
/*
 * fabric_row's at 1 byte per peer, and (t: NULL, not wanted) each link's
 * time per byte per peer at that level, kept with the fabric: the nodes'
 * NICs, then the leaves' uplinks, then a dragonfly's pairs of groups (bound.h's bound_times); 0, or -1.
 */
int fabric_level(const struct fabric *f, const char *mode, int level, struct bound *unit, const double **t);
/*
 * Why a row beat its bound beyond its interval (b->t above tmed_hi, the slow
 * end of the 95% interval of its median time), or NULL when it did not (or
 * tmed_hi is unknown): "spread" where the row's slowest task (t_row, from
 * aggbw: it ends the call) needed the bound and the median task finished
 * sooner; "burst" where the bounding link's shaper lets a burst through at
 * once ('# fabric:' nic_burst or uplink_burst, bytes) and the load past the
 * burst needs no more than tmed_hi; else "rate": the rate declared for the
 * link is below what it carried (a wrong rate, or not what limits the row).
 */
/*
 * A row's time per call: its slowest task's, which ends the call for all its
 * communicators, from aggbw (GiB/s: every task's in + out bytes, 2 x bytes
 * per peer x commsize each, as GiB says, over that time); 0 where aggbw is
 * unknown. tmed is the
 * typical task's: a fast communicator beside a slow one hides the slow one.
 */
double fabric_row_time(double bytes, long commsize, long world, double aggbw);
const char *fabric_above(const struct fabric *f, const struct bound *b, double tmed_hi, double t_row);
void fabric_close(struct fabric *f);
/*
 * The fabric of facts and world, opened once for every caller that asks
 * with the same fabric facts (the lines fabric_open reads) and world, and
 * with it the bound of each level worked out once: a campaign's points on
 * one allocation share one. NULL where fabric_open fails (or memory). Held
 * until fabric_unshare; of those not held, the FABRIC_SHARED most recently
 * asked for are kept. Never to be changed or closed by its caller.
 */
#define FABRIC_SHARED 32
const struct fabric *fabric_shared(const char *facts, long world);
void fabric_unshare(const struct fabric *f);

#endif
