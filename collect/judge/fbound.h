/*
 * fbound.h: the tomography of a point's rows: each link's time per call on
 * the point's fabric (common/bound.h, read/fabric.h), from the facts the
 * merge kept of the point (never its raw output): its '# host:' lines (which
 * node each task of the measured world ran on, in its placed order: any
 * --placement), node_switch and '# fabric:' lines (each node's leaf, each
 * leaf's uplink rate) and '# limit:' lines (each node's NIC rate, as aller
 * judged it; else the fabric's nic_rate). A row's bound itself is the
 * merge's (points.csv's bound_s, bottleneck, eff_bound, above_bound): the
 * judge reads it, never works it out again.
 */
#ifndef COLLECT_FBOUND_H
#define COLLECT_FBOUND_H

#include "fpoint.h"

/*
 * The n rows of point p (of its first algorithm, rows[0]'s) onto L
 * (locate.h): each one's efficiency against its bound, the links its slowest
 * task's communicator used and those it clears. Rows that cannot be judged
 * (a small size, no fabric, a split) are left out: 0; -1 out of memory.
 */
struct locate;
int fbound_locate(const struct fpoint *p, const struct mrow *rows, long n, struct locate *L);

#endif
