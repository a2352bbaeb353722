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

/* sets.tsv's columns the plots read */
enum { S_INDEX, S_KIND, S_CAMPAIGN, S_MODE, S_NODES, S_COMMSIZE, S_BYTES, S_SIZE, S_TPN, S_BUFFERS,
       S_MPI, S_ALGO, S_SPLIT, S_LABEL, S_ROWS, S_POINT, S_ALGO_INDEX, S_BYTES_MAX, S_ISOLATED,
       S_LOCAL, S_N };
extern const char *const plots_set_cols[S_N];

struct set {
	const char *v[S_N];   /* its fields as sets.tsv has them ("-": none) */
	long at;              /* its row: every list is in this order */
};

struct plots {
	const char *dir;
	struct set *s;
	long n;
	char *text;                 /* sets.tsv, its fields' storage */
	char *moe;                  /* moe[point]: the point is an aller --moe one */
	long np;                    /* points: one past the largest a set or pairs.tsv names */
	struct table_out out;       /* plots.tsv */
	struct set **picked;        /* a kind's sets picked across its groups (scaling's) */
	long npicked;
	char title[1024], subtitle[1024];
	char *cited;                /* findings.tsv's kinds, " a b ... " (NULL: none) */
	int nlead;                  /* the rows that lead so far */
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
/* A TSV line split in place at its tabs (its newline dropped); the number of fields. */
int plots_tsv_split(char *line, char **f, int max);
/* at[i]: the field of header fields f[0..n-1] named want[i]; 0, or -1 when one lacks. */
int plots_columns_at(char **f, int n, const char *const *want, int *at, int nwant);
/*
 * DIR/NAME (a TSV of the merge) opened, its header read, at[i] the field of
 * want[i]; its fields' count in *n (0: unreadable, or a column missing, and
 * NULL returned). line[len] is the caller's buffer for the rows.
 */
FILE *plots_tsv_open(const char *dir, const char *name, char *line, size_t len,
		     const char *const *want, int *at, int nwant, int *n);
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
/* Whether the merge's findings have a finding of this kind. */
int plots_cites(const struct plots *P, const char *kind);
/* One plot's row of plots.tsv (its lead: whether the findings cite it, taken while PLOTS_LEAD lead). */
void plots_add(struct plots *P, const struct plot_row *r);
/* What a plot's file and title add for an algorithm and a split (none for alltoall, uniform). */
void plots_named(const struct set *s, char *suffix, size_t slen, char *about, size_t alen);

/* plots_kinds.c: every plot of a merge, in order, onto P->out (DIRNAME: the directory's name). */
void plots_merge(struct plots *P, const char *dirname);

#endif
