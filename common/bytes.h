/*
 * bytes.h: the number door of aller, collect and cluster-plan: every number,
 * size and rate (bound_rate) read from text, errno, the end and the range
 * checked, decimal only (docs/security.md, "Numbers, rates and ranges").
 */
#ifndef ALLER_BYTES_H
#define ALLER_BYTES_H

#include <stddef.h>

/* "64 KiB", "8 B", "1000 B": the largest binary unit that divides exactly. */
void format_bytes(char *buf, size_t len, long bytes);

#define BYTES_MAX (1L << 62)

/*
 * A size: digits with an optional K, M, G, T or P (powers of 1024; "64K",
 * "64KiB", "64k" alike; "B" or nothing for bytes), 1..BYTES_MAX. 0, -1 when
 * it is not a size, -2 when it is out of range.
 */
int parse_bytes(const char *s, long *bytes);
/* A decimal integer, the whole string, in lo..hi: 0, -1 when not one, -2 out of range. */
int parse_long(const char *s, long lo, long hi, long *out);
/* A decimal number in lo..hi, finite (an underflow: near 0), as parse_long; end: what follows (a unit). */
int parse_double(const char *s, double lo, double hi, double *out, const char **end);

#endif
