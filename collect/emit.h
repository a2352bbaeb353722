/* emit.h: the merged outputs (bandwidth.dat, concurrency.dat, scaling.dat, points.csv). */
#ifndef COLLECT_EMIT_H
#define COLLECT_EMIT_H

#include <stdio.h>

#include "point.h"

struct group {
	struct point **pts;      /* sorted by nodes; superseded ones marked */
	int n;
	char *arena;             /* the rows' line texts */
	size_t alen, acap;
	struct crow *rows;
	long nrows, cap;
};

enum emit_file { EMIT_BANDWIDTH, EMIT_CONCURRENCY, EMIT_SCALING, EMIT_CSV, EMIT_NFILES };
extern const char *const emit_names[EMIT_NFILES];

void emit_headers(FILE *out[EMIT_NFILES]);
/* Writes a group's winners; returns the rows written to the CSV. */
long emit_group(FILE *out[EMIT_NFILES], const struct group *g);

#endif
