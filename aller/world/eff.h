/*
 * eff.h: a row's off-node traffic and how near it is to its limit, as pure
 * logic over per-node sums (rank 0 reduces them from every task's bytes).
 *
 *   offnode_B  the busiest node's off-node bytes per call: of its tasks'
 *              bytes to and from tasks on other nodes, the larger direction
 *              (0: every communicator inside a node)
 *   netbw_GBs  offnode_B / tavg, decimal GB/s
 *   eff        the node nearest its limit: its off-node bytes / tavg over its
 *              NICs' line rate (each way); with no off-node bytes, its tasks'
 *              in + out bytes / tavg over its copy bandwidth (read + written);
 *              NAN ("-") where a node's limit is unknown
 *   bound_s    the least time the row's bytes allow (common/bound.h's
 *              bound_loads over the nodes' NICs and memory and the leaves'
 *              uplinks; partial where a switch above them has an uplink),
 *              and its bottleneck link by name
 */
#ifndef ALLER_EFF_H
#define ALLER_EFF_H

struct eff_limits {
	long nnodes;
	double *nic;    /* per node, decimal GB/s each way; 0: unknown */
	double *copy;   /* per node, decimal GB/s read + written; 0: unknown */
	double *tasks;  /* per node, its tasks */
	/* for bound_s: the fabric --fabric=FILE declares (nleaves 0: none) */
	long nleaves;
	long *leaf;     /* per node, its leaf, -1 unknown (every task has it: its peers' leaves) */
	double *uplink; /* per leaf, decimal GB/s each way; 0 unknown */
	double *bound_nic;  /* per node: nic, or where unknown the file's rate */
	const char *const *node_name, *const *leaf_name;   /* for bottleneck */
	/* 1 + a switch above the leaves with an uplink of its own (a tree of more than two tiers),
	 * 0 none: the bytes each task measured say which leaf they leave, not which switches above
	 * it they cross, so a row through the leaves' uplinks is partial here (the merge's bound
	 * follows the tree from the header's facts) */
	long above;
};

/* What each node's tasks moved per call, summed over them (bytes). */
struct eff_sums {
	const double *off_out, *off_in, *io;   /* each nnodes */
	const double *leaf_out, *leaf_in;      /* ... to and from tasks under other leaves */
};

#define EFF_BOTTLENECK 96

struct eff_row {
	double offnode_B, netbw_GBs, eff;
	double bound_s;                     /* NAN: none */
	char bottleneck[EFF_BOTTLENECK];    /* "": none */
};

void eff_compute(const struct eff_limits *l, const struct eff_sums *s, double tavg,
		 struct eff_row *r);

#endif
