/* merged.c: the columns of the merged files (see merged.h). */
#include "merged.h"

#include <string.h>

#include "format.h"

#define ALLER(name, col) { name, MSRC_ALLER, col }
/* What aller measured, from its GiB column on (format.h's list). */
#define MEASURED_(ID, name, kind, value, meaning) ALLER(#name, ALLER_COL_##ID),
static const struct merged_column measured[] = { ALLER_MEASURED_COLUMNS(MEASURED_) };
#define VIEWS_(ID, views) [ALLER_COL_##ID] = (views),
static const int views[ALLER_NCOLS] = { ALLER_COLUMN_VIEWS(VIEWS_) };

/* Each table's own columns before the measured ones; which views take; after. */
static const struct {
	struct merged_column before[8];
	int view;                    /* ALLER_VIEW_* bit; -1: every measured column; 0: none */
	struct merged_column after[20];
} shapes[MERGED_NTABLES] = {
	[MERGED_BANDWIDTH] = { { { "bytes_per_peer", MSRC_BYTES, 0 } }, ALLER_VIEW_BANDWIDTH,
			       { { "bound_s", MSRC_BOUND, 0 } } },
	[MERGED_CONCURRENCY] = { { ALLER("comms", ALLER_COL_COMMS),
				   ALLER("commsize", ALLER_COL_COMMSIZE) }, ALLER_VIEW_CONCURRENCY,
				 { { 0 } } },
	[MERGED_SCALING] = { { { "nodes", MSRC_NODES, 0 } }, ALLER_VIEW_SCALING, { { 0 } } },
	[MERGED_CSV] = {
		{ { "point", MSRC_POINT, 0 }, { "level", MSRC_LEVEL, 0 }, { "algo", MSRC_ALGO, 0 },
		  { "split", MSRC_SPLIT, 0 }, ALLER("comms", ALLER_COL_COMMS),
		  ALLER("commsize", ALLER_COL_COMMSIZE), ALLER("count", ALLER_COL_COUNT),
		  { "bytes_per_peer", MSRC_BYTES, 0 } }, -1,
		{ { "bound_s", MSRC_BOUND, 0 }, { "bottleneck", MSRC_BOTTLENECK, 0 },
		  { "eff_bound", MSRC_EFF_BOUND, 0 }, { "above_bound", MSRC_ABOVE_BOUND, 0 } } },
#define POINT_COLUMN_(name, src, type) { #name, src, 0 },
	[MERGED_POINTS] = { { { 0 } }, 0, { MERGED_POINT_COLUMNS(POINT_COLUMN_) } },
#undef POINT_COLUMN_
};

static void add_all(struct merged_table_def *t, const struct merged_column *cols, size_t n)
{
	for (size_t i = 0; i < n && cols[i].name && t->n < MERGED_MAX_COLUMNS; i++)
		t->cols[t->n++] = cols[i];
}

const struct merged_table_def *merged_table(enum merged_table which)
{
	static struct merged_table_def tables[MERGED_NTABLES];
	static int built;

	if (!built) {
		for (int k = 0; k < MERGED_NTABLES; k++) {
			struct merged_table_def *t = &tables[k];
			t->sep = k == MERGED_CSV || k == MERGED_POINTS ? ',' : ' ';
			add_all(t, shapes[k].before, sizeof(shapes[k].before) / sizeof(shapes[k].before[0]));
			/* aller's bound_s and bottleneck: collect's own bound columns take their
			 * place (row.c reads aller's where collect's fabric gives no bound) */
			for (size_t i = 0; i < sizeof(measured) / sizeof(measured[0]); i++)
				if (measured[i].arg != ALLER_COL_BOUND && measured[i].arg != ALLER_COL_BOTTLENECK &&
				    (shapes[k].view < 0 || (views[measured[i].arg] & shapes[k].view)))
					add_all(t, &measured[i], 1);
			add_all(t, shapes[k].after, sizeof(shapes[k].after) / sizeof(shapes[k].after[0]));
		}
		built = 1;
	}
	return &tables[which];
}

const char *merged_algo_name(int algo)
{
	static const char *const names[ALLER_NALGOS] = ALLER_ALGO_NAMES;

	return algo >= 0 && algo < ALLER_NALGOS ? names[algo] : "?";
}

char *merged_names(const struct merged_column *cols, int n, char sep, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && at + 1 < len; i++) {
		size_t k = strlen(cols[i].name);
		if (i)
			buf[at++] = sep;
		if (at + k >= len)
			k = len - at - 1;
		memcpy(buf + at, cols[i].name, k);
		at += k;
		buf[at] = '\0';
	}
	return buf;
}

#define KIND_(name, lookup, act, plot) { #name, lookup, act, plot },
static const struct finding_kind_def kinds[FINDING_NKINDS] = { FINDING_KINDS(KIND_) };

const struct finding_kind_def *finding_kind(enum finding_kind k)
{
	return &kinds[k];
}

const struct finding_kind_def *finding_kind_named(const char *name)
{
	for (int k = 0; k < FINDING_NKINDS; k++)
		if (strcmp(kinds[k].name, name) == 0)
			return &kinds[k];
	return NULL;
}
