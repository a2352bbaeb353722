/* trend.c: see trend.h. */
#define _GNU_SOURCE   /* strptime, timegm */
#include "trend.h"
#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bytes.h"
#include "changepoint.h"
#include "findings_impl.h"
#include "grow.h"
#include "outset.h"
#include "replace.h"
#include "strbuf.h"
#include "model/campaign.h"
#include "tablerow.h"

/* A curve: the words that name it (a point's identity, its level, algorithm and split). */
struct tcurve {
	char mode[32], nodes[16], tpn[16], series[128], algo[64], split[128];
	long commsize;
};

/* One series: a curve at one size, and a value per campaign (NAN: not measured there). */
struct tseries {
	struct tcurve curve;
	double bytes;
	double *v;
};

/*
 * trend.csv (common/tablerow.h): a row per series and campaign that measured
 * it; run is the campaign's place in the history (0 the oldest), start its
 * first point's '# start:'.
 */
#define TREND_COLUMNS(X) \
	X(mode, TEXT, c->mode) \
	X(nodes, TEXT, c->nodes) \
	X(tasks_per_node, TEXT, c->tpn) \
	X(series, TEXT, c->series) \
	X(commsize, LONG, c->commsize) \
	X(algo, TEXT, c->algo) \
	X(split, TEXT, c->split) \
	X(bytes_per_peer, LONG, bytes) \
	X(run, LONG, run) \
	X(campaign, TEXT, campaign) \
	X(start, TEXT, start) \
	X(busbw_GBs, REAL, busbw)
struct trend_row {
	const struct tcurve *c;
	long bytes, run;
	const char *campaign, *start;
	double busbw;
};

struct trend {
	int ncamp;
	char (*campaign)[128];
	char (*when)[32];    /* each campaign's start, its first point's '# start:' (its date: 10 characters) */
	struct tseries *s;
	long n, spikes;      /* spikes: rows whose average one slow call doubled or more */
	size_t cap;
	struct tspike {      /* the row whose slowest call moved its average the most: tavg over it counted as its median */
		struct tcurve curve;
		double bytes, factor, call;
		int run;
	} spike;
};

static int by_curve(const struct tcurve *x, const struct tcurve *y)
{
	int c;

	if ((c = strcmp(x->mode, y->mode)) || (c = strcmp(x->nodes, y->nodes)) ||
	    (c = strcmp(x->tpn, y->tpn)) || (c = strcmp(x->series, y->series)))
		return c;
	if (x->commsize != y->commsize)
		return x->commsize < y->commsize ? -1 : 1;
	if ((c = strcmp(x->algo, y->algo)))
		return c;
	return strcmp(x->split, y->split);
}

/* By curve, then size. */
static int by_key(const void *a, const void *b)
{
	const struct tseries *x = a, *y = b;
	int c = by_curve(&x->curve, &y->curve);

	return c ? c : x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

/* A campaign's points' words of their curves (the first four), by their number (the index numbers its rows from 0: another number, left out). */
static struct tcurve *points_of(const struct campaign *m, char *campaign)
{
	struct tcurve *p = calloc((size_t)m->np + 1, sizeof(*p));

	for (long i = 0; p && i < m->np; i++) {
		const struct mpoint *q = &m->pts[i];
		if (q->point != i)
			continue;
		snprintf(p[i].mode, sizeof(p[i].mode), "%s", q->mode);
		snprintf(p[i].nodes, sizeof(p[i].nodes), "%ld", q->nodes);
		snprintf(p[i].tpn, sizeof(p[i].tpn), "%s", q->tasks_per_node);
		snprintf(p[i].series, sizeof(p[i].series), "%s", q->series);
		if (!campaign[0])
			snprintf(campaign, 128, "%s", q->campaign);
	}
	return p;
}

/* One campaign's rows into the series (c: its place): the first defines them, the later ones fill them. */
struct trow {
	struct trend *t;
	int c;
	const struct campaign *m;
	const struct tcurve *p;
};

static int trend_row(void *ctx, const struct mrow *r)
{
	struct trow *x = ctx;
	struct trend *t = x->t;
	struct tseries s, *hit;
	double rest = r->TAVG - (r->TMAX - r->TMED) / (double)(r->COMMS * r->COMMSIZE * r->ITERS);
	double f = rest > 0 && r->ITERS > 0 ? r->TAVG / rest : 1, busbw = r->BUSBW * f;   /* its slowest call as its median */

	if (r->point < 0 || r->point >= x->m->np || x->m->pts[r->point].point != r->point ||
	    r->COMMSIZE < 2 || !isfinite(busbw) || !isfinite(r->bytes))
		return 0;
	s.curve = x->p[r->point];
	s.curve.commsize = r->COMMSIZE;
	snprintf(s.curve.algo, sizeof(s.curve.algo), "%s", r->algo);
	snprintf(s.curve.split, sizeof(s.curve.split), "%s", r->split);
	s.bytes = r->bytes;
	t->spikes += f >= 2;
	if (f >= 2 && f > t->spike.factor)
		t->spike = (struct tspike){ s.curve, s.bytes, f, r->TMAX, x->c };
	if (x->c > 0) {
		if (t->n > 0 && (hit = bsearch(&s, t->s, (size_t)t->n, sizeof(s), by_key)) != NULL)
			hit->v[x->c] = busbw;
		return 0;
	}
	struct tseries *m = grow(t->s, &t->cap, (size_t)t->n + 1, sizeof(s), 256);
	if (!m)
		return 1;
	t->s = m;
	if (!(s.v = malloc(sizeof(double) * (size_t)t->ncamp)))
		return 1;
	for (int i = 0; i < t->ncamp; i++)
		s.v[i] = NAN;
	s.v[0] = busbw;
	t->s[t->n++] = s;
	return 0;
}

/* One curve's finding: its largest change, and how many of its sizes changed. */
static void curve_finding(struct fout *o, const struct trend *t, const struct tseries *s,
			  const struct change *c, const int *idx, int changed, int sizes)
{
	const struct tcurve *k = &s->curve;
	char size[32], text[1024];
	int at = idx[c->at];

	format_bytes(size, sizeof(size), (long)s->bytes);
	if (c->found == 2)
		snprintf(text, sizeof(text), "busbw at %s per peer on %s nodes (%s, %s tasks per node, "
			 "commsize %ld, %s, %s) %s %.0f%% from the run of %.10s (%s) on, after %d steady "
			 "run%s (%d of %d sizes of that curve changed).", size, k->nodes, k->mode, k->tpn,
			 k->commsize, k->algo, k->split, c->rel < 0 ? "fell" : "rose", 100 * fabs(c->rel),
			 t->when[at], t->campaign[at], (int)c->at, c->at == 1 ? "" : "s", changed, sizes);
	else
		snprintf(text, sizeof(text), "busbw at %s per peer on %s nodes (%s, %s tasks per node, "
			 "commsize %ld, %s, %s) %s %.0f%% in the newest run, %.10s (%s), against the "
			 "median of the %d before (%d of %d sizes of that curve changed).", size, k->nodes,
			 k->mode, k->tpn, k->commsize, k->algo, k->split, c->rel < 0 ? "fell" : "rose",
			 100 * fabs(c->rel), t->when[at], t->campaign[at], (int)c->at, changed, sizes);
	find_emit(o, FK_change, c->rel < 0 ? "warning" : "notice", text, NULL, 0, "rel", c->rel,
		  "z", c->z, "before_GBs", c->before, "after_GBs", c->after, "run", (double)at,
		  "bytes_per_peer", s->bytes, "sizes_changed", (double)changed, NULL);
}

/* Every curve (its sizes together in the sorted series): tested, its largest change said. */
static int analyse(struct fout *o, const struct trend *t, long *tested)
{
	double v[t->ncamp > 0 ? t->ncamp : 1];
	int idx[t->ncamp > 0 ? t->ncamp : 1], curves = 0;

	for (long i = 0; i < t->n;) {
		struct change best = { 0 }, c;
		const struct tseries *at = NULL;
		int changed = 0, sizes = 0, bidx[t->ncamp > 0 ? t->ncamp : 1];
		long k = i;
		for (; k < t->n && !by_curve(&t->s[k].curve, &t->s[i].curve); k++, sizes++) {
			long n = 0;
			for (int j = 0; j < t->ncamp; j++)   /* its campaigns' values, missing ones left out; idx maps them back */
				if (isfinite(t->s[k].v[j]))
					v[n] = t->s[k].v[j], idx[n++] = j;
			change_detect(v, n, &c);
			*tested += n >= CP_MIN_N;
			if (!c.found)
				continue;
			changed++;
			if (!best.found || fabs(c.rel) > fabs(best.rel)) {
				best = c;
				at = &t->s[k];
				memcpy(bidx, idx, sizeof(int) * (size_t)n);
			}
		}
		if (best.found) {
			curve_finding(o, t, at, &best, bidx, changed, sizes);
			curves++;
		}
		i = k;
	}
	return curves;
}

/* OUTDIR/trend.csv: one row per series and campaign that measured it. */
static int write_csv(const char *out, const struct trend *t, char *err, size_t errlen)
{
	FILE *f = replace_open(out, "trend.csv", err, errlen);

	if (!f)
		return -1;
	struct table_out o = { f, NULL, ',', 0 };

	TABLE_HEADER(&o, TREND_COLUMNS);
	for (long i = 0; i < t->n; i++)
		for (int c = 0; c < t->ncamp; c++)
			if (isfinite(t->s[i].v[c]))
				TABLE_ROW(&o, (&(struct trend_row){ &t->s[i].curve, (long)t->s[i].bytes, c,
								    t->campaign[c], t->when[c], t->s[i].v[c] }),
					  TREND_COLUMNS);
	return replace_close(f, out, "trend.csv", err, errlen);
}

/*
 * OUTDIR/trend.dat, what plots/trend.gp draws: a data set per curve at its
 * largest size ('"mode, N nodes, commsize C, algo, split" x x', then "run
 * busbw date" per run that measured it), two blank lines apart.
 */
static int write_dat(const char *out, const struct trend *t, char *err, size_t errlen)
{
	FILE *f = replace_open(out, "trend.dat", err, errlen);
	int sets = 0;

	if (!f)
		return -1;
	fputs("# columns: run busbw_GBs date\n", f);
	for (long i = 0; i < t->n; i++) {
		const struct tcurve *c = &t->s[i].curve;
		if (i + 1 < t->n && by_curve(c, &t->s[i + 1].curve) == 0)
			continue;   /* sorted by size: the curve's last series is its largest */
		fprintf(f, "%s\"%s, %s nodes, commsize %ld, %s, %s\" x x\n", sets++ ? "\n\n" : "",
			c->mode, c->nodes, c->commsize, c->algo, c->split);
		for (int k = 0; k < t->ncamp; k++)
			if (isfinite(t->s[i].v[k]))
				fprintf(f, "%d %.6e %.10s\n", k, t->s[i].v[k], t->when[k]);   /* its date */
	}
	return replace_close(f, out, "trend.dat", err, errlen);
}

static int load(struct trend *t, char **dirs, char *err, size_t errlen)
{
	for (int c = 0; c < t->ncamp; c++) {
		struct campaign m;
		struct tcurve *p = NULL;
		int rc = campaign_load(&m, dirs[c], CAMPAIGN_POINTS, err, errlen);
		if (rc == 0) {
			struct trow x = { t, c, &m, p = points_of(&m, t->campaign[c]) };
			campaign_earliest(&m, "start", t->when[c], sizeof(t->when[c]));
			rc = p ? campaign_rows(&m, trend_row, &x, err, errlen) : -1;
			if (rc == 0 && c == 0 && t->n > 1)
				qsort(t->s, (size_t)t->n, sizeof(*t->s), by_key);
			campaign_release(&m);
		}
		free(p);
		if (rc != 0) {
			snprintf(err, errlen, "cannot read the merged tables of '%s'", dirs[c]);
			return -1;
		}
	}
	return 0;
}

/* A run to order: its earliest start ("" unknown), its directory, its place as given. */
struct run {
	char start[32];
	char *dir;
	int at;
};

static int by_start(const void *x, const void *y)
{
	const struct run *a = x, *b = y;
	int c = !a->start[0] - !b->start[0];   /* those without a start last */

	if (!c)
		c = strcmp(a->start, b->start);
	return c ? c : a->at - b->at;
}

/* The n merged dirs in the order of their earliest starts (those without one last), stably. */
static void order_runs(int n, char **dirs)
{
	struct run *r = calloc((size_t)n + 1, sizeof(*r));

	if (!r)
		return;
	for (int i = 0; i < n; i++) {
		struct campaign m;
		char err[64];
		if (campaign_load(&m, dirs[i], CAMPAIGN_FACTS, err, sizeof(err)) == 0)
			campaign_earliest(&m, "start", r[i].start, sizeof(r[i].start));
		campaign_release(&m);
		r[i].dir = dirs[i], r[i].at = i;
	}
	qsort(r, (size_t)n, sizeof(*r), by_start);
	for (int i = 0; i < n; i++)
		dirs[i] = r[i].dir;
	free(r);
}

/* 0 when no directory is given twice (by any spelling), else -1 naming both. */
static int same_dirs(int n, char **dirs, char *err, size_t errlen)
{
	struct stat a, b;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (stat(dirs[i], &a) == 0 && stat(dirs[j], &b) == 0 && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino) {
				snprintf(err, errlen, "'%s' and '%s' are one merge: a history counts each "
					 "run once", dirs[j], dirs[i]);
				return -1;
			}
	return 0;
}

int trend_main(int argc, char **argv)
{
	struct trend t = { 0 };
	struct fout o = { 0 }, v = { 0 };
	char err[4608], text[1024], head[32], size[32];
	long tested = 0;
	int rc = 3, curves, at;

	if (argc < 2)
		return text_error(2, "collect: error: --trend takes an output directory and merged "
			"directories: collect --trend OUTDIR DIR...\n");
	if (same_dirs(argc - 1, argv + 1, err, sizeof(err)) != 0)
		return text_error(2, "collect: error: trend: %s\n", err);
	if (outset_dir(argv[0]) != 0)
		return 3;
	order_runs(argc - 1, argv + 1);
	t.ncamp = argc - 1;
	t.campaign = calloc((size_t)t.ncamp, sizeof(*t.campaign));
	t.when = calloc((size_t)t.ncamp, sizeof(*t.when));
	strbuf_init(&o.b), strbuf_init(&v.b);
	if (!t.campaign || !t.when)
		snprintf(err, sizeof(err), "out of memory");
	else if (load(&t, argv + 1, err, sizeof(err)) == 0 && write_csv(argv[0], &t, err, sizeof(err)) == 0 &&
		 write_dat(argv[0], &t, err, sizeof(err)) == 0) {
		curves = analyse(&o, &t, &tested);
		snprintf(head, sizeof(head), curves ? "%d curve%s changed" : "No change", curves, curves == 1 ? "" : "s");
		format_bytes(size, sizeof(size), (long)t.spike.bytes);
		at = snprintf(text, sizeof(text), "%s beyond the noise over %d runs (%ld series of 5 runs or more tested%s)",
			      head, t.ncamp, tested, curves ? "; each curve's largest change below" : "");
		if (t.spikes)
			at += snprintf(text + at, sizeof(text) - (size_t)at, "; %ld row%s whose average one slow call doubled, "
				       "counted as its median (a spike, not a change): the most a call of %.3g s (its average "
				       "%.1fx) at %s per peer on %s nodes (%s, commsize %ld), in the run of %.10s (%s)", t.spikes,
				       t.spikes == 1 ? "" : "s", t.spike.call, t.spike.factor, size, t.spike.curve.nodes,
				       t.spike.curve.mode, t.spike.curve.commsize, t.when[t.spike.run], t.campaign[t.spike.run]);
		snprintf(text + at, sizeof(text) - (size_t)at, ".");
		find_emit(&v, FK_verdict, curves ? "warning" : "info", text, NULL, 0, "runs", (double)t.ncamp, "series_tested",
			  (double)tested, "curves_changed", (double)curves, "spikes", (double)t.spikes, NULL);
		rc = find_write(argv[0], &v, &o, err, sizeof(err)) == 0 ? 0 : 3;
	}
	if (rc != 0)
		text_error(0, "collect: error: trend: %s\n", err);
	for (long i = 0; i < t.n; i++)
		free(t.s[i].v);
	free(t.s), free(t.campaign), free(t.when);
	fout_release(&o), fout_release(&v);
	return rc;
}
