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
 */
#ifndef ALLER_EFF_H
#define ALLER_EFF_H

struct eff_limits {
	long nnodes;
	double *nic;    /* per node, decimal GB/s each way; 0: unknown */
	double *copy;   /* per node, decimal GB/s read + written; 0: unknown */
	double *tasks;  /* per node, its tasks */
};

/* What each node's tasks moved per call, summed over them (bytes). */
struct eff_sums {
	const double *off_out, *off_in, *io;   /* each nnodes */
};

struct eff_row {
	double offnode_B, netbw_GBs, eff;
};

void eff_compute(const struct eff_limits *l, const struct eff_sums *s, double tavg,
		 struct eff_row *r);

#endif
