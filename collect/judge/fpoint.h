/*
 * fpoint.h: a point and its rows as the judge reads them from the merged
 * tables (points-index.csv, points.csv, facts.tsv): data only, for the
 * findings (findings_impl.h) and the fabric's bound (fbound.h).
 */
#ifndef COLLECT_FPOINT_H
#define COLLECT_FPOINT_H

#include <stddef.h>

#define FIND_LEVELS 2      /* levels kept for modes and scaling: the world, its halves */
#define FIND_SIZES 32      /* sizes kept of each (8 B .. 16 GiB) */
#define FIND_NAME 128

/* A row of points.csv, as the findings read it. */
struct frow {
	long point, level, commsize;
	char algo[32], split[64];
	double bytes, tavg, tmed, lo, hi, tmin, tmax, bwavg, aggbw, interf, cong, eff, offnode;
	long slowest;             /* the world rank of the slowest sample, -1 unknown */
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

/* A point of points-index.csv and what its rows showed. */
struct fpoint {
	long id, nodes, world;
	char mode[16], state[32], series[FIND_NAME], variant[FIND_NAME], campaign[FIND_NAME];
	char placement[32];       /* its --placement, "" without one (the launcher's order) */
	char base[FIND_NAME];     /* its series less its placement (points-index.csv's base) */
	long floors;              /* its rows below a floor (facts.tsv's floor_failed lines) */
	struct frow peak, agg, eff, interf, cong;   /* the rows of the peaks (peak.point < 0: none) */
	struct flevel levels[FIND_LEVELS];   /* levels 0 and 1 */
	char *hosts;              /* its '# host:' lines (facts.tsv), '\n'-separated; malloc'd */
	char *retried;            /* how its job's earlier attempts ended (facts.tsv's retried lines), '\n'-separated; malloc'd */
	int retries;              /* ... how many */
	char hooks[256];          /* aller's test hooks set in its run (facts.tsv's test_hooks), "" none: a test */
	char *fabric;             /* its host, node_switch, fabric and limit facts, "key value" lines (read/fabric.h); malloc'd */
	char slow_host[64];       /* the host holding the slowest task in most rows of 2 tasks or more */
	int slow_n, slow_rows;    /* ... in how many of how many */
};

#endif
