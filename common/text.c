/* text.c: see text.h. */
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

size_t text_utf8_char(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len;
	unsigned lo = 0x80, hi = 0xbf;

	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		len = 2;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		len = 3;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* the second byte's range excludes overlong forms, surrogates and code points past U+10FFFF */
	if (u[0] == 0xe0)
		lo = 0xa0;
	else if (u[0] == 0xed)
		hi = 0x9f;
	else if (u[0] == 0xf0)
		lo = 0x90;
	else if (u[0] == 0xf4)
		hi = 0x8f;
	if (n < len || u[1] < lo || u[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (u[i] < 0x80 || u[i] > 0xbf)
			return 0;
	return len;
}

size_t text_utf8_cut(const char *s, size_t max)
{
	size_t n = strlen(s), at = 0, c;

	if (n <= max)
		return n;
	while (at < max) {
		c = text_utf8_char(s + at, n - at);
		if (c == 0)
			c = 1;   /* a stray byte is a character of its own */
		if (at + c > max)
			break;
		at += c;
	}
	return at;
}

void text_add_utf8(struct strbuf *b, const char *s)
{
	size_t n = strlen(s), c;

	for (size_t i = 0; i < n; i += c ? c : 1) {
		c = text_utf8_char(s + i, n - i);
		if (c)
			strbuf_addf(b, "%.*s", (int)c, s + i);
		else
			strbuf_addf(b, "\xef\xbf\xbd");
	}
}

void text_add_json(struct strbuf *b, const char *s)
{
	size_t n = strlen(s), c;

	strbuf_addf(b, "\"");
	for (size_t i = 0; i < n; i += c ? c : 1) {
		unsigned char u = (unsigned char)s[i];
		c = text_utf8_char(s + i, n - i);
		if (u == '"' || u == '\\')
			strbuf_addf(b, "\\%c", u);
		else if (u < 0x20 || u == 0x7f)
			strbuf_addf(b, "\\u%04x", u);
		else if (c)
			strbuf_addf(b, "%.*s", (int)c, s + i);
		else
			strbuf_addf(b, "\\ufffd");
	}
	strbuf_addf(b, "\"");
}

void text_add_tsv(struct strbuf *b, const char *s)
{
	for (; *s; s++) {
		const char *e = *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n"
			      : *s == '\r' ? "\\r" : NULL;
		if (e)
			strbuf_addf(b, "%s", e);
		else
			strbuf_addf(b, "%c", *s);
	}
}

#define TEXT_RULE_(kind, noun, cap, fifo, whole) { noun, (size_t)(cap), fifo, whole },
static const struct { const char *noun; size_t cap; int fifo, whole; } rule[] = { TEXT_KINDS(TEXT_RULE_) };

int text_at(char *err, size_t errlen, const char *file, long line, const char *what)
{
	char was[1024];

	snprintf(was, sizeof(was), "%s", what);   /* what may be err */
	snprintf(err, errlen, "%s:%ld: %s", file, line, was);
	return -1;
}

static int too_large(const char *path, enum text_kind k, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s '%s' is larger than %zu bytes, the most one may be", rule[k].noun, path,
		 rule[k].cap);
	return -1;
}

int text_open(const char *path, enum text_kind k, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st = { 0 };

	if (fd < 0) {
		snprintf(err, errlen, "%s '%s' cannot be opened: %s", rule[k].noun, path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || (S_ISFIFO(st.st_mode) && rule[k].fifo))) {
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		if (!S_ISREG(st.st_mode) || (size_t)st.st_size <= rule[k].cap)
			return fd;
		close(fd);
		return too_large(path, k, err, errlen);
	}
	snprintf(err, errlen, "%s '%s' is %s, not a regular file", rule[k].noun, path,
		 S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
		 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a socket");
	close(fd);
	return -1;
}

/* s[0..*n) (lines from number no) by the rules of text, CRLFs folded and NUL-terminated: 0, or -1. */
static int as_text(const char *path, enum text_kind k, char *s, size_t *n, long no, char *err,
		   size_t errlen)
{
	size_t to = 0;

	for (size_t i = 0; i < *n; no += s[i++] == '\n') {
		if (s[i] == '\0')
			return text_at(err, errlen, path, no, "a NUL byte: not text");
		if (s[i] != '\r' || i + 1 == *n || s[i + 1] != '\n')
			s[to++] = s[i];
	}
	if (rule[k].whole && to > 0 && s[to - 1] != '\n')
		return text_at(err, errlen, path, no, "cut short: its last line has no newline");
	s[*n = to] = '\0';
	return 0;
}

int text_load(const char *path, enum text_kind k, struct strbuf *b, char *err, size_t errlen)
{
	int fd = text_open(path, k, err, errlen);
	char chunk[65536];
	ssize_t got = 1;

	strbuf_init(b);
	strbuf_add(b, "", 0);
	while (fd >= 0 && got != 0 && b->len <= rule[k].cap && !b->failed)
		if ((got = read(fd, chunk, sizeof(chunk))) > 0)
			strbuf_add(b, chunk, (size_t)got);
		else if (got < 0 && errno != EINTR)
			break;
	if (fd >= 0)
		close(fd);
	if (fd >= 0 && b->len > rule[k].cap)
		too_large(path, k, err, errlen);
	else if (fd >= 0 && (got < 0 || b->failed))
		snprintf(err, errlen, "%s '%s' %s", rule[k].noun, path, got < 0 ? "could not be read to "
			 "its end" : "is too large: out of memory");
	else if (fd >= 0 && as_text(path, k, b->s, &b->len, 1, err, errlen) == 0)
		return 0;
	strbuf_release(b);
	return -1;
}

int text_lines(const char *path, enum text_kind k, text_line_fn *fn, void *ctx, char *err,
	       size_t errlen)
{
	int fd = text_open(path, k, err, errlen), rc = 0;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	char *line = NULL;
	size_t cap = 0, total = 0, n;
	ssize_t got = 0;

	if (!f && fd >= 0)
		close(fd), snprintf(err, errlen, "%s '%s': out of memory", rule[k].noun, path);
	if (!f)
		return -1;
	for (long no = 1; rc == 0 && (got = getline(&line, &cap, f)) > 0; no++) {
		total += n = (size_t)got;
		if (total > rule[k].cap)
			rc = too_large(path, k, err, errlen);
		else if ((rc = as_text(path, k, line, &n, no, err, errlen)) == 0) {
			line[n - (line[n - 1] == '\n')] = '\0';
			if ((rc = fn(ctx, line, no, err, errlen)) < 0)
				text_at(err, errlen, path, no, err);
		}
	}
	if (rc == 0 && ferror(f))
		rc = -1, snprintf(err, errlen, "%s '%s' could not be read to its end", rule[k].noun, path);
	free(line);
	fclose(f);
	return rc < 0 ? -1 : 0;
}
