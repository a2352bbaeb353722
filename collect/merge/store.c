/* store.c: see store.h. */
#include "store.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

void rows_clear(struct rows *s)
{
	s->alen = 0;
	s->n = 0;
}

static int reserve(struct rows *s, size_t len)
{
	if (s->alen + len > s->acap) {
		char *a = grow(s->arena, &s->acap, s->alen + len, 1, 1 << 16);
		if (!a)
			return -1;
		s->arena = a;
	}
	if ((size_t)s->n == s->cap) {
		struct crow *rows = grow(s->rows, &s->cap, s->cap + 1, sizeof(*rows), 1024);
		if (!rows)
			return -1;
		s->rows = rows;
	}
	return 0;
}

int rows_add(struct rows *s, const char *line, const struct crow *r, int point)
{
	size_t len = 0;
	struct crow *row;
	char *to;
	int at = 0, plain = r->off[0] == 0;

	for (int c = 0; c < r->ncols; c++) {
		len += r->len[c] + 1u;
		if (c)
			plain &= r->off[c] == r->off[c - 1] + r->len[c - 1] + 1;
	}
	if (reserve(s, len) != 0)
		return -1;
	row = &s->rows[s->n++];
	*row = *r;
	row->text = (long)s->alen;
	row->point = point;
	to = s->arena + s->alen;
	if (plain) {   /* as aller prints it: single spaces between the columns */
		s->alen += len - 1;
		memcpy(to, line, len - 1);
		return 0;
	}
	for (int c = 0; c < r->ncols; c++) {
		if (c)
			to[at++] = ' ';
		memcpy(to + at, line + r->off[c], r->len[c]);
		row->off[c] = (uint16_t)at;
		at += r->len[c];
	}
	s->alen += (size_t)at;
	return 0;
}

void rows_cut(struct rows *s, long from, long to)
{
	size_t at, end;

	if (from >= to)
		return;
	at = (size_t)s->rows[from].text;
	end = to < s->n ? (size_t)s->rows[to].text : s->alen;
	memmove(s->arena + at, s->arena + end, s->alen - end);
	s->alen -= end - at;
	memmove(s->rows + from, s->rows + to, sizeof(*s->rows) * (size_t)(s->n - to));
	s->n -= to - from;
	for (long i = from; i < s->n; i++)
		s->rows[i].text -= (long)(end - at);
}

void rows_release(struct rows *s)
{
	free(s->arena);
	free(s->rows);
	memset(s, 0, sizeof(*s));
}
