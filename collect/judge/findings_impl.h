/* findings_impl.h: what findings.c (reading, models) and findings_kinds.c (the findings) share. */
#ifndef COLLECT_FINDINGS_IMPL_H
#define COLLECT_FINDINGS_IMPL_H

#include <stdio.h>

#include "strbuf.h"

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

/* A level's rows of the first algorithm, uniform split: by size. */
struct flevel {
	long commsize;
	int n;
	double bytes[FIND_SIZES], tavg[FIND_SIZES], bwavg[FIND_SIZES];
};

/* A point of points-index.csv and what its rows showed. */
struct fpoint {
	long id, nodes, world;
	char mode[16], state[32], series[FIND_NAME], variant[FIND_NAME], campaign[FIND_NAME];
	char placement[32];       /* its --placement, "" without one (the launcher's order) */
	char base[FIND_NAME];     /* its series less the placement's suffix (a campaign key's -cyclic) */
	char *source;             /* its output, failed points only (their floors); malloc'd */
	struct frow peak, agg, eff, interf, cong;   /* the rows of the peaks (peak.point < 0: none) */
	struct flevel levels[FIND_LEVELS];   /* levels 0 and 1 */
	char *hosts;              /* its '# host:' lines (facts.tsv), '\n'-separated; malloc'd */
	char *fabric;             /* its node_switch, fabric and limit facts, "key value" lines; malloc'd */
	char slow_host[64];       /* the host holding the slowest task in most rows of 2 tasks or more */
	int slow_n, slow_rows;    /* ... in how many of how many */
};

/*
 * The findings, JSON objects joined by ",\n", and the same as TSV lines
 * (severity, kind, text, points) for the report; the verdict goes first,
 * once all are known.
 */
struct fout {
	struct strbuf b, tsv;
	int n, warnings, notices;
};

/* One finding: kind, severity, text; then numbers "name", value pairs until NULL; points. */
void find_emit(struct fout *o, const char *kind, const char *severity, const char *text,
	       const long *points, int npoints, ...);

#define FIND_SLOW_ROWS 6   /* rows a recurring slowest host needs */

/*
 * Whether one host holds the slowest task in so many of a point's rows that
 * chance does not explain it: FIND_SLOW_ROWS rows or more, and at least half
 * of them and twice its share (1 / nodes).
 */
int find_recurring(const struct fpoint *p);

/* The kinds (findings_kinds.c): per point at its end, then across points. */
/* rows: one point's, by level, split, algorithm and size (findings.c sorts them so). */
void find_crossovers(struct fout *o, const struct fpoint *p, const struct frow *rows, long n);
void find_point(struct fout *o, const struct fpoint *p);
void find_across(struct fout *o, const struct fpoint *pts, long n);
/* The slow links of the campaign's --pairs outputs (pairs.tsv): one finding and suspect each; how many. */
struct suspects;
int find_slow_links(struct fout *o, const char *dir, struct suspects *sus);
void find_verdict(struct fout *o, const struct fpoint *pts, long n, int slow_links);

/* DIR/findings.json and findings.tsv: the verdict v first, then o's; 0 or -1 with a message. */
int find_write(const char *dir, const struct fout *v, const struct fout *o, char *err,
	       size_t errlen);

/* "on 4 nodes (contiguous)": the point's words. */
void find_where(char *buf, size_t len, const struct fpoint *p);

#endif
