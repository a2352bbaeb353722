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

struct row_cache {
	struct run_cache run[MERGED_NTABLES][ROW_CACHE];
};

/* Row r of group g as a line of table t (merged.h): a view's .dat file, or points.csv. */
void row_put(struct line *l, struct row_cache *rc, const struct group *g, const struct crow *r,
	     enum merged_table t);
/* Point pt's row of points-index.csv (MERGED_POINTS). */
void row_put_point(struct line *l, const struct point *pt);
/* The MPI library's name and version: the length of its text up to the first comma. */
size_t row_mpi_len(const char *mpi);

#endif
