/* parse.c: see parse.h. */
#include "parse.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "splits.h"

static const char *const column_names[] = ALLER_COLUMN_NAMES;
static const char *const algo_names[ALLER_NALGOS] = ALLER_ALGO_NAMES;

void parser_init(struct parser *p, struct point *pt, int header_only)
{
	memset(p, 0, sizeof(*p));
	p->pt = pt;
	p->header_only = header_only;
	p->level = -1;
}

static void warn(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (p->warnings >= PARSE_MAX_WARNINGS) {
		p->suppressed++;
		return;
	}
	p->warnings++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->warn)
		p->warn(p->ctx, p->pt->path, p->lineno, msg);
}

/* A whole token of digits: 0 and the value, or -1. */
static int parse_uint(const char *s, size_t n, long *out)
{
	long v = 0;

	if (n == 0 || n > 18)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* A finite, non-negative decimal number: digits[.digits][e[+-]digits]. */
static int is_number(const char *s, size_t n)
{
	size_t i = 0, digits = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, digits++;
	}
	if (digits == 0)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t e = 0;
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, e++;
		if (e == 0)
			return 0;
	}
	return i == n;
}

static char *dup_value(const char *s, size_t n)
{
	char *v = malloc(n + 1);
	if (v) {
		memcpy(v, s, n);
		v[n] = '\0';
	}
	return v;
}

static long value_long(const char *s, size_t n)
{
	long v;
	return parse_uint(s, n, &v) == 0 ? v : -1;
}

/* What a header key sets in the point (point.h's POINT_KEYS). */
enum key_kind { K_STR, K_LONG, K_HEADER, K_PROVENANCE, K_REVEAL, K_EXIT, K_INCOMPLETE, K_SETTING,
		K_FAILED, K_FLOOR, K_NONE };

struct key {
	const char *key;
	enum key_kind kind;
	size_t field;  /* offsetof the char * or long in struct point; K_SETTING, K_HEADER: which setting */
	int fact;      /* each line also a fact of the point */
};

/* The field of a key's line: its offset, or (settings) its index; none for NONE. */
#define FIELD_STR(k, f) offsetof(struct point, f)
#define FIELD_LONG FIELD_STR
#define FIELD_PROVENANCE FIELD_STR
#define FIELD_REVEAL FIELD_STR
#define FIELD_EXIT FIELD_STR
#define FIELD_INCOMPLETE FIELD_STR
#define FIELD_FAILED FIELD_STR
#define FIELD_FLOOR FIELD_STR
#define FIELD_HEADER(k, f) PS_##k
#define FIELD_SETTING(k, f) PS_##k
#define FIELD_NONE(k, f) 0
#define KEY(k, how, f, fact) { ALLER_KEY_##k, K_##how, FIELD_##how(k, f), fact },
static const struct key keys[] = { POINT_KEYS(KEY) };
#undef KEY

static void set_key(struct point *pt, const struct key *k, const char *val, size_t vlen)
{
	char **text = k->kind == K_SETTING || k->kind == K_HEADER ? &pt->setting[k->field]
								  : (char **)((char *)pt + k->field);
	long *num = (long *)((char *)pt + k->field);
	size_t n = strlen(ALLER_REVEAL_UNAVAILABLE);

	switch (k->kind) {
	case K_HEADER:   /* and its value, the version */
		pt->has_header = 1;
		break;
	case K_PROVENANCE:
		pt->has_provenance = 1;
		break;
	case K_REVEAL:
		/* "unavailable": nothing was instrumented, the timings are clean */
		if (vlen >= n && memcmp(val, ALLER_REVEAL_UNAVAILABLE, n) == 0)
			return;
		break;
	case K_INCOMPLETE:
		pt->marked_incomplete = 1;
		break;
	case K_FAILED:
		pt->failed_sets++;
		break;
	case K_FLOOR:
		pt->floor_failed++;
		break;
	case K_EXIT:
		*num = value_long(val, vlen);
		if (*num < 0)
			*num = 255;
		return;
	case K_LONG:
		if (*num < 0)
			*num = value_long(val, vlen);
		return;
	case K_STR:
	case K_SETTING:
		break;
	case K_NONE:
		return;
	}
	if (!*text)
		*text = dup_value(val, vlen);
}

/* "# level: <index> ..." opens a data set: its index, or the next one. */
static int level(struct parser *p, const char *val, size_t vlen)
{
	long v = -1;
	const char *space = memchr(val, ' ', vlen);   /* the line is not NUL-terminated */
	size_t n = space ? (size_t)(space - val) : vlen;

	p->level = parse_uint(val, n, &v) == 0 && v < 1000000 ? (int)v : p->level + 1;
	p->algo = 0;   /* older files: MPI_Alltoall */
	p->split = 0;  /* no '# split:': uniform */
	return p->header_only;
}

/* "# algo: <name>": the data set's algorithm; an unknown one drops its rows. */
static void algo(struct parser *p, const char *val, size_t vlen)
{
	for (int i = 0; i < ALLER_NALGOS; i++)
		if (vlen == strlen(algo_names[i]) && memcmp(val, algo_names[i], vlen) == 0) {
			p->algo = i;
			return;
		}
	p->algo = -1;
	warn(p, "unknown algorithm '%.*s': the data set's rows dropped", vlen > 40 ? 40 : (int)vlen,
	     val);
}

/* "# split: <spec>": the data set's split; past SPLITS_MAX its rows are dropped. */
static void split(struct parser *p, const char *val, size_t vlen)
{
	if ((p->split = splits_id(val, vlen)) < 0)
		warn(p, "split '%.*s' is one more than %d: the data set's rows dropped",
		     vlen > 40 ? 40 : (int)vlen, val, SPLITS_MAX);
}

static int key_is(const char *key, size_t klen, const char *name)
{
	return klen == strlen(name) && memcmp(key, name, klen) == 0;
}

/*
 * What aller's own header says beside the job's provenance (point.h's
 * point_mismatch): how many headers, its mode and node count (the first);
 * and the job's tasks ("8 (2 per node)": 8).
 */
static void own(struct point *pt, const char *key, size_t klen, const char *val, size_t vlen)
{
	size_t n = 0;

	if (key_is(key, klen, ALLER_KEY_ALLER))
		pt->headers++;
	else if (key_is(key, klen, ALLER_KEY_MODE) && !pt->own_mode)
		pt->own_mode = dup_value(val, vlen);
	else if (key_is(key, klen, ALLER_KEY_NODES) && pt->own_nodes < 0)
		pt->own_nodes = value_long(val, vlen);
	else if (key_is(key, klen, ALLER_KEY_TASKS) && pt->tasks < 0) {
		while (n < vlen && val[n] >= '0' && val[n] <= '9')
			n++;
		pt->tasks = value_long(val, n);
	}
}

/* "# key: value" (or "# Done"); returns 1 when a header-only parse is done. */
static int comment(struct parser *p, const char *line, size_t len)
{
	const char *key = line + 2, *colon, *val;
	size_t klen, vlen;

	if (len == strlen(ALLER_DONE) && memcmp(line, ALLER_DONE, len) == 0) {
		p->pt->done = 1;
		return 0;
	}
	/* "# pair_hosts: rank host ...": the rows up to the next comment are the tasks' hosts */
	p->pair_hosts = len >= strlen("# " ALLER_KEY_PAIR_HOSTS ":") &&
			memcmp(line, "# " ALLER_KEY_PAIR_HOSTS ":", strlen("# " ALLER_KEY_PAIR_HOSTS ":")) == 0;
	if (len < 4 || line[1] != ' ')
		return 0;
	colon = memchr(key, ':', len - 2);
	if (!colon || colon + 1 >= line + len || colon[1] != ' ')
		return 0;
	klen = (size_t)(colon - key);
	val = colon + 2;
	vlen = len - (size_t)(val - line);
	if (klen == strlen(ALLER_KEY_LEVEL) && memcmp(key, ALLER_KEY_LEVEL, klen) == 0) {
		p->last_count = 0;   /* a data set begins */
		return level(p, val, vlen);
	}
	if (klen == strlen(ALLER_KEY_ALGO) && memcmp(key, ALLER_KEY_ALGO, klen) == 0) {
		p->last_count = 0;
		algo(p, val, vlen);
		return 0;
	}
	if (klen == strlen(ALLER_KEY_SPLIT) && memcmp(key, ALLER_KEY_SPLIT, klen) == 0) {
		p->last_count = 0;
		split(p, val, vlen);
		return 0;
	}
	if (klen == strlen(ALLER_KEY_FAILED) && memcmp(key, ALLER_KEY_FAILED, klen) == 0)
		warn(p, "data set failed, no rows: %.*s", vlen > 200 ? 200 : (int)vlen, val);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (klen == strlen(keys[i].key) && memcmp(key, keys[i].key, klen) == 0) {
			if (keys[i].fact && point_add_fact(p->pt, keys[i].key, val, vlen) != 0 && p->pt->facts_cut == 1)
				warn(p, "the header's facts (fabric, hosts) past " POINT_FACTS_TEXT " dropped, this line's "
				     "and those after it: the point's fabric and hosts are cut there");
			set_key(p->pt, &keys[i], val, vlen);
			break;
		}
	own(p->pt, key, klen, val, vlen);
	return 0;
}

/* Whether a line has control characters (but tabs): binary data. */
static int binary(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 1;
	}
	return 0;
}

static void warn_binary(struct parser *p)
{
	if (!p->warned_binary++)
		warn(p, "binary data: line skipped (further ones silently)");
}

/*
 * The columns of a data line (offsets and lengths of the first
 * ALLER_NCOLS); their count, or -1 for binary data. One pass over the line.
 */
enum { C_TEXT, C_SPACE, C_CONTROL };
/* Each byte's class, one look-up a byte (the hot loop of a merge: 30% of its time with compares). */
static const unsigned char byte_class[256] = {
	[0 ... 8] = C_CONTROL, ['\t'] = C_SPACE, [10 ... 0x1f] = C_CONTROL, [' '] = C_SPACE,
	[0x7f] = C_CONTROL,
};

static int split_columns(const char *line, size_t len, struct crow *r)
{
	const unsigned char *u = (const unsigned char *)line;
	size_t i = 0;
	int n = 0;

	while (i < len) {
		size_t start;
		while (i < len && byte_class[u[i]] == C_SPACE)
			i++;
		if (i == len)
			break;
		start = i;
		for (; i < len && byte_class[u[i]] != C_SPACE; i++)
			if (byte_class[u[i]] == C_CONTROL)
				return -1;
		if (n < ALLER_NCOLS) {
			r->off[n] = (uint16_t)start;
			r->len[n] = (uint16_t)(i - start);
		}
		n++;
	}
	return n;
}

/* Every column a number of its kind ("-" where optional); the first three kept in r.
 * 0, or -1 with a warning. */
static int check_columns(struct parser *p, const char *line, struct crow *r, int n)
{
	enum kind { COUNT, RANK, REAL, OPT, ORANK, TEXT };
#define KIND_(ID, name, kind, value, meaning) kind,
	static const enum kind kinds[ALLER_NCOLS] = { ALLER_COLUMNS(KIND_, KIND_) };
#undef KIND_
	long *keep[3] = { &r->comms, &r->commsize, &r->count };

	for (int c = 0; c < n; c++) {
		const char *tok = line + r->off[c];
		long v = 0;
		int missing = (kinds[c] == OPT || kinds[c] == ORANK) && r->len[c] == 1 && *tok == '-';
		int ok = missing || kinds[c] == TEXT || (kinds[c] == COUNT || kinds[c] == RANK || kinds[c] == ORANK
					     ? parse_uint(tok, r->len[c], &v) == 0 &&
						       (kinds[c] != COUNT || v > 0)
					     : is_number(tok, r->len[c]));
		if (!ok) {
			warn(p, "corrupt %s '%.*s': row dropped", column_names[c],
			     r->len[c] > 40 ? 40 : (int)r->len[c], tok);
			return -1;
		}
		if (c <= ALLER_COL_COUNT)
			*keep[c] = v;
	}
	return 0;
}

/* A row after "# pair_hosts:", "RANK HOST ...": the fact "pair_host RANK HOST". */
static void pair_host(struct parser *p, const char *line, size_t len)
{
	struct crow r;
	long rank;

	if (!p->pair_hosts || len > PARSE_MAX_DATA_LINE)
		return;
	memset(&r, 0, sizeof(r));
	if (split_columns(line, len, &r) != 4 || parse_uint(line + r.off[0], r.len[0], &rank) != 0)
		return;
	point_add_fact(p->pt, "pair_host", line + r.off[0], (size_t)(r.off[1] + r.len[1] - r.off[0]));
}

/*
 * A row of a --pairs matrix (ALLER_PAIRS_COLUMN_HEADER), "SRC DST SRC_HOST
 * DST_HOST GBS ...": its sender, receiver and GB/s onto the point's matrix,
 * a blank line before each new sender; a row that is not one is left out.
 */
static void pair_row(struct parser *p, const char *line, size_t len)
{
	struct point *pt = p->pt;
	struct crow r;
	long src, dst;
	char *m;
	size_t need;

	memset(&r, 0, sizeof(r));
	if (len > PARSE_MAX_DATA_LINE || split_columns(line, len, &r) != 7 ||
	    parse_uint(line + r.off[0], r.len[0], &src) != 0 || parse_uint(line + r.off[1], r.len[1], &dst) != 0 ||
	    r.len[4] + r.len[5] + r.len[6] > 96 || (pt->nmatrix > 0 && src < pt->matrix_src))
		return;
	for (int k = 4; k < 7; k++)
		if (!is_number(line + r.off[k], r.len[k]) && !(r.len[k] == 3 && !strncmp(line + r.off[k], "NaN", 3)))
			return;
	need = pt->nmatrix + (size_t)r.len[0] + r.len[1] + r.len[4] + r.len[5] + r.len[6] + 7;
	if (need > (64L << 20) || !(m = grow(pt->matrix, &pt->matrix_cap, need, 1, 4096)))
		return;
	pt->matrix = m;
	pt->nmatrix += (size_t)sprintf(m + pt->nmatrix, "%s%.*s %.*s %.*s %.*s %.*s\n",
				       pt->nmatrix > 0 && src != pt->matrix_src ? "\n" : "", (int)r.len[0],
				       line + r.off[0], (int)r.len[1], line + r.off[1], (int)r.len[4],
				       line + r.off[4], (int)r.len[5], line + r.off[5], (int)r.len[6], line + r.off[6]);
	pt->matrix_src = src;
}

/* Whether a row of n columns is of a format this collect reads; else said, and 0. */
static int known_width(struct parser *p, int n)
{
	static const int widths[] = ALLER_FORMAT_COLUMNS;
	const int nw = (int)(sizeof(widths) / sizeof(widths[0]));
	char others[128];
	size_t at = 0;

	for (int v = 0; v < nw; v++)
		if (n == widths[v])
			return 1;
	for (int v = nw - 2; v >= 0 && at < sizeof(others); v--)   /* the newest first */
		at += (size_t)snprintf(others + at, sizeof(others) - at, "%s%d", v == nw - 2 ? "" : v ? ", " : " or ",
				       widths[v]);
	warn(p, "%d columns, expected %d (or the first %s): row dropped", n, widths[nw - 1], others);
	return 0;
}

static void data(struct parser *p, const char *line, size_t len, int complete)
{
	struct crow r;
	int n;

	if (p->pt->pairs) {   /* aller --pairs: its tasks' hosts, its matrix (merged/pairs.dat) */
		if (p->pair_hosts)
			pair_host(p, line, len);
		else if (complete)
			pair_row(p, line, len);
		return;
	}
	if ((!complete || len > PARSE_MAX_DATA_LINE) && binary(line, len)) {
		warn_binary(p);
		return;
	}
	if (!complete) {
		warn(p, "partial last line: row dropped");
		return;
	}
	if (len > PARSE_MAX_DATA_LINE) {
		warn(p, "data line of %zu bytes: row dropped", len);
		return;
	}
	memset(&r, 0, sizeof(r));
	n = split_columns(line, len, &r);
	if (n < 0) {
		warn_binary(p);
		return;
	}
	if (!known_width(p, n))
		return;
	if (p->algo < 0 || p->split < 0)
		return;   /* an unknown algorithm's data set, or one split too many: said once */
	if (check_columns(p, line, &r, n) != 0)
		return;
	if (p->last_count > 0 && r.count >= p->last_count) {
		warn(p, "a row of count %ld after one of count %ld: a data set's counts go down, "
		     "each once (a repeated or misplaced row): row dropped", r.count, p->last_count);
		return;
	}
	p->last_count = r.count;
	r.ncols = (uint8_t)n;
	if (p->level < 0) {
		if (!p->warned_nolevel++)
			warn(p, "data set without a '# level:' header: rows kept");
		p->level = 0;
	}
	if (p->pt->done && !p->warned_after_done++)
		warn(p, "data after '%s'", ALLER_DONE);
	r.level = p->level;
	r.algo = (uint8_t)p->algo;
	r.split = (uint8_t)p->split;
	p->pt->nrows++;
	if (p->row)
		p->row(p->ctx, line, len, &r);
}

int parser_line(struct parser *p, const char *line, size_t len, int complete)
{
	p->lineno++;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return 0;
	/* before aller's header (or the job's lines): a library's messages on standard output
	 * (UCX's warnings), skipped alike by a header's read and a whole file's */
	if (line[0] != '#' && !p->pt->has_header && !p->pt->has_provenance) {
		if (p->header_only && (p->seen += len + 1) > PARSE_HEADER_MAX) {
			p->cut = 1;
			return 1;
		}
		if (binary(line, len))
			warn_binary(p);
		else if (!p->warned_preamble++)
			warn(p, "text before aller's header (a library's messages on its standard output): "
			     "skipped");
		return 0;
	}
	if (line[0] != '#' && !p->header_only) {
		data(p, line, len, complete);   /* checks for binary data as it splits */
		return 0;
	}
	if (p->header_only && (p->seen += len + 1) > PARSE_HEADER_MAX) {
		p->cut = 1;
		return 1;
	}
	if (binary(line, len)) {
		warn_binary(p);
		return 0;
	}
	if (line[0] == '#')
		return comment(p, line, len);
	return 1;   /* a header-only parse ends at the first data line */
}

void parser_long_line(struct parser *p, size_t total)
{
	p->lineno++;
	warn(p, "line of %zu bytes (over %d): skipped", total, PARSE_MAX_LINE);
}

void parser_end(struct parser *p)
{
	if (!p->pt->has_header && !p->pt->has_provenance)
		warn(p, "no aller header ('# %s: ...'): not an aller output", ALLER_KEY_ALLER);
	else if (!p->pt->has_header)
		warn(p, "no aller output after the job's provenance lines: the point failed");
	else if (!p->pt->done)
		warn(p, "no '%s' line: the run is incomplete", ALLER_DONE);
	if (p->suppressed && p->warn) {
		char msg[96];
		snprintf(msg, sizeof(msg), "%ld more warnings suppressed", p->suppressed);
		p->warn(p->ctx, p->pt->path, p->lineno, msg);
	}
}
