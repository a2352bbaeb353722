/* table.c: see table.h. */
#include "table.h"

#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grow.h"
#include "merged.h"
#include "text.h"

int table_split(char *s, char **f, int max)
{
	int n = 0;

	s[strcspn(s, "\r\n")] = '\0';
	while (n < max) {
		char *w = s;
		if (*s == '"') {
			f[n++] = w = ++s;
			while (*s && !(*s == '"' && s[1] != '"')) {
				if (*s == '"')
					s++;
				*w++ = *s++;
			}
			if (*s)
				s++;
		} else {
			f[n++] = s;
			s += strcspn(s, ",");
			w = s;
		}
		if (*s != ',') {
			*w = '\0';
			return n;
		}
		*w = '\0';
		s++;
	}
	return n;
}

/* The index of each wanted column name in a header's fields, -1 when absent. */
static void columns(char **f, int n, const char *const *want, int *at, int nwant)
{
	for (int i = 0; i < nwant; i++) {
		at[i] = -1;
		for (int k = 0; k < n; k++)
			if (strcmp(f[k], want[i]) == 0)
				at[i] = k;
	}
}

double table_num(char **f, int n, int at)
{
	char *end;
	double v;

	if (at < 0 || at >= n || !*f[at])
		return NAN;
	v = strtod(f[at], &end);
	return *end ? NAN : v;
}

long table_long(char **f, int n, int at)
{
	double v = table_num(f, n, at);

	return v >= -0x1p63 && v < 0x1p63 ? (long)v : -1;
}

void table_copy(char *dst, size_t len, char **f, int n, int at)
{
	snprintf(dst, len, "%s", at >= 0 && at < n ? f[at] : "");
}

FILE *table_open(const char *dir, const char *name, char *line, size_t len,
			const char *const *want, int *at, int nwant)
{
	char path[4096], *f[TABLE_FIELDS];
	struct stat st;
	FILE *in;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))   /* a FIFO would block */
		return NULL;
	if (!(in = fopen(path, "r")))
		return NULL;
	if (!fgets(line, (int)len, in)) {
		fclose(in);
		return NULL;
	}
	columns(f, table_split(line, f, TABLE_FIELDS), want, at, nwant);
	return in;
}


int table_each_fact(const char *dir, long np,
		    void (*fn)(void *ctx, long point, const char *key, const char *value), void *ctx)
{
	char path[4096], line[8192];
	FILE *in;

	snprintf(path, sizeof(path), "%s/" MERGED_FACTS_FILE, dir);
	if (!(in = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), in)) {
		char *end, *k, *v;
		long id = strtol(line, &end, 10);
		if (end == line || *end != '\t' || id < 0 || id >= np || !(v = strchr(k = end + 1, '\t')))
			continue;
		*v++ = '\0';
		v[strcspn(v, "\n")] = '\0';
		fn(ctx, id, k, v);
	}
	fclose(in);
	return 0;
}

/* A point's first value of one key (table_point_facts), or of each of `n` keys. */
struct firsts {
	const char *const *keys;
	int n;
	char **vals[2];
};

static void keep_first(void *ctx, long point, const char *key, const char *value)
{
	struct firsts *f = ctx;

	for (int i = 0; i < f->n; i++)
		if (!strcmp(key, f->keys[i]) && !f->vals[i][point])
			f->vals[i][point] = strdup(value);
}

int table_point_facts(const char *dir, const char *key, char **vals, long np)
{
	struct firsts f = { &key, 1, { vals, NULL } };

	return table_each_fact(dir, np, keep_first, &f);
}

struct earliest {
	const char *key;
	char *out;
	size_t len;
};

static void keep_earliest(void *ctx, long point, const char *key, const char *value)
{
	struct earliest *e = ctx;

	(void)point;
	if (strcmp(key, e->key) == 0 && (!e->out[0] || strcmp(value, e->out) < 0))
		snprintf(e->out, e->len, "%s", value);
}

void table_earliest(const char *dir, const char *key, char *out, size_t len)
{
	struct earliest e = { key, out, len };

	out[0] = '\0';
	table_each_fact(dir, LONG_MAX, keep_earliest, &e);
}

/* The --pairs points of pairs.tsv, their start and campaign, their slow links (in order). */
struct pairs_links {
	long np, n;
	size_t cap;
	char *is_pairs;
	struct firsts first;   /* start, campaign */
	struct { long point; char *text; } *link;
};

static void pairs_fact(void *ctx, long point, const char *key, const char *value)
{
	struct pairs_links *l = ctx;
	void *g;

	if (!l->is_pairs[point])
		return;
	keep_first(&l->first, point, key, value);
	if (strcmp(key, "slow_link") != 0 || !(g = grow(l->link, &l->cap, (size_t)l->n + 1, sizeof(*l->link), 16)))
		return;
	l->link = g;
	l->link[l->n].point = point;
	if ((l->link[l->n].text = strdup(value)) != NULL)
		l->n++;
}

long table_slow_links(const char *dir, table_link_fn *each, void *ctx)
{
	static const char *const keys[2] = { "start", "campaign" };
	char path[4096], line[8192];
	struct pairs_links l = { .first = { keys, 2, { NULL, NULL } } };
	FILE *tsv;

	snprintf(path, sizeof(path), "%s/" MERGED_PAIRS_FILE, dir);
	if (!(tsv = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), tsv)) {   /* file, nodes, state, point */
		char *last = strrchr(line, '\t'), *end;
		long id = last ? strtol(last + 1, &end, 10) : -1;
		char *g;
		if (id < 0 || id >= 100000000 || end == last + 1)
			continue;
		if (id >= l.np) {
			if (!(g = realloc(l.is_pairs, (size_t)id + 1)))
				break;
			memset(g + l.np, 0, (size_t)(id + 1 - l.np));
			l.is_pairs = g;
			l.np = id + 1;
		}
		l.is_pairs[id] = 1;
	}
	fclose(tsv);
	for (int i = 0; i < 2; i++)
		l.first.vals[i] = calloc((size_t)l.np + 1, sizeof(char *));
	if (l.np > 0 && l.first.vals[0] && l.first.vals[1])
		table_each_fact(dir, l.np, pairs_fact, &l);   /* one pass: its start, campaign and links */
	for (long i = 0; i < l.n; i++) {
		long p = l.link[i].point;
		if (each)
			each(ctx, l.link[i].text, l.first.vals[0][p] ? l.first.vals[0][p] : "",
			     l.first.vals[1][p] ? l.first.vals[1][p] : "", p);
		free(l.link[i].text);
	}
	for (long i = 0; i < l.np; i++)
		for (int k = 0; k < 2; k++)
			free(l.first.vals[k] ? l.first.vals[k][i] : NULL);
	free(l.first.vals[0]);
	free(l.first.vals[1]);
	free(l.link);
	free(l.is_pairs);
	return l.n;
}
