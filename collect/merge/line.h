/*
 * line.h: buffered output of one file: lines are built in a large buffer and
 * written when it fills (or at line_close), so a row costs no stdio call.
 */
#ifndef COLLECT_LINE_H
#define COLLECT_LINE_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct line {
	FILE *f;
	char *buf, *p, *end;
};

/* 0, or -1 when out of memory. */
int line_open(struct line *l, FILE *f, size_t cap);
/* Writes what the buffer holds, and frees it. */
void line_close(struct line *l);
/* Writes what the buffer holds. */
void line_flush(struct line *l);
/* line_put when the buffer is full. */
void line_put_slow(struct line *l, const char *s, size_t n);

static inline void line_put(struct line *l, const char *s, size_t n)
{
	if ((size_t)(l->end - l->p) < n) {
		line_put_slow(l, s, n);
		return;
	}
	memcpy(l->p, s, n);
	l->p += n;
}

static inline void line_char(struct line *l, char c)
{
	if (l->p == l->end)
		line_flush(l);
	*l->p++ = c;
}

static inline void line_str(struct line *l, const char *s)
{
	line_put(l, s, strlen(s));
}

void line_long(struct line *l, long v);
void line_printf(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A CSV field that may hold anything, quoted when it needs it; NULL is empty. */
void line_csv(struct line *l, const char *s);

#endif
