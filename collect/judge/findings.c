/*
 * findings.c: takes the merged campaign (model/campaign.h), fits each curve
 * (models.csv) and hands each point's rows to the findings
 * (findings_kinds.c); see findings.h.
 */
#include "findings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbound.h"
#include "format.h"
#include "findings_impl.h"
#include "merged.h"
#include "grow.h"
#include "locate.h"
#include "read/hosts.h"
#include "models.h"
#include "topology.h"
#include "model/health.h"
#include "replace.h"
#include "strbuf.h"
#include "suspects.h"

/* The suspects of the points that ran with aller's test hooks set left out: a test is not evidence. */
static void drop_tests(struct suspects *sus, const struct fpoint *pts, long np)
{
	char *test = calloc((size_t)np + 1, 1);

	for (long i = 0; test && i < np; i++)
		test[i] = pts[i].hooks[0] != '\0';
	if (test)
		suspects_drop(sus, test, np);
	free(test);
}

/* Appends "KEY LINE" (or LINE without a key) to *lines ('\n'-separated, malloc'd); nothing when out of memory. */
static void append_line(struct strbuf *b, const char *line, const char *key)
{
	if (b->len)
		strbuf_add(b, "\n", 1);
	if (key)
		strbuf_add(b, key, strlen(key)), strbuf_add(b, " ", 1);
	strbuf_add(b, line, strlen(line));
}

/* The campaign's points as the judge keeps them: each with its facts' lines (retried, host, nic_counters, the fabric's). */
static struct fpoint *points_of(const struct campaign *c)
{
	static const char *const keys[] = { MERGED_FACT_RETRIED, "host", ALLER_KEY_NIC_COUNTERS, "host", "node_switch",
					    "fabric", "limit", "device" };
	struct fpoint *pts = calloc((size_t)c->np + 1, sizeof(*pts));

	for (long i = 0; pts && i < c->np; i++) {
		struct fpoint *p = &pts[i];
		char **lines[4] = { &p->retried, &p->hosts, &p->nics, &p->fabric };
		struct strbuf b[4] = { { 0 } };   /* as strbuf_init */
		p->pt = &c->pts[i];
		p->peak.point = p->agg.point = p->eff.point = p->interf.point = p->cong.point = -1;
		p->hooks = campaign_fact(p->pt, ALLER_KEY_TEST_HOOKS);
		p->hooks = p->hooks ? p->hooks : "";
		for (long k = 0; k < p->pt->nfacts; k++) {
			const struct mfact *f = &p->pt->facts[k];
			p->floors += strcmp(f->key, "floor_failed") == 0;
			p->retries += strcmp(f->key, MERGED_FACT_RETRIED) == 0;
			for (int j = 0; j < 8; j++)   /* from the fourth on, the fabric's (read/fabric.h) */
				if (strcmp(f->key, keys[j]) == 0)
					append_line(&b[j < 3 ? j : 3], f->value, j < 3 ? NULL : f->key);
		}
		for (int j = 0; j < 4; j++) {
			*lines[j] = b[j].len ? strbuf_detach(&b[j]) : NULL;
			strbuf_release(&b[j]);
		}
	}
	return pts;
}

/* Whether two rows are of one curve (point, level, algorithm, split). */
static int same_curve(const struct mrow *a, const struct mrow *b)
{
	return a->point == b->point && a->level == b->level && strcmp(a->algo, b->algo) == 0 &&
	       strcmp(a->split, b->split) == 0;
}

/* models.csv's row of the curve rows[from, to) (sorted by size as collect writes them). */
static void model_row(struct table_out *t, const struct mrow *rows, long from, long to)
{
	double x[to - from > 0 ? to - from : 1], y[to - from > 0 ? to - from : 1];
	const struct mrow *r = &rows[from];
	double g = (double)r->COMMSIZE;
	struct model m;
	long n = 0;

	for (long i = from; i < to; i++)
		if (rows[i].TAVG > 0 && rows[i].bytes > 0) {
			x[n] = rows[i].bytes;
			y[n++] = rows[i].TAVG;
		}
	if (model_fit(x, y, n, &m) != 0)
		return;
	TABLE_ROW(t, (&(struct model_row){ .point = r->point, .level = r->level, .algo = r->algo,
		.split = r->split, .commsize = r->COMMSIZE, .n = n, .latency = m.all.latency,
		.bw = g * model_bw(&m.all) / 1e9, .n_half = model_n_half(&m.all), .r2 = m.all.r2,
		.worst = m.all.worst, .break_x = m.two ? m.break_x : NAN,
		.lo_latency = m.two ? m.lo.latency : NAN, .lo_bw = m.two ? g * model_bw(&m.lo) / 1e9 : NAN,
		.hi_latency = m.two ? m.hi.latency : NAN, .hi_bw = m.two ? g * model_bw(&m.hi) / 1e9 : NAN }),
		MODEL_COLUMNS);
}

/*
 * By level, split, algorithm, then size: each curve's rows together,
 * ascending, and each (level, split)'s algorithms side by side (what
 * find_crossovers reads).
 */
static int row_order(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	int c;

	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	if ((c = strcmp(x->split, y->split)) != 0 || (c = strcmp(x->algo, y->algo)) != 0)
		return c;
	return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

/* r as *best where v beats it (a finite value). */
static void keep_max(struct fbest *best, const struct mrow *r, double v)
{
	if (isfinite(v) && (best->point < 0 || v > best->value)) {
		*best = (struct fbest){ r->point, r->COMMSIZE, r->bytes, v, find_noise(r), "" };
		snprintf(best->algo, sizeof(best->algo), "%s", r->algo);
	}
}

/* The point's peaks, and levels 0 and 1 by size (the first algorithm's, uniform). */
static void summarise(struct fpoint *p, const struct mrow *r, const char *first_algo)
{
	struct flevel *l;
	struct fsize *g;

	if (r->COMMSIZE >= 2) {
		keep_max(&p->peak, r, r->BWAVG);
		keep_max(&p->agg, r, r->AGGBW);
		/* the largest size's (where bandwidth, not a token bucket's burst, binds), best of its rows */
		if (r->OFFNODE > 0 && isfinite(r->EFF) &&
		    (p->eff.point < 0 || r->bytes > p->eff.bytes ||
		     (r->bytes == p->eff.bytes && r->EFF > p->eff.EFF)))
			p->eff = *r;
	}
	keep_max(&p->interf, r, r->INTERF);
	keep_max(&p->cong, r, r->CONGESTION);
	if (strcmp(r->algo, first_algo) != 0 || strcmp(r->split, "uniform") != 0 ||
	    r->level < 0 || r->level >= FIND_LEVELS)
		return;
	l = &p->levels[r->level];
	l->commsize = r->COMMSIZE;
	if (l->n < FIND_SIZES && (g = grow(l->s, &l->cap, (size_t)l->n + 1, sizeof(*g), 8)) != NULL) {
		l->s = g;
		l->s[l->n++] = (struct fsize){ r->bytes, r->TAVG, r->BWAVG, find_noise(r) };
	}
}

/* The host holding the slowest task in most of the point's rows of two tasks or more. */
/* Each rank's host of a point (hosts.h), the host lines read once: name[at[rank]], at -1: none. */
struct rank_hosts {
	char (*name)[64];
	long *at, n, world;
};

static int note_host(const char *name, long r, void *ctx)
{
	struct rank_hosts *h = ctx;

	if (r < 0 || r >= h->world || h->at[r] >= 0)
		return 0;   /* a rank's first line holds it */
	if (h->n == 0 || strncmp(h->name[h->n - 1], name, sizeof(h->name[0]) - 1) != 0)
		snprintf(h->name[h->n++], sizeof(h->name[0]), "%s", name);
	h->at[r] = h->n - 1;
	return 0;
}

/* The host of rank r into name: by the table where it holds it, else by the lines; 0, or -1. */
static int host_of(const struct fpoint *p, const struct rank_hosts *h, long r, char *name, size_t len)
{
	if (r >= 0 && r < h->world && h->at[r] >= 0) {
		snprintf(name, len, "%s", h->name[h->at[r]]);
		return 0;
	}
	return hosts_of_rank(p->hosts, r, name, len);
}

static void slowest_host(struct fpoint *p, const struct mrow *rows, long n)
{
	struct { char name[64]; int n, on; } tally[64];
	long world = p->pt->world > 0 && p->pt->world <= (1L << 20) ? p->pt->world : 0;
	struct rank_hosts h = { calloc((size_t)world + 1, sizeof(*h.name)), malloc(sizeof(long) * ((size_t)world + 1)),
				0, h.name && h.at ? world : 0 };
	int nt = 0;

	for (long r = 0; r < h.world; r++)
		h.at[r] = -1;
	if (h.world && hosts_each(p->hosts, note_host, &h) != 0)
		h.world = 0;   /* a line not of the form: each rank by the lines, as before */
	for (long i = 0; i < n; i++) {
		char name[64];
		int k = 0, on = !strcmp(p->pt->mode, "contiguous") && p->pt->nodes > 0 && rows[i].bytes >= LOCATE_MIN_BYTES &&
				rows[i].COMMSIZE <= p->pt->world / p->pt->nodes;   /* within a node, not latency's */
		if (rows[i].COMMSIZE < 2 || rows[i].SLOWEST < 0 ||
		    host_of(p, &h, rows[i].SLOWEST, name, sizeof(name)) != 0)
			continue;
		p->slow_rows++, p->on_rows += on;
		while (k < nt && strcmp(tally[k].name, name))
			k++;
		if (k == nt && nt < 64) {
			snprintf(tally[nt].name, sizeof(tally[nt].name), "%s", name);
			tally[nt].on = tally[nt].n = 0, nt++;
		}
		if (k < nt && (tally[k].on += on, ++tally[k].n > p->slow_n)) {
			p->slow_n = tally[k].n, p->slow_on = tally[k].on;
			snprintf(p->slow_host, sizeof(p->slow_host), "%s", tally[k].name);
		}
	}
	free(h.name);
	free(h.at);
}

/* Each recurring slowest host (find_recurring), a suspect. */
static void slowest_suspects(struct suspects *sus, const struct fpoint *pts, long np,
			     const struct locate *explained)
{
	char evidence[256];

	for (long i = 0; i < np; i++) {
		int by_link = 0;
		for (int k = 0; explained && k < explained->npoints; k++)
			by_link |= explained->points[k] == pts[i].pt->point;
		if (!find_recurring(&pts[i]) || by_link)
			continue;   /* a located link explains its slow rows: its neighbours wait on it */
		snprintf(evidence, sizeof(evidence), "the slowest task in %d of %d rows on %ld nodes (%s)",
			 pts[i].slow_n, pts[i].slow_rows, pts[i].pt->nodes, pts[i].pt->mode);
		suspects_add(sus, "host", pts[i].slow_host, evidence, pts[i].pt->campaign, pts[i].pt->point);
	}
}

/* A point's rows, all read: its models, its summaries and its findings; its links and topology judged. */
static void point_done(struct table_out *models, struct fout *o, struct fpoint *p, struct mrow *rows, long n,
		       struct locate *loc, struct topo *topo)
{
	long from = 0;

	if (n == 0)
		return;
	qsort(rows, (size_t)n, sizeof(*rows), row_order);
	for (long i = 1; i <= n; i++)
		if (i == n || !same_curve(&rows[from], &rows[i])) {
			model_row(models, rows, from, i);
			from = i;
		}
	for (long i = 0; p && i < n; i++)
		summarise(p, &rows[i], rows[0].algo);
	if (p && p->hosts)
		slowest_host(p, rows, n);
	if (p) {
		p->judged = 1;   /* its findings once the links are located (judge_across) */
		find_crossovers(o, p, rows, n);
	}
	if (p && p->fabric) {
		fbound_locate(p, rows, n, &loc[0]), fbound_locate(p, rows, n, &loc[1]);   /* (out of memory: as placed) */
		topo_point(topo, p, rows, n);
	}
}

/* The campaign's --pairs points (pairs.tsv: complete, with a matrix) judged against the topology (topology.h). */
static void topo_of_pairs(struct topo *topo, const struct campaign *c, const struct fpoint *pts)
{
	for (long k = 0; k < c->pairs.n; k++) {
		long id = strtol(mtable_at(&c->pairs, k, PAIR_point), NULL, 10), n = 0;
		const struct fpoint *p = NULL;
		const char *what;
		double *bw;
		for (long i = 0; i < c->np && !p; i++)
			p = pts[i].pt->point == id ? &pts[i] : NULL;
		if (!p || strcmp(mtable_at(&c->pairs, k, PAIR_state), "complete") != 0 ||
		    !(what = campaign_fact(p->pt, ALLER_KEY_PAIRS)) || (n = p->pt->world) < 2 || n > TOPO_PAIRS)
			continue;
		if ((bw = malloc(sizeof(double) * (size_t)(n * n))) != NULL && campaign_matrix(c, id, n, bw, NULL) == 0)
			topo_pairs(topo, p, bw, n, strtod(what, NULL));   /* out of memory: this point not judged */
		free(bw);
	}
}

/* points.csv's rows gathered point by point (collect writes each point's rows together). */
struct gather {
	const struct campaign *c;
	struct fpoint *pts;
	struct table_out *models;
	struct fout *o;
	struct locate *loc;   /* [2]: judged at a quarter, at half */
	struct health *health;
	struct topo *topo;
	struct mrow *rows;
	long n;
	size_t cap;
};

/* The point of the rows gathered, all read: done. */
static void gathered(struct gather *g)
{
	const struct mpoint *m = g->n ? campaign_point(g->c, g->rows[0].point) : NULL;

	point_done(g->models, g->o, m ? &g->pts[m - g->c->pts] : NULL, g->rows, g->n, g->loc, g->topo);
	g->n = 0;
}

static int gather_row(void *ctx, const struct mrow *r)
{
	struct gather *g = ctx;
	struct mrow *m;

	if (g->n > 0 && r->point != g->rows[0].point)
		gathered(g);
	health_row(g->health, r);
	if (!(m = grow(g->rows, &g->cap, (size_t)g->n + 1, sizeof(*m), 256)))
		return 1;
	g->rows = m;
	g->rows[g->n++] = *r;
	return 0;
}

/* findings.json and findings.tsv: the verdict first, then every other finding. */
int find_write(const char *dir, const struct fout *v, struct fout *o, char *err,
		      size_t errlen)
{
	FILE *json = replace_open(dir, "findings.json", err, errlen), *tsv;

	if (!json)
		return -1;
	fprintf(json, "[\n%s%s%s\n]\n", v->b.s ? v->b.s : "", o->n ? ",\n" : "",
		o->b.s ? o->b.s : "");
	if (replace_close(json, dir, "findings.json", err, errlen) != 0 ||
	    !(tsv = replace_open(dir, MERGED_FINDINGS_FILE, err, errlen)))
		return -1;
	struct table_out t = { tsv, NULL, '\t', 0 };
	TABLE_HEADER(&t, FINDING_COLUMNS);
	for (size_t i = 0; i < v->nrows; i++)
		TABLE_ROW(&t, (&(struct finding_row){ v->rows[i].severity, v->rows[i].kind, v->rows[i].text,
						      v->rows[i].points, v->rows[i].effect, 0, "verdict" }),
			  FINDING_COLUMNS);
	find_rank(o);
	for (size_t i = 0; i < o->nrows; i++)
		TABLE_ROW(&t, &o->rows[i], FINDING_COLUMNS);
	return replace_close(tsv, dir, MERGED_FINDINGS_FILE, err, errlen);
}

/* A finding (kind suspect, a warning) per suspect host of the slow links, its side, citing its counters. */
static void suspects_findings(const struct suspects *s, const struct fpoint *pts, long np, struct fout *o)
{
	char peers[1024], text[2048], cite[512];
	const char *h, *since, *side;
	int i = 0, n;

	while ((h = suspects_next_host(s, &i, peers, sizeof(peers), &n, &since, &side)) != NULL) {
		find_nic_cite(pts, np, NULL, 0, h, cite, sizeof(cite));
		snprintf(text, sizeof(text), "Suspect host %s: an end of slow links with %d hosts (%s)%s%s: %s.%s", h, n,
			 peers, since[0] ? ", since " : "", since, strchr(side, ':') + 2, cite);
		find_emit(o, FK_suspect, "warning", text, NULL, 0, "links_with_hosts", (double)n, NULL);
	}
}

/*
 * What the points say together, once their rows are gathered: the findings
 * across them, the slow links and where they are, the verdict and the
 * suspects; findings.json, findings.tsv and suspects.tsv written. 0, or -1.
 */
static int judge_across(const char *dir, const struct campaign *c, struct fpoint *pts, long np,
			struct fout *o, struct fout *v, const struct gather *g, char *err, size_t errlen)
{
	struct suspects sus = { 0 };
	char topology[640];
	const char *one[LOCATE_MAX];
	const struct locate *loc = locate_pick(g->loc);
	int slow, located = locate_suspects(loc, one, LOCATE_MAX), rc, verified;

	for (long i = 0; i < np; i++) {   /* each point's own findings, in the light of the one link located */
		for (int k = 0; located == 1 && !find_itself(pts, np, one[0]) && k < loc->npoints; k++)
			pts[i].located = loc->points[k] == pts[i].pt->point ? one[0] : pts[i].located;
		if (pts[i].judged)
			find_point(o, &pts[i]);
	}
	find_across(o, pts, np);
	slow = find_slow_links(o, c, &sus, g->topo);
	located = find_located(o, loc, pts, np, &sus);
	verified = find_topology(o, g->topo, topology, sizeof(topology));
	find_verdict(v, pts, np, &(struct verdict_in){ g->health, topology, verified, slow + (located == 1), located > 1 });
	slowest_suspects(&sus, pts, np, located == 1 ? loc : NULL);
	drop_tests(&sus, pts, np);
	suspects_findings(&sus, pts, np, o);
	rc = find_write(dir, v, o, err, errlen);
	if (rc == 0)
		rc = suspects_write(&sus, dir, err, errlen);
	suspects_release(&sus);
	return rc;
}

static void points_release(struct fpoint *pts, long np)
{
	for (long i = 0; i < np; i++) {
		free(pts[i].hosts), free(pts[i].retried), free(pts[i].fabric), free(pts[i].nics);
		for (int k = 0; k < FIND_LEVELS; k++)
			free(pts[i].levels[k].s);
	}
	free(pts);
}

int findings_run(const char *dir, char *err, size_t errlen)
{
	struct campaign c;
	struct fpoint *pts = NULL;
	struct fout o = { 0 }, v = { 0 };
	struct locate loc[2] = { { 0 }, { .half = 1 } };   /* judged at a quarter and at half */
	struct health health;
	struct topo topo;
	FILE *models;
	long np;
	int rc = -1;

	if (campaign_load(&c, dir, CAMPAIGN_POINTS | CAMPAIGN_PAIRS, err, errlen) != 0)
		return -1;
	if (!(pts = points_of(&c))) {
		snprintf(err, errlen, "out of memory");
		campaign_release(&c);
		return -1;
	}
	np = c.np;
	strbuf_init(&o.b), strbuf_init(&v.b);
	health_init(&health);
	if (topo_open(&topo, pts, np) != 0)
		topo_release(&topo);   /* out of memory: no alternative tried */
	if ((models = replace_open(dir, "models.csv", err, errlen)) != NULL) {
		struct table_out t = { models, NULL, ',', 0 };
		struct gather g = { &c, pts, &t, &o, loc, &health, &topo, NULL, 0, 0 };
		TABLE_HEADER(&t, MODEL_COLUMNS);
		if (campaign_rows(&c, gather_row, &g, err, errlen) != 0) {
			char part[4096];
			fclose(models);
			snprintf(part, sizeof(part), "%s/models.csv.part", dir);
			remove(part);
		} else if (gathered(&g), health_end(&health), topo_of_pairs(&topo, &c, pts),
			   replace_close(models, dir, "models.csv", err, errlen) == 0) {
			rc = judge_across(dir, &c, pts, np, &o, &v, &g, err, errlen);
		}
		free(g.rows);
	}
	locate_release(&loc[0]), locate_release(&loc[1]);
	topo_release(&topo);
	fout_release(&o);
	fout_release(&v);
	points_release(pts, np);
	campaign_release(&c);
	return rc;
}
