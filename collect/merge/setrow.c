/* setrow.c: sets.tsv's header and rows, from SET_COLUMNS (setrow.h). */
#include "setrow.h"

#include <string.h>

#include "merged.h"
#include "row.h"
#include "read/splits.h"

static void put_TEXT(struct line *l, const char *s)
{
	if (!s || !*s) {
		line_char(l, '-');
		return;
	}
	for (; *s; s++)
		line_char(l, *s == '\t' || *s == '\n' ? ' ' : *s);
}

static void put_LONG(struct line *l, long v)
{
	if (v < 0)
		line_char(l, '-');
	else
		line_long(l, v);
}

static void put_MPI(struct line *l, const char *mpi)
{
	size_t n = row_mpi_len(mpi);

	if (n == 0)
		line_char(l, '-');
	for (size_t i = 0; i < n; i++)
		line_char(l, mpi[i] == '\t' ? ' ' : mpi[i]);
}

static void put_ALGO(struct line *l, int algo)
{
	line_str(l, merged_algo_name(algo));
}

static void put_SPLIT(struct line *l, int split)
{
	line_str(l, splits_name(split));
}

static void put_INDEX(struct line *l, int v)
{
	line_long(l, v);
}

void setrow_header(struct line *l)
{
#define NAME_(name, type, field) #name "\t"
	static const char names[] = SET_COLUMNS(NAME_);
#undef NAME_
	line_put(l, names, sizeof(names) - 2);   /* less the last tab */
	line_char(l, '\n');
}

void setrow_put(struct line *l, const struct set_row *r)
{
	int first = 1;

#define PUT_(name, type, field) \
	if (!first) \
		line_char(l, '\t'); \
	first = 0; \
	put_##type(l, r->field);
	SET_COLUMNS(PUT_)
#undef PUT_
	line_char(l, '\n');
}
