/* bytes.h: byte counts for people, shared by aller and collect. */
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

#endif
