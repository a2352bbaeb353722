/*
 * compare_run.c: collect --compare: both sides read (compare_side.c), their measurements matched by identity,
 * the outputs (compare_out.c) on stdout and in DIR: compare.txt (the same), compare.csv, compare.dat (the
 * ratios as data sets for the plots, columns by name) and sets.tsv (their index).
 */
#define _XOPEN_SOURCE 700   /* nftw */
#include "compare_impl.h"
#include "text.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "merged.h"
#include "outset.h"
#include "export/plots.h"

/* Whether measurement i of a side has the identity of the one before it. */
static int repeated(const struct side *sd, long i)
{
	return i > 0 && i < sd->n && compare_meas(&sd->m[i - 1], &sd->m[i]) == 0;
}

/*
 * Matches the two sorted sides; a second measurement of one identity on a side (two campaigns' points alike,
 * say) is counted and left out. 0, or
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
		k = i == c->base.n ? 1 : j == c->new.n ? -1 : compare_meas(&c->base.m[i], &c->new.m[j]);
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
				       p->n->tmin, p->n->tmax, p->med_ratio, (p->ratio > 1 ? p->n : p->b)->one_call);
		if (c->expected)   /* the band: the simulated calls' [tmin, tmax] */
			p->tol = p->b->tmax / p->b->tavg - 1, p->v = compare_expected(p->b->tmin, p->b->tmax, p->n->tmed, p->n->tavg);
		c->count[p->v]++;
		c->matched++;
	}
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/*
 * The sides, each read from its merge's tables: a side given as outputs (or a campaign directory) is merged
 * first into a scratch directory of TMPDIR, removed after; 0, or an exit status said.
 */
static int load_sides(struct cmp *c)
{
	const char *tmp = getenv("TMPDIR");
	char scratch[4096] = "";
	int rc;

	if (!compare_merged(c->base.path) || !compare_merged(c->new.path)) {
		snprintf(scratch, sizeof(scratch), "%s/collect-compare.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(scratch))
			return text_error(3, "collect: error: cannot make a scratch directory '%s': %s\n", scratch,
				strerror(errno));
	}
	rc = compare_load(&c->base, "BASE", scratch);
	if (rc == 0)
		rc = compare_load(&c->new, "NEW", scratch);
	if (scratch[0])
		nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return rc;
}

static const char *const out_names[5] = { "compare.txt", "compare.csv", "compare.dat", MERGED_SETS_FILE,
					  MERGED_FINDINGS_FILE };

/* Opens DIR's files as temporaries, each also one of c's streams; 0, or -1 said. */
static int open_out(struct cmp *c, const char *dir, struct outset *o)
{
	if (outset_dir(dir) != 0 || outset_open(o, dir, out_names, 5, 0) != 0)
		return -1;
	c->txt = o->f[0], c->csv = o->f[1], c->dat = o->f[2], c->idx = o->f[3], c->ftsv = o->f[4];
	return 0;
}

/* DIR's plot list: the ratio per (mode, nodes), titled by the sides' names (export/plots.h). */
static int ratio_plots(const struct cmp *c, const char *dir)
{
	char title[1024], subtitle[1024];

	snprintf(title, sizeof(title), "aller: %.400s / %.400s%s", compare_side_name(&c->new),
		 compare_side_name(&c->base), c->expected ? " (expected, simulated)" : "");
	snprintf(subtitle, sizeof(subtitle), c->expected ? "the simulated calls: their spread the band, their "
		 "bandwidth dashed; %.400s falls short above the band" : "TOL %.100s; below 1: %.400s is faster",
		 c->expected ? compare_side_name(&c->new) : c->tol_spec,
		 compare_side_name(&c->new));
	return plots_compare(dir, title, subtitle, c->expected);
}

static const char usage[] = "usage: collect --compare [--tol=SPEC] [-o DIR] BASE NEW\n\n"
	"Compares two sets of aller outputs (files, directories, campaign directories,\n"
	"whose raw/ is read, or merged directories, whose tables are) point by point:\n"
	"the ratio NEW/BASE of tavg (and tmed) and a verdict: same (within the\n"
	"tolerance), noise (tmed's ratio outside it the other way, or each side's tavg\n"
	"inside the other's [tmin, tmax]), spike (tmed's ratio within it, and one slow\n"
	"call moved an average by half the difference or more), missing (a tavg not a\n"
	"number), faster or slower. Points of one side only are listed. A side\n"
	"PATH@VARIANT takes that variant's points alone (campaigns' VARIANTS); both\n"
	"sides so compare two variants of one campaign. A simulated BASE (aller-simulate's)\n"
	"with a measured NEW: each row short, faster or expected by the simulated calls.\n\n"
	"  --tol=SPEC  tolerance: a percentage (default 5%), or size bands\n"
	"              \"8:20% 64K:5%\" (from 8 B per peer 20%, from 64 KiB 5%)\n"
	"  -o DIR      also write compare.txt, compare.csv, compare.dat, sets.tsv,\n"
	"              findings.tsv (the comparison as a finding, for the report) and\n"
	"              plots.tsv (the ratio's plots, as collect --plots lists them)\n\n"
	"Exit status: 0 nothing slower, 1 something slower (short), 2 bad input (no\n"
	"outputs, no common points, a bad tolerance), 3 cannot write DIR.\n";

/*
 * A side's path and variant: "PATH@VARIANT" where PATH exists and the whole does not (a path may hold an
 * '@'); 0, or -1 said (a variant's name as campaigns allow them).
 */
static int side_variant(struct side *sd)
{
	const char *at = strrchr(sd->arg, '@');
	struct stat st;

	snprintf(sd->path, sizeof(sd->path), "%s", sd->arg);
	if (!at || stat(sd->arg, &st) == 0)
		return 0;
	snprintf(sd->path, sizeof(sd->path), "%.*s", (int)(at - sd->arg), sd->arg);
	sd->variant = at + 1;
	if (!*sd->variant || strspn(sd->variant, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") !=
				     strlen(sd->variant))
		return text_error(-1, "collect: error: invalid variant '%s' in '%s': expected PATH@VARIANT, a variant's "
			"name (letters, digits, '.', '_', '-')\n", sd->variant, sd->arg);
	return 0;
}

/* The command line; 0, 1 (--help said), or 2 with the message said. */
static int parse_args(int argc, char **argv, const char **tol, const char **dir, const char *arg[2])
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
			return text_error(2, "collect: error: unknown option '%s' (see 'collect --compare --help')\n", a);
		} else if (n < 2) {
			arg[n++] = a;
		} else {
			return text_error(2, "collect: error: --compare takes two sets, BASE and NEW; '%s' is a third\n", a);
		}
	}
	return n < 2 ? text_error(2, "collect: error: --compare needs BASE and NEW (see 'collect --compare "
				 "--help')\n") : 0;
}

int compare_main(int argc, char **argv)
{
	const char *tol = "5%", *dir = NULL, *arg[2];
	struct tolerance t;
	struct cmp c;
	struct outset out = { .n = 0 };
	char err[512];
	int rc = parse_args(argc, argv, &tol, &dir, arg);

	if (rc != 0)
		return rc == 1 ? 0 : rc;
	if (tolerance_parse(&t, tol, err, sizeof(err)) != 0)
		return text_error(2, "collect: error: %s\n", err);
	memset(&c, 0, sizeof(c));
	c.tol = &t;
	c.tol_spec = tol;
	c.base.arg = arg[0];
	c.new.arg = arg[1];
	if (side_variant(&c.base) != 0 || side_variant(&c.new) != 0)
		return 2;
	compare_across_variants = c.base.variant && c.new.variant;
	rc = load_sides(&c);
	if (rc == 0 && c.new.simulated && !c.base.simulated)
		rc = text_error(2, "collect: error: NEW '%s' is simulated and BASE '%s' measured: the expected (simulated) "
			"campaign is BASE, the measured NEW\n", arg[1], arg[0]);
	c.expected = c.base.simulated && !c.new.simulated;
	if (rc == 0 && c.expected && strcmp(tol, "5%") != 0)   /* never a setting taken and left unused, unsaid */
		rc = text_error(2, "collect: error: tolerance '%s' with a simulated BASE: the band is the simulated "
			"calls' spread; leave TOL out\n", tol);
	/* a simulation has one variant, the fabric's: the measured one's (whatever its name) against it */
	if (rc == 0 && c.expected && !compare_across_variants && (compare_across_variants = 1))
		qsort(c.new.m, (size_t)c.new.n, sizeof(*c.new.m), compare_meas);
	if (rc == 0 && join(&c) != 0)
		rc = text_error(3, "collect: error: out of memory\n");
	if (rc == 0 && c.expected && c.dups[1])   /* each row against its expected one, never one of two picked */
		rc = text_error(2, "collect: error: NEW '%s' has %ld rows of one identity twice (several variants, "
			"campaigns or series): compare one variant at a time with the expected (simulated) BASE: "
			"NEW@VARIANT\n", arg[1], c.dups[1]);
	if (rc == 0 && c.expected && c.only[1])   /* the same settings: every measured row has its expected one */
		rc = text_error(2, "collect: error: NEW '%s' has %ld rows that the expected (simulated) BASE '%s' lacks: simulate "
			"the same NODES, MODES, TASKS_PER_NODE, LONGS and --min-bytes\n", arg[1], c.only[1], arg[0]);
	if (rc == 0 && c.matched == 0)
		rc = text_error(2, "collect: error: no common points: BASE '%s' has %ld, NEW '%s' %ld, "
			"none of the same identity\n", arg[0], c.base.n, arg[1], c.new.n);
	if (rc == 0 && dir && open_out(&c, dir, &out) != 0)
		rc = 3;
	if (rc == 0) {
		compare_report(&c);
		rc = c.count[V_SLOWER] ? 1 : 0;
	}
	if (out.n && outset_commit(&out, rc > 1) != 0)
		rc = 3;
	if (dir && rc <= 1 && ratio_plots(&c, dir) != 0)
		rc = 3;
	free(c.pairs);
	compare_side_release(&c.base);
	compare_side_release(&c.new);
	return rc;
}

