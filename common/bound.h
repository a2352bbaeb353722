/*
 * bound.h: what a tree fabric allows one row of concurrent all-to-alls, as
 * pure logic: the bytes each link carries in one call, and the least time
 * the busiest of them needs.
 *
 * The model: each node has one NIC, full duplex, of a rate each way; each
 * node hangs off one leaf switch; each switch has one uplink, full duplex,
 * of a rate each way, to its parent switch (a tree of any depth: leaf,
 * aggregation, core ...) or, where it has none, to a spine above every
 * parentless switch (today's two tiers: leaves under one spine). A byte
 * between two nodes goes up from the sender's leaf to their lowest common
 * switch and down: it crosses the uplink of every switch below that one on
 * both sides. An all-to-all of equal blocks loads each link the same both
 * ways. A call cannot end before its busiest link has carried its load: the
 * bound is the largest load / rate. A switch without an uplink (the top of
 * the tree, rate 0) carries nothing up. Ignored: latency, protocol
 * overhead, and the bytes that stay on a node (they cross no link here).
 *
 * A dragonfly: trees in groups (each tree's top switch in one group), and
 * between each pair of groups `global_links` global links of `global_rate`
 * each way. A byte from one group to another crosses, under minimal routing,
 * the direct links of that pair: the busiest ordered pair's bytes / (links x
 * rate) bounds the row. Under adaptive (non-minimal) routing a byte may also
 * go through a third group, so no pair bounds it; a group's own global links,
 * (groups - 1) x links of them, must still carry every byte that leaves it
 * and every byte that enters it: the busiest group's larger direction / their
 * rate bounds the row, and minimal routing's figure is kept beside it (the
 * range the routing allows: t_minimal). The local links inside a group are
 * the trees' own uplinks where they have rates (a group's top switch without
 * one carries its bytes onto the group's links, which bound nothing here).
 *
 * Several NICs a node (rails): the fabric's "nodes" are then its NICs, each
 * under its own leaf (its rail's), and `host` says which node each is in; a
 * task is given by its NIC, and bytes between two NICs of one node cross no
 * link (they stay on the node). A byte from a task on rail k to one on rail
 * k of another node under the same leaf stays on that leaf. Where the stack
 * stripes each message over several NICs (Open MPI's TCP BTL over each
 * interface it is given, NIC k to the peer's NIC k; UCX's multi-rail), each
 * rail striped carries its share of every task's bytes: the loads are each
 * rail's, a task on its node's NIC of that rail, with bytes / nstripe.
 *
 * A GPU node's own links: where `gpu` rates a node, each task there is a
 * GPU whose port to the node's switch (NVSwitch, or the node's xGMI/NVLink
 * fabric taken as one) carries its bytes to and from the other members of
 * its communicator on that node, each way: the on-node part of a row is
 * bound by its busiest port, (members on the node - 1) x bytes / rate.
 */
#ifndef ALLER_BOUND_H
#define ALLER_BOUND_H

#include <stddef.h>

#include "partition.h"

/*
 * The fabric, one struct for aller and collect and its two constructors:
 * aller's from a site's fabric file and each node's limits
 * (aller/world/fabricmap.c, eff.c), collect's from a point's facts
 * (collect/read/fabric.c).
 */
struct bound_fabric {
	long nnodes, nleaves;   /* nleaves: the switches, leaves and those above them */
	const long *leaf;       /* per node: its leaf, 0..nleaves-1; -1 unknown */
	const double *nic;      /* per node: decimal GB/s each way; 0 unknown (bound_nic_rate's) */
	const double *uplink;   /* per switch: decimal GB/s each way; 0 unknown, or none above it */
	const char *const *node_name, *const *leaf_name;   /* their names, for bound_link_id */
	const long *parent;     /* per switch: the switch above it, -1 the spine; NULL: every one's the spine */
	/* a dragonfly (NULL group: none, a tree): per switch its group, -1 none (a tree's top has one) */
	const long *group;
	long ngroups;
	const char *const *group_name;
	long global_links;      /* global links between each pair of groups */
	double global_rate;     /* each one's rate each way, decimal GB/s; 0 unknown */
	int adaptive;           /* 1: adaptive routing (a byte may go through a third group); 0 minimal */
	/* rails: per NIC ("node" above), the node it is in (0..nnodes-1); NULL: one NIC a node */
	const long *host;
	/* rails striped: each task's bytes spread evenly over its node's NICs of the rails in stripe
	 * (nstripe of them, 2 or more; NULL: each task on its own NIC), a node's rail-k NIC to the
	 * other's; node h's NIC of rail k is h x rails + k (the NICs numbered so) */
	const long *stripe;
	long nstripe, rails;
	/* a GPU node's own links: per node (with rails per NIC, its node's), each GPU's port to the
	 * node's switch (NVSwitch), decimal GB/s each way; NULL or 0: not bounded */
	const double *gpu;
};

/* The switch above sw: -1 the spine above every parentless switch (or a parent out of range). */
long bound_above(const struct bound_fabric *f, long sw);

/*
 * A switch's tier: 1 for a leaf (no switch under it), else one above the
 * highest switch under it.
 */
int bound_tier(const struct bound_fabric *f, long sw);

enum bound_link { BOUND_NONE, BOUND_NIC, BOUND_UPLINK, BOUND_COPY, BOUND_GLOBAL, BOUND_GPU };

struct bound {
	double t;               /* seconds per call at least; 0: no link with a known rate carries bytes */
	double load;            /* the bytes the bounding link carries per call, each way */
	enum bound_link link;   /* which link bounds it (BOUND_NONE with t 0) */
	long at;                /* ... of which node (NIC) or leaf (uplink); global: from group A to B, A x ngroups + B (A == B: all of A's, adaptive) */
	double t_minimal;       /* the bound under minimal routing: t, but on an adaptive dragonfly */
	/* a link that carries bytes has no known rate (a NIC, an uplink, or a node's leaf unknown) */
	int partial;
	enum bound_link unknown;   /* the first such link, and of which node or leaf */
	long unknown_at;
};

/*
 * The bound of a row: the tasks split as p (p->world of them), task r on node
 * node[r] (0..f->nnodes-1; with rails its NIC), `bytes` from each task to
 * each other member of its communicator. 0, or -1 when out of memory or a
 * node is out of range.
 */
int bound_row(const struct bound_fabric *f, const long *node, const struct partition *p,
	      double bytes, struct bound *b);

/*
 * bound_row, and each link's least time per call for the row (its bytes /
 * its rate, each way; 0 where it carries nothing or has no known rate):
 * nic_t per node, up_t per leaf (NULL: not wanted), from one pass; on a
 * dragonfly up_t has ngroups^2 more, each ordered pair's (A x ngroups + B)
 * global links' as minimal routing loads them.
 */
int bound_times(const struct bound_fabric *f, const long *node, const struct partition *p,
		double bytes, struct bound *b, double *nic_t, double *up_t);

/*
 * The bound from each link's bytes per call as a run measured them (aller:
 * its tasks' own counts, any split): nic_load per node and up_load per leaf
 * each way (the larger direction), mem_load per node (its tasks' in + out
 * bytes; NULL: not judged) against copy (per node, decimal GB/s read +
 * written; NULL or 0: unknown, which bounds nothing and leaves the bound
 * whole). A node with off-node bytes and no known leaf, or a loaded link
 * without a rate, makes the bound partial.
 */
void bound_loads(const struct bound_fabric *f, const double *nic_load, const double *up_load,
		 const double *mem_load, const double *copy, struct bound *b);

/*
 * The links communicator `color` of p uses: each member node's NIC where its
 * members span nodes (nic_used per node), the uplink of each switch with
 * members both under it and not (up_used per switch), on a dragonfly the
 * ordered pairs of groups it spans (ngroups^2 more, A x ngroups + B); 1 used, 0 not.
 */
void bound_comm_links(const struct bound_fabric *f, const long *node, const struct partition *p,
		      long color, char *nic_used, char *up_used);

/*
 * A link of f by name, the one way aller's bottleneck, the merged tables and
 * the tomography write it: "nic:NODE", "up:LEAF", "copy:NODE", and the
 * uplink of a node whose leaf is unknown (at < 0: -1 - the node) "up:"
 * BOUND_LEAF_OF "NODE", a dragonfly's global links "global:GROUP:GROUP"
 * (from the first to the second) or "global:GROUP" (all of a group's,
 * adaptive routing), a node's GPU ports "gpu:NODE". "" for none, or a link
 * f does not have.
 */
#define BOUND_LEAF_OF "leaf-of-"
void bound_link_id(const struct bound_fabric *f, enum bound_link link, long at, char *buf, size_t len);
/*
 * A bound's link by name (bound_link_id's), and where the bound is partial
 * the first link without a rate after it: "up:leaf1(partial:up:leaf2)", as
 * the merged tables write it.
 */
void bound_link_of(const struct bound_fabric *f, const struct bound *b, char *buf, size_t len);
/*
 * A link's name in words: "the uplink of leaf1", "the NIC of n3", "the
 * memory of n1", "the uplink of n4's leaf", "the global links from g1 to
 * g2", "the global links of g1"; "no link" for none. A partial
 * bound's "(partial:ID)" after it as " (a partial bound: no rate for the
 * NIC of n2)".
 */
void bound_link_words(const char *id, char *buf, size_t len);

/*
 * A rate as a fabric line writes it, in decimal GB/s: "1000000kbit", "1gbit",
 * "500mbit", "12.5GB/s", "100gbps", decimal (bytes.h's parse_double), from
 * BOUND_RATE_MIN to BOUND_RATE_MAX GB/s; 0 when it is none of these.
 */
#define BOUND_RATE_MIN (1e-6 / 8)   /* 1 kbit/s */
#define BOUND_RATE_MAX 1e6          /* a petabyte per second */
double bound_rate(const char *s);
/*
 * The one precedence rule of a NIC's rate: what the run measured or was
 * told (aller's '# limit: nic': sysfs, --line-rate) before the fabric's
 * declared rate (a fabric file's nic, '# fabric: nic_rate', as bound_rate
 * reads it; NULL: none); 0 unknown.
 */
double bound_nic_rate(double limit, const char *declared);

#endif
