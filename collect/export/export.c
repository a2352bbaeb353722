/* export.c: see export.h. */
#define _GNU_SOURCE   /* strptime, timegm */
#include "export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "merge/table.h"
#include "text.h"

/* The row metrics: name, help, the column, its scale to base units. */
static const struct family {
	const char *name, *help, *column;
	double scale;
} rows[] = {
	{ "aller_tavg_seconds", "mean time of one all-to-all call", "tavg_s", 1 },
	{ "aller_tmed_seconds", "median time of one call", "tmed_s", 1 },
	{ "aller_tmed_ci_low_seconds", "95% confidence interval of the median, low end", "tmed_lo_s", 1 },
	{ "aller_tmed_ci_high_seconds", "95% confidence interval of the median, high end", "tmed_hi_s", 1 },
	{ "aller_busbw_bytes_per_second", "bus bandwidth (nccl-tests' definition)", "busbw_GBs", 1e9 },
	{ "aller_netbw_bytes_per_second", "the busiest node's off-node bytes per call over tavg", "netbw_GBs", 1e9 },
	{ "aller_eff_ratio", "the node nearest its limit: bandwidth over the line rate (or copy bandwidth)", "eff", 1 },
	{ "aller_congestion_ratio", "tavg with the aggressors busy over idle (--congestion)", "congestion", 1 },
	{ "aller_interference_ratio", "communicator 0's tavg together over alone (--isolate)", "interference", 1 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

enum { P_POINT, P_CAMPAIGN, P_MODE, P_NODES, P_TPN, P_STATE, P_KEY, P_VARIANT, P_N };
static const char *const index_cols[P_N] = { "point", "campaign", "mode", "nodes", "tasks_per_node",
					     "state", "key", "variant" };
enum { R_POINT, R_ALGO, R_SPLIT, R_COMMSIZE, R_BYTES, R_N };
static const char *const row_cols[R_N] = { "point", "algo", "split", "commsize", "bytes_per_peer" };

struct xpoint {
	char campaign[128], key[320], nodes[16], mode[32], tpn[16], state[32], variant[128];
	double start;   /* its '# start:' (facts.tsv), seconds since the epoch; NAN without */
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

static void point_labels(FILE *o, const struct xpoint *p)
{
	label(o, "campaign", p->campaign, 1);
	label(o, "point", p->key, 0);
	label(o, "nodes", p->nodes, 0);
	label(o, "mode", p->mode, 0);
	label(o, "variant", p->variant, 0);
}

/* Each point's '# start:' (ISO-8601 UTC, facts.tsv) in seconds since the epoch; NAN without. */
static void starts(const char *dir, struct xpoint *pts, long np)
{
	char **when = calloc((size_t)np + 1, sizeof(*when));
	struct tm tm;

	for (long i = 0; i < np; i++)
		pts[i].start = NAN;
	if (when)
		table_point_facts(dir, "start", when, np);   /* none without facts.tsv */
	for (long i = 0; when && i < np; i++) {
		memset(&tm, 0, sizeof(tm));
		if (when[i] && strptime(when[i], "%Y-%m-%dT%H:%M:%SZ", &tm))
			pts[i].start = (double)timegm(&tm);
		free(when[i]);
	}
	free(when);
}

/*
 * A point that ran with aller's test hooks set (facts.tsv's test_hooks) is
 * a test, not a measurement: left out (its key emptied), as a point without
 * one is.
 */
static void leave_out_tests(const char *dir, struct xpoint *pts, long np)
{
	char **hooks = calloc((size_t)np + 1, sizeof(*hooks));

	if (hooks)
		table_point_facts(dir, ALLER_KEY_TEST_HOOKS, hooks, np);
	for (long i = 0; hooks && i < np; i++) {
		if (hooks[i])
			pts[i].key[0] = '\0';
		free(hooks[i]);
	}
	free(hooks);
}

/* DIR's points-index.csv; the count, or -1. */
static long read_points(const char *dir, struct xpoint **out)
{
	char line[8192], *f[TABLE_FIELDS];
	int at[P_N];
	long n = 0, cap = 0;
	struct xpoint *pts = NULL;
	FILE *in = table_open(dir, "points-index.csv", line, sizeof(line), index_cols, at, P_N);

	if (!in)
		return -1;
	while (fgets(line, sizeof(line), in)) {
		int k = table_split(line, f, TABLE_FIELDS);
		struct xpoint *p;
		long id = table_long(f, k, at[P_POINT]);
		if (id < 0 || id > 100000000)
			continue;
		if (id >= cap) {
			long ncap = id + 1 > 2 * cap ? id + 1 : 2 * cap;
			struct xpoint *g = realloc(pts, sizeof(*pts) * (size_t)ncap);
			if (!g)
				break;
			memset(g + cap, 0, sizeof(*g) * (size_t)(ncap - cap));
			pts = g;
			cap = ncap;
		}
		p = &pts[id];
		n = id + 1 > n ? id + 1 : n;
		table_copy(p->campaign, sizeof(p->campaign), f, k, at[P_CAMPAIGN]);
		table_copy(p->mode, sizeof(p->mode), f, k, at[P_MODE]);
		table_copy(p->nodes, sizeof(p->nodes), f, k, at[P_NODES]);
		table_copy(p->tpn, sizeof(p->tpn), f, k, at[P_TPN]);
		table_copy(p->state, sizeof(p->state), f, k, at[P_STATE]);
		table_copy(p->variant, sizeof(p->variant), f, k, at[P_VARIANT]);
		table_copy(p->key, sizeof(p->key), f, k, at[P_KEY]);
	}
	fclose(in);
	starts(dir, pts, n);
	leave_out_tests(dir, pts, n);
	*out = pts;
	return n;
}

/* One row metric over one merged DIR's points.csv; -1 when unreadable. */
static int row_family(FILE *o, const char *dir, const struct family *fam,
		      const struct xpoint *pts, long np)
{
	const char *want[R_N + 1];
	char line[8192], *f[TABLE_FIELDS], algo[64], split[128], commsize[32], bytes[32];
	int at[R_N + 1];
	FILE *in;

	memcpy(want, row_cols, sizeof(row_cols));
	want[R_N] = fam->column;
	if (!(in = table_open(dir, "points.csv", line, sizeof(line), want, at, R_N + 1)))
		return -1;
	while (fgets(line, sizeof(line), in)) {
		int k = table_split(line, f, TABLE_FIELDS);
		long id = table_long(f, k, at[R_POINT]);
		double v = table_num(f, k, at[R_N]);
		if (!isfinite(v) || id < 0 || id >= np || !pts[id].key[0])
			continue;
		table_copy(algo, sizeof(algo), f, k, at[R_ALGO]);
		table_copy(split, sizeof(split), f, k, at[R_SPLIT]);
		table_copy(commsize, sizeof(commsize), f, k, at[R_COMMSIZE]);
		table_copy(bytes, sizeof(bytes), f, k, at[R_BYTES]);
		fprintf(o, "%s{", fam->name);
		point_labels(o, &pts[id]);
		label(o, "algo", algo, 0);
		label(o, "split", split, 0);
		label(o, "commsize", commsize, 0);
		label(o, "bytes", bytes, 0);
		fprintf(o, "} %.6g\n", v * fam->scale);
	}
	fclose(in);
	return 0;
}

/* The points' families: their state (1 per point, the state a label) and their start. */
static void point_families(FILE *o, int which, const struct xpoint *pts, long np)
{
	for (long i = 0; i < np; i++) {
		double t;
		if (!pts[i].key[0])
			continue;
		if (which == 0) {
			fputs("aller_point_state{", o);
			point_labels(o, &pts[i]);
			label(o, "tasks_per_node", pts[i].tpn, 0);
			label(o, "state", pts[i].state, 0);
			fputs("} 1\n", o);
		} else if (isfinite(t = pts[i].start)) {
			fputs("aller_point_start_timestamp_seconds{", o);
			point_labels(o, &pts[i]);
			fprintf(o, "} %.0f\n", t);
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
static int same_points(int n, char **dirs, struct xpoint **pts, const long *np)
{
	for (int d = 1; d < n; d++)
		for (int e = 0; e < d; e++)
			for (long i = 0; i < np[d]; i++)
				for (long k = 0; k < np[e]; k++)
					if (strcmp(pts[d][i].campaign, pts[e][k].campaign) == 0 &&
					    strcmp(pts[d][i].key, pts[e][k].key) == 0) {
						fprintf(stderr, "collect: error: '%s' and '%s' both hold "
							"point '%s' of campaign '%s': its series would be "
							"exported twice; give each merge once\n", dirs[e],
							dirs[d], pts[d][i].key, pts[d][i].campaign);
						return -1;
					}
	return 0;
}

int export_main(int argc, char **argv)
{
	struct xpoint *pts[argc > 0 ? argc : 1];
	long np[argc > 0 ? argc : 1];
	int rc = 0;

	if (argc < 1) {
		fprintf(stderr, "collect: error: --openmetrics takes merged directories: collect "
			"--openmetrics DIR...\n");
		return 2;
	}
	for (int d = 0; d < argc; d++)
		if ((np[d] = read_points(argv[d], &pts[d])) < 0) {
			fprintf(stderr, "collect: error: cannot read '%s/points-index.csv'\n", argv[d]);
			for (int k = 0; k < d; k++)
				free(pts[k]);
			return 3;
		}
	if (same_points(argc, argv, pts, np) != 0) {
		for (int d = 0; d < argc; d++)
			free(pts[d]);
		return 2;
	}
	for (size_t i = 0; i < NROWS && rc == 0; i++) {
		printf("# HELP %s %s\n# TYPE %s gauge\n", rows[i].name, rows[i].help, rows[i].name);
		for (int d = 0; d < argc && rc == 0; d++)
			if (row_family(stdout, argv[d], &rows[i], pts[d], np[d]) != 0) {
				fprintf(stderr, "collect: error: cannot read '%s/points.csv'\n", argv[d]);
				rc = 3;
			}
	}
	for (int w = 0; w < 2 && rc == 0; w++) {
		printf("# HELP %s %s\n# TYPE %s gauge\n", point_help[w][0], point_help[w][1], point_help[w][0]);
		for (int d = 0; d < argc; d++)
			point_families(stdout, w, pts[d], np[d]);
	}
	if (rc == 0) {
		printf("# HELP aller_slow_links slow links named by the campaign's --pairs outputs\n"
		       "# TYPE aller_slow_links gauge\n");
		for (int d = 0; d < argc; d++) {
			fputs("aller_slow_links{", stdout);
			label(stdout, "campaign", np[d] > 0 && pts[d][0].campaign[0] ? pts[d][0].campaign : argv[d], 1);
			printf("} %ld\n", table_slow_links(argv[d], NULL, NULL));
		}
	}
	for (int d = 0; d < argc; d++)
		free(pts[d]);
	return rc;
}
