/*
 * emit.c: the merged data sets. Every row's numbers are the tokens aller
 * printed, copied unchanged; only bytes per peer (count x 8) is computed.
 * Columns come from the tables of common/merged.c. Rows missing inside a
 * data set are left as a gap (a blank line), so gnuplot does not draw a
 * line across them. Each data set also gets a row in sets.tsv.
 */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "line.h"
#include "format.h"
#include "groups.h"
#include "merged.h"
#include "row.h"
#include "setrow.h"
#include "read/splits.h"

const char *const emit_names[EMIT_NFILES] = { "bandwidth.dat", "concurrency.dat",
					      "scaling.dat", "points.csv", MERGED_SETS_FILE,
					      "points-index.csv" };
static const char *const kind_names[EMIT_NDAT] = { "bandwidth", "concurrency", "scaling" };

static const char *const dat_about[EMIT_NDAT] = {
	"bandwidth versus message size: one data set per (campaign, mode, nodes, algorithm, "
	"split, commsize), rows by count",
	"bandwidth versus concurrency: one data set per (campaign, mode, nodes, algorithm, split, "
	"bytes per peer), rows by number of communicators",
	"scaling: one data set per (campaign, mode, algorithm, split, commsize, bytes per peer), "
	"rows by node count",
};

static const char *str(const char *s)
{
	return s ? s : "-";
}

#define EMIT_BUFFER (256 * 1024)   /* each file's, written when full */

/* A CSV's header row: its table's column names. */
static void csv_header(struct line *l, const struct merged_table_def *t)
{
	char names[1024];

	line_printf(l, "%s\n", merged_names(t->cols, t->n, ',', names, sizeof(names)));
}

int emit_init(struct emit *e, FILE **out, int labels)
{
	char names[1024];

	memset(e, 0, sizeof(*e));
	e->labels = labels;
	for (int i = 0; i < EMIT_NFILES; i++)
		if (line_open(&e->out[i], out[i], EMIT_BUFFER) != 0)
			return -1;
	for (int i = 0; i < EMIT_NDAT; i++) {
		const struct merged_table_def *t = merged_table((enum merged_table)i);
		line_printf(&e->out[i], "# collect %s: %s\n", ALLER_VERSION, dat_about[i]);
		line_printf(&e->out[i], "# each data set: a '# key: value ...' comment (its row of "
			    "sets.tsv has the rest), then a title row (gnuplot: title "
			    "columnheader(1)); data sets are separated by two blank lines, gaps "
			    "inside by one; the measured columns are those its plots read, every "
			    "one is in points.csv\n");
		line_printf(&e->out[i], "# columns: %s\n",
			    merged_names(t->cols, t->n, ' ', names, sizeof(names)));
	}
	csv_header(&e->out[EMIT_CSV], merged_table(MERGED_CSV));
	csv_header(&e->out[EMIT_POINTS], merged_table(MERGED_POINTS));
	setrow_header(&e->out[EMIT_SETS]);
	return 0;
}

void emit_release(struct emit *e)
{
	for (int i = 0; i < EMIT_NFILES; i++)
		line_close(&e->out[i]);
	free(e->keys);
	e->keys = NULL;
	e->nkeys = 0;
}

/* A data set's identity, for its comment, title row and index row. */
struct set {
	enum emit_file file;
	const struct point *pt;
	long nodes, commsize, comms, bytes, rows;   /* -1: not a key of this kind */
	int algo, split;
	long bytes_max;   /* its largest bytes per peer */
	int isolated;     /* a row has communicator 0's interference (aller --isolate) */
	int local;        /* a row is of commsize 1 (a local copy) */
};

/*
 * The legend label: campaign, series, algorithm, split and/or placement
 * (that of a point without --placement: "launcher"), joined by '/'; "" for none.
 */
static void label(char *buf, size_t len, int labels, const struct point *pt, int algo, int split)
{
	const char *place = pt->setting[PS_PLACEMENT] ? pt->setting[PS_PLACEMENT] : "launcher";
	char series[256];
	const char *parts[5] = { labels & LABEL_CAMPAIGN ? pt->campaign : NULL,
				 labels & LABEL_SERIES ? series : NULL,
				 labels & LABEL_ALGO ? merged_algo_name(algo) : NULL,
				 labels & LABEL_SPLIT ? splits_name(split) : NULL,
				 labels & LABEL_PLACEMENT ? place : NULL };
	size_t at = 0;

	point_base(pt, series, sizeof(series));
	buf[0] = '\0';
	for (int i = 0; i < 5; i++)
		if (parts[i] && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "/" : "", parts[i]);
}

static void index_row(struct emit *e, const struct set *s, const char *size)
{
	const struct point *pt = s->pt;
	char lb[512];
	struct set_row r = {
		.file = emit_names[s->file], .index = e->nsets[s->file] - 1,
		.kind = kind_names[s->file], .campaign = pt->campaign, .mode = pt->mode,
		.nodes = s->nodes, .commsize = s->commsize, .comms = s->comms, .bytes = s->bytes,
		.size = size, .tpn = pt->tpn, .buffers = pt->buffers, .mpi = pt->mpi,
		.series = pt->series, .variant = pt->variant, .algo = s->algo, .split = s->split,
		.label = lb, .rows = s->rows, .bytes_max = s->bytes_max,
		.isolated = s->isolated ? "yes" : "no", .local = s->local ? "yes" : "no",
		/* a scaling set spans the points of its node counts */
		.point = s->file == EMIT_SCALING ? -1 : pt->id,
	};

	label(lb, sizeof(lb), e->labels, pt, s->algo, s->split);
	setrow_put(&e->out[EMIT_SETS], &r);
}

/* Opens a data set: separator, key comment, title row, index row. */
static void open_set(struct emit *e, const struct set *s)
{
	struct line *f = &e->out[s->file];
	const struct point *pt = s->pt;
	char size[32] = "";
	/* the title names the algorithm unless it is MPI_Alltoall, and a split but uniform */
	char algo[320];

	snprintf(algo, sizeof(algo), "%s%s%s%s", s->algo ? ", " : "",
		 s->algo ? merged_algo_name(s->algo) : "", s->split ? ", split " : "",
		 s->split ? splits_name(s->split) : "");

	if (e->nsets[s->file]++)
		line_put(f, "\n\n", 2);
	if (s->bytes >= 0)
		format_bytes(size, sizeof(size), s->bytes);
	/* the set's own keys; its point's facts are in sets.tsv and points-index.csv */
	line_printf(f, "# set: %ld", e->nsets[s->file] - 1);
	if (s->file != EMIT_SCALING)
		line_printf(f, " point: %ld", pt->id);
	line_printf(f, " algo: %s split: %s", merged_algo_name(s->algo), splits_name(s->split));
	switch (s->file) {
	case EMIT_BANDWIDTH:
		line_printf(f, " commsize: %ld comms: %ld\n\"%s, %ld nodes, commsize %ld%s\"\n",
			    s->commsize, s->comms, str(pt->mode), s->nodes, s->commsize, algo);
		break;
	case EMIT_CONCURRENCY:
		line_printf(f, " bytes_per_peer: %ld\n\"%s, %ld nodes, %s per peer%s\"\n", s->bytes,
			    str(pt->mode), s->nodes, size, algo);
		break;
	default:
		line_printf(f, " commsize: %ld bytes_per_peer: %ld\n\"%s, commsize %ld, %s per peer"
			"%s\"\n", s->commsize, s->bytes, str(pt->mode), s->commsize, size, algo);
	}
	index_row(e, s, size[0] ? size : NULL);
}

/* Rows in one order: up to four keys, then the row's own index (a stable order). */
#define SORT_KEYS 4
struct sort_key {
	long k[SORT_KEYS];
	long row;
};

static int by_keys(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;

	for (int i = 0; i < SORT_KEYS; i++)
		if (x->k[i] != y->k[i])
			return (x->k[i] > y->k[i]) - (x->k[i] < y->k[i]);
	return (x->row > y->row) - (x->row < y->row);
}

enum order { BY_LEVEL_COUNT, BY_COUNT_LEVEL, BY_SIZE_COUNT_NODES };

static void sort_rows(struct sort_key *keys, long n, const struct group *g, enum order o)
{
	for (long i = 0; i < n; i++) {
		const struct crow *r = &g->rows.rows[keys[i].row];
		long *k = keys[i].k;
		k[0] = (long)r->algo << 8 | r->split;
		switch (o) {
		case BY_LEVEL_COUNT:
			k[1] = r->level, k[2] = r->count, k[3] = 0;
			break;
		case BY_COUNT_LEVEL:
			k[1] = r->count, k[2] = r->level, k[3] = 0;
			break;
		default:
			k[1] = r->commsize, k[2] = r->count, k[3] = g->pts[r->point]->nodes;
		}
	}
	if (n > 1)
		qsort(keys, (size_t)n, sizeof(*keys), by_keys);
}

/* Rows from keys[i] on with the same first nkeys keys. */
static long run_length(const struct sort_key *keys, long i, long n, int nkeys)
{
	long j = i + 1;

	while (j < n && memcmp(keys[j].k, keys[i].k, sizeof(long) * (size_t)nkeys) == 0)
		j++;
	return j - i;
}

/* What the index says of a set's rows (keys, s->rows of them): its largest size, isolation. */
static void set_extent(struct set *s, const struct group *g, const struct sort_key *keys)
{
	s->bytes_max = 0;
	s->isolated = s->local = 0;
	for (long k = 0; k < s->rows; k++) {
		const struct crow *r = &g->rows.rows[keys[k].row];
		long b = r->count * (long)sizeof(long);
		if (b > s->bytes_max)
			s->bytes_max = b;
		s->local |= r->commsize == 1;
		if (r->ncols > ALLER_COL_INTERF && !(r->len[ALLER_COL_INTERF] == 1 &&
		    rows_text(&g->rows, r)[r->off[ALLER_COL_INTERF]] == '-'))
			s->isolated = 1;
	}
}

/* A gap inside a data set: the previous row is not the neighbour of this one. */
static int gap(enum emit_file file, const struct crow *prev, const struct crow *r,
	       const long *pos)
{
	switch (file) {
	case EMIT_BANDWIDTH:
		return r->count != 2 * prev->count && r->count != 2 * prev->count + 1;
	case EMIT_CONCURRENCY:
		return r->level != prev->level - 1 && r->level != prev->level + 1;
	default:
		return pos[r->point] != pos[prev->point] + 1;
	}
}

/* Writes the sorted rows as data sets of `file`, a new set where the keys change. */
static void write_sets(struct emit *e, const struct group *g, enum emit_file file, long n,
		       const struct point *pt, const long *pos)
{
	const struct sort_key *keys = e->keys;
	int nkeys = file == EMIT_SCALING ? 3 : 2;   /* the algorithm and split, the set's own */
	long left = 0;

	for (long i = 0; i < n; i++, left--) {
		const struct crow *r = &g->rows.rows[keys[i].row];
		if (left == 0) {
			struct set s = { file, pt, -1, -1, -1, -1, 0, r->algo, r->split, 0, 0, 0 };
			s.rows = left = run_length(keys, i, n, nkeys);
			set_extent(&s, g, keys + i);
			if (file != EMIT_SCALING)
				s.nodes = pt->nodes;
			if (file != EMIT_CONCURRENCY)
				s.commsize = r->commsize;
			if (file == EMIT_BANDWIDTH)
				s.comms = r->comms;
			else
				s.bytes = r->count * (long)sizeof(long);
			open_set(e, &s);
		} else if (gap(file, &g->rows.rows[keys[i - 1].row], r, pos)) {
			line_char(&e->out[file], '\n');
		}
		row_put(&e->out[file], &e->rows, g, r, (enum merged_table)file);
		if (file == EMIT_BANDWIDTH)
			row_put(&e->out[EMIT_CSV], &e->rows, g, r, MERGED_CSV);
	}
}

static void point_keys(struct sort_key *keys, const struct point *pt)
{
	for (long i = 0; i < pt->nrows; i++)
		keys[i].row = pt->first_row + i;
}

long emit_group(struct emit *e, const struct group *g)
{
	long *pos = malloc(sizeof(long) * (size_t)(g->n ? g->n : 1)); /* winner rank by nodes */
	const struct point *any = NULL;
	long n = 0, nwin = 0;

	if (!e->keys || g->rows.n > e->nkeys) {
		long want = g->rows.n > 0 ? g->rows.n : 1;
		free(e->keys);
		e->keys = malloc(sizeof(*e->keys) * (size_t)want);
		e->nkeys = e->keys ? want : 0;
	}
	if (!pos || !e->keys) {
		free(pos);
		return -1;
	}
	for (int p = 0; p < g->n; p++) {
		const struct point *pt = g->pts[p];
		pos[p] = pt->superseded ? -1 : nwin++;
		if (pt->superseded)
			continue;
		if (!any || (!any->tpn && pt->tpn))
			any = pt;
		g->pts[p]->id = e->npoints++;   /* its facts, once: points-index.csv */
		row_put_point(&e->out[EMIT_POINTS], pt);
		point_keys(e->keys, pt);
		sort_rows(e->keys, pt->nrows, g, BY_LEVEL_COUNT);
		write_sets(e, g, EMIT_BANDWIDTH, pt->nrows, pt, pos);
		sort_rows(e->keys, pt->nrows, g, BY_COUNT_LEVEL);
		write_sets(e, g, EMIT_CONCURRENCY, pt->nrows, pt, pos);
	}
	/* scaling over node counts: all winners' rows */
	for (int p = 0; p < g->n; p++)
		if (!g->pts[p]->superseded) {
			point_keys(e->keys + n, g->pts[p]);
			n += g->pts[p]->nrows;
		}
	sort_rows(e->keys, n, g, BY_SIZE_COUNT_NODES);
	write_sets(e, g, EMIT_SCALING, n, any, pos);
	free(pos);
	return n;   /* the winners' rows, each once in the CSV */
}
