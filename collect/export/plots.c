/* plots.c: collect --plots DIR, the plot list (see plots.h): reading, grouping, writing. */
#include "plots_impl.h"
#include "text.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "merged.h"
#include "outset.h"
#include "replace.h"

long set_num(const struct set *s, int c)
{
	return strtol(s->v[c], NULL, 10);   /* "-": 0, as sort -n reads it */
}

int set_is(const struct set *s, int c, const char *v)
{
	return strcmp(s->v[c], v) == 0;
}

/* The merge's sets (sets.tsv, model/campaign.h) as P->s; 0, or -1. */
static int read_sets(struct plots *P)
{
	char err[4608];

	if (campaign_load(&P->c, P->dir, CAMPAIGN_SETS | CAMPAIGN_FACTS | CAMPAIGN_PAIRS | CAMPAIGN_FINDINGS,
			  err, sizeof(err)) != 0 || !(P->s = malloc(sizeof(*P->s) * (size_t)(P->c.sets.n + 1)))) return -1;
	for (long i = 0; i < P->c.sets.n; i++, P->n++) {
		for (int c = 0; c < SET_N; c++)
			P->s[i].v[c] = mtable_at(&P->c.sets, i, c);
		P->s[i].at = i;
		if (set_num(&P->s[i], SET_point) >= P->np)
			P->np = set_num(&P->s[i], SET_point) + 1;
	}
	return 0;
}

static const struct order *sort_by;   /* qsort's, for cmp_sets */

static int cmp_col(const struct set *a, const struct set *b, int c, char how)
{
	long x = set_num(a, c), y = set_num(b, c);

	if (how == 's')
		return strcmp(a->v[c], b->v[c]);
	return how == 'n' ? (x > y) - (x < y) : (x < y) - (x > y);
}

/* By the order's columns, then by their rows in sets.tsv. */
static int cmp_sets(const void *x, const void *y)
{
	const struct set *a = *(const struct set *const *)x, *b = *(const struct set *const *)y;

	for (int i = 0; i < sort_by->n; i++) {
		int c = cmp_col(a, b, sort_by->col[i], sort_by->how[i]);
		if (c)
			return c;
	}
	return (a->at > b->at) - (a->at < b->at);
}

int plots_by_row(const void *x, const void *y)
{
	const struct set *a = *(const struct set *const *)x, *b = *(const struct set *const *)y;
	return (a->at > b->at) - (a->at < b->at);
}


/*
 * The sets `keep` takes, sorted by `o`, in groups alike in o's first `key` columns: fn on each, its sets in
 * o's order.
 */
void plots_each_group(struct plots *P, int (*keep)(const struct plots *, const struct set *),
		       const struct order *o, int key, group_fn *fn)
{
	struct set **v = malloc(sizeof(*v) * (size_t)(P->n + 1));
	long k = 0;

	if (!v) {
		P->failed = 1;
		return;
	}
	for (long i = 0; i < P->n; i++)
		if (keep(P, &P->s[i]))
			v[k++] = &P->s[i];
	sort_by = o;
	qsort(v, (size_t)k, sizeof(*v), cmp_sets);
	for (long i = 0, j; i < k; i = j) {
		for (j = i + 1; j < k; j++) {
			int c = 0;
			for (int m = 0; m < key && !c; m++)
				c = cmp_col(v[i], v[j], o->col[m], o->how[m]);
			if (c)
				break;
		}
		fn(P, v + i, j - i);
	}
	free(v);
}

/*
 * A plot's data sets: PLOTS_LISTS/NAME.tsv, a header of COLS (space-separated names) and the COLS of
 * g[0..n-1] in that order; its name relative to the merged directory into path.
 */
/* A file name made of a data set's words: a '/' in one (a doctored mode, say) is a '_'. */
static void file_name(char *s)
{
	for (; *s; s++)
		*s = *s == '/' ? '_' : *s;
}

void plots_list(struct plots *P, const char *name, const char *cols, struct set **g, long n, char *path, size_t len)
{
	char err[8400], names[256], base[1100];
	int c[8], nc = 0;
	FILE *f;

	snprintf(base, sizeof(base), "%s", name);
	file_name(base);
	snprintf(path, len, PLOTS_LISTS "/%s.tsv", base);
	snprintf(names, sizeof(names), "%s", cols);
	for (char *w = strtok(names, " "); w && nc < 8; w = strtok(NULL, " "))
		for (int k = 0; k < SET_N; k++)
			if (strcmp(campaign_set_names[k], w) == 0)
				c[nc++] = k;
	if (!(f = replace_open(P->dir, path, err, sizeof(err)))) {
		text_error(0, "collect: error: --plots: %s\n", err);
		P->failed = 2;   /* said */
		return;
	}
	for (int k = 0; k < nc; k++)
		fprintf(f, "%s%s", k ? "\t" : "", campaign_set_names[c[k]]);
	fputc('\n', f);
	for (long i = 0; i < n; i++)
		for (int k = 0; k < nc; k++)
			fprintf(f, "%s%s", g[i]->v[c[k]], k + 1 < nc ? "\t" : "\n");
	if (replace_close(f, P->dir, path, err, sizeof(err)) != 0 && (P->failed = 2))
		text_error(0, "collect: error: --plots: %s\n", err);
}

void plots_add(struct plots *P, const struct plot_row *r)
{
	struct plot_row safe = *r;
	char out[2048];

	snprintf(out, sizeof(out), "%s", r->out);
	file_name(out);
	safe.out = out;
	safe.lead = r->lead && P->nlead < PLOTS_LEAD;
	P->nlead += (int)safe.lead;
	TABLE_ROW(&P->out, &safe, PLOTS_COLUMNS);
}

/* What a plot's file and title add for an algorithm and a split (none for alltoall, uniform). */
void plots_named(const struct set *s, char *suffix, size_t slen, char *about, size_t alen)
{
	int a = !set_is(s, SET_algo, "alltoall"), sp = !set_is(s, SET_split, "uniform");
	char split[256];
	size_t k = 0;

	for (const char *p = s->v[SET_split]; *p && k + 1 < sizeof(split); p++)
		split[k++] = *p == ':' || *p == '/' ? '_' : *p;
	split[k] = '\0';
	snprintf(suffix, slen, "%s%s%s%s", a ? "-" : "", a ? s->v[SET_algo] : "", sp ? "-" : "", sp ? split : "");
	snprintf(about, alen, "%s%s%s%s", a ? ", " : "", a ? s->v[SET_algo] : "", sp ? ", split " : "",
		 sp ? s->v[SET_split] : "");
}

int plots_cites(const struct plots *P, const char *plot)
{
	for (int k = 0; P->c.kinds && k < FINDING_NKINDS; k++)
		if (P->c.kinds[k] && !strcmp(finding_kind(k)->plot, plot))
			return 1;
	return 0;
}

/* The lists of an earlier run removed: PLOTS_LISTS holds this run's alone. */
static int clear_lists(const char *dir)
{
	char path[4200], file[8400];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/" PLOTS_LISTS, dir);
	snprintf(file, sizeof(file), "cannot read '%s'", path);   /* opendir's failure */
	if (replace_dir(path, 1, file, sizeof(file)) != 0 || !(d = opendir(path)))
		return text_error(-1, "collect: error: --plots: %s\n", file);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
			unlink(file);
		}
	closedir(d);
	return 0;
}

/* The name of the directory DIR is in (plot.sh's: the campaign's, or its out-dir). */
static void dir_name(const char *dir, char *name, size_t len)
{
	char buf[4200], *p;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (int up = 0; up < 2; up++) {   /* DIR's last part off, then the parent's trailing '/'s */
		size_t n = strlen(buf);
		while (n > 1 && buf[n - 1] == '/')
			buf[--n] = '\0';
		if (up == 0 && (p = strrchr(buf, '/')))
			*(p == buf ? p + 1 : p) = '\0';
		else if (up == 0 && !getcwd(buf, sizeof(buf)))
			snprintf(buf, sizeof(buf), ".");
	}
	p = strrchr(buf, '/');
	snprintf(name, len, "%.*s", (int)len - 1, p && p[1] ? p + 1 : buf);
}

/* The list `list` makes of P->dir's sets, written as PLOTS_FILE whole; 0, or 3 said. */
static int plots_write(struct plots *P, void (*list)(struct plots *P, const char *name))
{
	static const char *const names[1] = { PLOTS_FILE };
	struct outset o = { .n = 0 };
	char name[1024];

	if (read_sets(P) != 0)
		return text_error(3, "collect: error: --plots: cannot read '%s/%s' (not a merged directory?)\n",
			P->dir, MERGED_SETS_FILE);
	if (!(P->moe = calloc((size_t)P->np + 1, 1)) || outset_open(&o, P->dir, names, 1, 0) != 0 || clear_lists(P->dir) != 0) {
		if (!P->moe)
			text_error(0, "collect: error: --plots: out of memory\n");
		if (o.n)
			outset_commit(&o, 1);
		return 3;
	}
	for (long i = 0; i < P->c.nfacts; i++)   /* the aller --moe points */
		if (strcmp(P->c.facts[i].key, "moe") == 0 && P->c.facts[i].point < P->np)
			P->moe[P->c.facts[i].point] = 1;
	P->out = (struct table_out){ o.f[0], NULL, '\t', 0 };
	TABLE_HEADER(&P->out, PLOTS_COLUMNS);
	dir_name(P->dir, name, sizeof(name));
	list(P, name);
	if (P->failed == 1)   /* 2: a list not written, said */
		text_error(0, "collect: error: --plots: out of memory in '%s'\n", P->dir);
	return outset_commit(&o, P->failed) != 0 || P->failed ? 3 : 0;
}

/* P released; rc. */
static int plots_release(struct plots *P, int rc)
{
	free(P->s);
	free(P->moe);
	campaign_release(&P->c);
	return rc;
}

/* A comparison's ratio NEW/BASE per (mode, nodes), a curve per level (compare.dat's sets). */
static int ratios(const struct plots *P, const struct set *s)
{
	(void)P;
	return set_is(s, SET_kind, "ratio") && set_num(s, SET_rows) > 0;
}

static void ratio(struct plots *P, struct set **g, long n)
{
	char list[700], out[700], title[2048];

	for (int k = 0; k <= P->expected; k++) {
		snprintf(out, sizeof(out), "%s-%s-n%s", k ? "expected" : "ratio", g[0]->v[SET_mode], g[0]->v[SET_nodes]);
		if (!k)
			plots_list(P, out, "index commsize", g, n, list, sizeof(list));
		snprintf(title, sizeof(title), "%s: %s, %s, %s nodes", P->title, k ? "bandwidth" : "time per call",
			 g[0]->v[SET_mode], g[0]->v[SET_nodes]);
		plots_add(P, &(struct plot_row){ k ? "expected.gp" : "ratio.gp", "compare.dat", out, title, P->subtitle,
					       g[0]->v[SET_mode], list, "", "", k });
	}
}

static void ratio_list(struct plots *P, const char *name)
{
	static const struct order by_plot = { 2, { SET_mode, SET_nodes }, "sn" };

	(void)name;
	plots_each_group(P, ratios, &by_plot, 2, ratio);
}

int plots_compare(const char *dir, const char *title, const char *subtitle, int expected)
{
	struct plots P = { .dir = dir, .expected = expected };

	snprintf(P.title, sizeof(P.title), "%s", title);
	snprintf(P.subtitle, sizeof(P.subtitle), "%s", subtitle);
	return plots_release(&P, plots_write(&P, ratio_list));
}

int plots_main(int argc, char **argv)
{
	struct plots P = { .dir = argc == 1 ? argv[0] : "" };

	if (argc != 1 || !argv[0][0])
		return text_error(2, "collect: error: --plots takes one merged directory: collect --plots DIR\n");
	return plots_release(&P, plots_write(&P, plots_merge));
}
