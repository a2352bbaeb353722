/*
 * merge.c: two passes. The first reads each file's header only and sorts
 * the points into groups (campaign, mode, tasks per node, buffers,
 * instrumented); the second parses one group's files at a time, resolves
 * re-runs of the same point (newest complete job wins) and writes the
 * group's data sets. Memory: the largest group's rows.
 */
#include "merge.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "dirs.h"
#include "emit.h"
#include "parse.h"
#include "point.h"

struct merge {
	const struct merge_options *o;
	struct summary *s;
	FILE *summary_warnings;      /* the warnings, for summary.txt */
	struct group g;
	int oom;
};

static void on_warn(void *ctx, const char *path, long line, const char *msg)
{
	struct merge *m = ctx;

	m->s->warnings++;
	for (int i = 0; i < 2; i++) {
		FILE *f = i ? m->summary_warnings : stderr;
		if (!f)
			continue;
		if (line > 0)
			fprintf(f, "%s:%ld: %s\n", path, line, msg);
		else
			fprintf(f, "%s: %s\n", path, msg);
	}
}

struct feed {
	struct parser p;
	struct merge *m;
};

static int feed_line(void *ctx, const char *line, size_t len, int complete)
{
	struct feed *f = ctx;
	return parser_line(&f->p, line, len, complete);
}

static void feed_long(void *ctx, size_t total)
{
	struct feed *f = ctx;
	parser_long_line(&f->p, total);
}

/* Keeps a row, its columns joined by single spaces (emit.c copies runs of them). */
static void add_row(void *ctx, const char *line, size_t len, const struct crow *r)
{
	struct merge *m = ctx;
	struct group *g = &m->g;
	struct crow *row;
	char *to;

	if (g->alen + len > g->acap) {
		size_t cap = (g->acap + len) * 2;
		char *a = realloc(g->arena, cap);
		if (!a) {
			m->oom = 1;
			return;
		}
		g->arena = a;
		g->acap = cap;
	}
	if (g->nrows == g->cap) {
		long cap = g->cap ? 2 * g->cap : 1024;
		struct crow *rows = realloc(g->rows, sizeof(*rows) * (size_t)cap);
		if (!rows) {
			m->oom = 1;
			return;
		}
		g->rows = rows;
		g->cap = cap;
	}
	row = &g->rows[g->nrows++];
	*row = *r;
	row->text = (long)g->alen;
	row->point = g->n - 1;
	to = g->arena + g->alen;
	for (int c = 0, at = 0; c < r->ncols; c++) {
		if (c)
			to[at++] = ' ';
		memcpy(to + at, line + r->off[c], r->len[c]);
		row->off[c] = (uint8_t)at;
		at += r->len[c];
		g->alen = (size_t)(to - g->arena) + (size_t)at;
	}
}

/* Pass 1: the header. 0, or -1 when the file is skipped. */
static int read_header(struct merge *m, struct point *pt, const char *path)
{
	struct feed f;
	char err[512];

	point_init(pt);
	pt->path = strdup(path);
	parser_init(&f.p, pt, 1);
	f.m = m;
	if (input_lines(path, feed_line, feed_long, &f, err, sizeof(err)) != 0) {
		on_warn(m, path, 0, err);
		return -1;
	}
	if (!pt->has_header && !pt->has_provenance) {
		on_warn(m, path, 1, "no aller header ('# aller: ...'): not an aller output, skipped");
		return -1;
	}
	if (pt->nodes < 1 || !pt->mode) {
		on_warn(m, path, 1, "no node count or mode in the header: skipped");
		return -1;
	}
	return 0;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/*
 * Groups: points of one identity but their node count, so a re-run can
 * supersede only a point of the same identity. A campaign's points say it
 * in their provenance (point_series: tasks per node, LONGS, variant, series
 * of settings, the MPI library among them; also for failed points, which
 * have no aller header); older campaigns fixed tasks per node and buffers;
 * outside campaigns, aller's header tells them (and the library). Instrumented
 * runs stay apart.
 */
static int cmp_group(const struct point *a, const struct point *b)
{
	int c;

	if ((c = cmp_str(a->campaign, b->campaign)) || (c = cmp_str(a->mode, b->mode)) ||
	    (c = cmp_str(a->series, b->series)) || (c = cmp_str(a->variant, b->variant)))
		return c;
	if (!a->campaign && ((c = cmp_str(a->tpn, b->tpn)) || (c = cmp_str(a->buffers, b->buffers)) ||
			     (c = cmp_str(a->mpi, b->mpi))))
		return c;
	if (!a->reveal != !b->reveal)
		return a->reveal ? 1 : -1;
	return 0;
}

static int same_group(const struct point *a, const struct point *b)
{
	return cmp_group(a, b) == 0;
}

static int cmp_points(const void *x, const void *y)
{
	const struct point *a = *(struct point *const *)x, *b = *(struct point *const *)y;
	int c;

	if ((c = cmp_group(a, b)) != 0)
		return c;
	if (a->nodes != b->nodes)
		return a->nodes < b->nodes ? -1 : 1;
	return cmp_str(a->path, b->path);
}

/* Pass 2 for one group: parse, resolve re-runs, write. */
static int do_group(struct merge *m, struct point **pts, int n, FILE *out[EMIT_NFILES])
{
	struct group *g = &m->g;
	char err[512];
	long written;

	g->pts = pts;
	g->n = 0;
	g->alen = 0;
	g->nrows = 0;
	for (int i = 0; i < n; i++) {
		struct point *pt = pts[i];
		char *path = pt->path;
		struct feed f;
		long first = g->nrows;

		/* the header pass's keys are kept; the full parse sees them again */
		pt->path = NULL;
		point_release(pt);
		point_init(pt);
		pt->path = path;
		g->n = i + 1;
		parser_init(&f.p, pt, 0);
		f.p.row = add_row;
		f.p.warn = on_warn;
		f.p.ctx = m;
		f.m = m;
		if (input_lines(path, feed_line, feed_long, &f, err, sizeof(err)) != 0)
			on_warn(m, path, 0, err);
		else
			parser_end(&f.p);
		if (m->oom)
			return -1;
		pt->first_row = first;
		pt->nrows = g->nrows - first;
	}
	/* re-runs: the same nodes in one group */
	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j < n && pts[j]->nodes == pts[i]->nodes; j++) {
			struct point *loser, *winner;
			char msg[1024];
			if (pts[j]->superseded || pts[i]->superseded)
				continue;
			winner = point_newer(pts[j], pts[i]) ? pts[j] : pts[i];
			loser = winner == pts[j] ? pts[i] : pts[j];
			loser->superseded = 1;
			snprintf(msg, sizeof(msg), "re-run of the point (%s, %ld nodes): superseded "
				 "by '%s' (%s, job %s; the newest complete job wins)",
				 loser->mode ? loser->mode : "-", loser->nodes, winner->path,
				 point_state_name(point_state(winner)), winner->job ? winner->job : "-");
			on_warn(m, loser->path, 1, msg);
		}
	}
	for (int i = 0; i < n; i++) {
		if (pts[i]->superseded) {
			m->s->superseded++;
			continue;
		}
		m->s->points++;
		switch (point_state(pts[i])) {
		case POINT_COMPLETE:
			m->s->complete++;
			break;
		case POINT_INCOMPLETE:
			m->s->incomplete++;
			break;
		case POINT_FAILED:
			m->s->failed++;
			break;
		}
	}
	written = emit_group(out, g);
	if (written < 0)
		return -1;
	m->s->rows += written;
	return 0;
}

static void write_summary(FILE *f, const struct summary *s)
{
	fprintf(f, "collect: %ld files read, %ld skipped\n", s->files, s->skipped);
	fprintf(f, "collect: %ld points: %ld complete, %ld incomplete, %ld failed; "
		"%ld superseded by a re-run\n", s->points, s->complete, s->incomplete, s->failed,
		s->superseded);
	fprintf(f, "collect: %ld rows merged\n", s->rows);
	fprintf(f, "collect: %ld warnings\n", s->warnings);
}

#define NOUT (EMIT_NFILES + 1) /* the data files and summary.txt */

int merge_run(const struct merge_options *o, const struct filelist *files, struct summary *s)
{
	struct merge m;
	struct point *pts = calloc(files->n ? files->n : 1, sizeof(*pts));
	struct point **order = calloc(files->n ? files->n : 1, sizeof(*order));
	char tmp[NOUT][4096], final[NOUT][4096];
	FILE *out[NOUT] = { 0 };
	size_t npts = 0;
	int failed = 0, lockfd;

	memset(&m, 0, sizeof(m));
	memset(s, 0, sizeof(*s));
	m.o = o;
	m.s = s;
	m.summary_warnings = tmpfile();
	if (!pts || !order || dirs_make(o->outdir) != 0) {
		fprintf(stderr, "collect: error: cannot create the output directory '%s': %s\n",
			o->outdir, strerror(errno));
		free(pts);
		free(order);
		return 3;
	}
	/* overlapping merges into one directory take turns (a flock on the
	 * directory itself): each commits a whole set */
	lockfd = open(o->outdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lockfd >= 0)
		flock(lockfd, LOCK_EX);
	for (int i = 0; i < NOUT; i++) {
		const char *name = i < EMIT_NFILES ? emit_names[i] : "summary.txt";
		snprintf(final[i], sizeof(final[i]), "%s/%s", o->outdir, name);
		snprintf(tmp[i], sizeof(tmp[i]), "%s/.%s.tmp.%ld", o->outdir, name, (long)getpid());
		out[i] = fopen(tmp[i], "w");
		if (!out[i]) {
			fprintf(stderr, "collect: error: cannot write '%s': %s\n", tmp[i], strerror(errno));
			failed = 1;
			break;
		}
		setvbuf(out[i], NULL, _IOFBF, 1 << 20);
	}
	if (!failed) {
		s->files = (long)files->n;
		for (size_t i = 0; i < files->nskipped; i++) {
			char *tab = strchr(files->skipped[i], '\t'), msg[512];
			*tab = '\0';
			snprintf(msg, sizeof(msg), "skipped: %s", tab + 1);
			on_warn(&m, files->skipped[i], 0, msg);
			*tab = '\t';
			s->skipped++;
		}
		for (size_t i = 0; i < files->n; i++) {
			if (read_header(&m, &pts[npts], files->paths[i]) == 0) {
				order[npts] = &pts[npts];
				npts++;
			} else {
				point_release(&pts[npts]);
				s->skipped++;
			}
		}
		qsort(order, npts, sizeof(*order), cmp_points);
		emit_headers(out);
		for (size_t i = 0; i < npts && !failed;) {
			size_t j = i + 1;
			while (j < npts && same_group(order[i], order[j]))
				j++;
			if (do_group(&m, order + i, (int)(j - i), out) != 0) {
				fprintf(stderr, "collect: error: out of memory\n");
				failed = 1;
			}
			i = j;
		}
	}
	if (!failed) {
		FILE *sum = out[EMIT_NFILES];
		write_summary(sum, s);
		if (m.summary_warnings) {
			char buf[4096];
			size_t n;
			rewind(m.summary_warnings);
			while ((n = fread(buf, 1, sizeof(buf), m.summary_warnings)) > 0)
				fwrite(buf, 1, n, sum);
		}
		if (!o->quiet)
			write_summary(stderr, s);
	}
	for (int i = 0; i < NOUT; i++) {
		if (out[i] && (ferror(out[i]) | fclose(out[i])) && !failed) {
			fprintf(stderr, "collect: error: cannot write '%s': %s\n", tmp[i], strerror(errno));
			failed = 1;
		}
	}
	/* replace the old merge only when the new one is whole */
	for (int i = 0; i < NOUT; i++) {
		if (failed)
			unlink(tmp[i]);
		else if (rename(tmp[i], final[i]) != 0) {
			fprintf(stderr, "collect: error: cannot rename '%s': %s\n", tmp[i], strerror(errno));
			failed = 1;
		}
	}
	for (size_t i = 0; i < npts; i++)
		point_release(&pts[i]);
	free(pts);
	free(order);
	free(m.g.arena);
	free(m.g.rows);
	if (m.summary_warnings)
		fclose(m.summary_warnings);
	if (lockfd >= 0)
		close(lockfd);
	if (failed)
		return 3;
	return (s->warnings || s->incomplete || s->failed || s->skipped) ? 1 : 0;
}
