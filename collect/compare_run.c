/*
 * compare_run.c: collect --compare: both sides read through groups.c, their
 * measurements matched by identity, the table on stdout and in DIR the
 * files compare.txt (the same), compare.csv, compare.dat (the ratios as
 * data sets for the plots, columns by name) and sets.tsv (their index).
 */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "dirs.h"
#include "format.h"
#include "groups.h"
#include "merged.h"
#include "point.h"

/* One measurement: a row of a winning point, its keys and timings. */
struct meas {
	const struct point *pt;
	long nodes, comms, commsize, bytes;
	double tmin, tavg, tmax, tmed;   /* tmed: NaN before format 2 */
};

#define SETTING_VALUES 8   /* distinct values of a setting kept per side */
#define NSETTINGS (PS_NSETTINGS + 3)

struct side {
	const char *arg;
	struct filelist files;
	struct summary s;
	struct groups gs;
	struct meas *m;
	long n, cap;
	const char *values[NSETTINGS][SETTING_VALUES];
	int nvalues[NSETTINGS], many[NSETTINGS];
	const char *campaign;   /* the one campaign, or NULL */
	int campaigns;          /* distinct campaigns */
	int oom;
};

static const char *setting_name(int i)
{
	static const char *const own[3] = { ALLER_KEY_MPI, ALLER_KEY_BUFFERS, ALLER_KEY_TPN };
	return i < 3 ? own[i] : point_setting_names[i - 3];
}

static const char *setting_value(const struct point *pt, int i)
{
	const char *v = i == 0 ? pt->mpi : i == 1 ? pt->buffers : i == 2 ? pt->tpn
			 : pt->setting[i - 3];
	return v ? v : "";
}

static void note_settings(struct side *sd, const struct point *pt)
{
	for (int i = 0; i < NSETTINGS; i++) {
		const char *v = setting_value(pt, i);
		int k = 0;
		while (k < sd->nvalues[i] && strcmp(sd->values[i][k], v) != 0)
			k++;
		if (k < sd->nvalues[i])
			continue;
		if (k == SETTING_VALUES)
			sd->many[i] = 1;
		else
			sd->values[i][sd->nvalues[i]++] = v;
	}
	if (sd->campaigns == 0 || point_strcmp(sd->campaign, pt->campaign) != 0) {
		sd->campaigns += sd->campaigns == 0 || sd->campaign != NULL;
		sd->campaign = sd->campaigns == 1 ? pt->campaign : NULL;
	}
}

static double number(const char *text, const struct crow *r, int c)
{
	char buf[64];
	size_t n = r->len[c] < sizeof(buf) - 1 ? r->len[c] : sizeof(buf) - 1;

	if (c >= r->ncols)
		return NAN;
	memcpy(buf, text + r->off[c], n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

/* groups_each's callback: the winners' rows of a group. */
static long take_group(void *ctx, const struct group *g)
{
	struct side *sd = ctx;
	long taken = 0;

	for (int p = 0; p < g->n; p++) {
		const struct point *pt = g->pts[p];
		if (pt->superseded || pt->nrows == 0)
			continue;
		note_settings(sd, pt);
		for (long i = pt->first_row; i < pt->first_row + pt->nrows; i++) {
			const struct crow *r = &g->rows.rows[i];
			const char *text = rows_text(&g->rows, r);
			struct meas *m;
			if (sd->n == sd->cap) {
				long cap = sd->cap ? 2 * sd->cap : 1024;
				struct meas *a = realloc(sd->m, sizeof(*a) * (size_t)cap);
				if (!a)
					return -1;
				sd->m = a;
				sd->cap = cap;
			}
			m = &sd->m[sd->n++];
			m->pt = pt;
			m->nodes = pt->nodes;
			m->comms = r->comms;
			m->commsize = r->commsize;
			m->bytes = r->count * (long)sizeof(long);
			m->tmin = number(text, r, ALLER_COL_TMIN);
			m->tavg = number(text, r, ALLER_COL_TAVG);
			m->tmax = number(text, r, ALLER_COL_TMAX);
			m->tmed = number(text, r, ALLER_COL_TMED);
			taken++;
		}
	}
	return taken;
}

static int cmp_num(long a, long b)
{
	return (a > b) - (a < b);
}

/* The identity of a measurement's point, then of the measurement. */
static int cmp_point_key(const struct meas *a, const struct meas *b)
{
	int c;

	if ((c = point_strcmp(a->pt->mode, b->pt->mode)) ||
	    (c = point_strcmp(a->pt->variant, b->pt->variant)) ||
	    (c = point_strcmp(a->pt->tpn, b->pt->tpn)) ||
	    (c = cmp_num(!!a->pt->reveal, !!b->pt->reveal)) || (c = cmp_num(a->nodes, b->nodes)))
		return c;
	return 0;
}

static int cmp_set_key(const struct meas *a, const struct meas *b)
{
	int c;

	if ((c = cmp_point_key(a, b)) || (c = cmp_num(a->commsize, b->commsize)) ||
	    (c = cmp_num(a->comms, b->comms)))
		return c;
	return 0;
}

static int cmp_meas(const void *x, const void *y)
{
	const struct meas *a = x, *b = y;
	int c = cmp_set_key(a, b);

	return c ? c : cmp_num(a->bytes, b->bytes);
}

static void warn_stderr(void *ctx, const char *path, long line, const char *msg)
{
	(void)ctx;
	(void)path;
	(void)line;
	(void)msg;   /* damaged inputs are the merge's to report; compare takes what reads */
}

/* A campaign directory stands for its raw outputs. */
static const char *inputs_of(const char *arg, char *buf, size_t len)
{
	struct stat st;

	snprintf(buf, len, "%s/raw", arg);
	return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? buf : arg;
}

/* Reads one side; 0, or an exit status with the message said. */
static int load_side(struct side *sd, const char *which)
{
	char err[4608], path[4096];

	if (input_add(&sd->files, inputs_of(sd->arg, path, sizeof(path)), err, sizeof(err)) != 0) {
		fprintf(stderr, "collect: error: %s %s\n", which, err);
		return 2;
	}
	if (sd->files.n == 0) {
		fprintf(stderr, "collect: error: %s '%s' has no job outputs\n", which, sd->arg);
		return 2;
	}
	groups_init(&sd->gs, &sd->s, warn_stderr, NULL);
	if (groups_read(&sd->gs, &sd->files) != 0 || groups_each(&sd->gs, take_group, sd) != 0) {
		fprintf(stderr, "collect: error: out of memory\n");
		return 3;
	}
	qsort(sd->m, (size_t)sd->n, sizeof(*sd->m), cmp_meas);
	return 0;
}

static void side_release(struct side *sd)
{
	groups_release(&sd->gs);
	filelist_release(&sd->files);
	free(sd->m);
}

/* A matched pair, or one side's measurement alone (the other NULL). */
struct pair {
	const struct meas *b, *n;
	double tol, ratio, med_ratio;
	enum verdict v;
};

struct cmp {
	const struct tolerance *tol;
	const char *tol_spec;
	struct side base, new;
	struct pair *pairs;
	long npairs;
	long count[4], matched, only[2], dups[2];
	FILE *txt, *csv, *dat, *idx;   /* in DIR, or NULL */
};

/* Whether measurement i of a side has the identity of the one before it. */
static int repeated(const struct side *sd, long i)
{
	return i > 0 && i < sd->n && cmp_meas(&sd->m[i - 1], &sd->m[i]) == 0;
}

/*
 * Matches the two sorted sides; a second measurement of one identity on a
 * side (two campaigns' points alike, say) is counted and left out. 0, or
 * -1 (out of memory).
 */
static int join(struct cmp *c)
{
	long i = 0, j = 0;

	c->pairs = calloc((size_t)(c->base.n + c->new.n + 1), sizeof(*c->pairs));
	if (!c->pairs)
		return -1;
	while (i < c->base.n || j < c->new.n) {
		struct pair *p;
		int k;
		if (repeated(&c->base, i) || repeated(&c->new, j)) {
			c->dups[repeated(&c->base, i) ? 0 : 1]++;
			repeated(&c->base, i) ? i++ : j++;
			continue;
		}
		p = &c->pairs[c->npairs++];
		k = i == c->base.n ? 1 : j == c->new.n ? -1 : cmp_meas(&c->base.m[i], &c->new.m[j]);
		if (k <= 0)
			p->b = &c->base.m[i++];
		if (k >= 0)
			p->n = &c->new.m[j++];
		if (!p->b || !p->n) {
			c->only[p->b ? 0 : 1]++;
			continue;
		}
		p->tol = tolerance_at(c->tol, p->b->bytes);
		p->ratio = p->n->tavg / p->b->tavg;
		p->med_ratio = p->n->tmed / p->b->tmed;
		p->v = compare_verdict(p->tol, p->b->tavg, p->b->tmin, p->b->tmax, p->n->tavg,
				       p->n->tmin, p->n->tmax);
		c->count[p->v]++;
		c->matched++;
	}
	return 0;
}

/* To stdout and compare.txt. */
static void say(const struct cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(const struct cmp *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (c->txt) {
		va_start(ap, fmt);
		vfprintf(c->txt, fmt, ap);
		va_end(ap);
	}
}

static const char *str(const char *s)
{
	return s && *s ? s : "-";
}

static const char *side_name(const struct side *sd)
{
	return sd->campaign ? sd->campaign : sd->arg;
}

static void values(char *buf, size_t len, const struct side *sd, int i)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int k = 0; k < sd->nvalues[i] && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s'%s'", k ? ", " : "", sd->values[i][k]);
	if (sd->many[i] && at < len)
		snprintf(buf + at, len - at, ", ...");
}

/* Whether a setting's values differ between the sides. */
static int differs(const struct side *a, const struct side *b, int i)
{
	if (a->nvalues[i] != b->nvalues[i] || a->many[i] || b->many[i])
		return 1;
	for (int k = 0; k < a->nvalues[i]; k++) {
		int found = 0;
		for (int l = 0; l < b->nvalues[i]; l++)
			found |= strcmp(a->values[i][k], b->values[i][l]) == 0;
		if (!found)
			return 1;
	}
	return 0;
}

static void head(const struct cmp *c)
{
	char a[2048], b[2048];
	int shown = 0;

	say(c, "# aller compare: BASE '%s' (%s) vs NEW '%s' (%s)\n", side_name(&c->base),
	    c->base.arg, side_name(&c->new), c->new.arg);
	say(c, "# tolerance: %s\n", c->tol_spec);
	say(c, "# rule: same when |NEW/BASE - 1| <= the tolerance of the size; noise when outside "
	    "it but each side's tavg lies inside the other's [tmin, tmax]; else faster or slower; "
	    "ratio = tavg NEW / BASE, tmed likewise\n");
	for (int i = 0; i < NSETTINGS; i++) {
		if (!differs(&c->base, &c->new, i))
			continue;
		values(a, sizeof(a), &c->base, i);
		values(b, sizeof(b), &c->new, i);
		say(c, "# setting that differs: %s: BASE %s | NEW %s\n", setting_name(i), a, b);
		shown++;
	}
	if (!shown)
		say(c, "# settings: the same on both sides\n");
	say(c, "%-11s %-10s %4s %5s %5s %8s %10s %11s %11s %7s %7s %5s %s\n", "mode", "variant",
	    "tpn", "nodes", "comms", "commsize", "per_peer", "tavg_base", "tavg_new", "ratio",
	    "tmed", "tol", "verdict");
}

static void table_row(const struct cmp *c, const struct pair *p)
{
	char size[32];
	char med[16] = "-";

	if (isfinite(p->med_ratio))
		snprintf(med, sizeof(med), "%.3f", p->med_ratio);
	format_bytes(size, sizeof(size), p->b->bytes);
	say(c, "%-11s %-10s %4s %5ld %5ld %8ld %10s %11.4e %11.4e %7.3f %7s %4.0f%% %s\n",
	    str(p->b->pt->mode), str(p->b->pt->variant), str(p->b->pt->tpn), p->b->nodes,
	    p->b->comms, p->b->commsize, size, p->b->tavg, p->n->tavg, p->ratio, med,
	    100 * p->tol, verdict_names[p->v]);
}

/* Points of one side only, one line per point (mode, variant, tasks per node, nodes). */
static void missing_lines(const struct cmp *c)
{
	const struct pair *first = NULL;
	long rows = 0;

	for (long i = 0; i <= c->npairs; i++) {
		const struct pair *p = i < c->npairs ? &c->pairs[i] : NULL;
		const struct meas *m, *f;
		if (p && p->b && p->n)
			continue;
		m = p ? (p->b ? p->b : p->n) : NULL;
		f = first ? (first->b ? first->b : first->n) : NULL;
		if (p && first && !p->b == !first->b && cmp_point_key(m, f) == 0) {
			rows++;
			continue;
		}
		if (first)
			say(c, "# only in %s: %s, variant %s, %s tasks per node, %ld nodes%s (%ld rows)\n",
			    first->b ? "BASE" : "NEW", str(f->pt->mode), str(f->pt->variant),
			    str(f->pt->tpn), f->nodes, f->pt->reveal ? ", instrumented" : "", rows);
		first = p;
		rows = 1;
	}
}

static void csv_num(FILE *f, double v, int last)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	fputc(last ? '\n' : ',', f);
}

static void csv_row(FILE *f, const struct pair *p)
{
	const struct meas *m = p->b ? p->b : p->n;
	int both = p->b && p->n;

	fprintf(f, "%s,%s,%s,%s,%ld,%ld,%ld,%ld,", str(m->pt->mode), str(m->pt->variant),
		str(m->pt->tpn), m->pt->reveal ? "yes" : "no", m->nodes, m->comms, m->commsize,
		m->bytes);
	csv_num(f, both ? p->tol : NAN, 0);
	csv_num(f, p->b ? p->b->tavg : NAN, 0);
	csv_num(f, p->n ? p->n->tavg : NAN, 0);
	csv_num(f, both ? p->ratio : NAN, 0);
	csv_num(f, p->b ? p->b->tmed : NAN, 0);
	csv_num(f, p->n ? p->n->tmed : NAN, 0);
	csv_num(f, both ? p->med_ratio : NAN, 0);
	csv_num(f, p->b ? p->b->tmin : NAN, 0);
	csv_num(f, p->b ? p->b->tmax : NAN, 0);
	csv_num(f, p->n ? p->n->tmin : NAN, 0);
	csv_num(f, p->n ? p->n->tmax : NAN, 0);
	fprintf(f, "%s\n", both ? verdict_names[p->v] : p->b ? "only_base" : "only_new");
}

#define DAT_COLUMNS "bytes_per_peer ratio tmed_ratio band_low band_high tavg_base tavg_new"

/* The matched pairs as data sets per (point, commsize, comms), rows by size; their index. */
static void ratio_sets(const struct cmp *c)
{
	long sets = 0;

	fprintf(c->dat, "# aller compare: NEW/BASE per data set, rows by bytes per peer; band: "
		"1 -/+ the tolerance\n# columns: %s\n", DAT_COLUMNS);
	fprintf(c->idx, "%s\n", MERGED_SET_COLUMNS);
	for (long i = 0; i < c->npairs;) {
		const struct pair *p = &c->pairs[i];
		const struct meas *m = p->b;
		long k = i, rows = 0;
		if (!p->b || !p->n) {
			i++;
			continue;
		}
		for (; k < c->npairs && (!c->pairs[k].b || !c->pairs[k].n ||
					 cmp_set_key(c->pairs[k].b, m) == 0); k++)
			rows += c->pairs[k].b && c->pairs[k].n;
		fprintf(c->dat, "%s# mode: %s variant: %s tasks_per_node: %s instrumented: %s nodes: "
			"%ld commsize: %ld comms: %ld\n\"%s, %ld nodes, commsize %ld\"\n",
			sets ? "\n\n" : "", str(m->pt->mode), str(m->pt->variant), str(m->pt->tpn),
			m->pt->reveal ? "yes" : "no", m->nodes, m->commsize, m->comms,
			str(m->pt->mode), m->nodes, m->commsize);
		fprintf(c->idx, "compare.dat\t%ld\tratio\t-\t%s\t%ld\t%ld\t%ld\t-\t-\t%s\t-\t-\t-\t%s\t-\t%ld\n",
			sets++, str(m->pt->mode), m->nodes, m->commsize, m->comms, str(m->pt->tpn),
			str(m->pt->variant), rows);
		for (; i < k; i++) {
			p = &c->pairs[i];
			if (!p->b || !p->n)
				continue;
			fprintf(c->dat, "%ld %.6g ", p->b->bytes, p->ratio);
			fprintf(c->dat, isfinite(p->med_ratio) ? "%.6g" : "NaN", p->med_ratio);
			fprintf(c->dat, " %.6g %.6g %.6e %.6e\n", 1 - p->tol, 1 + p->tol, p->b->tavg,
				p->n->tavg);
		}
	}
}

static void report(struct cmp *c)
{
	head(c);
	for (long i = 0; i < c->npairs; i++)
		if (c->pairs[i].b && c->pairs[i].n)
			table_row(c, &c->pairs[i]);
	missing_lines(c);
	if (c->dups[0] || c->dups[1])
		say(c, "# left out: %ld measurements in BASE and %ld in NEW repeat the identity of "
		    "another one on their side (points of several campaigns or series alike)\n",
		    c->dups[0], c->dups[1]);
	say(c, "compare: %ld points matched: %ld faster, %ld slower, %ld same, %ld noise; "
	    "%ld only in BASE, %ld only in NEW\n", c->matched, c->count[V_FASTER],
	    c->count[V_SLOWER], c->count[V_SAME], c->count[V_NOISE], c->only[0], c->only[1]);
	if (c->csv) {
		fprintf(c->csv, "mode,variant,tasks_per_node,instrumented,nodes,comms,commsize,"
			"bytes_per_peer,tolerance,tavg_base,tavg_new,ratio,tmed_base,tmed_new,"
			"tmed_ratio,tmin_base,tmax_base,tmin_new,tmax_new,verdict\n");
		for (long i = 0; i < c->npairs; i++)
			csv_row(c->csv, &c->pairs[i]);
	}
	if (c->dat)
		ratio_sets(c);
}

static const char *const out_names[4] = { "compare.txt", "compare.csv", "compare.dat",
					  MERGED_SETS_FILE };

/* Opens DIR's files as temporaries; 0, or -1 with the message said. */
static int open_out(struct cmp *c, const char *dir, char tmp[4][4096])
{
	FILE **f[4] = { &c->txt, &c->csv, &c->dat, &c->idx };

	if (dirs_make(dir) != 0) {
		fprintf(stderr, "collect: error: cannot create the output directory '%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	for (int i = 0; i < 4; i++) {
		snprintf(tmp[i], 4096, "%s/.%s.tmp.%ld", dir, out_names[i], (long)getpid());
		if (!(*f[i] = fopen(tmp[i], "w"))) {
			fprintf(stderr, "collect: error: cannot write '%s': %s\n", tmp[i], strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Closes them and renames them into place when all are whole; 0 or -1. */
static int commit_out(struct cmp *c, const char *dir, char tmp[4][4096], int failed)
{
	FILE **f[4] = { &c->txt, &c->csv, &c->dat, &c->idx };
	char final[4096];

	for (int i = 0; i < 4; i++) {
		if (*f[i] && (ferror(*f[i]) | fclose(*f[i])) && !failed) {
			fprintf(stderr, "collect: error: cannot write '%s': %s\n", tmp[i], strerror(errno));
			failed = 1;
		}
		*f[i] = NULL;
	}
	for (int i = 0; i < 4; i++) {
		snprintf(final, sizeof(final), "%s/%s", dir, out_names[i]);
		if (failed)
			unlink(tmp[i]);
		else if (rename(tmp[i], final) != 0) {
			fprintf(stderr, "collect: error: cannot rename '%s': %s\n", tmp[i], strerror(errno));
			failed = 1;
		}
	}
	return failed ? -1 : 0;
}

static const char usage[] =
	"usage: collect --compare [--tol=SPEC] [-o DIR] BASE NEW\n"
	"\n"
	"Compares two sets of aller outputs (files, directories, or campaign\n"
	"directories, whose raw/ is read): the points both have, by identity,\n"
	"with the ratio NEW/BASE of tavg (and tmed) and a verdict: same (within\n"
	"the tolerance), noise (each side's tavg inside the other's [tmin, tmax]),\n"
	"faster or slower. Points of one side only are listed.\n"
	"\n"
	"  --tol=SPEC  tolerance: a percentage (default 5%), or size bands\n"
	"              \"8:20% 64K:5%\" (from 8 B per peer 20%, from 64 KiB 5%)\n"
	"  -o DIR      also write compare.txt, compare.csv, compare.dat, sets.tsv\n"
	"\n"
	"Exit status: 0 nothing slower, 1 something slower, 2 bad input (no\n"
	"outputs, no common points, a bad tolerance), 3 cannot write DIR.\n";

/* The command line; 0, 1 (--help said), or 2 with the message said. */
static int parse_args(int argc, char **argv, const char **tol, const char **dir,
		      const char *arg[2])
{
	int n = 0;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			return 1;
		} else if (strncmp(a, "--tol=", 6) == 0) {
			*tol = a + 6;
		} else if ((strcmp(a, "--tol") == 0 || strcmp(a, "-o") == 0) && i + 1 < argc) {
			*(a[1] == 'o' ? dir : tol) = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "collect: error: unknown option '%s' (see 'collect --compare "
				"--help')\n", a);
			return 2;
		} else if (n < 2) {
			arg[n++] = a;
		} else {
			fprintf(stderr, "collect: error: --compare takes two sets, BASE and NEW; "
				"'%s' is a third\n", a);
			return 2;
		}
	}
	if (n < 2) {
		fprintf(stderr, "collect: error: --compare needs BASE and NEW (see 'collect "
			"--compare --help')\n");
		return 2;
	}
	return 0;
}

int compare_main(int argc, char **argv)
{
	const char *tol = "5%", *dir = NULL, *arg[2];
	struct tolerance t;
	struct cmp c;
	char err[512], tmp[4][4096];
	int rc = parse_args(argc, argv, &tol, &dir, arg);

	if (rc != 0)
		return rc == 1 ? 0 : rc;
	if (tolerance_parse(&t, tol, err, sizeof(err)) != 0) {
		fprintf(stderr, "collect: error: %s\n", err);
		return 2;
	}
	memset(&c, 0, sizeof(c));
	c.tol = &t;
	c.tol_spec = tol;
	c.base.arg = arg[0];
	c.new.arg = arg[1];
	rc = load_side(&c.base, "BASE");
	if (rc == 0)
		rc = load_side(&c.new, "NEW");
	if (rc == 0 && join(&c) != 0) {
		fprintf(stderr, "collect: error: out of memory\n");
		rc = 3;
	}
	if (rc == 0 && c.matched == 0) {
		fprintf(stderr, "collect: error: no common points: BASE '%s' has %ld, NEW '%s' %ld, "
			"none of the same identity\n", arg[0], c.base.n, arg[1], c.new.n);
		rc = 2;
	}
	if (rc == 0 && dir && open_out(&c, dir, tmp) != 0)
		rc = 3;
	if (rc == 0) {
		report(&c);
		rc = c.count[V_SLOWER] ? 1 : 0;
	}
	if (dir && (c.txt || c.csv || c.dat || c.idx) && commit_out(&c, dir, tmp, rc > 1) != 0)
		rc = 3;
	free(c.pairs);
	side_release(&c.base);
	side_release(&c.new);
	return rc;
}
