/*
 * setrow.h: sets.tsv (merged.h), the index of the data sets: its columns,
 * one line each, and their one writer. The merge (emit.c) and the
 * comparison (compare_out.c) fill a struct set_row; the header row and
 * every row come from SET_COLUMNS, so the two files cannot disagree.
 */
#ifndef COLLECT_SETROW_H
#define COLLECT_SETROW_H

#include "line.h"

/*
 * X(name, type, field): the column's name, how it is written, the field of
 * struct set_row it is written from. Types: TEXT ("-" when NULL or empty;
 * tabs and newlines become spaces), LONG ("-" below 0), MPI (the library's
 * name and version, up to the first comma), ALGO (format.h's name of the
 * algorithm), SPLIT (the split's name), INDEX (a number: the algorithm's
 * place in format.h's list, which the plots' colours follow).
 */
#define SET_COLUMNS(X) \
	X(file, TEXT, file) \
	X(index, LONG, index) \
	X(kind, TEXT, kind) \
	X(campaign, TEXT, campaign) \
	X(mode, TEXT, mode) \
	X(nodes, LONG, nodes) \
	X(commsize, LONG, commsize) \
	X(comms, LONG, comms) \
	X(bytes_per_peer, LONG, bytes) \
	X(size, TEXT, size) \
	X(tasks_per_node, TEXT, tpn) \
	X(buffers, TEXT, buffers) \
	X(mpi, MPI, mpi) \
	X(series, TEXT, series) \
	X(variant, TEXT, variant) \
	X(algo, ALGO, algo) \
	X(split, SPLIT, split) \
	X(label, TEXT, label) \
	X(rows, LONG, rows) \
	X(point, LONG, point) \
	X(algo_index, INDEX, algo) \
	X(bytes_max, LONG, bytes_max) \
	X(isolated, TEXT, isolated) \
	X(local, TEXT, local)

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
