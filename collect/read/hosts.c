/* hosts.c: see hosts.h. */
#include "hosts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether r is in the comma-separated ranges of s (up to the first space or end). */
static int in_ranges(const char *s, long r)
{
	while (*s && *s != ' ' && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a, step = 1;
		if (end == s)
			return 0;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (*end == ':')
			step = strtol(end + 1, &end, 10);
		if (step > 0 && r >= a && r <= b && (r - a) % step == 0)
			return 1;
		s = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* One line "NAME RANKS [+STEP]": the host of r into name, or -1. */
static int one_line(const char *l, size_t n, long r, char *name, size_t len)
{
	char line[1024], *sp, *br, *plus;
	long lo = 0, hi = 0, step = 0;
	int width = 0;

	snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), l);
	if (!(sp = strchr(line, ' ')))
		return -1;
	*sp = '\0';
	plus = strstr(sp + 1, " +");
	if (plus)
		step = strtol(plus + 2, NULL, 10);
	br = strchr(line, '[');
	if (br && sscanf(br, "[%ld-%ld]", &lo, &hi) != 2)
		return -1;   /* no host name holds a bracket: not a run we can read */
	if (!br) {
		if (!in_ranges(sp + 1, r))
			return -1;
		snprintf(name, len, "%s", line);
		return 0;
	}
	width = (int)strcspn(br + 1, "-");
	for (long i = 0; i <= hi - lo; i++)
		if (in_ranges(sp + 1, r - i * step) && (step > 0 || i == 0)) {
			*br = '\0';
			snprintf(name, len, "%s%0*ld", line, width, lo + i);
			return 0;
		}
	return -1;
}

int hosts_of_rank(const char *lines, long rank, char *name, size_t len)
{
	while (lines && *lines) {
		size_t n = strcspn(lines, "\n");
		if (one_line(lines, n, rank, name, len) == 0)
			return 0;
		lines += n + (lines[n] == '\n');
	}
	return -1;
}

/* Each rank of RANKS ("A-B:S,...") shifted by `by`, to each(name, rank); 0, or each's nonzero. */
static int each_rank(const char *s, long by, const char *name, hosts_each_fn *each, void *ctx)
{
	while (*s && *s != ' ') {
		char *end;
		long a = strtol(s, &end, 10), b = a, step = 1;
		int rc;
		if (end == s)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (*end == ':')
			step = strtol(end + 1, &end, 10);
		for (long r = a; step > 0 && r <= b; r += step)
			if ((rc = each(name, r + by, ctx)) != 0)
				return rc;
		s = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* One line "NAME RANKS [+STEP]", every (host, rank) it holds. */
static int each_of_line(const char *l, size_t n, hosts_each_fn *each, void *ctx)
{
	char line[1024], name[1024 + 32], *sp, *br, *plus;
	long lo = 0, hi = 0, step = 0;
	int width, rc = 0;

	snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), l);
	if (!(sp = strchr(line, ' ')))
		return -1;
	*sp = '\0';
	if ((plus = strstr(sp + 1, " +")))
		step = strtol(plus + 2, NULL, 10);
	if (!(br = strchr(line, '[')))
		return each_rank(sp + 1, 0, line, each, ctx);
	if (sscanf(br, "[%ld-%ld]", &lo, &hi) != 2)
		return -1;
	if ((width = (int)strcspn(br + 1, "-")) > 20)
		return -1;   /* more digits than a long has */
	*br = '\0';
	for (long i = 0; i <= hi - lo && rc == 0 && (step > 0 || i == 0); i++) {
		snprintf(name, sizeof(name), "%s%0*ld", line, width, lo + i);
		rc = each_rank(sp + 1, i * step, name, each, ctx);
	}
	return rc;
}

int hosts_each(const char *lines, hosts_each_fn *each, void *ctx)
{
	int rc = 0;

	while (rc == 0 && lines && *lines) {
		size_t n = strcspn(lines, "\n");
		rc = each_of_line(lines, n, each, ctx);
		lines += n + (lines[n] == '\n');
	}
	return rc;
}

int hosts_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 255 || !isalnum((unsigned char)name[0]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("._-", name[i]))
			return 0;
	return 1;
}
