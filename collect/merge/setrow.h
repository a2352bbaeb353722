/*
 * setrow.h: sets.tsv (merged.h), the index of the data sets: the one
 * writer of its columns (merged.h's SET_COLUMNS). The merge (emit.c) and the
 * comparison (compare_out.c) fill a struct set_row; the header row and
 * every row come from SET_COLUMNS, so the two files cannot disagree.
 */
#ifndef COLLECT_SETROW_H
#define COLLECT_SETROW_H

#include "line.h"
#include "merged.h"

/* One data set's row; a key that is not one of its kind is -1 (or NULL). */
struct set_row {
	const char *file, *kind, *campaign, *mode, *size, *tpn, *buffers, *mpi, *series, *variant,
		*label, *isolated, *local;
	long index, nodes, commsize, comms, bytes, rows, point, bytes_max;
	int algo, split;
};

/* The header row: the columns' names. */
void setrow_header(struct line *l);
/* One row. */
void setrow_put(struct line *l, const struct set_row *r);

#endif
