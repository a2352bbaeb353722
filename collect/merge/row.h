/* row.h: one row of a merged table from a stored row (see row.c). */
#ifndef COLLECT_ROW_H
#define COLLECT_ROW_H

#include <stddef.h>

#include "line.h"
#include "merged.h"
#include "store.h"

#define ROW_CACHE 4   /* runs of a point's own columns kept per table */

/* The text of a run of a point's own columns, from column `first` on. */
struct run_cache {
	const struct point *pt;
	int first;
	size_t len;
	char text[2048];
};

/* A row against its point's fabric, worked out once for all of the row's bound columns. */
struct row_bound {
	int done, ok;        /* worked out; known */
	struct bound b;
	char link[200];      /* the bound's link ("nic:n3", "up:leaf1", "(partial:up:leaf2)" added) */
	char t[32];          /* b.t as written ("%.6e"), once written */
	double tmed;
	const char *above;   /* why it beat its bound beyond its interval, or NULL */
};

struct row_cache {
	struct run_cache run[MERGED_NTABLES][ROW_CACHE];
	/* a bandwidth.dat row's bound, for points.csv's row of it (the next row put) */
	const struct crow *bound_row;
	struct row_bound bound;
};

/* Row r of group g as a line of table t (merged.h): a view's .dat file, or points.csv. */
void row_put(struct line *l, struct row_cache *rc, const struct group *g, const struct crow *r,
	     enum merged_table t);
/* Point pt's row of points-index.csv (MERGED_POINTS). */
void row_put_point(struct line *l, const struct point *pt);
/* The MPI library's name and version: the length of its text up to the first comma. */
size_t row_mpi_len(const char *mpi);

#endif
