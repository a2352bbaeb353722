/* line.c: see line.h. */
#include "line.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int line_open(struct line *l, FILE *f, size_t cap)
{
	l->f = f;
	l->buf = l->p = malloc(cap);
	l->end = l->buf ? l->buf + cap : NULL;
	return l->buf ? 0 : -1;
}

void line_flush(struct line *l)
{
	if (l->p > l->buf)
		fwrite(l->buf, 1, (size_t)(l->p - l->buf), l->f);
	l->p = l->buf;
}

void line_close(struct line *l)
{
	if (l->buf)
		line_flush(l);
	free(l->buf);
	l->buf = l->p = l->end = NULL;
}

void line_printf(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->p, (size_t)(l->end - l->p), fmt, ap);
	va_end(ap);
	if (n >= 0 && n < l->end - l->p) {
		l->p += n;
		return;
	}
	line_flush(l);
	va_start(ap, fmt);
	if (n >= 0 && n < l->end - l->p) {
		l->p += vsnprintf(l->p, (size_t)(l->end - l->p), fmt, ap);
	} else {
		vfprintf(l->f, fmt, ap);   /* longer than the whole buffer */
	}
	va_end(ap);
}

void line_put_slow(struct line *l, const char *s, size_t n)
{
	line_flush(l);
	if (n > (size_t)(l->end - l->buf)) {
		fwrite(s, 1, n, l->f);
		return;
	}
	memcpy(l->p, s, n);
	l->p += n;
}

void line_long(struct line *l, long v)
{
	char tmp[24];
	size_t n = 0;
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	do {
		tmp[sizeof(tmp) - ++n] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[sizeof(tmp) - ++n] = '-';
	line_put(l, tmp + sizeof(tmp) - n, n);
}

/* A CSV field that may hold anything, quoted when it needs it. */
void line_csv(struct line *l, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n")) {
		line_str(l, s);
		return;
	}
	line_char(l, '"');
	for (; *s; s++) {
		if (*s == '"')
			line_char(l, '"');
		line_char(l, *s);
	}
	line_char(l, '"');
}
