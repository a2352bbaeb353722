/* export.c: see export.h. */
#define _GNU_SOURCE   /* strptime, timegm */
#include "export.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "model/campaign.h"
#include "model/health.h"
#include "text.h"

/* The row metrics: name, help, the column (a field of the model's row), its scale to base units. */
#define COLUMN(name) offsetof(struct mrow, name)
static const struct family {
	const char *name, *help;
	size_t column;
	double scale;
} rows[] = {
	{ "aller_tavg_seconds", "mean time of one all-to-all call", COLUMN(TAVG), 1 },
	{ "aller_tmed_seconds", "median time of one call", COLUMN(TMED), 1 },
	{ "aller_tmed_ci_low_seconds", "95% confidence interval of the median, low end", COLUMN(TMED_LO), 1 },
	{ "aller_tmed_ci_high_seconds", "95% confidence interval of the median, high end", COLUMN(TMED_HI), 1 },
	{ "aller_busbw_bytes_per_second", "bus bandwidth (nccl-tests' definition)", COLUMN(BUSBW), 1e9 },
	{ "aller_netbw_bytes_per_second", "the busiest node's off-node bytes per call over tavg", COLUMN(NETBW), 1e9 },
	{ "aller_eff_ratio", "the node nearest its limit: bandwidth over the line rate (or copy bandwidth)", COLUMN(EFF), 1 },
	{ "aller_eff_bound_ratio", "the row's share of what the fabric allows it: bound_s over tmed_s", COLUMN(eff_bound), 1 },
	{ "aller_congestion_ratio", "tavg with the aggressors busy over idle (--congestion)", COLUMN(CONGESTION), 1 },
	{ "aller_interference_ratio", "communicator 0's tavg together over alone (--isolate)", COLUMN(INTERF), 1 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

/*
 * A merge's points as exported: each one's start ('# start:', seconds since
 * the epoch; NAN without) and whether it is left out: a point that ran with
 * aller's test hooks set (facts.tsv's test_hooks) is a test, not a
 * measurement, as a simulated one (aller-simulate's) and a point without a key are none.
 */
struct xside {
	struct campaign c;
	double *start;
	char *out;
};

/* A label value: valid UTF-8 (common/text.h); backslash, quote and newline escaped. */
static void label(FILE *o, const char *name, const char *value, int first)
{
	struct strbuf b;
	const char *v;

	strbuf_init(&b);
	text_add_utf8(&b, value);
	fprintf(o, "%s%s=\"", first ? "" : ",", name);
	for (v = b.s && !b.failed ? b.s : ""; *v; v++)
		if (*v == '\\' || *v == '"')
			fprintf(o, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", o);
		else
			fputc(*v, o);
	fputc('"', o);
	strbuf_release(&b);
}

static void point_labels(FILE *o, const struct mpoint *p)
{
	char nodes[24];

	snprintf(nodes, sizeof(nodes), "%ld", p->nodes);
	label(o, "campaign", p->campaign, 1);
	label(o, "point", p->key, 0);
	label(o, "nodes", nodes, 0);
	label(o, "mode", p->mode, 0);
	label(o, "variant", p->variant, 0);
}

/* DIR's points and what is exported of them; 0, or -1. */
static int read_side(struct xside *x, const char *dir)
{
	char err[4608];
	struct tm tm;

	if (campaign_load(&x->c, dir, CAMPAIGN_POINTS | CAMPAIGN_PAIRS, err, sizeof(err)) != 0)
		return -1;
	x->start = malloc(sizeof(*x->start) * (size_t)(x->c.np + 1));
	x->out = calloc((size_t)x->c.np + 1, 1);
	for (long i = 0; x->start && x->out && i < x->c.np; i++) {
		const struct mpoint *p = &x->c.pts[i];
		const char *when = campaign_fact(p, "start");
		memset(&tm, 0, sizeof(tm));
		x->start[i] = when && strptime(when, "%Y-%m-%dT%H:%M:%SZ", &tm) ? (double)timegm(&tm) : NAN;
		x->out[i] = !p->key[0] || p->point < 0 || campaign_fact(p, ALLER_KEY_TEST_HOOKS) ||
			    campaign_fact(p, ALLER_KEY_SIMULATED) || campaign_point(&x->c, p->point) != p;   /* a number given twice: the first */
	}
	return x->start && x->out ? 0 : -1;
}

static void release_side(struct xside *x)
{
	campaign_release(&x->c);
	free(x->start);
	free(x->out);
}

/* One row metric over one merge's rows. */
struct family_rows {
	FILE *o;
	const struct xside *x;
	const struct family *fam;
};

static int family_row(void *ctx, const struct mrow *r)
{
	const struct family_rows *f = ctx;
	const struct mpoint *p = campaign_point(&f->x->c, r->point);
	double v = *(const double *)((const char *)r + f->fam->column);
	char commsize[24], bytes[32];

	if (!isfinite(v) || !p || f->x->out[p - f->x->c.pts])
		return 0;
	snprintf(commsize, sizeof(commsize), "%ld", r->COMMSIZE);
	snprintf(bytes, sizeof(bytes), "%.0f", r->bytes);
	fprintf(f->o, "%s{", f->fam->name);
	point_labels(f->o, p);
	label(f->o, "algo", r->algo, 0);
	label(f->o, "split", r->split, 0);
	label(f->o, "commsize", commsize, 0);
	label(f->o, "bytes", bytes, 0);
	fprintf(f->o, "} %.6g\n", v * f->fam->scale);
	return 0;
}

/* The points' families: their state (1 per point, the state a label) and their start. */
static void point_families(FILE *o, int which, const struct xside *x)
{
	for (long i = 0; i < x->c.np; i++) {
		const struct mpoint *p = &x->c.pts[i];
		if (x->out[i])
			continue;
		if (which == 0) {
			fputs("aller_point_state{", o);
			point_labels(o, p);
			label(o, "tasks_per_node", p->tasks_per_node, 0);
			label(o, "state", p->state, 0);
			fputs("} 1\n", o);
		} else if (isfinite(x->start[i])) {
			fputs("aller_point_start_timestamp_seconds{", o);
			point_labels(o, p);
			fprintf(o, "} %.0f\n", x->start[i]);
		}
	}
}

static const char *const point_help[2][2] = {
	{ "aller_point_state", "a point and its state (complete, incomplete, failed) as a label" },
	{ "aller_point_start_timestamp_seconds", "when the point's run started (its output's start)" },
};

/*
 * Two merges that hold one point (campaign and key) would export the same
 * series twice, which Prometheus and node_exporter reject: 0, or -1 naming
 * the first such point and both merges.
 */
static int same_points(int n, char **dirs, const struct xside *x)
{
	for (int d = 1; d < n; d++)
		for (int e = 0; e < d; e++)
			for (long i = 0; i < x[d].c.np; i++)
				for (long k = 0; k < x[e].c.np; k++) {
					const struct mpoint *p = &x[d].c.pts[i], *q = &x[e].c.pts[k];
					if (!x[d].out[i] && !x[e].out[k] && strcmp(p->campaign, q->campaign) == 0 &&
					    strcmp(p->key, q->key) == 0) {
						return text_error(-1, "collect: error: '%s' and '%s' both hold "
							"point '%s' of campaign '%s': its series would be "
							"exported twice; give each merge once\n", dirs[e],
							dirs[d], p->key, p->campaign);
					}
				}
	return 0;
}

/* The campaign's health (model/health.h) from one merge's rows, its points left out skipped. */
struct health_rows {
	const struct xside *x;
	struct health h;
};

static int health_of_row(void *ctx, const struct mrow *r)
{
	struct health_rows *hr = ctx;
	const struct mpoint *p = campaign_point(&hr->x->c, r->point);

	if (p && !hr->x->out[p - hr->x->c.pts])
		health_row(&hr->h, r);
	return 0;
}

/*
 * Per merge, its campaign's gauges: the slow links its --pairs outputs
 * named, the share of the bound its network-bound rows reach (weakest and
 * strongest; none where no row is), the points that needed a retry. 0, or
 * 3 where points.csv cannot be read.
 */
static int campaign_families(int n, char **dirs, const struct xside *x)
{
	static const char *const help[3][2] = {
		{ "aller_slow_links", "slow links named by the campaign's --pairs outputs" },
		{ "aller_fabric_bound_ratio", "the share of what the fabric allows that the campaign's "
		  "network-bound rows reach, each curve's largest size (its verdict's first line)" },
		{ "aller_points_retried", "the campaign's points whose job needed a retry" },
	};
	char err[4400];

	for (int w = 0; w < 3; w++) {
		printf("# HELP %s %s\n# TYPE %s gauge\n", help[w][0], help[w][1], help[w][0]);
		for (int d = 0; d < n; d++) {
			const struct mpoint *first = campaign_point(&x[d].c, 0);
			const char *name = first && first->campaign[0] ? first->campaign : dirs[d];
			struct health_rows hr = { &x[d], { 0 } };
			long retried = 0;
			if (w == 1) {
				health_init(&hr.h);
				if (campaign_rows(&x[d].c, health_of_row, &hr, err, sizeof(err)) != 0)
					return text_error(3, "collect: error: %s\n", err);
				health_end(&hr.h);
				for (int k = 0; k < 2 && hr.h.rows > 0; k++) {
					fputs("aller_fabric_bound_ratio{", stdout);
					label(stdout, "campaign", name, 1);
					label(stdout, "of", k ? "strongest" : "weakest", 0);
					printf("} %.6g\n", k ? hr.h.hi : hr.h.lo);
				}
				continue;
			}
			for (long i = 0; w == 2 && i < x[d].c.np; i++)
				retried += !x[d].out[i] && campaign_fact(&x[d].c.pts[i], MERGED_FACT_RETRIED) != NULL;
			printf("%s{", help[w][0]);
			label(stdout, "campaign", name, 1);
			printf("} %ld\n", w ? retried : campaign_slow_links(&x[d].c, NULL, NULL));
		}
	}
	return 0;
}

int export_main(int argc, char **argv)
{
	struct xside *x = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*x));
	char err[4400];
	int rc = 0, d = 0;

	if (argc < 1) {
		text_error(0, "collect: error: --openmetrics takes merged directories: collect "
			"--openmetrics DIR...\n");
		free(x);
		return 2;
	}
	for (; x && d < argc && rc == 0; d++)
		if (read_side(&x[d], argv[d]) != 0)
			rc = text_error(3, "collect: error: cannot read '%s/points-index.csv'\n", argv[d]);
	if (!x || (rc == 0 && same_points(argc, argv, x) != 0))
		rc = x ? 2 : 3;
	for (size_t i = 0; i < NROWS && rc == 0; i++) {
		printf("# HELP %s %s\n# TYPE %s gauge\n", rows[i].name, rows[i].help, rows[i].name);
		for (d = 0; d < argc && rc == 0; d++)
			if (campaign_rows(&x[d].c, family_row, &(struct family_rows){ stdout, &x[d], &rows[i] }, err,
					  sizeof(err)) != 0)
				rc = text_error(3, "collect: error: %s\n", err);
	}
	for (int w = 0; w < 2 && rc == 0; w++) {
		printf("# HELP %s %s\n# TYPE %s gauge\n", point_help[w][0], point_help[w][1], point_help[w][0]);
		for (d = 0; d < argc; d++)
			point_families(stdout, w, &x[d]);
	}
	if (rc == 0)
		rc = campaign_families(argc, argv, x);
	for (d = 0; x && d < argc; d++)
		release_side(&x[d]);
	free(x);
	return rc;
}
