/*
 * groups.c: the two passes over aller outputs (see groups.h). The first
 * reads each file's header only and sorts the points into groups; the
 * second parses one group's files at a time and resolves re-runs of the
 * same point as it goes (newest complete job wins; the loser's rows are
 * dropped at once). Memory: the largest group's rows, one job per point.
 */
#include "groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/parse.h"

static void warn(struct groups *gs, const char *path, long line, const char *msg)
{
	if (gs->warn)
		gs->warn(gs->ctx, path, line, msg);
}

static void on_warn(void *ctx, const char *path, long line, const char *msg)
{
	warn(ctx, path, line, msg);
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
	struct groups *gs = ctx;

	(void)len;
	if (rows_add(&gs->g.rows, line, r, gs->point) != 0)
		gs->oom = 1;
}

/* Pass 1: the header. 0, or -1 when the file is skipped. */
static int read_header(struct groups *gs, struct point *pt, const char *path)
{
	struct parser p;
	char err[512];

	point_init(pt);
	pt->path = strdup(path);
	parser_init(&p, pt, 1);
	if (input_lines(path, feed_line, feed_long, &p, err, sizeof(err)) != 0) {
		warn(gs, path, 0, err);
		return -1;
	}
	if (!pt->has_header && !pt->has_provenance) {
		warn(gs, path, 1, "no aller header ('# aller: ...'): not an aller output, skipped");
		return -1;
	}
	if (!point_format_ok(pt)) {
		char why[160], msg[192];
		point_reason(pt, why, sizeof(why));
		snprintf(msg, sizeof(msg), "%s: skipped", why);
		warn(gs, path, 1, msg);
		return -1;
	}
	if ((pt->nodes < 1 || !pt->mode) && p.cut) {
		warn(gs, path, 1, "no node count or mode in the header's first " PARSE_HEADER_MAX_TEXT
		     " (aller's header is shorter): skipped");
		return -1;
	}
	if (pt->nodes < 1 || !pt->mode) {
		warn(gs, path, 1, "no node count or mode in the header: skipped");
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

int groups_read(struct groups *gs, const struct filelist *files)
{
	gs->pts = calloc(files->n ? files->n : 1, sizeof(*gs->pts));
	gs->order = calloc(files->n ? files->n : 1, sizeof(*gs->order));
	if (!gs->pts || !gs->order)
		return -1;
	for (size_t i = 0; i < files->n; i++) {
		struct point *pt = &gs->pts[gs->npts];
		if (read_header(gs, pt, files->paths[i]) == 0) {
			gs->order[gs->npts++] = pt;
		} else {
			point_release(pt);
			gs->s->skipped++;
		}
	}
	qsort(gs->order, gs->npts, sizeof(*gs->order), cmp_points);
	return 0;
}

/* Whether two points' series differ in more than their placements (point_base). */
static int series_differ(const struct point *a, const struct point *b)
{
	char x[256], y[256];

	point_base(a, x, sizeof(x));
	point_base(b, y, sizeof(y));
	return strcmp(x, y) != 0;
}

int groups_labels(const struct groups *gs)
{
	int labels = 0;

	for (size_t i = 0; i < gs->npts; i++) {
		const char *algos = gs->order[i]->setting[PS_ALGOS];
		if (algos && strcmp(algos, "alltoall") != 0)
			labels |= LABEL_ALGO;
		if (gs->order[i]->setting[PS_SPLITS])
			labels |= LABEL_SPLIT;
		if (gs->order[i]->setting[PS_PLACEMENT])
			labels |= LABEL_PLACEMENT;
		if (i == 0)
			continue;
		if (point_strcmp(gs->order[i]->campaign, gs->order[0]->campaign) != 0)
			labels |= LABEL_CAMPAIGN;
		if (series_differ(gs->order[i], gs->order[0]))
			labels |= LABEL_SERIES;
	}
	return labels;
}

/*
 * Re-runs: of points with the same node count (adjacent: sorted by nodes),
 * the newest complete job wins. The winner so far (whose rows are the last
 * in the store before pt's) meets pt; the loser is superseded (and said so)
 * and its rows dropped: one comparison and at most one move per point.
 */
static void resolve_rerun(struct groups *gs, struct point *best, struct point *pt)
{
	struct point *winner = point_newer(pt, best) ? pt : best;
	struct point *loser = winner == best ? pt : best;
	char msg[1024];

	loser->superseded = 1;
	if (point_same_job(winner, loser))
		point_tell_retry(winner, loser);
	snprintf(msg, sizeof(msg), "re-run of the point (%s, %ld nodes): superseded "
		 "by '%s' (%s, job %s; the newest complete job wins)",
		 loser->mode ? loser->mode : "-", loser->nodes, winner->path,
		 point_state_name(point_state(winner)), winner->job ? winner->job : "-");
	warn(gs, loser->path, 1, msg);
	rows_cut(&gs->g.rows, loser->first_row, loser->first_row + loser->nrows);
	if (loser == best)
		pt->first_row = best->first_row;
	loser->nrows = 0;
}

/* Pass 2, parse: every point of the group, its rows into the group's store. */
static int parse_group(struct groups *gs)
{
	struct group *g = &gs->g;
	struct point *best = NULL;   /* of the points so far with the node count at hand */
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
		p.ctx = gs;
		gs->point = i;
		if (input_lines(path, feed_line, feed_long, &p, err, sizeof(err)) != 0)
			warn(gs, path, 0, err);
		else
			parser_end(&p);
		if (gs->oom)
			return -1;
		pt->first_row = first;
		pt->nrows = g->rows.n - first;
		if (best && best->nodes == pt->nodes) {
			resolve_rerun(gs, best, pt);
			if (!pt->superseded)
				best = pt;
		} else {
			best = pt;
		}
	}
	return 0;
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

int groups_each(struct groups *gs, long (*fn)(void *ctx, const struct group *g), void *ctx)
{
	for (size_t i = 0, j; i < gs->npts; i = j) {
		long written;
		for (j = i + 1; j < gs->npts && point_cmp_group(gs->order[i], gs->order[j]) == 0; j++)
			;
		gs->g.pts = gs->order + i;
		gs->g.n = (int)(j - i);
		rows_clear(&gs->g.rows);
		if (parse_group(gs) != 0)
			return -1;
		count_states(gs->s, &gs->g);
		written = fn(ctx, &gs->g);
		for (size_t k = i; k < j; k++)
			point_fabric_release(gs->order[k]);
		if (written < 0)
			return -1;
		gs->s->rows += written;
	}
	return 0;
}


void groups_init(struct groups *gs, struct summary *s,
		 void (*warn_fn)(void *ctx, const char *path, long line, const char *msg), void *ctx)
{
	memset(gs, 0, sizeof(*gs));
	gs->s = s;
	gs->warn = warn_fn;
	gs->ctx = ctx;
}

void groups_release(struct groups *gs)
{
	for (size_t i = 0; i < gs->npts; i++)
		point_release(gs->order[i]);
	free(gs->pts);
	free(gs->order);
	rows_release(&gs->g.rows);
	memset(gs, 0, sizeof(*gs));
}
