/* bytes.c: see bytes.h. */
#include "bytes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void format_bytes(char *buf, size_t len, long bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	int u = 0;

	while (u < 6 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%ld %s", bytes, unit[u]);
}

/* The multiplier of a unit suffix, or 0 when it is not one. */
static long unit_of(const char *u)
{
	static const char prefixes[] = "kmgtp";
	const char *p;
	long m = 1;

	if (*u == '\0' || strcasecmp(u, "b") == 0)
		return 1;
	p = strchr(prefixes, u[0] | 0x20);
	if (!p || u[0] == '\0')
		return 0;
	if (u[1] != '\0' && strcasecmp(u + 1, "b") != 0 && strcasecmp(u + 1, "ib") != 0)
		return 0;
	for (long i = 0; i <= p - prefixes; i++)
		m *= 1024;
	return m;
}

int parse_bytes(const char *s, long *bytes)
{
	char *end;
	long v, unit;

	errno = 0;
	v = (*s >= '0' && *s <= '9') ? strtol(s, &end, 10) : -1;
	unit = v >= 0 ? unit_of(end) : 0;
	if (v < 0 || unit == 0)
		return -1;
	if (errno == ERANGE || v == 0 || v > BYTES_MAX / unit)
		return -2;
	*bytes = v * unit;
	return 0;
}
