/*
 * compare_impl.h: what the parts of collect --compare share: compare_side.c
 * reads a side (its measurements, sorted by identity, and its settings),
 * compare_out.c writes the table, the CSV and the ratio data sets,
 * compare_run.c matches the sides and runs the command.
 */
#ifndef COLLECT_COMPARE_IMPL_H
#define COLLECT_COMPARE_IMPL_H

#include <stdio.h>

#include "compare.h"
#include "merge/groups.h"
#include "read/input.h"
#include "read/point.h"

/* One measurement: a row of a winning point, its keys and timings. */
struct meas {
	const struct point *pt;
	long nodes, comms, commsize, bytes;
	int algo, split;                 /* its data set's algorithm and split (splits.h) */
	double tmin, tavg, tmax, tmed;   /* tmed: NaN before format 2 */
};

#define SETTING_VALUES 8   /* distinct values of a setting kept per side */
#define NSETTINGS (PS_NSETTINGS + 3)

struct side {
	const char *arg;
	struct filelist files;
	struct summary s;
	struct groups gs;
	struct meas *m;
	long n;
	size_t cap;
	const char *values[NSETTINGS][SETTING_VALUES];
	int nvalues[NSETTINGS], many[NSETTINGS];
	const char *campaign;   /* the one campaign, or NULL */
	int campaigns;          /* distinct campaigns */
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
	long count[4], matched, only[2], dups[2];
	FILE *txt, *csv, *dat, *idx;   /* in DIR, or NULL */
	FILE *ftsv;                    /* DIR's findings.tsv: the comparison as a finding, or NULL */
};


/* compare_side.c */
const char *compare_setting_name(int i);
int compare_point_key(const struct meas *a, const struct meas *b);
int compare_set_key(const struct meas *a, const struct meas *b);
int compare_meas(const void *x, const void *y);
/* Reads one side; 0, or an exit status with the message said. */
int compare_load(struct side *sd, const char *which);
void compare_side_release(struct side *sd);

/* compare_out.c: the table and summary on stdout (and compare.txt), the CSV, the ratio sets. */
void compare_report(struct cmp *c);

#endif
