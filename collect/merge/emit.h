/*
 * emit.h: the merged outputs (bandwidth.dat, concurrency.dat, scaling.dat,
 * points.csv, points-index.csv and the data sets' index, sets.tsv), in the
 * format of common/merged.h.
 */
#ifndef COLLECT_EMIT_H
#define COLLECT_EMIT_H

#include <stdio.h>

#include "line.h"
#include "row.h"
#include "store.h"

/* The first four in the order of merged.h's tables, whose rows they hold. */
enum emit_file { EMIT_BANDWIDTH, EMIT_CONCURRENCY, EMIT_SCALING, EMIT_CSV, EMIT_SETS, EMIT_POINTS,
		 EMIT_NFILES };
#define EMIT_NDAT 3   /* the .dat files come first */
extern const char *const emit_names[EMIT_NFILES];

struct emit {
	struct line out[EMIT_NFILES];
	struct row_cache rows;
	long nsets[EMIT_NDAT];    /* data sets written to each .dat file */
	long npoints;             /* rows of points-index.csv */
	int labels;               /* what legends name: LABEL_* (groups.h) */
	struct sort_key *keys;    /* scratch for one group's sorts */
	long nkeys;
};

/* Buffers for the files out[EMIT_NFILES] and their header lines; 0, or -1 (out of memory). */
int emit_init(struct emit *e, FILE **out, int labels);
/* Writes a group's winners; returns the rows written to the CSV, or -1 (out of memory). */
long emit_group(struct emit *e, const struct group *g);
/* Writes what is buffered and frees it; before the files are closed. */
void emit_release(struct emit *e);

#endif
