/* hosts.c: see hosts.h. */
#include "hosts.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

/* An item of RANKS at *s ("A", "A-B", "A:S", "A-B:S"), A <= B <= INT_MAX (a walk ends), S >= 1; 0, *s past it, or -1. */
static int rank_item(const char **s, long *a, long *b, long *step)
{
	char item[64], *dash, *colon;
	size_t n = strcspn(*s, ", ]\n");

	if (n == 0 || n >= sizeof(item))
		return -1;
	snprintf(item, sizeof(item), "%.*s", (int)n, *s);
	*s += n + ((*s)[n] == ',');
	if ((colon = strchr(item, ':')))
		*colon++ = '\0';
	if ((dash = strchr(item, '-')))
		*dash++ = '\0';
	*step = 1;
	return parse_long(item, 0, INT_MAX, a) || parse_long(dash ? dash : item, *a, INT_MAX, b) ||
	       (colon && parse_long(colon, 1, INT_MAX, step)) ? -1 : 0;
}

/* Whether r is in the comma-separated ranges of s (up to the first space or end). */
static int in_ranges(const char *s, long r)
{
	long a, b, step;

	while (*s && *s != ' ' && *s != '\n')
		if (rank_item(&s, &a, &b, &step) != 0)
			return 0;
		else if (r >= a && r <= b && (r - a) % step == 0)
			return 1;
	return 0;
}

/* A host line "NAME RANKS [+STEP]" taken apart. */
struct hline {
	char name[1024];     /* NAME, or a run's prefix (before its '[') */
	const char *ranks;   /* RANKS, in name's room */
	long lo, hi, step;   /* a run's first and last number, its ranks' shift per node */
	int run, width;      /* whether NAME is a run "PREFIX[LO-HI]"; LO's digits */
};

/* Line l[0..n) into h; 0, or -1 when it is not of that form. */
static int hline_parse(const char *l, size_t n, struct hline *h)
{
	char *sp, *br, *plus;
	const char *at;
	long unused;

	snprintf(h->name, sizeof(h->name), "%.*s", (int)(n < sizeof(h->name) ? n : sizeof(h->name) - 1), l);
	if (!(sp = strchr(h->name, ' ')))
		return -1;
	*sp = '\0';
	h->ranks = sp + 1;
	plus = strstr(h->ranks, " +");
	h->step = h->lo = h->hi = 0;
	h->width = 0;
	if (plus && parse_long(plus + 2, 0, INT_MAX, &h->step) != 0)
		return -1;
	if (!(h->run = (br = strchr(h->name, '[')) != NULL))
		return 0;
	h->width = (int)strcspn(br + 1, "-");
	at = br + 1;
	*br = '\0';   /* no host name holds a bracket: a run we can read, or none */
	return rank_item(&at, &h->lo, &h->hi, &unused) != 0 || *at != ']' ? -1 : 0;
}

/* One line: the host of r into name, or -1. */
static int one_line(const char *l, size_t n, long r, char *name, size_t len)
{
	struct hline h;

	if (hline_parse(l, n, &h) != 0)
		return -1;
	if (!h.run) {
		if (!in_ranges(h.ranks, r))
			return -1;
		snprintf(name, len, "%s", h.name);
		return 0;
	}
	for (long i = 0; i <= h.hi - h.lo; i++)
		if (in_ranges(h.ranks, r - i * h.step) && (h.step > 0 || i == 0)) {
			snprintf(name, len, "%s%0*ld", h.name, h.width, h.lo + i);
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
	long a, b, step;
	int rc;

	while (*s && *s != ' ')
		if (rank_item(&s, &a, &b, &step) != 0)
			return -1;
		else
			for (long r = a; r <= b; r += step)   /* b, step <= INT_MAX: r cannot overflow */
				if ((rc = each(name, r + by, ctx)) != 0)
					return rc;
	return 0;
}

/* One line, every (host, rank) it holds. */
static int each_of_line(const char *l, size_t n, hosts_each_fn *each, void *ctx)
{
	struct hline h;
	char name[1024 + 32];
	int rc = 0;

	if (hline_parse(l, n, &h) != 0)
		return -1;
	if (!h.run)
		return each_rank(h.ranks, 0, h.name, each, ctx);
	for (long i = 0; i <= h.hi - h.lo && rc == 0 && (h.step > 0 || i == 0); i++) {
		snprintf(name, sizeof(name), "%s%0*ld", h.name, h.width, h.lo + i);
		rc = each_rank(h.ranks, i * h.step, name, each, ctx);
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
