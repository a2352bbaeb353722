/*
 * merge.c: two passes. The first reads each file's header only and sorts
 * the points into groups (campaign, mode, tasks per node, buffers,
 * instrumented); the second parses one group's files at a time, resolves
 * re-runs of the same point (newest complete job wins) and writes the
 * group's data sets. Memory: the largest group's rows. The outputs are
 * written to temporary files and renamed into place only when all are whole.
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

#define NOUT (EMIT_NFILES + 1) /* the merged files and summary.txt */

struct merge {
	const struct merge_options *o;
	struct summary *s;
	FILE *summary_warnings;      /* the warnings, for summary.txt */
	struct group g;
	struct emit emit;
	int point;                   /* the group's point being parsed */
	int oom;
	/* the outputs: temporary and final names */
	FILE *out[NOUT];
	char tmp[NOUT][4096], final[NOUT][4096];
	int lockfd;
	/* pass 1: every point read, and their order by group */
	struct point *pts;
	struct point **order;
	size_t npts;
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

static int feed_line(void *ctx, const char *line, size_t len, int complete)
{
	return parser_line(ctx, line, len, complete);
}

static void feed_long(void *ctx, size_t total)
{
	parser_long_line(ctx, total);
}

static void add_row(void *ctx, const char *line, size_t len, const struct crow *r)
{
	struct merge *m = ctx;

	(void)len;
	if (rows_add(&m->g.rows, line, r, m->point) != 0)
		m->oom = 1;
}

/* Pass 1: the header. 0, or -1 when the file is skipped. */
static int read_header(struct merge *m, struct point *pt, const char *path)
{
	struct parser p;
	char err[512];

	point_init(pt);
	pt->path = strdup(path);
	parser_init(&p, pt, 1);
	if (input_lines(path, feed_line, feed_long, &p, err, sizeof(err)) != 0) {
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

static int cmp_points(const void *x, const void *y)
{
	const struct point *a = *(struct point *const *)x, *b = *(struct point *const *)y;
	int c;

	if ((c = point_cmp_group(a, b)) != 0)
		return c;
	if (a->nodes != b->nodes)
		return a->nodes < b->nodes ? -1 : 1;
	return point_strcmp(a->path, b->path);
}

/* Pass 1 over every file: the points, in group order; 0 or -1 (out of memory). */
static int read_points(struct merge *m, const struct filelist *files)
{
	m->pts = calloc(files->n ? files->n : 1, sizeof(*m->pts));
	m->order = calloc(files->n ? files->n : 1, sizeof(*m->order));
	if (!m->pts || !m->order)
		return -1;
	for (size_t i = 0; i < files->n; i++) {
		struct point *pt = &m->pts[m->npts];
		if (read_header(m, pt, files->paths[i]) == 0) {
			m->order[m->npts++] = pt;
		} else {
			point_release(pt);
			m->s->skipped++;
		}
	}
	qsort(m->order, m->npts, sizeof(*m->order), cmp_points);
	return 0;
}

/* Whether the points have more than one series (legends then name it). */
static int several_series(const struct merge *m)
{
	for (size_t i = 1; i < m->npts; i++)
		if (point_strcmp(m->order[i]->series, m->order[0]->series) != 0)
			return 1;
	return 0;
}

/* Pass 2, parse: every point of the group, its rows into the group's store. */
static int parse_group(struct merge *m)
{
	struct group *g = &m->g;
	char err[512];

	for (int i = 0; i < g->n; i++) {
		struct point *pt = g->pts[i];
		char *path = pt->path;
		struct parser p;
		long first = g->rows.n;

		/* the header pass's keys are dropped; the full parse sees them again */
		pt->path = NULL;
		point_release(pt);
		point_init(pt);
		pt->path = path;
		parser_init(&p, pt, 0);
		p.row = add_row;
		p.warn = on_warn;
		p.ctx = m;
		m->point = i;
		if (input_lines(path, feed_line, feed_long, &p, err, sizeof(err)) != 0)
			on_warn(m, path, 0, err);
		else
			parser_end(&p);
		if (m->oom)
			return -1;
		pt->first_row = first;
		pt->nrows = g->rows.n - first;
	}
	return 0;
}

/* Pass 2, re-runs: of points with the same node count, the newest complete job wins. */
static void resolve_reruns(struct merge *m)
{
	struct point **pts = m->g.pts;
	int n = m->g.n;

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
}

static void count_states(struct summary *s, const struct group *g)
{
	for (int i = 0; i < g->n; i++) {
		if (g->pts[i]->superseded) {
			s->superseded++;
			continue;
		}
		s->points++;
		switch (point_state(g->pts[i])) {
		case POINT_COMPLETE: s->complete++; break;
		case POINT_INCOMPLETE: s->incomplete++; break;
		case POINT_FAILED: s->failed++; break;
		}
	}
}

/* Pass 2 for each group; 0 or -1 (out of memory). */
static int merge_groups(struct merge *m)
{
	for (size_t i = 0, j; i < m->npts; i = j) {
		long written;
		for (j = i + 1; j < m->npts && point_cmp_group(m->order[i], m->order[j]) == 0; j++)
			;
		m->g.pts = m->order + i;
		m->g.n = (int)(j - i);
		rows_clear(&m->g.rows);
		if (parse_group(m) != 0)
			return -1;
		resolve_reruns(m);
		count_states(m->s, &m->g);
		if ((written = emit_group(&m->emit, &m->g)) < 0)
			return -1;
		m->s->rows += written;
	}
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

/* The summary, then every warning. */
static void finish_summary(struct merge *m)
{
	FILE *sum = m->out[EMIT_NFILES];
	char buf[4096];
	size_t n;

	write_summary(sum, m->s);
	if (m->summary_warnings) {
		rewind(m->summary_warnings);
		while ((n = fread(buf, 1, sizeof(buf), m->summary_warnings)) > 0)
			fwrite(buf, 1, n, sum);
	}
	if (!m->o->quiet)
		write_summary(stderr, m->s);
}

/*
 * The output directory, locked (overlapping merges into one directory take
 * turns, a flock on the directory itself, so each commits a whole set), and
 * the temporary files; 0 or -1 with the message said.
 */
static int open_outputs(struct merge *m)
{
	const char *dir = m->o->outdir;

	if (dirs_make(dir) != 0) {
		fprintf(stderr, "collect: error: cannot create the output directory '%s': %s\n",
			dir, strerror(errno));
		return -1;
	}
	m->lockfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (m->lockfd >= 0)
		flock(m->lockfd, LOCK_EX);
	for (int i = 0; i < NOUT; i++) {
		const char *name = i < EMIT_NFILES ? emit_names[i] : "summary.txt";
		snprintf(m->final[i], sizeof(m->final[i]), "%s/%s", dir, name);
		snprintf(m->tmp[i], sizeof(m->tmp[i]), "%s/.%s.tmp.%ld", dir, name, (long)getpid());
		m->out[i] = fopen(m->tmp[i], "w");
		if (!m->out[i]) {
			fprintf(stderr, "collect: error: cannot write '%s': %s\n", m->tmp[i],
				strerror(errno));
			return -1;
		}
		setvbuf(m->out[i], NULL, _IOFBF, 1 << 20);
	}
	return 0;
}

/* Closes the outputs and, when all are whole, renames them into place; 0 or -1. */
static int commit_outputs(struct merge *m, int failed)
{
	for (int i = 0; i < NOUT; i++) {
		if (m->out[i] && (ferror(m->out[i]) | fclose(m->out[i])) && !failed) {
			fprintf(stderr, "collect: error: cannot write '%s': %s\n", m->tmp[i],
				strerror(errno));
			failed = 1;
		}
		m->out[i] = NULL;
	}
	for (int i = 0; i < NOUT; i++) {
		if (failed)
			unlink(m->tmp[i]);
		else if (rename(m->tmp[i], m->final[i]) != 0) {
			fprintf(stderr, "collect: error: cannot rename '%s': %s\n", m->tmp[i],
				strerror(errno));
			failed = 1;
		}
	}
	return failed ? -1 : 0;
}

static void report_skipped(struct merge *m, const struct filelist *files)
{
	m->s->files = (long)files->n;
	for (size_t i = 0; i < files->nskipped; i++) {
		char *tab = strchr(files->skipped[i], '\t'), msg[512];
		*tab = '\0';
		snprintf(msg, sizeof(msg), "skipped: %s", tab + 1);
		on_warn(m, files->skipped[i], 0, msg);
		*tab = '\t';
		m->s->skipped++;
	}
}

static void merge_release(struct merge *m)
{
	for (size_t i = 0; i < m->npts; i++)
		point_release(m->order[i]);
	free(m->pts);
	free(m->order);
	rows_release(&m->g.rows);
	emit_release(&m->emit);
	if (m->summary_warnings)
		fclose(m->summary_warnings);
	if (m->lockfd >= 0)
		close(m->lockfd);
}

int merge_run(const struct merge_options *o, const struct filelist *files, struct summary *s)
{
	struct merge *m = calloc(1, sizeof(*m));
	int failed, rc;

	memset(s, 0, sizeof(*s));
	if (!m) {
		fprintf(stderr, "collect: error: out of memory\n");
		return 3;
	}
	m->o = o;
	m->s = s;
	m->lockfd = -1;
	m->summary_warnings = tmpfile();
	failed = open_outputs(m) != 0;
	if (!failed) {
		report_skipped(m, files);
		failed = read_points(m, files) != 0;
		if (!failed) {
			emit_init(&m->emit, m->out, several_series(m));
			failed = merge_groups(m) != 0;
		}
		if (failed)
			fprintf(stderr, "collect: error: out of memory\n");
		else
			finish_summary(m);
	}
	failed = commit_outputs(m, failed) != 0;
	merge_release(m);
	free(m);
	if (failed)
		return 3;
	rc = s->warnings || s->incomplete || s->failed || s->skipped;
	return rc ? 1 : 0;
}
