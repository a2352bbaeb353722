/*
 * findings.c: reads the merged tables, fits each curve (models.csv) and
 * hands each point's rows to the findings (findings_kinds.c); see findings.h.
 */
#include "findings.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
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
#include "replace.h"
#include "suspects.h"
#include "merge/table.h"

enum { I_POINT, I_CAMPAIGN, I_MODE, I_NODES, I_WORLD, I_STATE, I_SERIES, I_VARIANT,
       I_PLACEMENT, I_BASE, I_N };
static const char *const index_cols[I_N] = { "point", "campaign", "mode", "nodes", "world", "state",
					     "series", "variant", "placement", "base" };

/* points-index.csv: every point, in its order; the count, or -1. */
static long read_index(const char *dir, struct fpoint **out)
{
	char line[8192], *f[TABLE_FIELDS];
	int at[I_N], n;
	long np = 0;
	size_t cap = 0;
	struct fpoint *pts = NULL;
	FILE *in;

	if (!(in = table_open(dir, "points-index.csv", line, sizeof(line), index_cols, at, I_N)))
		return -1;
	while (fgets(line, sizeof(line), in)) {
		struct fpoint *p;
		n = table_split(line, f, TABLE_FIELDS);
		struct fpoint *g = grow(pts, &cap, (size_t)np + 1, sizeof(*pts), 16);
		if (!g)
			break;
		pts = g;
		p = memset(&pts[np++], 0, sizeof(*p));
		p->id = table_long(f, n, at[I_POINT]);
		p->nodes = table_long(f, n, at[I_NODES]);
		p->world = table_long(f, n, at[I_WORLD]);
		table_copy(p->campaign, sizeof(p->campaign), f, n, at[I_CAMPAIGN]);
		table_copy(p->mode, sizeof(p->mode), f, n, at[I_MODE]);
		table_copy(p->state, sizeof(p->state), f, n, at[I_STATE]);
		table_copy(p->series, sizeof(p->series), f, n, at[I_SERIES]);
		table_copy(p->variant, sizeof(p->variant), f, n, at[I_VARIANT]);
		table_copy(p->placement, sizeof(p->placement), f, n, at[I_PLACEMENT]);
		table_copy(p->base, sizeof(p->base), f, n, at[I_BASE]);
		p->peak.point = p->agg.point = p->eff.point = p->interf.point = p->cong.point = -1;
	}
	fclose(in);
	*out = pts;
	return np;
}

/* Appends line to *lines ('\n'-separated, malloc'd); nothing when out of memory. */
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

static void append_line(char **lines, const char *line)
{
	size_t have = *lines ? strlen(*lines) : 0, add = strlen(line) + 2;
	char *g = realloc(*lines, have + add);

	if (!g)
		return;
	snprintf(g + have, add, "%s%s", have ? "\n" : "", line);
	*lines = g;
}

/*
 * facts.tsv's host lines onto each point, and its fabric's (node_switch,
 * fabric and limit lines, each "key value"); a missing file: none.
 */
static void read_facts(const char *dir, struct fpoint *pts, long np)
{
	static const char *const fabric_keys[] = { "node_switch", "fabric", "limit" };
	char path[4096], line[4096];
	FILE *in;

	snprintf(path, sizeof(path), "%s/" MERGED_FACTS_FILE, dir);
	if (!(in = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), in)) {
		long id;
		int at = 0;
		char *key;
		if (sscanf(line, "%ld\t%n", &id, &at) != 1 || at == 0 || id < 0 || id >= np ||
		    pts[id].id != id)
			continue;
		line[strcspn(line, "\n")] = '\0';
		key = line + at;
		if (!strncmp(key, "floor_failed\t", 13)) {
			pts[id].floors++;
			continue;
		}
		if (!strncmp(key, ALLER_KEY_TEST_HOOKS "\t", strlen(ALLER_KEY_TEST_HOOKS) + 1)) {
			snprintf(pts[id].hooks, sizeof(pts[id].hooks), "%s", key + strlen(ALLER_KEY_TEST_HOOKS) + 1);
			continue;
		}
		if (!strncmp(key, MERGED_FACT_RETRIED "\t", strlen(MERGED_FACT_RETRIED) + 1)) {
			append_line(&pts[id].retried, key + strlen(MERGED_FACT_RETRIED) + 1);
			pts[id].retries++;
			continue;
		}
		if (!strncmp(key, "host\t", 5)) {
			append_line(&pts[id].hosts, key + 5);
			key[4] = ' ';
			append_line(&pts[id].fabric, key);   /* the fabric's too (read/fabric.h) */
			continue;
		}
		for (size_t k = 0; k < sizeof(fabric_keys) / sizeof(fabric_keys[0]); k++)
			if (!strncmp(key, fabric_keys[k], strlen(fabric_keys[k])) &&
			    key[strlen(fabric_keys[k])] == '\t') {
				key[strlen(fabric_keys[k])] = ' ';
				append_line(&pts[id].fabric, key);
			}
	}
	fclose(in);
}

enum { R_POINT, R_LEVEL, R_ALGO, R_SPLIT, R_COMMSIZE, R_BYTES, R_TAVG, R_TMED, R_LO, R_HI, R_TMIN,
       R_TMAX, R_BWAVG, R_AGGBW, R_INTERF, R_CONG, R_EFF, R_OFFNODE, R_SLOWEST, R_N };
static const char *const row_cols[R_N] = { "point", "level", "algo", "split", "commsize",
	"bytes_per_peer", "tavg_s", "tmed_s", "tmed_lo_s", "tmed_hi_s", "tmin_s", "tmax_s",
	"bwavg_GiBs", "aggbw_GiBs", "interference", "congestion", "eff", "offnode_B",
	"slowest_rank" };

static void parse_row(char **f, int n, const int *at, struct frow *r)
{
	double slowest;

	r->point = table_long(f, n, at[R_POINT]);
	r->level = table_long(f, n, at[R_LEVEL]);
	r->commsize = table_long(f, n, at[R_COMMSIZE]);
	table_copy(r->algo, sizeof(r->algo), f, n, at[R_ALGO]);
	table_copy(r->split, sizeof(r->split), f, n, at[R_SPLIT]);
	r->bytes = table_num(f, n, at[R_BYTES]);
	r->tavg = table_num(f, n, at[R_TAVG]);
	r->tmed = table_num(f, n, at[R_TMED]);
	r->lo = table_num(f, n, at[R_LO]);
	r->hi = table_num(f, n, at[R_HI]);
	r->tmin = table_num(f, n, at[R_TMIN]);
	r->tmax = table_num(f, n, at[R_TMAX]);
	r->bwavg = table_num(f, n, at[R_BWAVG]);
	r->aggbw = table_num(f, n, at[R_AGGBW]);
	r->interf = table_num(f, n, at[R_INTERF]);
	r->cong = table_num(f, n, at[R_CONG]);
	r->eff = table_num(f, n, at[R_EFF]);
	r->offnode = table_num(f, n, at[R_OFFNODE]);
	r->slowest = isfinite(slowest = table_num(f, n, at[R_SLOWEST])) ? (long)slowest : -1;
}

/* Whether two rows are of one curve (point, level, algorithm, split). */
static int same_curve(const struct frow *a, const struct frow *b)
{
	return a->point == b->point && a->level == b->level && strcmp(a->algo, b->algo) == 0 &&
	       strcmp(a->split, b->split) == 0;
}

/* models.csv's row of the curve rows[from, to) (sorted by size as collect writes them). */
static void model_row(struct table_out *t, const struct frow *rows, long from, long to)
{
	double x[to - from > 0 ? to - from : 1], y[to - from > 0 ? to - from : 1];
	const struct frow *r = &rows[from];
	double g = (double)r->commsize;
	struct model m;
	long n = 0;

	for (long i = from; i < to; i++)
		if (rows[i].tavg > 0 && rows[i].bytes > 0) {
			x[n] = rows[i].bytes;
			y[n++] = rows[i].tavg;
		}
	if (model_fit(x, y, n, &m) != 0)
		return;
	TABLE_ROW(t, (&(struct model_row){ .point = r->point, .level = r->level, .algo = r->algo,
		.split = r->split, .commsize = r->commsize, .n = n, .latency = m.all.latency,
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
	const struct frow *x = a, *y = b;
	int c;

	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	if ((c = strcmp(x->split, y->split)) != 0 || (c = strcmp(x->algo, y->algo)) != 0)
		return c;
	return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

static void keep_max(struct frow *best, const struct frow *r, double v, double old)
{
	if (isfinite(v) && (best->point < 0 || v > old))
		*best = *r;
}

/* The point's peaks, and levels 0 and 1 by size (the first algorithm's, uniform). */
static void summarise(struct fpoint *p, const struct frow *r, const char *first_algo)
{
	struct flevel *l;
	struct fsize *g;

	if (r->commsize >= 2) {
		keep_max(&p->peak, r, r->bwavg, p->peak.bwavg);
		keep_max(&p->agg, r, r->aggbw, p->agg.aggbw);
		/* the largest size's (where bandwidth, not a token bucket's burst, binds), best of its rows */
		if (r->offnode > 0 && isfinite(r->eff) &&
		    (p->eff.point < 0 || r->bytes > p->eff.bytes ||
		     (r->bytes == p->eff.bytes && r->eff > p->eff.eff)))
			p->eff = *r;
	}
	keep_max(&p->interf, r, r->interf, p->interf.interf);
	keep_max(&p->cong, r, r->cong, p->cong.cong);
	if (strcmp(r->algo, first_algo) != 0 || strcmp(r->split, "uniform") != 0 ||
	    r->level < 0 || r->level >= FIND_LEVELS)
		return;
	l = &p->levels[r->level];
	l->commsize = r->commsize;
	if (l->n < FIND_SIZES && (g = grow(l->s, &l->cap, (size_t)l->n + 1, sizeof(*g), 8)) != NULL) {
		l->s = g;
		l->s[l->n++] = (struct fsize){ r->bytes, r->tavg, r->bwavg, find_noise(r) };
	}
}

/* The host holding the slowest task in most of the point's rows of two tasks or more. */
static void slowest_host(struct fpoint *p, const struct frow *rows, long n)
{
	struct { char name[64]; int n; } tally[64];
	int nt = 0;

	for (long i = 0; i < n; i++) {
		char name[64];
		int k = 0;
		if (rows[i].commsize < 2 || rows[i].slowest < 0 ||
		    hosts_of_rank(p->hosts, rows[i].slowest, name, sizeof(name)) != 0)
			continue;
		p->slow_rows++;
		while (k < nt && strcmp(tally[k].name, name))
			k++;
		if (k == nt && nt < 64) {
			snprintf(tally[nt].name, sizeof(tally[nt].name), "%s", name);
			tally[nt++].n = 0;
		}
		if (k < nt && ++tally[k].n > p->slow_n) {
			p->slow_n = tally[k].n;
			snprintf(p->slow_host, sizeof(p->slow_host), "%s", tally[k].name);
		}
	}
}

/* Each recurring slowest host (find_recurring), a suspect. */
static void slowest_suspects(struct suspects *sus, const struct fpoint *pts, long np,
			     const struct locate *explained)
{
	char evidence[256];

	for (long i = 0; i < np; i++) {
		int by_link = 0;
		for (int k = 0; explained && k < explained->npoints; k++)
			by_link |= explained->points[k] == pts[i].id;
		if (!find_recurring(&pts[i]) || by_link)
			continue;   /* a located link explains its slow rows: its neighbours wait on it */
		snprintf(evidence, sizeof(evidence), "the slowest task in %d of %d rows on %ld nodes (%s)",
			 pts[i].slow_n, pts[i].slow_rows, pts[i].nodes, pts[i].mode);
		suspects_add(sus, "host", pts[i].slow_host, evidence, pts[i].campaign, pts[i].id);
	}
}

/* A point's rows, all read: its models, its summaries and its findings. */
static void point_done(struct table_out *models, struct fout *o, struct fpoint *p, struct frow *rows, long n,
		       struct locate *loc)
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
		find_point(o, p);
		find_crossovers(o, p, rows, n);
	}
	if (p && p->fabric)
		fbound_locate(p, rows, n, loc);   /* out of memory: what was placed stands */
}

static struct fpoint *point_of(struct fpoint *pts, long np, long id)
{
	if (id >= 0 && id < np && pts[id].id == id)   /* the index numbers its rows from 0 */
		return &pts[id];
	for (long i = 0; i < np; i++)
		if (pts[i].id == id)
			return &pts[i];
	return NULL;
}

/* points.csv, point by point (collect writes each point's rows together). */
static int read_rows(const char *dir, struct table_out *models, struct fout *o, struct fpoint *pts, long np,
		     struct locate *loc)
{
	char line[8192], *f[TABLE_FIELDS];
	int at[R_N];
	struct frow *rows = NULL;
	long n = 0;
	size_t cap = 0;
	FILE *in;

	if (!(in = table_open(dir, "points.csv", line, sizeof(line), row_cols, at, R_N)))
		return -1;
	while (fgets(line, sizeof(line), in)) {
		struct frow r;
		parse_row(f, table_split(line, f, TABLE_FIELDS), at, &r);
		if (n > 0 && r.point != rows[0].point) {
			point_done(models, o, point_of(pts, np, rows[0].point), rows, n, loc);
			n = 0;
		}
		struct frow *g = grow(rows, &cap, (size_t)n + 1, sizeof(*rows), 256);
		if (!g)
			break;
		rows = g;
		rows[n++] = r;
	}
	point_done(models, o, n ? point_of(pts, np, rows[0].point) : NULL, rows, n, loc);
	free(rows);
	fclose(in);
	return 0;
}

/* findings.json and findings.tsv: the verdict first, then every other finding. */
int find_write(const char *dir, const struct fout *v, struct fout *o, char *err,
		      size_t errlen)
{
	FILE *json = replace_open(dir, "findings.json", err, errlen);

	if (!json)
		return -1;
	FILE *tsv;

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

/* A finding (kind suspect, a warning) per suspect host of the slow links. */
static void suspects_findings(const struct suspects *s, struct fout *o)
{
	char peers[1024], text[1400];
	const char *h, *since;
	int i = 0, n;

	while ((h = suspects_next_host(s, &i, peers, sizeof(peers), &n, &since)) != NULL) {
		snprintf(text, sizeof(text), "Suspect host %s: an end of slow links with %d hosts (%s)%s%s: "
			 "a slow NIC or port slows every link through it.", h, n, peers,
			 since[0] ? ", since " : "", since);
		find_emit(o, "suspect", "warning", text, NULL, 0, "links_with_hosts", (double)n, NULL);
	}
}

int findings_run(const char *dir, char *err, size_t errlen)
{
	struct fpoint *pts = NULL;
	struct fout o = { 0 }, v = { 0 };
	struct locate loc = { 0 };
	long np = read_index(dir, &pts);
	FILE *models;
	int rc = -1;

	if (np < 0) {
		snprintf(err, errlen, "cannot read '%s/points-index.csv'", dir);
		return -1;
	}
	read_facts(dir, pts, np);
	strbuf_init(&o.b);
	strbuf_init(&v.b);
	if ((models = replace_open(dir, "models.csv", err, errlen)) != NULL) {
		struct table_out t = { models, NULL, ',', 0 };
		TABLE_HEADER(&t, MODEL_COLUMNS);
		if (read_rows(dir, &t, &o, pts, np, &loc) != 0) {
			char part[4096];
			snprintf(err, errlen, "cannot read '%s/points.csv'", dir);
			fclose(models);
			snprintf(part, sizeof(part), "%s/models.csv.part", dir);
			remove(part);
		} else if (replace_close(models, dir, "models.csv", err, errlen) == 0) {
			struct suspects sus = { 0 };
			int slow, located;
			find_across(&o, pts, np);
			slow = find_slow_links(&o, dir, &sus);
			located = find_located(&o, &loc, pts, np, &sus);
			find_verdict(&v, pts, np, slow + (located == 1), located > 1);
			slowest_suspects(&sus, pts, np, located == 1 ? &loc : NULL);
			drop_tests(&sus, pts, np);
			suspects_findings(&sus, &o);
			rc = find_write(dir, &v, &o, err, errlen);
			if (rc == 0)
				rc = suspects_write(&sus, dir, err, errlen);
			suspects_release(&sus);
		}
	}
	locate_release(&loc);
	fout_release(&o);
	fout_release(&v);
	for (long i = 0; i < np; i++) {
		free(pts[i].hosts);
		free(pts[i].retried);
		free(pts[i].fabric);
		for (int k = 0; k < FIND_LEVELS; k++)
			free(pts[i].levels[k].s);
	}
	free(pts);
	return rc;
}
