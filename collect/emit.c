/*
 * emit.c: the merged data sets. Every row's numbers are the tokens aller
 * printed, copied unchanged; only bytes per peer (count x 8) is computed.
 * Rows missing inside a data set are left as a gap (a blank line), so
 * gnuplot does not draw a line across them.
 */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"

const char *const emit_names[EMIT_NFILES] = { "bandwidth.dat", "concurrency.dat",
					      "scaling.dat", "points.csv" };

#define DAT_COLUMNS "nodes comms commsize bytes_per_peer count GiB tmin_s tavg_s tmax_s " \
	"bwmin_GiBs bwavg_GiBs bwmax_GiBs aggbw_GiBs slowest_rank tmed_s tp99_s busbw_GBs"

static const char *const dat_about[3] = {
	"bandwidth versus message size: one data set per (campaign, mode, nodes, commsize), "
	"rows by count",
	"bandwidth versus concurrency: one data set per (campaign, mode, nodes, bytes per peer), "
	"rows by number of communicators",
	"scaling: one data set per (campaign, mode, commsize, bytes per peer), rows by node count",
};

/* Whether a file has a data set yet: the next one is preceded by two blank lines. */
static int started[EMIT_NFILES];

static void new_set(FILE *out[EMIT_NFILES], enum emit_file which)
{
	if (started[which])
		fputs("\n\n", out[which]);
	started[which] = 1;
}

void emit_headers(FILE *out[EMIT_NFILES])
{
	memset(started, 0, sizeof(started));
	for (int i = 0; i < 3; i++) {
		fprintf(out[i], "# collect %s: %s\n", ALLER_VERSION, dat_about[i]);
		fprintf(out[i], "# each data set: a '# key: value ...' comment, then a title row "
			"(gnuplot: title columnheader(1)); data sets are separated by two blank "
			"lines, gaps inside by one\n");
		fprintf(out[i], "# columns: %s\n", DAT_COLUMNS);
	}
	fprintf(out[EMIT_CSV], "campaign,mode,nodes,tasks_per_node,world,buffers,instrumented,"
		"level,comms,commsize,count,bytes_per_peer,GiB,tmin_s,tavg_s,tmax_s,bwmin_GiBs,"
		"bwavg_GiBs,bwmax_GiBs,aggbw_GiBs,slowest_rank,tmed_s,tp99_s,busbw_GBs,state,job,source,"
		"mpi,series,variant\n");
}

/* Decimal of a non-negative long, fast; returns the length. */
static size_t put_long(char *p, long v)
{
	char tmp[24];
	size_t n = 0, i;

	if (v < 0) {
		*p = '-';
		return 1 + put_long(p + 1, -v);
	}
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

/*
 * A data row from column c on, copied at once: rows are stored with single
 * spaces between columns (merge.c); the columns older outputs lack (after
 * the spec's ten, or format 1's twelve) are NaN (-1 for the slowest rank),
 * or empty CSV fields.
 */
static char *put_tail(char *p, const char *line, const struct crow *r, int c, char sep)
{
	size_t start = r->off[c], end = (size_t)r->off[r->ncols - 1] + r->len[r->ncols - 1];

	memcpy(p, line + start, end - start);
	if (sep != ' ')
		for (size_t i = 0; i < end - start; i++)
			if (p[i] == ' ')
				p[i] = sep;
	p += end - start;
	for (int k = r->ncols; k < ALLER_NCOLS; k++) {
		const char *pad = sep != ' ' ? "," : k == ALLER_COL_SLOWEST ? " -1" : " NaN";
		size_t n = strlen(pad);
		memcpy(p, pad, n);
		p += n;
	}
	return p;
}

/* Columns before c, as aller wrote them (start of the line up to column c). */
static char *put_head(char *p, const char *line, const struct crow *r, int c, char sep)
{
	size_t n = r->off[c];

	memcpy(p, line, n);
	if (sep != ' ')
		for (size_t i = 0; i < n; i++)
			if (p[i] == ' ')
				p[i] = sep;
	return p + n;
}

static void dat_row(FILE *f, const struct group *g, const struct crow *r)
{
	const char *line = g->arena + r->text;
	char buf[640], *p = buf;

	p += put_long(p, g->pts[r->point]->nodes);
	*p++ = ' ';
	p = put_head(p, line, r, ALLER_COL_COUNT, ' ');
	p += put_long(p, r->count * (long)sizeof(long));
	*p++ = ' ';
	p = put_tail(p, line, r, ALLER_COL_COUNT, ' ');
	*p++ = '\n';
	fwrite(buf, 1, (size_t)(p - buf), f);
}

/* Fields that may hold anything are quoted when they need it. */
static void csv_str(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The MPI library's name and version: its text up to the first comma. */
static size_t mpi_short(const char *mpi)
{
	return mpi ? strcspn(mpi, ",\"\n") : 0;
}

static void csv_row(FILE *f, const struct group *g, const struct crow *r)
{
	const struct point *pt = g->pts[r->point];
	const char *line = g->arena + r->text;
	char buf[640], *p = buf;

	csv_str(f, pt->campaign);
	fputc(',', f);
	csv_str(f, pt->mode);
	*p++ = ',';
	p += put_long(p, pt->nodes);
	*p++ = ',';
	fwrite(buf, 1, (size_t)(p - buf), f);
	csv_str(f, pt->tpn);
	p = buf;
	*p++ = ',';
	p += put_long(p, pt->world);
	*p++ = ',';
	fwrite(buf, 1, (size_t)(p - buf), f);
	csv_str(f, pt->buffers);
	p = buf;
	p += sprintf(p, ",%s,", pt->reveal ? "yes" : "no");
	p += put_long(p, r->level);
	*p++ = ',';
	p = put_head(p, line, r, ALLER_COL_GIB, ',');
	p += put_long(p, r->count * (long)sizeof(long));
	*p++ = ',';
	p = put_tail(p, line, r, ALLER_COL_GIB, ',');
	p += sprintf(p, ",%s,", point_state_name(point_state(pt)));
	fwrite(buf, 1, (size_t)(p - buf), f);
	csv_str(f, pt->job);
	fputc(',', f);
	csv_str(f, pt->path);
	fputc(',', f);
	fwrite(pt->mpi ? pt->mpi : "", 1, mpi_short(pt->mpi), f);
	fputc(',', f);
	csv_str(f, pt->series);
	fputc(',', f);
	csv_str(f, pt->variant);
	fputc('\n', f);
}

static const char *str(const char *s)
{
	return s ? s : "-";
}

/* The keys of a data set; a scaling set spans node counts, so it has none. */
static void set_comment(FILE *f, const struct point *pt, int with_nodes)
{
	fprintf(f, "# campaign: %s mode: %s", str(pt->campaign), str(pt->mode));
	if (with_nodes)
		fprintf(f, " nodes: %ld", pt->nodes);
	fprintf(f, " tasks_per_node: %s buffers: %s instrumented: %s series: %s variant: %s",
		str(pt->tpn), str(pt->buffers), pt->reveal ? "yes" : "no", str(pt->series),
		str(pt->variant));
}

/* The rows of one point, or of a whole group, sorted with a comparator. */
static const struct group *sort_group;
static int by_level_count(const void *a, const void *b)
{
	const struct crow *x = &sort_group->rows[*(const long *)a];
	const struct crow *y = &sort_group->rows[*(const long *)b];
	if (x->level != y->level)
		return x->level - y->level;
	return (x->count > y->count) - (x->count < y->count);
}

static int by_count_level(const void *a, const void *b)
{
	const struct crow *x = &sort_group->rows[*(const long *)a];
	const struct crow *y = &sort_group->rows[*(const long *)b];
	if (x->count != y->count)
		return (x->count > y->count) - (x->count < y->count);
	return x->level - y->level;
}

static int by_size_count_nodes(const void *a, const void *b)
{
	const struct crow *x = &sort_group->rows[*(const long *)a];
	const struct crow *y = &sort_group->rows[*(const long *)b];
	long nx = sort_group->pts[x->point]->nodes, ny = sort_group->pts[y->point]->nodes;
	if (x->commsize != y->commsize)
		return (x->commsize > y->commsize) - (x->commsize < y->commsize);
	if (x->count != y->count)
		return (x->count > y->count) - (x->count < y->count);
	return (nx > ny) - (nx < ny);
}

static void sort_rows(const struct group *g, long *idx, long n, int (*cmp)(const void *, const void *))
{
	sort_group = g;
	qsort(idx, (size_t)n, sizeof(long), cmp);
}

static void point_sets(FILE *out[EMIT_NFILES], const struct group *g, const struct point *pt,
		       long *idx)
{
	const char *state = point_state_name(point_state(pt));
	char bytes[32];
	long n = pt->nrows;

	for (long i = 0; i < n; i++)
		idx[i] = pt->first_row + i;

	/* bandwidth versus message size */
	sort_rows(g, idx, n, by_level_count);
	for (long i = 0; i < n; i++) {
		const struct crow *r = &g->rows[idx[i]], *prev = i ? &g->rows[idx[i - 1]] : NULL;
		if (!prev || prev->level != r->level) {
			new_set(out, EMIT_BANDWIDTH);
			set_comment(out[EMIT_BANDWIDTH], pt, 1);
			fprintf(out[EMIT_BANDWIDTH], " commsize: %ld comms: %ld state: %s job: %s "
				"file: %s\n\"%s, %ld nodes, commsize %ld\"\n", r->commsize, r->comms,
				state, str(pt->job), pt->path, str(pt->mode), pt->nodes, r->commsize);
		} else if (r->count != 2 * prev->count && r->count != 2 * prev->count + 1) {
			fputc('\n', out[EMIT_BANDWIDTH]);
		}
		dat_row(out[EMIT_BANDWIDTH], g, r);
		csv_row(out[EMIT_CSV], g, r);
	}

	/* bandwidth versus concurrency */
	sort_rows(g, idx, n, by_count_level);
	for (long i = 0; i < n; i++) {
		const struct crow *r = &g->rows[idx[i]], *prev = i ? &g->rows[idx[i - 1]] : NULL;
		if (!prev || prev->count != r->count) {
			format_bytes(bytes, sizeof(bytes), r->count * (long)sizeof(long));
			new_set(out, EMIT_CONCURRENCY);
			set_comment(out[EMIT_CONCURRENCY], pt, 1);
			fprintf(out[EMIT_CONCURRENCY], " bytes_per_peer: %ld state: %s job: %s "
				"file: %s\n\"%s, %ld nodes, %s per peer\"\n",
				r->count * (long)sizeof(long), state, str(pt->job), pt->path,
				str(pt->mode), pt->nodes, bytes);
		} else if (r->level != prev->level - 1 && r->level != prev->level + 1) {
			fputc('\n', out[EMIT_CONCURRENCY]);
		}
		dat_row(out[EMIT_CONCURRENCY], g, r);
	}
}

long emit_group(FILE *out[EMIT_NFILES], const struct group *g)
{
	long *idx = malloc(sizeof(long) * (size_t)(g->nrows ? g->nrows : 1));
	long *pos = malloc(sizeof(long) * (size_t)(g->n ? g->n : 1)); /* winner rank by nodes */
	const struct point *any = NULL;
	long n = 0, written = 0, nwin = 0;
	char bytes[32];

	if (!idx || !pos) {
		free(idx);
		free(pos);
		return -1;
	}
	for (int p = 0; p < g->n; p++) {
		pos[p] = g->pts[p]->superseded ? -1 : nwin++;
		if (g->pts[p]->superseded)
			continue;
		if (!any || (!any->tpn && g->pts[p]->tpn))
			any = g->pts[p];
		point_sets(out, g, g->pts[p], idx);
		written += g->pts[p]->nrows;
	}

	/* scaling over node counts: all winners' rows */
	for (int p = 0; p < g->n; p++)
		if (!g->pts[p]->superseded)
			for (long i = 0; i < g->pts[p]->nrows; i++)
				idx[n++] = g->pts[p]->first_row + i;
	sort_rows(g, idx, n, by_size_count_nodes);
	for (long i = 0; i < n; i++) {
		const struct crow *r = &g->rows[idx[i]], *prev = i ? &g->rows[idx[i - 1]] : NULL;
		if (!prev || prev->commsize != r->commsize || prev->count != r->count) {
			format_bytes(bytes, sizeof(bytes), r->count * (long)sizeof(long));
			new_set(out, EMIT_SCALING);
			set_comment(out[EMIT_SCALING], any, 0);
			fprintf(out[EMIT_SCALING], " commsize: %ld bytes_per_peer: %ld\n"
				"\"%s, commsize %ld, %s per peer\"\n", r->commsize,
				r->count * (long)sizeof(long), str(any->mode), r->commsize, bytes);
		} else if (pos[r->point] != pos[prev->point] + 1) {
			fputc('\n', out[EMIT_SCALING]);
		}
		dat_row(out[EMIT_SCALING], g, r);
	}
	free(idx);
	free(pos);
	return written;
}
