/*
 * compare_impl.h: what the parts of collect --compare share: compare_side.c reads a side from its merge's
 * tables (its measurements, sorted by identity, and its settings; never an aller output: merge_side merges
 * one), compare_out.c writes the table, the CSV and the ratio data sets, compare_run.c matches the sides and
 * runs the command.
 */
#ifndef COLLECT_COMPARE_IMPL_H
#define COLLECT_COMPARE_IMPL_H

#include <stdio.h>

#include "compare.h"
#include "model/campaign.h"

#define NSETTINGS 40   /* the point's own three (mpi, buffers, tasks per node), then its settings */

/* A point of a side (its merge's model) and its settings. */
struct cpoint {
	const struct mpoint *m;
	const char *reveal;        /* "yes" for an instrumented point (--reveal), else NULL */
	const char *value[NSETTINGS];   /* by compare_setting_name's index; NULL: not said */
	int noted;                 /* its settings counted (it has rows) */
};

/* One measurement: a row of a winning point, its keys and timings. */
struct meas {
	const struct cpoint *pt;
	long nodes, comms, commsize, bytes;
	int algo, split;                 /* its data set's algorithm and split (splits.h) */
	double tmin, tavg, tmax, tmed;   /* tmed: NaN before format 2 */
	double one_call;                 /* (tmax - tmed) / its calls: its slowest call's share of tavg */
};

#define SETTING_VALUES 8   /* distinct values of a setting kept per side */

struct side {
	const char *arg;
	char path[4096];         /* arg, less an "@VARIANT" */
	const char *variant;     /* ... that variant's points alone (a stack, a library setting), or NULL */
	struct campaign model;   /* its merge */
	struct cpoint *pts;      /* by the model's points */
	long npts;
	struct meas *m;
	long n;
	size_t cap;
	const char *values[NSETTINGS][SETTING_VALUES];
	int nvalues[NSETTINGS], many[NSETTINGS];
	const char *campaign;   /* the one campaign, or NULL */
	int campaigns;          /* distinct campaigns */
	long simulated;         /* its points that aller-simulate drew ('# simulated:') */
	int oom;
};


/* A matched pair, or one side's measurement alone (the other NULL). */
struct pair {
	const struct meas *b, *n;
	double tol, ratio, med_ratio;
	enum verdict v;
};

struct cmp {
	const struct tolerance *tol;
	const char *tol_spec;
	struct side base, new;
	struct pair *pairs;
	long npairs;
	long count[V_N], matched, only[2], dups[2];
	int expected;                  /* BASE simulated, NEW measured: compare.h's expected verdicts */
	FILE *txt, *csv, *dat, *idx;   /* in DIR, or NULL */
	FILE *ftsv;                    /* DIR's findings.tsv: the comparison as a finding, or NULL */
};


/* compare_side.c */
const char *compare_setting_name(int i);
/* Both sides name a variant (SIDE@VARIANT): a point's identity leaves its variant out. */
extern int compare_across_variants;
int compare_point_key(const struct meas *a, const struct meas *b);
int compare_set_key(const struct meas *a, const struct meas *b);
int compare_meas(const void *x, const void *y);
/*
 * Reads one side: a merged directory (points-index.csv), else its outputs merged into SCRATCH/WHICH first
 * (merge.h's merge_side); 0, or an exit status with the message said.
 */
int compare_load(struct side *sd, const char *which, const char *scratch);
/* Whether ARG is a merged directory (its tables are read as they are). */
int compare_merged(const char *arg);
void compare_side_release(struct side *sd);

/* compare_out.c: the table and summary on stdout (and compare.txt), the CSV, the ratio sets. */
void compare_report(struct cmp *c);
/* A side's name: its one campaign, else its argument. */
const char *compare_side_name(const struct side *sd);

#endif
