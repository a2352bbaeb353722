/* strbuf.c: see strbuf.h. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_init(struct strbuf *b)
{
	memset(b, 0, sizeof(*b));
}

void strbuf_release(struct strbuf *b)
{
	free(b->s);
	strbuf_init(b);
}

static int grow(struct strbuf *b, size_t more)
{
	size_t cap;
	char *s;

	if (b->failed)
		return -1;
	if (b->len + more + 1 <= b->cap)
		return 0;
	cap = (b->len + more + 1) * 2;
	s = realloc(b->s, cap);
	if (!s) {
		b->failed = 1;
		return -1;
	}
	b->s = s;
	b->cap = cap;
	return 0;
}

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	if (grow(b, n) != 0)
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || grow(b, (size_t)n) != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void strbuf_add_ranges(struct strbuf *b, const long *ranks, long n)
{
	for (long i = 0; i < n;) {
		long j = i, d = i + 1 < n ? ranks[i + 1] - ranks[i] : 1;
		while (j + 1 < n && ranks[j + 1] - ranks[j] == d && d > 0)
			j++;
		if (d > 1 && j - i < 2)   /* two of a stride are two numbers */
			j = i;
		strbuf_addf(b, "%s%ld", i ? "," : "", ranks[i]);
		if (j > i)
			strbuf_addf(b, "-%ld", ranks[j]);
		if (j > i && d > 1)
			strbuf_addf(b, ":%ld", d);
		i = j + 1;
	}
}

char *strbuf_detach(struct strbuf *b)
{
	char *s = b->failed ? NULL : b->s;

	if (b->failed)
		free(b->s);
	else if (!s)
		s = calloc(1, 1);
	strbuf_init(b);
	return s;
}
