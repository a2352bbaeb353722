/*
 * campaign.h: a merged directory read once, by the column names its writers
 * declare (common/merged.h, merge/setrow.h), into one model: its points
 * (points-index.csv) with their facts (facts.tsv), its --pairs points
 * (pairs.tsv), its data sets (sets.tsv) and its findings' kinds
 * (findings.tsv); its rows (points.csv) handed to a reader one at a time,
 * never all kept. The judge, the trend, the export, each side of a
 * comparison and the plot list read a merge through it alone.
 */
#ifndef COLLECT_CAMPAIGN_H
#define COLLECT_CAMPAIGN_H

#include <stddef.h>

#include "format.h"
#include "merged.h"

/* A fact of a point: facts.tsv's key and value. */
struct mfact {
	long point;
	const char *key, *value;
};

/*
 * A point: its row of points-index.csv, a field per column of merged.h's
 * MERGED_POINT_COLUMNS (a number -1, a text "" where absent), and its facts
 * in their order.
 */
#define CAMPAIGN_T_LONG long
#define CAMPAIGN_T_TEXT const char *
#define CAMPAIGN_POINT_FIELD_(name, src, type) CAMPAIGN_T_##type name;
struct mpoint {
	MERGED_POINT_COLUMNS(CAMPAIGN_POINT_FIELD_)
	const struct mfact *facts;
	long nfacts;
};

/*
 * A row of points.csv: the merge's own columns, and a field per column of
 * format.h's list by its name (tavg_s, tmed_lo_s, aggbw_GiBs, ...): kinds
 * COUNT, RANK and ORANK a long (-1 where absent), REAL and OPT a double (NAN
 * where absent or "-"), TEXT a string ("" where absent). bound_s and
 * bottleneck are the merge's (merged.h's MSRC_BOUND, MSRC_BOTTLENECK).
 */
#define CAMPAIGN_K_COUNT(name) long name;
#define CAMPAIGN_K_RANK(name) long name;
#define CAMPAIGN_K_ORANK(name) long name;
#define CAMPAIGN_K_REAL(name) double name;
#define CAMPAIGN_K_OPT(name) double name;
#define CAMPAIGN_K_TEXT(name) char name[160];
#define CAMPAIGN_ROW_FIELD_(ID, name, kind, value, meaning) CAMPAIGN_K_##kind(ID)
struct mrow {
	long point, level;
	char algo[32], split[64];
	double bytes;              /* bytes per peer */
	ALLER_COLUMNS(CAMPAIGN_ROW_FIELD_, CAMPAIGN_ROW_FIELD_)
	double eff_bound;
	char above_bound[16];
};

/* A TSV of the merge read whole: row r's value of wanted column c at cell[r * ncols + c] ("" absent). */
struct mtable {
	char *text;
	const char **cell;
	long n;
	int ncols;
};

/* The columns of sets.tsv (SET_file, SET_index, ...) and pairs.tsv (PAIR_file, ...), in order, and their names. */
#define CAMPAIGN_SET_(name, type, field) SET_##name,
#define CAMPAIGN_PAIR_(name, type, field) PAIR_##name,
enum { SET_COLUMNS(CAMPAIGN_SET_) SET_N };
enum { PAIRS_COLUMNS(CAMPAIGN_PAIR_) PAIR_N };
extern const char *const campaign_set_names[SET_N];

/* What campaign_load reads: the points and their facts, the data sets, the pairs, the findings' kinds. */
enum { CAMPAIGN_POINTS = 1, CAMPAIGN_FACTS = 2, CAMPAIGN_SETS = 4, CAMPAIGN_PAIRS = 8,
       CAMPAIGN_FINDINGS = 16 };

struct campaign {
	const char *dir;
	struct mpoint *pts;       /* in the index's order */
	long np;
	struct mfact *facts;      /* by point, each point's in their order */
	long nfacts;
	struct mtable sets;       /* merge/setrow.h's SET_COLUMNS, in order */
	struct mtable pairs;      /* merged.h's PAIRS_COLUMNS, in order */
	char *kinds;              /* kinds[FK_*]: findings.tsv holds one of that kind (NULL: no findings.tsv) */
	char *text[2];            /* the index's and the facts' storage */
};

/*
 * DIR's tables of `what` (CAMPAIGN_*): 0, or -1 with err said where the
 * index (CAMPAIGN_POINTS) or sets.tsv (CAMPAIGN_SETS, every column of it
 * there) cannot be read; facts.tsv, pairs.tsv and findings.tsv may be
 * missing (none). A point's facts come with the points or alone.
 */
int campaign_load(struct campaign *c, const char *dir, int what, char *err, size_t errlen);
void campaign_release(struct campaign *c);

/* The point numbered id, or NULL. */
const struct mpoint *campaign_point(const struct campaign *c, long id);
/* The facts of point id (*n of them), in order; NULL with none. */
const struct mfact *campaign_facts(const struct campaign *c, long id, long *n);
/* A point's first value of key, or NULL. */
const char *campaign_fact(const struct mpoint *p, const char *key);
/* The least value of key over every point's facts ("# start:": the campaign's first), "" with none. */
void campaign_earliest(const struct campaign *c, const char *key, char *out, size_t len);

/*
 * The '# slow_link:' lines of the --pairs points pairs.tsv names (facts.tsv's
 * slow_link), in order: fn on each with its point's start and campaign
 * ("" unknown) (NULL: only counted); how many.
 */
typedef void campaign_link_fn(void *ctx, const char *link, const char *since, const char *campaign,
			      long point);
long campaign_slow_links(const struct campaign *c, campaign_link_fn *fn, void *ctx);

/*
 * The matrix of --pairs point `point` (pairs.dat's data set), n tasks: bw[src * n + dst] in GB/s,
 * spread[...] (unless NULL) its average exchange over its best less 1; NAN where none. 0, or -1
 * where pairs.dat cannot be read, has no such data set, or names a task outside 0..n-1.
 */
int campaign_matrix(const struct campaign *c, long point, long n, double *bw, double *spread);

/*
 * points.csv, row by row in its order: fn(ctx, row) on each (its storage
 * reused for the next) until fn returns non-zero. 0, or -1 with err where
 * the file cannot be read, or is not the merge's whole (text.h's door: a
 * header not the merge's, a row cut or of another width: FILE:LINE).
 */
int campaign_rows(const struct campaign *c, int (*fn)(void *ctx, const struct mrow *r), void *ctx,
		  char *err, size_t errlen);

/* Row r of a table, column c (the wanted list's order). */
static inline const char *mtable_at(const struct mtable *t, long r, int c)
{
	return t->cell[r * t->ncols + c];
}

#endif
