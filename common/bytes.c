/* bytes.c: see bytes.h. */
#include "bytes.h"

#include <errno.h>
#include <math.h>
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

/* strtol or strtod at s, decimal, errno and the end checked; 0, -1, -2 (ERANGE). */
static int number(const char *s, long *l, double *d, char **end)
{
	const char *p = s + (*s == '-' || *s == '+');

	if (!(*p >= '0' && *p <= '9') && !(!l && *p == '.' && p[1] >= '0' && p[1] <= '9'))
		return -1;
	errno = 0;
	l ? (void)(*l = strtol(s, end, 10)) : (void)(*d = strtod(s, end));
	if ((size_t)(*end - s) > strspn(s, "+-0123456789.eE"))
		return -1;   /* 0x10, 0X1p3 */
	return errno == ERANGE && (l || fabs(*d) >= 1) ? -2 : 0;   /* an underflow: a number near 0 */
}

int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;
	int rc = number(s, &v, NULL, &end);

	rc = rc == -1 || *end ? -1 : rc == -2 || v < lo || v > hi ? -2 : 0;
	if (rc == 0)
		*out = v;
	return rc;
}

int parse_double(const char *s, double lo, double hi, double *out, const char **end)
{
	char *e;
	double v;
	int rc = number(s, NULL, &v, &e);

	rc = rc == -1 || (*e && !end) ? -1 : rc == -2 || !(v >= lo && v <= hi) ? -2 : 0;
	if (rc == 0 && end)
		*end = e;
	if (rc == 0)
		*out = v;
	return rc;
}

int parse_bytes(const char *s, long *bytes)
{
	char *end;
	long v, unit;
	int rc = *s == '-' || *s == '+' ? -1 : number(s, &v, NULL, &end);

	unit = rc != -1 ? unit_of(end) : 0;
	if (unit == 0)
		return -1;
	if (rc == -2 || v == 0 || v > BYTES_MAX / unit)
		return -2;
	*bytes = v * unit;
	return 0;
}
