/* strbuf.h: a growing string; after an allocation failure it stays failed. */
#ifndef ALLER_STRBUF_H
#define ALLER_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s;
	size_t len, cap;
	int failed;
};

void strbuf_init(struct strbuf *b);
void strbuf_release(struct strbuf *b);
/* n bytes of s (no format: a fact's line as it is) */
void strbuf_add(struct strbuf *b, const char *s, size_t n);
void strbuf_addf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Sorted ranks as compact ranges: "0-3,8,10-11"; three or more a stride apart "0-96:32" (Slurm's array syntax). */
void strbuf_add_ranges(struct strbuf *b, const long *ranks, long n);
/* The string, or NULL after a failure; the caller owns it. */
char *strbuf_detach(struct strbuf *b);

#endif
