/* text.c: see text.h. */
#include "text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

int text_load(const char *path, const char *what, struct strbuf *b, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char chunk[4096];
	size_t got;
	int rc = 0;

	strbuf_init(b);
	if (!f) {
		snprintf(err, errlen, "%s cannot be opened: %s", what, strerror(errno));
		return -1;
	}
	while (rc == 0 && (got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (memchr(chunk, '\0', got))
			rc = 1;
		strbuf_addf(b, "%.*s", (int)got, chunk);
	}
	rc = ferror(f) ? -1 : b->failed && rc == 0 ? 2 : rc;
	fclose(f);
	if (rc == 0)
		return 0;
	snprintf(err, errlen, "%s %s", what, rc < 0 ? "could not be read to its end"
		 : rc == 1 ? "is not text (a NUL byte)" : "is too large: out of memory");
	return -1;
}

void text_escape(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0, k; i < n; i += k) {
		unsigned char c = (unsigned char)s[i];
		if ((k = text_utf8_char(s + i, n - i)) < 2 || (c == 0xc2 && (unsigned char)s[i + 1] < 0xa0))
			k = 1;   /* a byte alone: ASCII, a C1 control's, or of no character */
		if (k > 1)
			fwrite(s + i, 1, k, f);
		else if (c == '\\')   /* itself escaped, so that no other byte's escape reads the same */
			fputs("\\\\", f);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, f);
		else if (c == '\n' || c == '\r' || c == '\t')
			fprintf(f, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		else
			fprintf(f, "\\x%02x", c);
	}
}

int text_error(int rc, const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = n < 0 ? 0 : n < (int)sizeof(line) ? n : (int)sizeof(line) - 1;
	text_escape(stderr, line, (size_t)n - (n > 0 && line[n - 1] == '\n'));
	fputc('\n', stderr);
	return rc;
}
