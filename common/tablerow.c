/* tablerow.c: a declared table's header and rows (see tablerow.h). */
#include "tablerow.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static void out(struct table_out *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out(struct table_out *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (t->f) {
		vfprintf(t->f, fmt, ap);
	} else {
		char small[256], *big = NULL;
		va_list again;
		int n;
		va_copy(again, ap);
		n = vsnprintf(small, sizeof(small), fmt, ap);
		if (n >= (int)sizeof(small) && (big = malloc((size_t)n + 1)) != NULL)
			vsnprintf(big, (size_t)n + 1, fmt, again);
		va_end(again);
		if (n >= 0)
			strbuf_addf(t->b, "%s", big ? big : small);
		free(big);
	}
	va_end(ap);
}

/* The separator before every column but the row's first. */
static void next(struct table_out *t)
{
	if (!t->first)
		out(t, "%c", t->sep);
	t->first = 0;
}

void table_header(struct table_out *t, const char *const *names, size_t n)
{
	t->first = 1;
	for (size_t i = 0; i < n; i++) {
		next(t);
		out(t, "%s", names[i]);
	}
	table_end(t);
}

void table_LONG(struct table_out *t, long v)
{
	next(t);
	if (v >= 0)
		out(t, "%ld", v);
}

static void number(struct table_out *t, const char *fmt, double v)
{
	next(t);
	if (isfinite(v))
		out(t, fmt, v);
}

void table_REAL(struct table_out *t, double v)
{
	number(t, "%.6e", v);
}

void table_G(struct table_out *t, double v)
{
	number(t, "%.6g", v);
}

void table_F3(struct table_out *t, double v)
{
	number(t, "%.3f", v);
}

/* s onto t, each character of `special` written as replace(c) gives it. */
static void text(struct table_out *t, const char *s, const char *special, const char *(*replace)(char))
{
	while (*s) {
		size_t n = strcspn(s, special);
		if (n)
			out(t, "%.*s", (int)n, s);
		s += n;
		if (*s)
			out(t, "%s", replace(*s++));
	}
}

static const char *csv_char(char c)
{
	(void)c;
	return "\"\"";   /* a quote, doubled (the only one text() is given) */
}

static const char *tsv_char(char c)
{
	(void)c;
	return " ";
}

void table_TEXT(struct table_out *t, const char *s)
{
	int quote = t->sep == ',' && s && strpbrk(s, ",\"\r\n");

	next(t);
	if (!s)
		return;
	if (quote)
		out(t, "\"");
	text(t, s, t->sep == ',' ? "\"" : "\t\n\r", t->sep == ',' ? csv_char : tsv_char);
	if (quote)
		out(t, "\"");
}

void table_ESC(struct table_out *t, const char *s)
{
	struct strbuf b;

	next(t);
	if (!s)
		return;
	strbuf_init(&b);
	text_add_tsv(&b, s);
	if (b.s)
		out(t, "%s", b.s);
	strbuf_release(&b);
}

void table_end(struct table_out *t)
{
	out(t, "\n");
}
