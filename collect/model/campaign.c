/* campaign.c: a merged directory read once (see campaign.h). */
#include "campaign.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "text.h"

#define FIELDS 64   /* the most columns a merged table has, and more */

/* A CSV line split in place (quoted fields: "" is one quote); the number of fields. */
static int split_csv(char *s, char **f, int max)
{
	int n = 0;

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

/* A TSV line split in place at its tabs; the number of fields. */
static int split_tsv(char *s, char **f, int max)
{
	int n = 0;

	for (char *p = s; n < max; p++) {
		f[n++] = p;
		if (!(p = strchr(p, '\t')))
			break;
		*p = '\0';
	}
	return n;
}

/*
 * A field as a number: NAN where empty or not one ("-"). What the merge
 * writes (%.6e, %ld) is read without strtod where it can be exactly: at most
 * 15 digits times a power of ten up to 22, one rounding (a product or a
 * quotient of two exact doubles), strtod's result (Clinger's fast path).
 */
static double number(const char *s)
{
	static const double ten[23] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
					1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	const char *p = s + (*s == '-' || *s == '+');
	long long m = 0;
	int digits = 0, k = 0, e = 0, esign = 1, edigits = 0, has_e = 0;
	char *end;
	double v;

	for (; *p >= '0' && *p <= '9'; p++)
		m = digits++ < 18 ? m * 10 + (*p - '0') : m;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, k--)
			m = digits++ < 18 ? m * 10 + (*p - '0') : m;
	if ((has_e = *p == 'e' || *p == 'E')) {
		p++;
		esign = *p == '-' ? -1 : 1;
		p += *p == '-' || *p == '+';
		for (; *p >= '0' && *p <= '9' && edigits < 4; p++, edigits++)
			e = e * 10 + (*p - '0');
	}
	k += esign * e;
	if (digits > 0 && digits <= 15 && !*p && k >= -22 && k <= 22 && (!has_e || edigits > 0)) {
		v = k < 0 ? (double)m / ten[-k] : (double)m * ten[k];
		return *s == '-' ? -v : v;
	}
	if (!*s)
		return NAN;
	v = strtod(s, &end);
	return *end ? NAN : v;
}

/* ... as a whole number: -1 where it is none, or out of range. */
static long whole(const char *s)
{
	double v = number(s);

	return v >= -0x1p63 && v < 0x1p63 ? (long)v : -1;
}

/* DIR/NAME read whole through the door (text.h) into *text, NULL where there is none; 0, or -1 with err. */
static int slurp(const char *dir, const char *name, char **text, char *err, size_t errlen)
{
	char path[4200];
	struct strbuf b;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	*text = NULL;
	if ((rc = text_load(path, TEXT_MERGED, &b, err, errlen)) == 0)
		*text = strbuf_detach(&b);
	return rc < 0 ? -1 : 0;
}

/*
 * A table of `text` (CSV with sep ',', else TSV) by the wanted columns'
 * names: a row per line after the header (a TSV's of another width left
 * out); 0, or -1 without a header or, `all` set, where a wanted column lacks.
 */
static int table_read(struct mtable *t, char *text, char sep, const char *const *want, int nwant,
		      int all)
{
	int (*split)(char *, char **, int) = sep == ',' ? split_csv : split_tsv;
	char *f[FIELDS], *next;
	int at[FIELDS], n, width;
	size_t cap = 0;

	*t = (struct mtable){ .text = text, .ncols = nwant };
	if (!text || !*text)
		return -1;
	next = strchr(text, '\n');
	if (next)
		*next++ = '\0';
	width = split(text, f, FIELDS);
	for (int c = 0; c < nwant; c++) {
		at[c] = -1;
		for (int k = 0; k < width; k++)
			at[c] = strcmp(f[k], want[c]) == 0 ? k : at[c];
		if (at[c] < 0 && all)
			return -1;
	}
	for (char *line = next; line && *line; line = next) {
		const char **g;
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		n = split(line, f, FIELDS);
		if (sep != ',' && n != width)
			continue;
		if (!(g = grow(t->cell, &cap, (size_t)(t->n + 1) * (size_t)nwant, sizeof(*g), 256)))
			return -1;
		t->cell = g;
		for (int c = 0; c < nwant; c++)
			g[t->n * nwant + c] = at[c] >= 0 && at[c] < n ? f[at[c]] : "";
		t->n++;
	}
	return 0;
}

/* The index's rows as points. */
static int read_points(struct campaign *c)
{
#define NAME_(name, src, type) #name,
	static const char *const names[] = { MERGED_POINT_COLUMNS(NAME_) };
#undef NAME_
	struct mtable t;
	int rc = table_read(&t, c->text[0], ',', names, sizeof(names) / sizeof(names[0]), 0);

	if (rc == 0 && !(c->pts = calloc((size_t)t.n + 1, sizeof(*c->pts))))
		rc = -1;
	for (long i = 0; rc == 0 && i < t.n; i++) {
		struct mpoint *p = &c->pts[c->np++];
		int k = 0;
#define GET_LONG(s) whole(s)
#define GET_TEXT(s) (s)
#define FILL_(name, src, type) p->name = GET_##type(mtable_at(&t, i, k)), k++;
		MERGED_POINT_COLUMNS(FILL_)
#undef FILL_
	}
	free(t.cell);
	return rc;
}

static const struct mfact *sort_base;   /* qsort's, for by_point */

static int by_point(const void *x, const void *y)
{
	long a = *(const long *)x, b = *(const long *)y;
	long pa = sort_base[a].point, pb = sort_base[b].point;

	return pa != pb ? (pa > pb) - (pa < pb) : (a > b) - (a < b);
}

/* facts.tsv's lines ("POINT<TAB>KEY<TAB>VALUE"), by point, each point's in order. */
static int read_facts(struct campaign *c)
{
	size_t cap = 0;
	char *next;
	int sorted = 1;

	for (char *line = c->text[1]; line && *line; line = next) {
		char *end, *key, *value;
		long id = strtol(line, &end, 10);
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		if (end == line || *end != '\t' || id < 0 || !(value = strchr(key = end + 1, '\t')))
			continue;
		*value++ = '\0';
		struct mfact *g = grow(c->facts, &cap, (size_t)c->nfacts + 1, sizeof(*g), 256);
		if (!g)
			return -1;
		c->facts = g;
		sorted &= c->nfacts == 0 || g[c->nfacts - 1].point <= id;
		g[c->nfacts++] = (struct mfact){ id, key, value };
	}
	if (!sorted) {   /* the merge writes them by point: a doctored file, sorted stably */
		long *ord = malloc(sizeof(*ord) * (size_t)c->nfacts);
		struct mfact *s = malloc(sizeof(*s) * (size_t)c->nfacts);
		if (!ord || !s) {
			free(ord), free(s);
			return -1;
		}
		for (long i = 0; i < c->nfacts; i++)
			ord[i] = i;
		sort_base = c->facts;
		qsort(ord, (size_t)c->nfacts, sizeof(*ord), by_point);
		for (long i = 0; i < c->nfacts; i++)
			s[i] = c->facts[ord[i]];
		free(c->facts);
		free(ord);
		c->facts = s;
	}
	for (long i = 0; i < c->np; i++)
		c->pts[i].facts = campaign_facts(c, c->pts[i].point, &c->pts[i].nfacts);
	return 0;
}

const struct mfact *campaign_facts(const struct campaign *c, long id, long *n)
{
	long lo = 0, hi = c->nfacts, end;

	while (lo < hi) {   /* the first fact of a point >= id */
		long mid = lo + (hi - lo) / 2;
		if (c->facts[mid].point < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < c->nfacts && c->facts[end].point == id; end++)
		;
	*n = end - lo;
	return *n ? &c->facts[lo] : NULL;
}

/* findings.tsv's kinds: which of merged.h's FINDING_KINDS it holds. */
static void read_kinds(struct campaign *c, char *text)
{
	static const char *const kind[1] = { "kind" };
	struct mtable t;

	if (table_read(&t, text, '\t', kind, 1, 1) == 0 && (c->kinds = calloc(FINDING_NKINDS, 1)) != NULL)
		for (long i = 0; i < t.n; i++) {
			const struct finding_kind_def *k = finding_kind_named(mtable_at(&t, i, 0));
			if (k)
				c->kinds[k - finding_kind(0)] = 1;
		}
	free(t.cell);
	free(text);
}

#define NAME_(name, type, field) #name,
const char *const campaign_set_names[SET_N] = { SET_COLUMNS(NAME_) };
static const char *const pair_names[PAIR_N] = { PAIRS_COLUMNS(NAME_) };
#undef NAME_

int campaign_load(struct campaign *c, const char *dir, int what, char *err, size_t errlen)
{
	const char *bad = NULL;
	char *text = NULL;

	*c = (struct campaign){ .dir = dir };
	err[0] = '\0';
	if ((what & CAMPAIGN_POINTS) && (slurp(dir, "points-index.csv", &c->text[0], err, errlen) != 0 ||
					 read_points(c) != 0))
		bad = "points-index.csv";
	if (!bad && (what & (CAMPAIGN_FACTS | CAMPAIGN_POINTS)) &&
	    (slurp(dir, MERGED_FACTS_FILE, &c->text[1], err, errlen) != 0 || (c->text[1] && read_facts(c) != 0)))
		bad = MERGED_FACTS_FILE;
	if (!bad && (what & CAMPAIGN_SETS) && (slurp(dir, MERGED_SETS_FILE, &text, err, errlen) != 0 ||
					       table_read(&c->sets, text, '\t', campaign_set_names, SET_N, 1) != 0))
		bad = MERGED_SETS_FILE;
	if (!bad && (what & CAMPAIGN_PAIRS))   /* none without it */
		bad = slurp(dir, MERGED_PAIRS_FILE, &text, err, errlen) != 0 ? MERGED_PAIRS_FILE
		      : (table_read(&c->pairs, text, '\t', pair_names, PAIR_N, 0), NULL);
	if (!bad && (what & CAMPAIGN_FINDINGS))
		bad = slurp(dir, MERGED_FINDINGS_FILE, &text, err, errlen) != 0 ? MERGED_FINDINGS_FILE : (read_kinds(c, text), NULL);
	if (!bad)
		return 0;
	if (!err[0])
		snprintf(err, errlen, "cannot read '%s/%s'", dir, bad);
	campaign_release(c);
	return -1;
}

void campaign_release(struct campaign *c)
{
	free(c->pts);
	free(c->facts);
	for (int i = 0; i < 2; i++)
		free(c->text[i]);
	free(c->sets.text), free(c->sets.cell);
	free(c->pairs.text), free(c->pairs.cell);
	free(c->kinds);
	*c = (struct campaign){ .dir = c->dir };
}

const struct mpoint *campaign_point(const struct campaign *c, long id)
{
	if (id >= 0 && id < c->np && c->pts[id].point == id)   /* the index numbers its rows from 0 */
		return &c->pts[id];
	for (long i = 0; i < c->np; i++)
		if (c->pts[i].point == id)
			return &c->pts[i];
	return NULL;
}

const char *campaign_fact(const struct mpoint *p, const char *key)
{
	for (long i = 0; i < p->nfacts; i++)
		if (strcmp(p->facts[i].key, key) == 0)
			return p->facts[i].value;
	return NULL;
}

void campaign_earliest(const struct campaign *c, const char *key, char *out, size_t len)
{
	out[0] = '\0';
	for (long i = 0; i < c->nfacts; i++)
		if (strcmp(c->facts[i].key, key) == 0 && (!out[0] || strcmp(c->facts[i].value, out) < 0))
			snprintf(out, len, "%s", c->facts[i].value);
}

long campaign_slow_links(const struct campaign *c, campaign_link_fn *fn, void *ctx)
{
	long n = 0;

	for (long i = 0; i < c->nfacts; i++) {
		const struct mfact *f = &c->facts[i];
		struct mpoint p = { .point = f->point };
		int pairs = 0;
		if (strcmp(f->key, "slow_link") != 0)
			continue;
		for (long k = 0; k < c->pairs.n && !pairs; k++)
			pairs = whole(mtable_at(&c->pairs, k, PAIR_point)) == f->point;
		if (!pairs)
			continue;
		n++;
		if (!fn)
			continue;
		p.facts = campaign_facts(c, f->point, &p.nfacts);
		const char *since = campaign_fact(&p, "start"), *campaign = campaign_fact(&p, "campaign");
		fn(ctx, f->value, since ? since : "", campaign ? campaign : "", f->point);
	}
	return n;
}

/* s into d[len], cut to fit. */
static void copy(char *d, size_t len, const char *s)
{
	size_t n = strnlen(s, len - 1);

	memcpy(d, s, n);
	d[n] = '\0';
}

/* Where a column of points.csv goes in a row: merged.h's source, and aller's column. */
struct dest {
	enum merged_source src;
	int arg;
	int known;
};

#define SET_COUNT(d, s) d = whole(s)
#define SET_RANK(d, s) d = whole(s)
#define SET_ORANK(d, s) d = whole(s)
#define SET_REAL(d, s) d = number(s)
#define SET_OPT(d, s) d = number(s)
#define SET_TEXT(d, s) copy(d, sizeof(d), s)

static void put(struct mrow *r, const struct dest *d, const char *s)
{
	switch (d->src) {
	case MSRC_ALLER:
		switch (d->arg) {
#define SET_(ID, name, kind, value, meaning) case ALLER_COL_##ID: SET_##kind(r->ID, s); break;
		ALLER_COLUMNS(SET_, SET_)
#undef SET_
		}
		break;
	case MSRC_POINT: r->point = whole(s); break;
	case MSRC_LEVEL: r->level = whole(s); break;
	case MSRC_ALGO: SET_TEXT(r->algo, s); break;
	case MSRC_SPLIT: SET_TEXT(r->split, s); break;
	case MSRC_BYTES: r->bytes = number(s); break;
	case MSRC_BOUND: r->BOUND = number(s); break;
	case MSRC_BOTTLENECK: SET_TEXT(r->BOTTLENECK, s); break;
	case MSRC_EFF_BOUND: r->eff_bound = number(s); break;
	case MSRC_ABOVE_BOUND: SET_TEXT(r->above_bound, s); break;
	default: break;
	}
}

/* A row with nothing in it: numbers unknown, texts empty. */
static void blank(struct mrow *r)
{
	memset(r, 0, sizeof(*r));
	r->point = r->level = -1;
	r->bytes = r->eff_bound = NAN;
#define BLANK_COUNT(d) d = -1
#define BLANK_RANK(d) d = -1
#define BLANK_ORANK(d) d = -1
#define BLANK_REAL(d) d = NAN
#define BLANK_OPT(d) d = NAN
#define BLANK_TEXT(d) d[0] = '\0'
#define BLANK_(ID, name, kind, value, meaning) BLANK_##kind(r->ID);
	ALLER_COLUMNS(BLANK_, BLANK_)
#undef BLANK_
}

int campaign_rows(const struct campaign *c, int (*fn)(void *ctx, const struct mrow *r), void *ctx,
		  char *err, size_t errlen)
{
	const struct merged_table_def *def = merged_table(MERGED_CSV);
	char path[4200], *text = NULL, *line, *next, *f[FIELDS];
	struct dest d[FIELDS];
	struct mrow empty, r;
	int n = 0, m, rc = slurp(c->dir, "points.csv", &text, err, errlen);
	long no = 1;

	snprintf(path, sizeof(path), "%s/points.csv", c->dir);
	if (rc == 0 && !text)
		return snprintf(err, errlen, "cannot read '%s'", path), -1;
	blank(&empty);
	for (line = text; rc == 0 && *line; line = next, no++) {   /* whole: each line ends in '\n' */
		next = line + strcspn(line, "\n") + 1;
		next[-1] = '\0';
		m = split_csv(line, f, FIELDS);
		for (int k = 0; no == 1 && k < (n = m); k++) {   /* each column by its name */
			d[k].known = 0;
			for (int i = 0; i < def->n && !d[k].known; i++)
				if (strcmp(def->cols[i].name, f[k]) == 0)
					d[k] = (struct dest){ def->cols[i].src, def->cols[i].arg, 1 };
		}
		if (no == 1 ? strcmp(f[0], "point") != 0 : m != n || whole(f[0]) < 0)
			rc = text_at(err, errlen, path, no, no == 1 ? "not the merge's points.csv: its header does "
				     "not begin 'point,'" : "not a row of the merge's (its fields not the header's, "
				     "or no point's number)");
		if (rc == 0 && no > 1) {
			r = empty;
			for (int k = 0; k < m; k++)
				if (d[k].known)
					put(&r, &d[k], f[k]);
			if (fn(ctx, &r) != 0)
				break;
		}
	}
	if (rc == 0 && no == 1)
		rc = text_at(err, errlen, path, 1, "empty: not the merge's points.csv");
	free(text);
	return rc;
}

int campaign_matrix(const struct campaign *c, long point, long n, double *bw, double *spread)
{
	char err[4400], *text = NULL, *line, *e;
	long set = -1, src, dst, index = -1;
	double v, best, avg;
	int rc = 0, k;

	for (long i = 0; i < n * n; i++)
		bw[i] = spread ? (spread[i] = NAN) : NAN;
	for (long r = 0; r < c->pairs.n && index < 0; r++)
		if (whole(mtable_at(&c->pairs, r, PAIR_point)) == point && *mtable_at(&c->pairs, r, PAIR_index))
			index = whole(mtable_at(&c->pairs, r, PAIR_index));
	if (index < 0 || slurp(c->dir, MERGED_PAIRS_DAT, &text, err, sizeof(err)) != 0 || !text)
		return -1;
	for (line = text; rc == 0 && set <= index && *line; line = e + 1) {
		*(e = line + strcspn(line, "\n")) = '\0';   /* a line's fields, never the next one's: each ends in '\n' */
		if (!strncmp(line, "# point:", 8))
			set++;
		else if (set == index && line[0] != '#' && (k = sscanf(line, "%ld %ld %lf %lf %lf", &src, &dst, &v, &best,
								       &avg)) >= 3 && !(rc = src >= 0 && src < n && dst >= 0 && dst < n ? 0 : -1))
			bw[src * n + dst] = spread ? (spread[src * n + dst] = k == 5 ? avg / best - 1 : NAN, v) : v;
	}
	free(text);
	return set >= index ? rc : -1;
}
