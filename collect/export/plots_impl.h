/*
 * plots_impl.h: what the parts of collect --plots share (plots.h): plots.c
 * reads sets.tsv, groups its sets, writes each plot's row and data sets and
 * runs the command; plots_kinds.c knows which plots a merge has.
 */
#ifndef COLLECT_PLOTS_IMPL_H
#define COLLECT_PLOTS_IMPL_H

#include <stddef.h>
#include <stdio.h>

#include "plots.h"
#include "model/campaign.h"

struct set {
	const char *v[SET_N];   /* its fields as sets.tsv has them ("-": none), by model/campaign.h's SET_* */
	long at;              /* its row: every list is in this order */
};

struct plots {
	const char *dir;
	struct campaign c;          /* the merge: its sets, facts, pairs and findings' kinds */
	struct set *s;
	long n;
	char *moe;                  /* moe[point]: the point is an aller --moe one */
	long np;                    /* points: one past the largest a set or pairs.tsv names */
	struct table_out out;       /* plots.tsv */
	struct set **picked;        /* a kind's sets picked across its groups (scaling's) */
	long npicked;
	char title[1024], subtitle[1024];
	int nlead;                  /* the rows that lead so far */
	int expected;               /* a comparison against the expected (simulated): its bandwidth plots too */
	int failed;
};

/* A group's order: up to 5 columns, each text ('s'), a number up ('n') or down ('r'). */
struct order {
	int n, col[5];
	char how[5];
};
typedef void group_fn(struct plots *P, struct set **g, long n);

/* plots.c */
/* Column c of a set as a number ("-": 0, as sort -n reads it); whether it is v. */
long set_num(const struct set *s, int c);
int set_is(const struct set *s, int c, const char *v);
/* qsort's order of sets by their rows in sets.tsv. */
int plots_by_row(const void *x, const void *y);
/*
 * The sets `keep` takes, sorted by `o`, in groups alike in o's first `key`
 * columns: fn on each, its sets in o's order.
 */
void plots_each_group(struct plots *P, int (*keep)(const struct plots *, const struct set *),
		      const struct order *o, int key, group_fn *fn);
/*
 * A plot's data sets: PLOTS_LISTS/NAME.tsv, a header of COLS (space-separated
 * names) and the COLS of g[0..n-1] in that order; its name relative to the
 * merged directory into path.
 */
void plots_list(struct plots *P, const char *name, const char *cols, struct set **g, long n,
		char *path, size_t len);
/* Whether the merge's findings have a finding of a kind that leads this plot (merged.h's FINDING_KINDS). */
int plots_cites(const struct plots *P, const char *plot);
/* One plot's row of plots.tsv (its lead: whether the findings cite it, taken while PLOTS_LEAD lead). */
void plots_add(struct plots *P, const struct plot_row *r);
/* What a plot's file and title add for an algorithm and a split (none for alltoall, uniform). */
void plots_named(const struct set *s, char *suffix, size_t slen, char *about, size_t alen);

/* plots_kinds.c: every plot of a merge, in order, onto P->out (DIRNAME: the directory's name). */
void plots_merge(struct plots *P, const char *dirname);

#endif
