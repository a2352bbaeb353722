/* line.c: see line.h. */
#include "line.h"

#include <string.h>

void line_start(struct line *l, FILE *f)
{
	l->f = f;
	l->p = l->buf;
}

void line_flush(struct line *l)
{
	fwrite(l->buf, 1, (size_t)(l->p - l->buf), l->f);
	l->p = l->buf;
}

void line_put_slow(struct line *l, const char *s, size_t n)
{
	line_flush(l);
	if (n > sizeof(l->buf)) {
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
