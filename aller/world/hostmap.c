/* hostmap.c: the header's host lines (see hostmap.h). */
#include "hostmap.h"

#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

/* Where a name's trailing digits begin (its length when it has none). */
static size_t digits_at(const char *s)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] >= '0' && s[n - 1] <= '9')
		n--;
	return n;
}

/* Whether b is the name after a: one prefix, the number one more, one width or no padding. */
static int next_name(const char *a, const char *b)
{
	size_t pa = digits_at(a), pb = digits_at(b), wa = strlen(a) - pa, wb = strlen(b) - pb;

	if (pa != pb || wa == 0 || wb == 0 || strncmp(a, b, pa) != 0 || wa > 18 || wb > 18)
		return 0;
	if (wa != wb && (a[pa] == '0' || b[pb] == '0'))
		return 0;
	return strtoll(b + pb, NULL, 10) == strtoll(a + pa, NULL, 10) + 1;
}

/* Whether node m's ranks are node s's plus step, element by element. */
static int shifted(const long *ranks, const long *at, long s, long m, long step)
{
	if (at[m + 1] - at[m] != at[s + 1] - at[s])
		return 0;
	for (long i = 0; i < at[s + 1] - at[s]; i++)
		if (ranks[at[m] + i] != ranks[at[s] + i] + step)
			return 0;
	return 1;
}

char *hostmap_lines(long nnodes, const char *names, size_t name_len, const long *ranks,
		    const long *at)
{
	struct strbuf b;

	strbuf_init(&b);
	for (long s = 0, e; s < nnodes; s = e) {
		const char *first = names + (size_t)s * name_len;
		long step = 0;
		/* the run: s .. e - 1 */
		for (e = s + 1; e < nnodes; e++) {
			const char *prev = names + (size_t)(e - 1) * name_len;
			if (at[e + 1] == at[e] || at[s + 1] == at[s])
				break;
			if (e == s + 1)
				step = ranks[at[e]] - ranks[at[s]];
			if (step <= 0)
				break;
			if (!next_name(prev, names + (size_t)e * name_len) ||
			    !shifted(ranks, at, s, e, (e - s) * step))
				break;
		}
		if (e - s == 1) {
			strbuf_addf(&b, "%s ", first);
		} else {
			const char *last = names + (size_t)(e - 1) * name_len;
			size_t p = digits_at(first);
			strbuf_addf(&b, "%.*s[%s-%s] ", (int)p, first, first + p, last + p);
		}
		strbuf_add_ranges(&b, ranks + at[s], at[s + 1] - at[s]);
		if (e - s > 1)
			strbuf_addf(&b, " +%ld", step);
		strbuf_addf(&b, "\n");
	}
	return strbuf_detach(&b);
}

void hostmap_devices(struct strbuf *b, const char *host, long n, const long *ranks,
		     const struct hostmap_device *devs)
{
	long *mine = malloc(sizeof(long) * (size_t)(n ? n : 1));
	char *done = calloc((size_t)(n ? n : 1), 1);

	if (!mine || !done) {
		b->failed = 1;
		free(mine);
		free(done);
		return;
	}
	for (long i = 0; i < n; i++) {
		long k = 0;
		if (done[i])
			continue;
		for (long j = i; j < n; j++)
			if (!done[j] && strcmp(devs[i].id, devs[j].id) == 0) {
				mine[k++] = ranks[j];
				done[j] = 1;
			}
		strbuf_addf(b, "%s %s ", host, devs[i].id);
		strbuf_add_ranges(b, mine, k);
		strbuf_addf(b, "%s%s%.*s\n", k > 1 ? " (shared)" : "", devs[i].desc[0] ? " " : "",
			    GPU_DESC_MAX, devs[i].desc);
	}
	free(mine);
	free(done);
}
