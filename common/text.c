/* text.c: see text.h. */
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
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
	char was[4096];

	snprintf(was, sizeof(was), "%s", what);   /* what may be err */
	snprintf(err, errlen, "%s:%ld: %s", file, line, was);
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
	char line[4096], out[4 * 4096 + 2];   /* escaped: 4 bytes a byte at most */
	FILE *m = fmemopen(out, sizeof(out), "w"), *to = m ? m : stderr;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = n < 0 ? 0 : n < (int)sizeof(line) ? n : (int)sizeof(line) - 1;
	text_escape(to, line, (size_t)n - (n > 0 && line[n - 1] == '\n'));
	fputc('\n', to);
	if (m)   /* one write, so that no other process's lines (mpirun's) land inside it */
		n = (int)ftell(m), fclose(m), fwrite(out, 1, (size_t)n, stderr);
	return rc;
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
		return errno == ENOENT ? -2 : -1;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size > rule[k].cap)
		return close(fd), too_large(path, k, err, errlen);
	if (S_ISREG(st.st_mode) || (S_ISFIFO(st.st_mode) && rule[k].fifo))   /* a FIFO's writer awaited, not EOF */
		return (void)(S_ISFIFO(st.st_mode) && poll(&(struct pollfd){ fd, POLLIN, 0 }, 1, -1)),
		       fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK), fd;
	snprintf(err, errlen, "%s '%s' is %s, not a regular file", rule[k].noun, path,
		 S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
		 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a socket");
	return close(fd), -1;
}

int text_load(const char *path, enum text_kind k, struct strbuf *b, char *err, size_t errlen)
{
	int fd = text_open(path, k, err, errlen);
	char chunk[65536];
	ssize_t got = 1;
	size_t to = 0, i = 0;
	long no = 1;

	strbuf_init(b);
	strbuf_add(b, "", 0);
	while (fd >= 0 && got != 0 && b->len <= rule[k].cap && !b->failed)
		if ((got = read(fd, chunk, sizeof(chunk))) > 0)
			strbuf_add(b, chunk, (size_t)got);
		else if (got < 0 && errno != EINTR)
			break;
	if (fd >= 0)
		close(fd);
	for (; fd >= 0 && got == 0 && !b->failed && i < b->len && b->s[i]; no += b->s[i++] == '\n')
		if (b->s[i] != '\r' || b->s[i + 1] != '\n')   /* CRLF read as LF */
			b->s[to++] = b->s[i];
	if (fd >= 0 && b->len > rule[k].cap)
		too_large(path, k, err, errlen);
	else if (fd >= 0 && (got < 0 || b->failed))
		snprintf(err, errlen, "%s '%s' %s", rule[k].noun, path, got < 0 ? "could not be read to "
			 "its end" : "is too large: out of memory");
	else if (fd >= 0 && i < b->len)
		text_at(err, errlen, path, no, "a NUL byte: not text");
	else if (fd >= 0 && rule[k].whole && to > 0 && b->s[to - 1] != '\n')
		text_at(err, errlen, path, no, "cut short: its last line has no newline");
	else if (fd >= 0)
		return b->s[b->len = to] = '\0', 0;
	return strbuf_release(b), fd == -2 ? 1 : -1;
}

int text_lines(const char *path, enum text_kind k, text_line_fn *fn, void *ctx, char *err, size_t errlen)
{
	struct strbuf b;
	int rc = text_load(path, k, &b, err, errlen), absent = rc == 1;
	long no = 1;

	for (char *s = rc == 0 ? b.s : NULL, *e; rc == 0 && s && *s; s = e ? e + 1 : NULL, no++) {
		if ((e = strchr(s, '\n')))
			*e = '\0';
		if ((rc = fn(ctx, s, no, err, errlen)) < 0)
			text_at(err, errlen, path, no, err);
	}
	strbuf_release(&b);
	return rc < 0 ? -1 : absent;
}
