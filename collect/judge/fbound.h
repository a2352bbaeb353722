/*
 * fbound.h: a point's row against what its fabric allows (common/bound.h),
 * from the facts the merge kept of the point (never its raw output): its
 * '# host:' lines (which node each task of the measured world ran on, in
 * its placed order: any --placement), node_switch and '# fabric:'
 * lines (each node's leaf, each leaf's uplink rate) and '# limit:' lines
 * (each node's NIC rate, as aller judged it; else the fabric's nic_rate).
 */
#ifndef COLLECT_FBOUND_H
#define COLLECT_FBOUND_H

#include "fpoint.h"

struct fbound {
	double t;            /* seconds per call at least (0: no link with a rate carries bytes) */
	double eff;          /* t / the row's tmed */
	char link[96];       /* "the uplink of leaf1", "the NIC of n3" */
	char unknown[96];    /* partial: the first loaded link without a rate; else "" */
	const char *above;   /* why it beat the bound beyond its interval (fabric.h's fabric_above), or NULL */
};

/*
 * The bound of row r of point p: 0, or -1 when it cannot be known (no host
 * lines, a task on no known host, a row of an uneven split).
 */
int fbound_row(const struct fpoint *p, const struct frow *r, struct fbound *b);

/*
 * The n rows of point p (of its first algorithm, rows[0]'s) onto L
 * (locate.h): each one's efficiency against its bound, the links its slowest
 * task's communicator used and those it clears. Rows that cannot be judged
 * (a small size, no fabric, a split) are left out: 0; -1 out of memory.
 */
struct locate;
int fbound_locate(const struct fpoint *p, const struct frow *rows, long n, struct locate *L);

#endif
