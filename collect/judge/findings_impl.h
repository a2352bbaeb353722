/*
 * findings_impl.h: what the judge's parts share: findings.c (the points of
 * the model, models.csv, the run), findings_kinds.c (a point's findings and
 * find_emit), findings_across.c (the findings across points, the verdict),
 * findings_rank.c (the report's order) and trend.c (its findings).
 */
#ifndef COLLECT_FINDINGS_IMPL_H
#define COLLECT_FINDINGS_IMPL_H

#include <stdio.h>

#include "fpoint.h"
#include "merged.h"
#include "strbuf.h"

/*
 * The findings, JSON objects joined by ",\n", and the same as TSV lines
 * (severity, kind, text, points) for the report; the verdict goes first,
 * once all are known.
 */
struct fout {
	struct strbuf b;             /* findings.json's objects */
	struct finding_row *rows;    /* findings.tsv's rows, in order (their text and points malloc'd) */
	size_t nrows, cap;
	int n, warnings, notices;
};
/* The rows' storage freed, and the JSON's. */
void fout_release(struct fout *o);
/*
 * findings_rank.c: the report's order of o's rows, into their rank (1, 2,
 * ...) and shown (sentence or table): warnings, then notices, then
 * information; of one severity, what names something to act on (merged.h's
 * FINDING_KINDS: act) first, then the larger effect, then the order found;
 * information that is a number to look up (lookup) last. The first
 * FINDINGS_FIRST are sentences, but such numbers; the rest a table.
 */
void find_rank(struct fout *o);

/* One finding: kind (merged.h's FINDING_KINDS), severity, text; then numbers "name", value pairs until NULL; points. */
void find_emit(struct fout *o, enum finding_kind kind, const char *severity, const char *text,
	       const long *points, int npoints, ...);

#define FIND_SLOW_ROWS 6   /* rows a recurring slowest host needs */

/*
 * Beyond the noise, the one rule of every finding that compares times (a
 * factor of one row, a point against another, one algorithm against the
 * next): a ratio is beyond the noise when it is more than FIND_NOISE_MIN
 * from 1 and more than twice `noise` from it, `noise` the relative
 * half-widths of the compared rows' intervals added (find_noise: a row's
 * median's 95% interval, else its min..max).
 */
#define FIND_NOISE_MIN 0.1
double find_noise(const struct mrow *r);
int find_beyond(double ratio, double noise);

/*
 * Whether one host holds the slowest task in so many of a point's rows that
 * chance does not explain it: FIND_SLOW_ROWS rows or more, and at least half
 * of them and twice its share (1 / nodes).
 */
int find_recurring(const struct fpoint *p);

/* The network counters (findings_nics.c): a point's nodes whose counters stand out. */
void find_nics(struct fout *o, const struct fpoint *p);
/*
 * " NODE's counters over those points: 1,234 TCP segments retransmitted,
 * ..." of points[npoints] (point numbers; NULL: every point) summed; ""
 * where none says.
 */
void find_nic_cite(const struct fpoint *pts, long np, const long *points, int npoints, const char *node,
		   char *buf, size_t len);

/* The kinds (findings_kinds.c): per point at its end, then across points. */
/* rows: one point's, by level, split, algorithm and size (findings.c sorts them so). */
void find_crossovers(struct fout *o, const struct fpoint *p, const struct mrow *rows, long n);
/*
 * A link's id (bound.h's, "up:agg1") in words, as bound_link_words says
 * them, with the tier of a switch above the leaves in p's fabric ("the
 * uplink of agg1, tier 2"); p NULL: the words alone.
 */
void find_link_words(const struct fpoint *p, const char *id, char *buf, size_t len);
void find_point(struct fout *o, const struct fpoint *p);
void find_across(struct fout *o, const struct fpoint *pts, long n);
/*
 * The slow links of the campaign's --pairs outputs (pairs.tsv): one finding
 * and suspect each, but those the topology explains (topology.h's
 * topo_link: an info finding, no suspect); how many are slow.
 */
struct suspects;
struct topo;
int find_slow_links(struct fout *o, const struct campaign *c, struct suspects *sus, const struct topo *topo);
/*
 * The link the rows' bounds locate (locate.h): a finding, and its suspects;
 * how many links it names (1: located; more: not separated; 0: none). find_itself: a point whose rows
 * within a node (FIND_SLOW_ROWS+, no NIC) have all their slowest task on NIC link's node: slow itself.
 */
struct locate;
int find_located(struct fout *o, const struct locate *loc, const struct fpoint *pts, long n,
		 struct suspects *sus);
const struct fpoint *find_itself(const struct fpoint *pts, long np, const char *link);
/*
 * The verdict: first the fabric's health (the share of its bound the
 * network-bound rows reach, the weakest named; whether the topology was
 * verified; the retries), then the points' states, slow links found, and
 * whether one was located but not separated.
 */
struct health;
struct verdict_in {
	const struct health *health;
	const char *topology;        /* the topology's words (find_topology's) */
	int verified;                /* 1 verified, 0 not judged, -1 not as declared */
	int slow_links, unseparated;
};
void find_verdict(struct fout *o, const struct fpoint *pts, long n, const struct verdict_in *in);
/*
 * The topology's outcome (topology.h): a finding (kind topology) where a
 * node measures as on another leaf, and the verdict's words for it into
 * words; 1 verified, 0 not judged, -1 not as declared.
 */
struct topo;
int find_topology(struct fout *o, const struct topo *t, char *words, size_t len);

/* DIR/findings.json and findings.tsv: the verdict v first, then o's; 0 or -1 with a message. */
int find_write(const char *dir, const struct fout *v, struct fout *o, char *err,
	       size_t errlen);

/* "On 4 nodes (contiguous)": the point's words. */
void find_where(char *buf, size_t len, const struct fpoint *p);

#endif
