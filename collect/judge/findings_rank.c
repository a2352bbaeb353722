/* findings_rank.c: the report's order of the findings (findings_impl.h's find_rank). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "findings_impl.h"
#include "merged.h"

/* A number to look up: the report's table, after every sentence. */
static int lookup(const struct finding_row *r)
{
	const struct finding_kind_def *k = finding_kind_named(r->kind);

	return strcmp(r->severity, "info") == 0 && k && k->lookup;
}

/* It names something to act on. */
static int act(const struct finding_row *r)
{
	const struct finding_kind_def *k = finding_kind_named(r->kind);

	return k && k->act;
}

static int severity_class(const char *s)
{
	return !strcmp(s, "warning") ? 0 : !strcmp(s, "notice") ? 1 : 2;
}

/* Its effect as findings.tsv says it (3 decimals), at most 99: the larger first. */
static double effect(const struct finding_row *r)
{
	double e = round(r->effect * 1000) / 1000;

	return e > 99 ? 99 : e;
}

static int by_report(const void *x, const void *y)
{
	const struct finding_row *a = *(const struct finding_row *const *)x;
	const struct finding_row *b = *(const struct finding_row *const *)y;
	int c;

	if ((c = lookup(a) - lookup(b)) || (c = severity_class(a->severity) - severity_class(b->severity)) ||
	    (c = act(b) - act(a)) || (c = (effect(a) < effect(b)) - (effect(a) > effect(b))))
		return c;
	return (a > b) - (a < b);
}

void find_rank(struct fout *o)
{
	struct finding_row **order = malloc(sizeof(*order) * (o->nrows + 1));

	for (size_t i = 0; order && i < o->nrows; i++)
		order[i] = &o->rows[i];
	if (order)
		qsort(order, o->nrows, sizeof(*order), by_report);
	for (size_t i = 0; i < o->nrows; i++) {
		struct finding_row *r = order ? order[i] : &o->rows[i];
		r->rank = (long)i + 1;
		r->shown = i < FINDINGS_FIRST && !lookup(r) ? "sentence" : "table";
	}
	free(order);
}
