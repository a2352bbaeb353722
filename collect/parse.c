/* parse.c: see parse.h. */
#include "parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const column_names[] = ALLER_COLUMN_NAMES;

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

/* "# key: value"; the first occurrence of a key wins. */
static int comment(struct parser *p, const char *line, size_t len)
{
	struct point *pt = p->pt;
	const char *key = line + 2, *colon, *val;
	size_t klen, vlen;

	if (len == strlen(ALLER_DONE) && memcmp(line, ALLER_DONE, len) == 0) {
		pt->done = 1;
		return 0;
	}
	if (len < 4 || line[1] != ' ')
		return 0;
	colon = memchr(key, ':', len - 2);
	if (!colon || colon + 1 >= line + len || colon[1] != ' ')
		return 0;
	klen = (size_t)(colon - key);
	val = colon + 2;
	vlen = len - (size_t)(val - line);
#define KEY(k) (klen == strlen(k) && memcmp(key, k, klen) == 0)
#define SET_STR(field) do { if (!pt->field) pt->field = dup_value(val, vlen); } while (0)
#define SET_LONG(field) do { if (pt->field < 0) pt->field = value_long(val, vlen); } while (0)
	if (KEY(ALLER_KEY_LEVEL)) {
		long v = -1;
		const char *space = memchr(val, ' ', vlen);   /* the line is not NUL-terminated */
		size_t n = space ? (size_t)(space - val) : vlen;
		p->level = parse_uint(val, n, &v) == 0 && v < 1000000 ? (int)v : p->level + 1;
		return p->header_only;
	}
	if (KEY(ALLER_KEY_ALLER))
		pt->has_header = 1;
	else if (KEY(ALLER_KEY_CAMPAIGN)) {
		pt->has_provenance = 1;
		SET_STR(campaign);
	}
	else if (KEY(ALLER_KEY_MODE) || KEY(ALLER_KEY_POINT_MODE))
		SET_STR(mode);
	else if (KEY(ALLER_KEY_TPN))
		SET_STR(tpn);
	else if (KEY(ALLER_KEY_BUFFERS))
		SET_STR(buffers);
	else if (KEY(ALLER_KEY_MPI))
		SET_STR(mpi);
	else if (KEY(ALLER_KEY_JOB) || KEY(ALLER_KEY_SLURM_JOB))
		SET_STR(job);
	else if (KEY(ALLER_KEY_START))
		SET_STR(start);
	else if (KEY(ALLER_KEY_REVEAL)) {
		/* "unavailable": nothing was instrumented, the timings are clean */
		size_t n = strlen(ALLER_REVEAL_UNAVAILABLE);
		if (!(vlen >= n && memcmp(val, ALLER_REVEAL_UNAVAILABLE, n) == 0))
			SET_STR(reveal);
	}
	else if (KEY(ALLER_KEY_NODES) || KEY(ALLER_KEY_POINT_NODES))
		SET_LONG(nodes);
	else if (KEY(ALLER_KEY_WORLD))
		SET_LONG(world);
	else if (KEY(ALLER_KEY_RESTART))
		SET_LONG(restart);
	else if (KEY(ALLER_KEY_ATTEMPT))
		SET_LONG(attempt);
	else if (KEY(ALLER_KEY_EXIT)) {
		long v = value_long(val, vlen);
		pt->exit_code = v < 0 ? 255 : v;
	} else if (KEY(ALLER_KEY_INCOMPLETE)) {
		pt->marked_incomplete = 1;
		SET_STR(incomplete);
	} else if (KEY(ALLER_KEY_POINT_SERIES)) {
		SET_STR(series);
	} else if (KEY(ALLER_KEY_VARIANT)) {
		SET_STR(variant);
	}
#undef KEY
#undef SET_STR
#undef SET_LONG
	return 0;
}

static void data(struct parser *p, const char *line, size_t len, int complete)
{
	struct crow r;
	size_t i = 0;
	int n = 0;

	if (!complete) {
		warn(p, "partial last line: row dropped");
		return;
	}
	if (len > PARSE_MAX_DATA_LINE) {
		warn(p, "data line of %zu bytes: row dropped", len);
		return;
	}
	memset(&r, 0, sizeof(r));
	while (i < len) {
		size_t start;
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		if (n < ALLER_NCOLS) {
			r.off[n] = (uint8_t)start;
			r.len[n] = (uint8_t)(i - start);
		}
		n++;
	}
	if (n != ALLER_NCOLS && n != ALLER_V1_COLUMNS && n != ALLER_SPEC_COLUMNS) {
		warn(p, "%d columns, expected %d (or the first %d or %d): row dropped", n, ALLER_NCOLS,
		     ALLER_V1_COLUMNS, ALLER_SPEC_COLUMNS);
		return;
	}
	for (int c = 0; c < n; c++) {
		const char *tok = line + r.off[c];
		long v;
		int ok = c <= ALLER_COL_COUNT || c == ALLER_COL_SLOWEST
				 ? parse_uint(tok, r.len[c], &v) == 0 && (c == ALLER_COL_SLOWEST || v > 0)
				 : is_number(tok, r.len[c]);
		if (!ok) {
			warn(p, "corrupt %s '%.*s': row dropped", column_names[c],
			     r.len[c] > 40 ? 40 : (int)r.len[c], tok);
			return;
		}
	}
	parse_uint(line + r.off[0], r.len[0], &r.comms);
	parse_uint(line + r.off[1], r.len[1], &r.commsize);
	parse_uint(line + r.off[2], r.len[2], &r.count);
	r.ncols = (uint8_t)n;
	if (p->level < 0) {
		if (!p->warned_nolevel++)
			warn(p, "data set without a '# level:' header: rows kept");
		p->level = 0;
	}
	if (p->pt->done && !p->warned_after_done++)
		warn(p, "data after '%s'", ALLER_DONE);
	r.level = p->level;
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
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			if (!p->warned_binary++)
				warn(p, "binary data: line skipped (further ones silently)");
			return 0;
		}
	}
	if (line[0] == '#')
		return comment(p, line, len);
	if (p->header_only)
		return 1;
	data(p, line, len, complete);
	return 0;
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
