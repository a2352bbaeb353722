/* line.h: one output line, built in a buffer and written when full or done. */
#ifndef COLLECT_LINE_H
#define COLLECT_LINE_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct line {
	FILE *f;
	char *p;
	char buf[4096];
};

void line_start(struct line *l, FILE *f);
/* Writes what the buffer holds. */
void line_flush(struct line *l);
/* line_put when the buffer is full. */
void line_put_slow(struct line *l, const char *s, size_t n);

static inline void line_put(struct line *l, const char *s, size_t n)
{
	if ((size_t)(l->buf + sizeof(l->buf) - l->p) < n) {
		line_put_slow(l, s, n);
		return;
	}
	memcpy(l->p, s, n);
	l->p += n;
}

static inline void line_char(struct line *l, char c)
{
	if (l->p == l->buf + sizeof(l->buf))
		line_flush(l);
	*l->p++ = c;
}

static inline void line_str(struct line *l, const char *s)
{
	line_put(l, s, strlen(s));
}

void line_long(struct line *l, long v);
/* A CSV field that may hold anything, quoted when it needs it; NULL is empty. */
void line_csv(struct line *l, const char *s);

#endif
