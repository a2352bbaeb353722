/* select.c: see select.h. */
#include "select.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bytes.h"
#include "partition.h"
#include "strbuf.h"

void selection_init(struct selection *s)
{
	memset(s, 0, sizeof(*s));
}

int select_parse_size(const char *opt, const char *s, long *bytes, char *err, size_t errlen)
{
	return select_parse_size_in(opt, s, 1, BYTES_MAX, "per peer", bytes, err, errlen);
}

int select_parse_size_in(const char *opt, const char *s, long lo, long hi, const char *per,
			 long *bytes, char *err, size_t errlen)
{
	char a[32], b[32];
	int rc = parse_bytes(s, bytes);

	if (rc == -1) {
		snprintf(err, errlen, "invalid size '%s' for %s: expected bytes %s, with an "
			 "optional K, M, G, T or P (powers of 1024), e.g. 8, 64K, 4M", s, opt, per);
		return -1;
	}
	if (rc == -2 || *bytes < lo || *bytes > hi) {
		format_bytes(a, sizeof(a), lo);
		format_bytes(b, sizeof(b), hi);
		snprintf(err, errlen, "size '%s' for %s is out of range: allowed are %s..%s%s %s", s,
			 opt, a, b, hi == BYTES_MAX ? " (2^62 bytes)" : "", per);
		return -1;
	}
	return 0;
}

int select_parse_commsizes(struct selection *s, const char *list, char *err, size_t errlen)
{
	const char *p = list;

	s->ncommsizes = 0;
	for (;;) {
		size_t n = strcspn(p, ",");
		char item[32];
		long v;

		if (n == 0) {
			snprintf(err, errlen, "invalid commsizes '%s': an empty item; expected a comma "
				 "list of communicator sizes or 'world', e.g. world,8,2", list);
			return -1;
		}
		if (n == 5 && strncmp(p, "world", 5) == 0) {
			v = SELECT_WORLD;
		} else {
			snprintf(item, sizeof(item), "%.*s", (int)(n < sizeof(item) ? n : sizeof(item) - 1), p);
			if (*p == '+' || n >= sizeof(item) || parse_long(item, 1, LONG_MAX, &v) != 0) {
				snprintf(err, errlen, "invalid commsize '%.*s' in '%s': expected a "
					 "positive integer or 'world'", (int)n, p, list);
				return -1;
			}
		}
		for (int i = 0; i < s->ncommsizes; i++)
			if (s->commsizes[i] == v) {
				snprintf(err, errlen, "commsize '%.*s' is listed twice in '%s'", (int)n,
					 p, list);
				return -1;
			}
		if (s->ncommsizes == SELECT_MAX_COMMSIZES) {
			snprintf(err, errlen, "too many commsizes in '%s': at most %d", list,
				 SELECT_MAX_COMMSIZES);
			return -1;
		}
		s->commsizes[s->ncommsizes++] = v;
		if (p[n] == '\0')
			return 0;
		p += n + 1;
	}
}

int select_level(const struct selection *s, long world, long target)
{
	if (s->ncommsizes == 0)
		return 1;
	for (int i = 0; i < s->ncommsizes; i++)
		if ((s->commsizes[i] == SELECT_WORLD ? world : s->commsizes[i]) == target)
			return 1;
	return 0;
}

int select_counts(const struct selection *s, long longs, long target,
		  long counts[SELECT_MAX_COUNTS])
{
	int total = partition_ncounts(longs, target), n = 0;

	for (int i = 0; i < total && n < SELECT_MAX_COUNTS; i++) {
		long count = partition_count(longs, target, i), bytes = count * (long)sizeof(long);
		if (s->max_bytes && bytes > s->max_bytes)
			continue;
		if (s->min_bytes && bytes < s->min_bytes)
			break;
		counts[n++] = count;
	}
	return n;
}

static void add_bytes(struct strbuf *b, long bytes)
{
	char buf[32];

	format_bytes(buf, sizeof(buf), bytes);
	strbuf_addf(b, "%s", buf);
}

/* The levels' list as "8, 4, 2, 1" for messages. */
static void add_levels(struct strbuf *b, long world)
{
	strbuf_addf(b, "world");
	for (long t = world; t >= 1; t /= 2)
		strbuf_addf(b, ", %ld", t);
}

/* The note for one bound that is not a size of the level's sequence. */
static void note_bound(struct strbuf *b, const char *opt, long bound, long got, long world,
		       long target)
{
	if (bound == 0 || bound == got)
		return;
	strbuf_addf(b, "%s%s=%ld is not a size of the halving sequence at commsize %ld (world %ld): "
		    "the nearest one inside the bounds is ", b->len ? "; " : "", opt, bound, target,
		    world);
	add_bytes(b, got);
}

/* The size window: "1 KiB..4 MiB", "8 B..max". */
static void add_window(struct strbuf *b, const struct selection *s, long min, const char *open)
{
	add_bytes(b, s->min_bytes ? s->min_bytes : min);
	strbuf_addf(b, "..");
	if (s->max_bytes)
		add_bytes(b, s->max_bytes);
	else
		strbuf_addf(b, "%s", open);
}

/* Every listed commsize is a level of the world; 0 or -1 with err. */
static int check_commsizes(const struct selection *s, long world, char *err, size_t errlen)
{
	for (int i = 0; i < s->ncommsizes; i++) {
		long t = s->commsizes[i] == SELECT_WORLD ? world : s->commsizes[i], level = world;
		struct strbuf b;
		while (level > t)
			level /= 2;
		if (level == t)
			continue;
		strbuf_init(&b);
		add_levels(&b, world);
		snprintf(err, errlen, "commsize %ld is not a level of a world of %ld ranks: "
			 "allowed are %s", t, world, b.s ? b.s : "?");
		strbuf_release(&b);
		return -1;
	}
	return 0;
}

/* The error when no selected level has a count in the window. */
static void nothing_to_measure(const struct selection *s, long world, long longs, char *err,
			       size_t errlen)
{
	long largest = 0;
	struct strbuf b;

	for (long t = world; t >= 1; t /= 2)
		if (select_level(s, world, t) && partition_ncounts(longs, t) > 0 &&
		    partition_count(longs, t, 0) > largest)
			largest = partition_count(longs, t, 0);
	strbuf_init(&b);
	strbuf_addf(&b, "no count to measure: no size per peer of the selected levels lies in ");
	add_window(&b, s, 1, "any");
	strbuf_addf(&b, " (they are 8 B..");
	add_bytes(&b, largest * (long)sizeof(long));
	strbuf_addf(&b, " with LONGS %ld)", longs);
	snprintf(err, errlen, "%s", b.s ? b.s : "no count to measure");
	strbuf_release(&b);
}

int select_check(const struct selection *s, long world, long longs, char *err, size_t errlen,
		 char *note, size_t notelen)
{
	note[0] = '\0';
	if (s->min_bytes && s->max_bytes && s->min_bytes > s->max_bytes) {
		snprintf(err, errlen, "--min-bytes=%ld is above --max-bytes=%ld", s->min_bytes,
			 s->max_bytes);
		return -1;
	}
	if (check_commsizes(s, world, err, errlen) != 0)
		return -1;
	/* the first selected level with counts: the note says what the bounds became there */
	for (long t = world; t >= 1; t /= 2) {
		struct strbuf b;
		long counts[SELECT_MAX_COUNTS];
		int n;
		if (!select_level(s, world, t))
			continue;
		n = select_counts(s, longs, t, counts);
		if (n == 0)
			continue;
		strbuf_init(&b);
		note_bound(&b, "--max-bytes", s->max_bytes, counts[0] * (long)sizeof(long), world, t);
		note_bound(&b, "--min-bytes", s->min_bytes, counts[n - 1] * (long)sizeof(long), world,
			   t);
		snprintf(note, notelen, "%s", b.s ? b.s : "");
		strbuf_release(&b);
		return 0;
	}
	nothing_to_measure(s, world, longs, err, errlen);
	return -1;
}

void select_describe(const struct selection *s, char *buf, size_t len)
{
	struct strbuf b;

	strbuf_init(&b);
	strbuf_addf(&b, "commsizes ");
	if (s->ncommsizes == 0)
		strbuf_addf(&b, "all");
	for (int i = 0; i < s->ncommsizes; i++) {
		if (s->commsizes[i] == SELECT_WORLD)
			strbuf_addf(&b, "%sworld", i ? "," : "");
		else
			strbuf_addf(&b, "%s%ld", i ? "," : "", s->commsizes[i]);
	}
	strbuf_addf(&b, "; bytes per peer ");
	add_window(&b, s, 8, "max");
	snprintf(buf, len, "%s", b.s ? b.s : "?");
	strbuf_release(&b);
}
