/*
 * health.h: the fabric's health in one figure, as pure logic over a merged
 * campaign's rows: the share of what the fabric allows (eff_bound: bound_s /
 * tmed_s) that its network-bound rows reach. A row speaks for the network
 * when a NIC, an uplink or a dragonfly's global links bound it (its
 * bottleneck nic:NODE, up:SWITCH or global:..., not partial) at HEALTH_MIN_BYTES per peer or more; of those, each curve's
 * (point, level) largest size is counted, its latency the least part of it,
 * and of rows of one size the best algorithm's (what the fabric delivers).
 * The verdict, findings.json and the Prometheus gauges all say this one
 * figure (collect/judge/findings_across.c, collect/export/export.c).
 */
#ifndef COLLECT_HEALTH_H
#define COLLECT_HEALTH_H

#include "campaign.h"

#define HEALTH_MIN_BYTES 65536   /* rows of fewer bytes per peer are latency's, not the links' */
#define HEALTH_WEAK 0.5          /* a weakest row below half of its bound makes the verdict a warning */

struct health {
	long rows;              /* the rows counted */
	double lo, hi;          /* their eff_bound, least and most */
	struct mrow weakest;    /* the row at lo (weakest.point < 0: none) */
	struct mrow cur;        /* the curve being read: its largest network-bound row so far */
	int have;
};

void health_init(struct health *h);
/* One row of points.csv, in its order (a curve's rows together). */
void health_row(struct health *h, const struct mrow *r);
/* The last curve counted: call once after the last row. */
void health_end(struct health *h);

#endif
