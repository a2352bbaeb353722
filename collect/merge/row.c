/*
 * row.c: one row of a merged table (common/merged.c: the .dat files' or the
 * CSV's columns) from a stored row and its point. Runs of aller's columns
 * are copied as aller printed them, runs of the point's own columns come
 * from a cache, as a point's rows come one after the other.
 */
#include "row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "merged.h"
#include "read/splits.h"

enum { POINT_TEXT = 256 };   /* a computed text column: a key, a base */

size_t row_mpi_len(const char *mpi)
{
	return mpi ? strcspn(mpi, ",\"\n") : 0;
}

static const char *str(const char *s)
{
	return s ? s : "-";
}

/* A text field: quoted in a CSV when it needs it (line_csv), as it is in a .dat. */
static void line_field(struct line *l, const char *s, int csv)
{
	if (csv)
		line_csv(l, s);
	else
		line_str(l, s);
}

/* A point's text column; the computed ones (its key, its base) into buf. */
static const char *point_text(const struct point *pt, enum merged_source src, char buf[POINT_TEXT])
{
	switch (src) {
	case MSRC_KEY: point_key(pt, buf, POINT_TEXT); return buf;
	case MSRC_BASE: point_base(pt, buf, POINT_TEXT); return buf;
	case MSRC_CAMPAIGN: return pt->campaign;
	case MSRC_MODE: return pt->mode;
	case MSRC_TPN: return pt->tpn;
	case MSRC_BUFFERS: return pt->buffers;
	case MSRC_JOB: return pt->job;
	case MSRC_SOURCE: return pt->path;
	case MSRC_SERIES: return pt->series;
	case MSRC_VARIANT: return pt->variant;
	case MSRC_PLACEMENT: return pt->setting[PS_PLACEMENT];
	default: return NULL;
	}
}

/*
 * Columns first..last of aller's, as printed: one copy, as rows are stored
 * with single spaces between columns (store.c). The columns older outputs
 * lack (after the spec's ten, or format 1's twelve) are NaN (-1 for the
 * slowest rank) in the .dat files, empty fields in the CSV.
 */
static void put_aller(struct line *l, const struct group *g, const struct crow *r, int first,
		      int last, int csv)
{
	int have = last < r->ncols ? last : r->ncols - 1, sep = 0;

	if (first <= have) {
		const char *text = rows_text(&g->rows, r) + r->off[first];
		size_t n = (size_t)r->off[have] + r->len[have] - r->off[first];
		char tmp[512];   /* a stored row is at most PARSE_MAX_DATA_LINE long */
		if (csv) {   /* spaces become commas, a lone "-" (not measured) an empty field */
			size_t k = 0;
			for (size_t i = 0; i < n; i++) {
				int lone = text[i] == '-' && (i == 0 || text[i - 1] == ' ') &&
					   (i + 1 == n || text[i + 1] == ' ');
				if (!lone)
					tmp[k++] = text[i] == ' ' ? ',' : text[i];
			}
			text = tmp;
			n = k;
		}
		line_put(l, text, n);
		sep = 1;
		first = have + 1;
	}
	for (int k = first; k <= last; k++) {
		if (sep)
			line_char(l, csv ? ',' : ' ');
		sep = 1;
		if (!csv)
			line_str(l, k == ALLER_COL_SLOWEST ? "-1" : "NaN");
	}
}

/* Column k of a stored row as a number; 0 where the row has no such column. */
static double row_real(const struct group *g, const struct crow *r, int k)
{
	return r->ncols > k ? strtod(rows_text(&g->rows, r) + r->off[k], NULL) : 0;
}

/*
 * Why aller's own eff (a row without a fabric's bound) beats 1 beyond the
 * row's interval (eff x tavg / tmed_hi > 1): "cache" inside the nodes when
 * a node's tasks move no more than its last-level cache a call, else "rate"
 * (the limit recorded is below what the row carried); NULL where it does not.
 */
static const char *eff_above(const struct group *g, const struct crow *r, struct point *pt)
{
	double eff = row_real(g, r, ALLER_COL_EFF), hi = row_real(g, r, ALLER_COL_TMED_HI), tasks, llc;

	if (!(eff > 0) || !(hi > 0) || !(eff * row_real(g, r, ALLER_COL_TAVG) / hi > 1))
		return NULL;
	if (row_real(g, r, ALLER_COL_OFFNODE) > 0)
		return "rate";
	llc = point_llc(pt, &tasks);
	return llc > 0 && row_real(g, r, ALLER_COL_GIB) * 1073741824.0 * tasks <= llc ? "cache" : "rate";
}

/*
 * Where the facts give collect no bound of its own: aller's bound_s and
 * bottleneck (format 9; what aller knew at run time: the NICs and memory,
 * the leaves of --fabric), as printed.
 */
static void aller_bound(const struct group *g, const struct crow *r, struct row_bound *rb)
{
	const char *text = rows_text(&g->rows, r);
	double t = row_real(g, r, ALLER_COL_BOUND);
	int n = r->ncols > ALLER_COL_BOTTLENECK ? r->len[ALLER_COL_BOTTLENECK] : 0;

	if (!(t > 0) || n == 0 || (n == 1 && text[r->off[ALLER_COL_BOTTLENECK]] == '-'))
		return;
	rb->ok = 1;
	memset(&rb->b, 0, sizeof(rb->b));
	rb->b.t = t;
	snprintf(rb->link, sizeof(rb->link), "%.*s", n, text + r->off[ALLER_COL_BOTTLENECK]);
}

/* rb, on the first of the row's bound columns: unknown with no fabric in the facts, a split, no rated link. */
static void row_bound(const struct group *g, const struct crow *r, struct row_bound *rb)
{
	struct point *pt = g->pts[r->point];
	const struct fabric *f = point_fabric(pt);

	rb->done = 1;
	rb->tmed = row_real(g, r, ALLER_COL_TMED);
	rb->above = NULL;
	rb->ok = f && r->split == 0 && fabric_row(f, pt->mode, r->level, (double)r->count * 8, &rb->b) == 0 &&
		 rb->b.t > 0;
	if (!rb->ok) {
		rb->above = eff_above(g, r, pt);
		aller_bound(g, r, rb);
		return;
	}
	struct bound_fabric net = fabric_bound(f);
	bound_link_of(&net, &rb->b, rb->link, sizeof(rb->link));
	rb->above = fabric_above(f, &rb->b, row_real(g, r, ALLER_COL_TMED_HI),
				 fabric_row_time((double)r->count * 8, (long)row_real(g, r, ALLER_COL_COMMSIZE),
						 pt->world, row_real(g, r, ALLER_COL_AGGBW)));
}

/* bound_s, bottleneck, eff_bound or above_bound; unknown: an empty field in the CSV, NaN or "-" in a .dat. */
static void put_bound(struct line *l, const struct group *g, const struct crow *r,
		      struct row_bound *rb, enum merged_source src, int csv)
{
	if (!rb->done)
		row_bound(g, r, rb);
	if (src == MSRC_ABOVE_BOUND ? !rb->above : !rb->ok || (src == MSRC_EFF_BOUND && !(rb->tmed > 0)))
		line_str(l, csv ? "" : src == MSRC_BOTTLENECK || src == MSRC_ABOVE_BOUND ? "-" : "NaN");
	else if (src == MSRC_ABOVE_BOUND)
		line_str(l, rb->above);
	else if (src == MSRC_BOTTLENECK)
		line_field(l, rb->link, csv);
	else if (src == MSRC_EFF_BOUND)
		line_printf(l, "%.6e", rb->b.t / rb->tmed);
	else
		line_str(l, rb->t[0] ? rb->t : (snprintf(rb->t, sizeof(rb->t), "%.6e", rb->b.t), rb->t));
}

static int bound_column(enum merged_source src)
{
	return src == MSRC_BOUND || src == MSRC_BOTTLENECK || src == MSRC_EFF_BOUND ||
	       src == MSRC_ABOVE_BOUND;
}

/* One column that is not aller's. */
static void put_column(struct line *l, const struct group *g, const struct crow *r,
		       const struct merged_column *c, int csv)
{
	const struct point *pt = g->pts[r->point];
	char buf[POINT_TEXT];

	switch (c->src) {
	case MSRC_NODES: line_long(l, pt->nodes); break;
	case MSRC_POINT: line_long(l, pt->id); break;
	case MSRC_BYTES: line_long(l, r->count * (long)sizeof(long)); break;
	case MSRC_WORLD:   /* unknown where aller never started: empty, or "-" */
		if (pt->world >= 0)
			line_long(l, pt->world);
		else if (!csv)
			line_char(l, '-');
		break;
	case MSRC_LEVEL: line_long(l, r->level); break;
	case MSRC_ALGO: line_field(l, merged_algo_name(r->algo), csv); break;
	case MSRC_SPLIT: line_field(l, splits_name(r->split), csv); break;   /* a file's name */
	case MSRC_INSTRUMENTED: line_str(l, pt->reveal ? "yes" : "no"); break;
	case MSRC_STATE: line_str(l, point_state_name(point_state(pt))); break;
	case MSRC_MPI: line_put(l, pt->mpi ? pt->mpi : "", row_mpi_len(pt->mpi)); break;
	default:
		if (csv)
			line_csv(l, point_text(pt, c->src, buf));
		else
			line_str(l, str(point_text(pt, c->src, buf)));
	}
}

/* Columns first..last, each as put_column writes it, with their separators. */
static void put_columns(struct line *l, const struct group *g, const struct crow *r,
			const struct merged_column *cols, int first, int last, int csv)
{
	for (int i = first; i <= last; i++) {
		if (i > first)
			line_char(l, csv ? ',' : ' ');
		put_column(l, g, r, &cols[i], csv);
	}
}

static int constant(enum merged_source src)
{
	return src != MSRC_ALLER && src != MSRC_BYTES && src != MSRC_LEVEL && src != MSRC_ALGO &&
	       src != MSRC_SPLIT && !bound_column(src);
}

void row_put_point(struct line *l, const struct point *pt)
{
	const struct merged_table_def *t = merged_table(MERGED_POINTS);
	struct crow r;
	struct point *one[1] = { (struct point *)pt };
	struct group g;

	memset(&r, 0, sizeof(r));
	memset(&g, 0, sizeof(g));
	g.pts = one;
	g.n = 1;
	put_columns(l, &g, &r, t->cols, 0, t->n - 1, 1);
	line_char(l, '\n');
}

/* An upper bound of what columns first..last of a point take as text. */
static size_t text_bound(const struct point *pt, const struct merged_column *cols, int first,
			 int last)
{
	size_t n = 0;

	for (int i = first; i <= last; i++) {
		char buf[POINT_TEXT];
		const char *t = cols[i].src == MSRC_MPI ? pt->mpi : point_text(pt, cols[i].src, buf);
		n += 2 * (t ? strlen(t) : 0) + 32;   /* quotes doubled, numbers, separators */
	}
	return n;
}

/*
 * Columns first..last, all the point's own (constant over its rows): from
 * the cache c when its last row was of the same point, else rendered and
 * kept there (c NULL: not kept).
 */
static void put_constant(struct line *l, struct run_cache *c, const struct group *g,
			 const struct crow *r, const struct merged_column *cols, int first, int last,
			 int csv)
{
	const struct point *pt = g->pts[r->point];
	struct line to;

	if (c && c->pt == pt && c->first == first) {
		line_put(l, c->text, c->len);
		return;
	}
	if (!c || text_bound(pt, cols, first, last) > sizeof(c->text)) {   /* not kept */
		put_columns(l, g, r, cols, first, last, csv);
		return;
	}
	to.f = NULL;   /* never flushed: the bound fits */
	to.buf = to.p = c->text;
	to.end = c->text + sizeof(c->text);
	put_columns(&to, g, r, cols, first, last, csv);
	c->pt = pt;
	c->first = first;
	c->len = (size_t)(to.p - to.buf);
	line_put(l, c->text, c->len);
}

/*
 * A row of a table's columns: runs of aller's columns in order are copied
 * at once, runs of the point's own from a cache.
 */
void row_put(struct line *l, struct row_cache *rc, const struct group *g, const struct crow *r,
	     enum merged_table t)
{
	const struct merged_table_def *def = merged_table(t);
	const struct merged_column *cols = def->cols;
	int n = def->n, runs = 0, csv = def->sep == ',';
	struct row_bound own = { 0 }, *rb = &own;

	if (t == MERGED_CSV && rc->bound_row == r)
		rb = &rc->bound;   /* bandwidth.dat's row of it, just put: its bound worked out */

	for (int i = 0; i < n; i++) {
		int j = i;
		if (i)
			line_char(l, csv ? ',' : ' ');
		if (cols[i].src == MSRC_ALLER) {
			while (j + 1 < n && cols[j + 1].src == MSRC_ALLER &&
			       cols[j + 1].arg == cols[j].arg + 1)
				j++;
			put_aller(l, g, r, cols[i].arg, cols[j].arg, csv);
		} else if (constant(cols[i].src)) {
			while (j + 1 < n && constant(cols[j + 1].src))
				j++;
			put_constant(l, runs < ROW_CACHE ? &rc->run[t][runs] : NULL, g, r, cols,
				     i, j, csv);
			runs++;
		} else if (bound_column(cols[i].src)) {
			put_bound(l, g, r, rb, cols[i].src, csv);
		} else {
			put_column(l, g, r, &cols[i], csv);
		}
		i = j;
	}
	line_char(l, '\n');
	rc->bound_row = t == MERGED_BANDWIDTH && own.done ? r : NULL;
	if (rc->bound_row)
		rc->bound = own;
}
