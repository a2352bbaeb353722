/* split.c: see split.h. */
#include "split.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buffers/verify.h"
#include "bytes.h"
#include "grow.h"
#include "text.h"

static const char allowed[] = "allowed are uniform, spread:F, zipf:S[:SEED], hot:K:F, idle:F, "
			      "rotate:K:F, lognormal:SIGMA[:SEED], nodes:F, matrix:FILE and trace:FILE";

/* The spec's fields after its name, split at ':' (at most 3); their number. */
static int fields(char *rest, char *f[3])
{
	int n = 0;

	while (rest && n < 3) {
		f[n++] = rest;
		rest = strchr(rest, ':');
		if (rest)
			*rest++ = '\0';
	}
	return rest ? 4 : n;
}

/* Why spec (of kind buf, the name before its first ':') is not a split. */
static void split_error(const char *spec, const char *buf, char *err, size_t errlen)
{
	if (strcmp(buf, "spread") == 0 || strcmp(buf, "idle") == 0 || strcmp(buf, "nodes") == 0)
		snprintf(err, errlen, "invalid split '%s': %s takes a fraction F, 0 <= F <= 1%s "
			 "(e.g. %s:0.5)", spec, buf, buf[0] == 'i' ? " and F < 1" : "", buf);
	else if (strcmp(buf, "zipf") == 0)
		snprintf(err, errlen, "invalid split '%s': zipf takes an exponent S, 0 <= S <= 16, "
			 "and an optional seed, a non-negative integer (e.g. zipf:1.2 or zipf:1.2:7)",
			 spec);
	else if (strcmp(buf, "lognormal") == 0)
		snprintf(err, errlen, "invalid split '%s': lognormal takes the spread SIGMA of the "
			 "log of each receiver's load, 0 <= SIGMA <= 8, and an optional seed, a "
			 "non-negative integer (e.g. lognormal:1 or lognormal:1:7)", spec);
	else if (strcmp(buf, "hot") == 0 || strcmp(buf, "rotate") == 0)
		snprintf(err, errlen, "invalid split '%s': %s takes K receivers (a positive integer) "
			 "and the fraction F of the traffic they get, 0 <= F <= 1 (e.g. %s:1:0.5)",
			 spec, buf, buf);
	else if (strcmp(buf, "matrix") == 0 || strcmp(buf, "trace") == 0)
		snprintf(err, errlen, "invalid split '%s': %s takes a file (%s:FILE), its "
			 "name without spaces", spec, buf, buf);
	else
		snprintf(err, errlen, "invalid split '%s': %s", spec, allowed);
}

int split_parse(struct split *s, const char *spec, char *err, size_t errlen)
{
	char buf[SPLIT_SPEC_MAX], *rest, *f[3];
	long seed = (long)SPLIT_DEFAULT_SEED;
	int n;

	memset(s, 0, sizeof(*s));
	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "split '%.40s...' is too long: at most %d characters", spec,
			 SPLIT_SPEC_MAX - 1);
		return -1;
	}
	strcpy(s->spec, spec);
	strcpy(buf, spec);
	rest = strchr(buf, ':');
	if (rest)
		*rest++ = '\0';
	n = rest ? fields(rest, f) : 0;
	s->seed = SPLIT_DEFAULT_SEED;
	if (strcmp(buf, "uniform") == 0 && n == 0) {
		s->kind = SPLIT_UNIFORM;
		return 0;
	}
	if ((strcmp(buf, "matrix") == 0 || strcmp(buf, "trace") == 0) && rest && *rest &&
	    !strpbrk(rest, " \t\n")) {
		s->kind = buf[0] == 'm' ? SPLIT_MATRIX : SPLIT_TRACE;
		return 0;
	}
	if (strcmp(buf, "spread") == 0 && n == 1 && parse_double(f[0], 0, 1, &s->f, NULL) == 0) {
		s->kind = SPLIT_SPREAD;
		return 0;
	}
	if (strcmp(buf, "nodes") == 0 && n == 1 && parse_double(f[0], 0, 1, &s->f, NULL) == 0) {
		s->kind = SPLIT_NODES;
		return 0;
	}
	if (strcmp(buf, "idle") == 0 && n == 1 && parse_double(f[0], 0, 1, &s->f, NULL) == 0 && s->f < 1) {
		s->kind = SPLIT_IDLE;
		return 0;
	}
	if ((strcmp(buf, "zipf") == 0 || strcmp(buf, "lognormal") == 0) && (n == 1 || n == 2) &&
	    parse_double(f[0], 0, buf[0] == 'z' ? 16 : 8, &s->f, NULL) == 0 &&
	    (n == 1 || parse_long(f[1], 0, 1L << 62, &seed) == 0)) {
		s->kind = buf[0] == 'z' ? SPLIT_ZIPF : SPLIT_LOGNORMAL;
		s->seed = (unsigned long)seed;
		return 0;
	}
	if ((strcmp(buf, "hot") == 0 || strcmp(buf, "rotate") == 0) && n == 2 &&
	    parse_long(f[0], 1, 1L << 40, &s->k) == 0 && parse_double(f[1], 0, 1, &s->f, NULL) == 0) {
		s->kind = buf[0] == 'h' ? SPLIT_HOT : SPLIT_ROTATE;
		return 0;
	}
	split_error(spec, buf, err, errlen);
	return -1;
}

/* Whether two specs name one file ("matrix:m.txt", "matrix:./m.txt", a link to it). */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	const char *fa = strchr(a, ':'), *fb = strchr(b, ':');

	if (strcmp(a, b) == 0)
		return 1;
	return fa && fb && stat(fa + 1, &sa) == 0 && stat(fb + 1, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int split_same(const struct split *a, const struct split *b)
{
	return a->kind == b->kind && a->f == b->f && a->k == b->k && a->seed == b->seed &&
	       (!split_has_file(a) || same_file(a->spec, b->spec));
}

void split_describe(const struct split *s, char *buf, size_t len)
{
	const char *args = strchr(s->spec, ':');

	if ((s->kind == SPLIT_ZIPF || s->kind == SPLIT_LOGNORMAL) && !strchr(args + 1, ':'))
		snprintf(buf, len, "%s:%lu", s->spec, s->seed);
	else
		snprintf(buf, len, "%s", s->spec);
}

int split_uneven(const struct split *s)
{
	return s->kind != SPLIT_UNIFORM;
}

int split_varies(const struct split *s)
{
	return s->kind == SPLIT_ROTATE || (s->kind == SPLIT_TRACE && s->nmat != 1);
}

double split_weights(const struct split *s)
{
	return split_has_file(s) ? (double)s->n * (double)s->n * (double)s->nmat * sizeof(double) : 0;
}

int split_weights_check(const struct split *s, char *err, size_t errlen)
{
	double bytes = split_weights(s);

	if (bytes <= (double)SPLIT_WEIGHTS_MAX)
		return 0;
	snprintf(err, errlen, "--split=%s: %ld matri%s of %ld x %ld weights hold %.0f MiB in every "
		 "task: at most %ld MiB (fewer calls, or a smaller N)", s->spec, s->nmat,
		 s->nmat == 1 ? "x" : "ces", s->n, s->n, bytes / (1 << 20), SPLIT_WEIGHTS_MAX >> 20);
	return -1;
}

int split_has_file(const struct split *s)
{
	return s->kind == SPLIT_MATRIX || s->kind == SPLIT_TRACE;
}

int split_fits(const struct split *s, long g)
{
	return !split_has_file(s) || g == s->n;
}

/* One token of a matrix file: 0, or -1 with the message. */
static int matrix_token(const char *tok, size_t len, const char *what, long line, double *v,
			char *err, size_t errlen)
{
	char word[64];

	if (len >= sizeof(word) || (snprintf(word, sizeof(word), "%.*s", (int)len, tok),
				    parse_double(word, -INFINITY, INFINITY, v, NULL) != 0)) {
		snprintf(err, errlen, "%s: '%.*s' on line %ld is not a number", what,
			 len > 40 ? 40 : (int)len, tok, line);
		return -1;
	}
	if (*v < 0) {
		snprintf(err, errlen, "%s: the weight %s on line %ld is negative: "
			 "allowed are numbers >= 0", what, word, line);
		return -1;
	}
	return 0;
}

/* A matrix file being read: its weights so far, as running sums. */
struct matrix_read {
	const char *what;           /* "matrix file 'F'", or a trace's "trace file 'F', matrix K" */
	long n, rows, line, have;   /* n: the first row's numbers (-1 before it) */
	size_t cap;
	double *cum, sum;
	char *err;
	size_t errlen;
};

/* One more weight; 0, or -1 with a message. */
static int matrix_push(struct matrix_read *m, double v)
{
	if ((size_t)m->have == m->cap) {
		double *c = NULL;
		if (m->have < SPLIT_MATRIX_MAX * SPLIT_MATRIX_MAX)
			c = grow(m->cum, &m->cap, (size_t)m->have + 1, sizeof(*m->cum), 1024);
		if (!c) {
			snprintf(m->err, m->errlen, "%s: too large (at most %ld x %ld)",
				 m->what, SPLIT_MATRIX_MAX, SPLIT_MATRIX_MAX);
			return -1;
		}
		m->cum = c;
	}
	m->sum += v;
	if (!isfinite(m->sum)) {
		snprintf(m->err, m->errlen, "%s: the weights add up past the largest "
			 "number (%g) on line %ld: scale them down", m->what, DBL_MAX, m->line);
		return -1;
	}
	m->cum[m->have++] = m->sum;
	return 0;
}

/* The numbers of one line, p..stop (its comment cut); 0, or -1 with a message. */
static int matrix_line(struct matrix_read *m, const char *p, const char *stop)
{
	long cols = 0;

	while (p < stop) {
		size_t len;
		double v;
		while (p < stop && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		len = strcspn(p, " \t\r#\n");
		if (p >= stop || len == 0)
			break;
		if (matrix_token(p, len, m->what, m->line, &v, m->err, m->errlen) != 0 ||
		    matrix_push(m, v) != 0)
			return -1;
		p += len;
		cols++;
	}
	if (cols == 0)
		return 0;
	if (m->n < 0)
		m->n = cols;
	if (cols != m->n) {
		snprintf(m->err, m->errlen, "%s: line %ld has %ld numbers, the first "
			 "row %ld: a matrix must be N x N", m->what, m->line, cols, m->n);
		return -1;
	}
	if (m->rows == m->n) {
		snprintf(m->err, m->errlen, "%s: more than %ld rows of %ld numbers "
			 "(line %ld): a matrix must be N x N", m->what, m->n, m->n, m->line);
		return -1;
	}
	m->rows++;
	return 0;
}

/*
 * One matrix of text (up to end), its first line numbered line0 + 1, named
 * `what` in the messages; 0, or -1 with the message.
 */
static int matrix_parse(const char *text, const char *end, const char *what, long line0,
			long *np, double **cump, char *err, size_t errlen)
{
	struct matrix_read m = { what, -1, 0, line0, 0, 0, NULL, 0, err, errlen };
	const char *p = text;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *stop = eol ? eol : end;
		const char *hash = memchr(p, '#', (size_t)(stop - p));
		m.line++;
		if (matrix_line(&m, p, hash ? hash : stop) != 0)
			goto fail;
		p = eol ? eol + 1 : end;
	}
	if (m.n < 0) {
		snprintf(err, errlen, "%s has no numbers: expected N lines of N weights", what);
		goto fail;
	}
	if (m.rows != m.n) {
		snprintf(err, errlen, "%s has %ld rows of %ld numbers: a matrix must be N x N", what,
			 m.rows, m.n);
		goto fail;
	}
	if (m.sum <= 0) {
		snprintf(err, errlen, "%s: every weight is 0: nothing to send", what);
		goto fail;
	}
	*np = m.n;
	*cump = m.cum;
	return 0;
fail:
	free(m.cum);
	return -1;
}

int split_matrix_parse(const char *text, const char *file, long *np, double **cump, char *err,
		       size_t errlen)
{
	char what[300];

	snprintf(what, sizeof(what), "matrix file '%s'", file);
	return matrix_parse(text, text + strlen(text), what, 0, np, cump, err, errlen);
}

/* Whether the line at p (up to a newline or the end) holds nothing but blanks. */
static int blank_line(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return *p == '\n' || *p == '\0';
}

/* The line after p's, counted in *line. */
static const char *next_line(const char *p, long *line)
{
	const char *q = strchr(p, '\n');

	(*line)++;
	return q ? q + 1 : p + strlen(p);
}

/* Where the matrix from start ends: its lines up to a blank one (comments belong to it). */
static const char *matrix_end(const char *start, long *line)
{
	const char *q = start;

	while (*q && !blank_line(q))
		q = next_line(q, line);
	return q;
}

/* Matrix k (n x n, cum: taken) appended to *all; 0, or -1 out of memory. */
static int append_matrix(double **all, size_t *cap, long k, long n, double *cum)
{
	double *more = grow(*all, cap, (size_t)((k + 1) * n * n), sizeof(double), 1024);

	if (more) {
		*all = more;
		memcpy(more + k * n * n, cum, sizeof(double) * (size_t)(n * n));
	}
	free(cum);
	return more ? 0 : -1;
}

int split_trace_parse(const char *text, const char *file, long *np, long *nmat, double **cump,
		      char *err, size_t errlen)
{
	const char *p = text;
	double *all = NULL;
	size_t cap = 0;
	long line = 0, k = 0;

	*np = -1;
	while (*p) {
		const char *start = p, *q;
		long first = line, n;
		double *cum;
		char what[340];
		q = matrix_end(start, &line);
		if (q == start) {   /* a blank line between matrices */
			p = next_line(q, &line);
			continue;
		}
		snprintf(what, sizeof(what), "trace file '%s', matrix %ld (from line %ld)", file, k + 1,
			 first + 1);
		if (matrix_parse(start, q, what, first, &n, &cum, err, errlen) != 0)
			goto fail;
		if (*np >= 0 && n != *np) {
			snprintf(err, errlen, "%s is %ld x %ld, the first %ld x %ld: every matrix of a "
				 "trace is N x N", what, n, n, *np, *np);
			free(cum);
			goto fail;
		}
		*np = n;
		if (append_matrix(&all, &cap, k++, n, cum) != 0) {
			snprintf(err, errlen, "trace file '%s': out of memory", file);
			goto fail;
		}
		p = q;
	}
	if (k == 0) {
		snprintf(err, errlen, "trace file '%s' has no matrices: expected N x N matrices, a "
			 "blank line between them", file);
		goto fail;
	}
	*nmat = k;
	*cump = all;
	return 0;
fail:
	free(all);
	return -1;
}

const char *split_file(const struct split *s)
{
	return strchr(s->spec, ':') + 1;
}

int split_matrix_load(struct split *s, char *err, size_t errlen)
{
	const char *file = split_file(s);
	struct strbuf text;
	char *body;
	int rc;

	if (text_load(file, s->kind == SPLIT_TRACE ? TEXT_TRACE : TEXT_MATRIX, &text, err, errlen) != 0)
		return -1;
	s->nmat = 1;
	/* a UTF-8 byte-order mark (editors on Windows write one) is not part of the first number */
	body = strncmp(text.s, "\xef\xbb\xbf", 3) == 0 ? text.s + 3 : text.s;
	rc = s->kind == SPLIT_TRACE ? split_trace_parse(body, file, &s->n, &s->nmat, &s->cum, err, errlen)
				    : split_matrix_parse(body, file, &s->n, &s->cum, err, errlen);
	strbuf_release(&text);
	return rc;
}

void split_free(struct split *s)
{
	free(s->cum);
	s->cum = NULL;
	s->n = s->nmat = 0;
}

/*
 * Where the first k + 1 of `n` shares end, of a total t (cumulative rounding):
 * floor(t x cum[k] / cum[n - 1]), exactly t at the last.
 */
static long share_end(long t, const double *cum, long k, long n)
{
	long double e;

	if (k < 0)
		return 0;
	if (k == n - 1)
		return t;
	e = floorl((long double)t * (long double)cum[k] / (long double)cum[n - 1]);
	return e < 0 ? 0 : e > (long double)t ? t : (long)e;
}

/* A standard normal number, the same on every task for (seed, colour, k): Box-Muller. */
static double normal_at(unsigned long seed, long color, long k)
{
	unsigned long long h = verify_mix(seed * 0x9e3779b97f4a7c15ULL ^
					  verify_mix((unsigned long long)color << 32 ^ (unsigned long long)k));
	double u1 = ((double)(h >> 11) + 1) / 9007199254740993.0;   /* (0, 1] */
	double u2 = (double)(verify_mix(h) >> 11) / 9007199254740992.0;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* The share weight of position k of a plan with a table (of communicator colour). */
static double weight(const struct split *s, long g, long k, long color)
{
	switch (s->kind) {
	case SPLIT_LOGNORMAL:
		return exp(s->f * normal_at(s->seed, color, k));
	case SPLIT_NODES:   /* one node, until split_plan_nodes says otherwise */
		return k == 0 ? s->f : (1 - s->f) / (double)(g - 1);
	case SPLIT_SPREAD:
		return (1 - s->f) / (double)g + s->f * (double)k / ((double)g * (double)(g - 1) / 2);
	case SPLIT_ZIPF:
		return pow((double)(k + 1), -s->f);
	case SPLIT_HOT:
	case SPLIT_ROTATE:
		return k < s->k ? s->f / (double)s->k : (1 - s->f) / (double)(g - s->k);
	case SPLIT_IDLE: {
		long idle = (long)floor(s->f * (double)g);
		return k < g - (idle < g ? idle : g - 1) ? 1 : 0;
	}
	default:
		return 1;
	}
}

int split_plan_init(struct split_plan *p, const struct split *s, long g, long c, long color,
		    long iter)
{
	int table = s->kind != SPLIT_UNIFORM && !split_has_file(s) && g > 1 &&
		    !((s->kind == SPLIT_HOT || s->kind == SPLIT_ROTATE) && s->k >= g);
	double *cum;

	p->s = s;
	p->g = g;
	p->c = c;
	p->color = color;
	p->iter = iter;
	p->pos = NULL;
	if (!table)
		return 0;
	p->pos = malloc(sizeof(long) * (size_t)g);
	cum = malloc(sizeof(double) * (size_t)g);
	if (!p->pos || !cum) {
		free(p->pos);
		free(cum);
		p->pos = NULL;
		return -1;
	}
	for (long k = 0; k < g; k++)
		cum[k] = (k ? cum[k - 1] : 0) + weight(s, g, k, color);
	for (long k = 0; k < g; k++)
		p->pos[k] = share_end(g * c, cum, k, g) - share_end(g * c, cum, k - 1, g);
	free(cum);
	return 0;
}

/* A task's node and rank, to sort a communicator's tasks node by node. */
struct node_rank {
	int node;
	long rank;
};

static int by_node(const void *a, const void *b)
{
	const struct node_rank *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

int split_plan_nodes(struct split_plan *p, const int *node)
{
	long g = p->g;
	struct node_rank *t;
	double *cum;
	long nnodes = 0;

	if (p->s->kind != SPLIT_NODES || !p->pos || g < 2)
		return 0;
	t = malloc(sizeof(*t) * (size_t)g);
	cum = malloc(sizeof(double) * (size_t)g);
	if (!t || !cum) {
		free(t);
		free(cum);
		return -1;
	}
	for (long k = 0; k < g; k++)
		t[k] = (struct node_rank){ node[k], k };
	qsort(t, (size_t)g, sizeof(*t), by_node);
	for (long k = 0; k < g; k++)
		nnodes += k == 0 || t[k].node != t[k - 1].node;
	/* each node 1 / nnodes; of it the first task F, the others (1 - F) evenly */
	for (long a = 0, b; a < g; a = b) {
		for (b = a + 1; b < g && t[b].node == t[a].node; b++)
			;
		for (long k = a; k < b; k++)
			cum[t[k].rank] = (b - a == 1 ? 1 : k == a ? p->s->f : (1 - p->s->f) /
				(double)(b - a - 1)) / (double)nnodes;
	}
	for (long k = 1; k < g; k++)
		cum[k] += cum[k - 1];
	for (long k = 0; k < g; k++)
		p->pos[k] = share_end(g * p->c, cum, k, g) - share_end(g * p->c, cum, k - 1, g);
	free(t);
	free(cum);
	return 0;
}

void split_plan_free(struct split_plan *p)
{
	free(p->pos);
	p->pos = NULL;
}

/* A pseudo-random permutation of [0, 2^(2 half)): four Feistel rounds. */
static unsigned long long feistel(unsigned long long x, int half, unsigned long long key)
{
	unsigned long long mask = (1ULL << half) - 1, l = x >> half, r = x & mask;

	for (unsigned long long round = 0; round < 4; round++) {
		unsigned long long t = l ^ (verify_mix(r ^ key ^ round * 0x9e3779b97f4a7c15ULL) & mask);
		l = r;
		r = t;
	}
	return l << half | r;
}

/* Sender i's place (0 = the most popular) for receiver j: its own permutation (cycle walk). */
static long zipf_place(const struct split_plan *p, long i, long j)
{
	unsigned long long key = verify_mix(p->s->seed * 0xd1b54a32d192ed03ULL ^
					    verify_mix((unsigned long long)p->color << 40 ^
						       (unsigned long long)i));
	unsigned long long x = (unsigned long long)j;
	int half = 1;

	while ((1ULL << (2 * half)) < (unsigned long long)p->g)
		half++;
	do
		x = feistel(x, half, key);
	while (x >= (unsigned long long)p->g);
	return (long)x;
}

long split_count(const struct split_plan *p, long i, long j)
{
	const struct split *s = p->s;
	long g = p->g;

	if (split_has_file(s)) {   /* a trace: call `iter`'s matrix, cycling */
		long t = g * g * p->c, e = i * s->n + j, last = s->n * s->n;
		const double *cum = s->cum + (s->kind == SPLIT_TRACE ? p->iter % s->nmat * last : 0);
		return share_end(t, cum, e, last) - share_end(t, cum, e - 1, last);
	}
	if (!p->pos)
		return p->c;
	switch (s->kind) {
	case SPLIT_SPREAD:
		return p->pos[(j - i + g) % g];
	case SPLIT_ZIPF:
		return p->pos[zipf_place(p, i, j)];
	case SPLIT_ROTATE: {
		unsigned __int128 shift = (unsigned __int128)(unsigned long)p->iter *
					  (unsigned long)s->k % (unsigned long)g;
		return p->pos[(j - (long)shift + g) % g];
	}
	default:
		return p->pos[j];
	}
}

int split_layout_alloc(struct split_layout *v, long g)
{
	size_t n = (size_t)g;

	memset(v, 0, sizeof(*v));
	v->g = g;
	v->scounts = malloc(sizeof(long) * n);
	v->sdispls = malloc(sizeof(long) * n);
	v->rcounts = malloc(sizeof(long) * n);
	v->rdispls = malloc(sizeof(long) * n);
	if (v->scounts && v->sdispls && v->rcounts && v->rdispls)
		return 0;
	split_layout_free(v);
	return -1;
}

void split_layout_fill(struct split_layout *v, const struct split_plan *p, long me)
{
	v->stotal = v->rtotal = 0;
	for (long k = 0; k < v->g; k++) {
		v->scounts[k] = split_count(p, me, k);
		v->sdispls[k] = v->stotal;
		v->stotal += v->scounts[k];
		v->rcounts[k] = split_count(p, k, me);
		v->rdispls[k] = v->rtotal;
		v->rtotal += v->rcounts[k];
	}
}

void split_layout_free(struct split_layout *v)
{
	free(v->scounts);
	free(v->sdispls);
	free(v->rcounts);
	free(v->rdispls);
	memset(v, 0, sizeof(*v));
}

long split_layout_max(const struct split_layout *v)
{
	long m = 0;

	for (long k = 0; k < v->g; k++) {
		long e = v->sdispls[k] + v->scounts[k], r = v->rdispls[k] + v->rcounts[k];
		m = e > m ? e : m;
		m = r > m ? r : m;
	}
	return m;
}
