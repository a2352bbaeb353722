/*
 * fpoint.h: what the judge makes of a point of the merged campaign
 * (model/campaign.h) and its rows: data only, for the findings
 * (findings_impl.h) and the tomography (fbound.h).
 */
#ifndef COLLECT_FPOINT_H
#define COLLECT_FPOINT_H

#include <stddef.h>

#include "model/campaign.h"

#define FIND_LEVELS 2      /* levels kept for modes and scaling: the world, its halves */
#define FIND_SIZES 32      /* sizes kept of each (8 B .. 16 GiB) */

/* The row of a peak: where it is, its value (bwavg, aggbw, a factor) and its noise (find_noise). */
struct fbest {
	long point, commsize;     /* point < 0: none */
	double bytes, value, noise;
	char algo[32];
};

/* One size of a level's rows. */
struct fsize {
	double bytes, tavg, bwavg;
	double noise;             /* find_noise of its row */
};

/*
 * A level's rows of the first algorithm, uniform split: by size, at most
 * FIND_SIZES (s malloc'd to the sizes seen: a campaign of 10,000 points
 * keeps 10,000 of these twice).
 */
struct flevel {
	long commsize;
	int n;
	size_t cap;
	struct fsize *s;
};

/* A point of the campaign and what its rows showed. */
struct fpoint {
	const struct mpoint *pt;  /* its index row and facts (placement "": the launcher's order; base: its series
				     less its placement) */
	long floors;              /* its rows below a floor (facts.tsv's floor_failed lines) */
	struct fbest peak, agg, interf, cong;   /* the peaks of bwavg, aggbw, interference and congestion */
	struct mrow eff;          /* the best row at the largest size, off its node (eff.point < 0: none) */
	struct flevel levels[FIND_LEVELS];   /* levels 0 and 1 */
	char *hosts;              /* its '# host:' lines (facts.tsv), '\n'-separated; malloc'd */
	char *retried;            /* how its job's earlier attempts ended (facts.tsv's retried lines), '\n'-separated; malloc'd */
	int retries;              /* ... how many */
	const char *hooks;        /* aller's test hooks set in its run (facts.tsv's test_hooks), "" none: a test */
	char *fabric;             /* its host, node_switch, fabric and limit facts, "key value" lines (read/fabric.h); malloc'd */
	char *nics;               /* its nic_counters facts' values, '\n'-separated (nics.h); malloc'd */
	char slow_host[64];       /* the host holding the slowest task in most rows of 2 tasks or more */
	int slow_n, slow_rows, slow_on, on_rows;   /* ... in how many of how many; of its rows within a node too */
	int judged;               /* its rows read */
	const char *located;      /* the one slow link located (locate.h) where a slow row of it runs through it, or NULL */
};

#endif
