/*
 * store.h: the row store: the rows of one group of points, kept as the text
 * aller printed (columns joined by single spaces) in one arena, so numbers
 * are copied, never rewritten. (row.c makes one merged row from them.)
 */
#ifndef COLLECT_STORE_H
#define COLLECT_STORE_H

#include <stddef.h>

#include "read/point.h"

struct rows {
	char *arena;             /* the rows' line texts */
	size_t alen, acap;
	struct crow *rows;
	long n;
	size_t cap;
};

/* A group: points of one identity but their node count, and their rows. */
struct group {
	struct point **pts;      /* sorted by nodes; superseded ones marked */
	int n;
	struct rows rows;
};

/* Empties the store, keeping its memory. */
void rows_clear(struct rows *s);
/* Keeps a parsed row of point `point`; 0, or -1 when out of memory. */
int rows_add(struct rows *s, const char *line, const struct crow *r, int point);
/* Drops rows [from, to) and their texts; the rows after them move down. */
void rows_cut(struct rows *s, long from, long to);
void rows_release(struct rows *s);

static inline const char *rows_text(const struct rows *s, const struct crow *r)
{
	return s->arena + r->text;
}

#endif
