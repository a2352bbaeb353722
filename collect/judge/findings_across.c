/*
 * findings_across.c: the findings that compare data sets (algorithms of a
 * level), points (modes, node counts), and the campaign's verdict.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "bytes.h"
#include "findings_impl.h"
#include "locate.h"
#include "median.h"
#include "model/health.h"
#include "suspects.h"
#include "topology.h"

#define ALGOS_MAX 16

static double typical(const struct mrow *r)
{
	return isfinite(r->TMED) ? r->TMED : r->TAVG;
}

/* At one size: the fastest of the algorithms' rows, or NULL when the next is not
 * slower beyond the noise (find_beyond). */
static const char *winner(const struct mrow *const *at, int n)
{
	const struct mrow *best = NULL, *second = NULL;

	for (int i = 0; i < n; i++)
		if (at[i] && (!best || typical(at[i]) < typical(best)))
			second = best, best = at[i];
		else if (at[i] && (!second || typical(at[i]) < typical(second)))
			second = at[i];
	return !second ? "" : find_beyond(typical(second) / typical(best), find_noise(best) + find_noise(second))
		       ? best->algo : NULL;
}

/* "; pairwise is fastest at 8 B..256 B" (the first without ";"): its length. */
static size_t run_words(char *buf, size_t len, int nth, const char *label, double from, double last)
{
	char a[32], b[32];
	int n;

	format_bytes(a, sizeof(a), (long)from);
	format_bytes(b, sizeof(b), (long)last);
	n = snprintf(buf, len, "%s %s%s at %s%s%s", nth ? ";" : "", label,
		     strcmp(label, "no difference") ? " is fastest" : "", a, from < last ? ".." : "",
		     from < last ? b : "");
	return n < 0 ? 0 : (size_t)n;
}

/*
 * One level and split: the size ranges where each algorithm is fastest, as a
 * sentence; 1 when the algorithms differ nowhere (nothing said), else 0.
 */
static int crossover(struct fout *o, const struct fpoint *p, const struct mrow *rows, long n)
{
	const struct mrow *algo[ALGOS_MAX];
	char where[256], text[2048];
	const char *stretch = "", *label;   /* the label of the stretch of sizes at hand */
	double from = 0, last = 0;
	int na = 0, runs = 0, differ = 0;
	size_t at;

	for (long i = 0; i < n && na < ALGOS_MAX; i++)
		if (i == 0 || strcmp(rows[i].algo, rows[i - 1].algo) != 0)
			algo[na++] = &rows[i];
	if (na < 2 || rows[0].COMMSIZE < 2)
		return 0;
	find_where(where, sizeof(where), p);
	at = (size_t)snprintf(text, sizeof(text), "%s, commsize %ld%s%s:", where, rows[0].COMMSIZE,
			      strcmp(rows[0].split, "uniform") ? ", split " : "",
			      strcmp(rows[0].split, "uniform") ? rows[0].split : "");
	for (const struct mrow *r = algo[0]; r < rows + n && !strcmp(r->algo, algo[0]->algo); r++) {
		const struct mrow *same[ALGOS_MAX] = { 0 };
		for (int k = 0; k < na; k++)
			for (const struct mrow *q = algo[k]; q < rows + n && !strcmp(q->algo, algo[k]->algo); q++)
				if (q->bytes == r->bytes)
					same[k] = q;
		label = winner(same, na);
		differ |= label && *label;
		label = label ? label : "no difference";
		if (strcmp(label, stretch) != 0) {
			if (*stretch && at < sizeof(text))
				at += run_words(text + at, sizeof(text) - at, runs++, stretch, from, last);
			stretch = label;
			from = r->bytes;
		}
		last = r->bytes;
	}
	if (*stretch && at < sizeof(text))
		at += run_words(text + at, sizeof(text) - at, runs++, stretch, from, last);
	if (!differ)
		return 1;
	if (at < sizeof(text))
		snprintf(text + at, sizeof(text) - at, ".");
	find_emit(o, FK_crossover, "info", text, &p->pt->point, 1, "level", (double)rows[0].level,
		  "commsize", (double)rows[0].COMMSIZE, "algorithms", (double)na, NULL);
	return 0;
}

void find_crossovers(struct fout *o, const struct fpoint *p, const struct mrow *rows, long n)
{
	char where[256], text[512];
	int same = 0;

	/* rows are by level, split, algorithm, size: each (level, split) a block */
	for (long i = 0, k; i < n; i = k) {
		for (k = i + 1; k < n && rows[k].level == rows[i].level && !strcmp(rows[k].split, rows[i].split); k++)
			;
		same += crossover(o, p, rows + i, k - i);
	}
	if (same == 0)
		return;
	find_where(where, sizeof(where), p);
	snprintf(text, sizeof(text), "%s: at %d level%s and split%s the algorithms do not differ "
		 "beyond the noise at any size.", where, same, same > 1 ? "s" : "",
		 same > 1 ? "s" : "");
	find_emit(o, FK_crossover, "info", text, &p->pt->point, 1, "alike", (double)same, NULL);
}

/*
 * What points of one curve share but node count and mode: campaign, series,
 * variant and placement; without placement, the series less its suffix.
 */
static int series_cmp(const struct fpoint *a, const struct fpoint *b, int placement)
{
	int c;

	if ((c = strcmp(a->pt->campaign, b->pt->campaign)) ||
	    (c = strcmp(placement ? a->pt->series : a->pt->base, placement ? b->pt->series : b->pt->base)) ||
	    (c = strcmp(a->pt->variant, b->pt->variant)) || !placement)
		return c;
	return strcmp(a->pt->placement, b->pt->placement);
}

/* What the points of a campaign differ in, beside node count and mode: what a finding names. */
enum { VARY_PLACEMENT = 1, VARY_VARIANT = 2, VARY_SERIES = 4, VARY_CAMPAIGN = 8 };

static int varied(const struct fpoint *const *s, long n)
{
	int v = 0;

	for (long i = 1; i < n; i++) {
		v |= strcmp(s[i]->pt->placement, s[0]->pt->placement) ? VARY_PLACEMENT : 0;
		v |= strcmp(s[i]->pt->variant, s[0]->pt->variant) ? VARY_VARIANT : 0;
		v |= strcmp(s[i]->pt->base, s[0]->pt->base) ? VARY_SERIES : 0;
		v |= strcmp(s[i]->pt->campaign, s[0]->pt->campaign) ? VARY_CAMPAIGN : 0;
	}
	return v;
}

/* "HEAD WORD" appended to buf (of len bytes), after ", " where buf holds something past its " (". */
static void append(char *buf, size_t len, const char *head, const char *word)
{
	size_t n = strlen(buf);

	if (n + 1 < len)
		snprintf(buf + n, len - n, "%s%s%s", n > 2 ? ", " : "", head, word);
}

/*
 * The point's place among what varies (`vary`, VARY_*), `first` (NULL: none)
 * before it, as " (strided, cyclic placement, variant bruck)"; "" for nothing.
 */
static void where(const struct fpoint *p, int vary, const char *first, char *buf, size_t len)
{
	snprintf(buf, len, " (%s", first ? first : "");
	if (vary & VARY_PLACEMENT)
		append(buf, len, p->pt->placement, p->pt->placement[0] ? " placement" : "in the launcher's order");
	if (vary & (VARY_VARIANT | VARY_SERIES))
		append(buf, len, vary & VARY_VARIANT ? "variant " : "series ", vary & VARY_VARIANT ? p->pt->variant : p->pt->base);
	if (vary & VARY_CAMPAIGN)
		append(buf, len, "campaign ", p->pt->campaign);
	if (strlen(buf) > 2)
		snprintf(buf + strlen(buf), len - strlen(buf), ")");
	else
		buf[0] = '\0';
}

/* Whether two points differ in mode (or node count) alone. */
static int same_series(const struct fpoint *a, const struct fpoint *b)
{
	return !series_cmp(a, b, 1);
}

/* The largest size both levels measured: its index in each, or -1. */
static int common_size(const struct flevel *a, const struct flevel *b, int *ib)
{
	int best = -1;

	for (int i = 0; i < a->n; i++)
		for (int k = 0; k < b->n; k++)
			if (a->s[i].bytes == b->s[k].bytes && a->s[i].tavg > 0 && b->s[k].tavg > 0 &&
			    (best < 0 || a->s[i].bytes > a->s[best].bytes))
				best = i, *ib = k;
	return best;
}

/*
 * Point b's time over a's at level 1 (communicators of half the world), the
 * largest size both measured, as finding `kind`: "HEAD communicators of G
 * take Rx the time of OTHER at ...", a notice beyond the noise (find_beyond)
 * either way, whose sentence ends with `why` where b is the slower.
 */
static void level1(struct fout *o, enum finding_kind kind, const struct fpoint *a, const struct fpoint *b,
		   const char *head, const char *other, const char *why)
{
	const struct flevel *l = &a->levels[1], *m = &b->levels[1];
	char size[32], text[768];
	long ids[2] = { a->pt->point, b->pt->point };
	double ratio;
	int i, k, beyond;

	if (l->commsize < 2 || l->commsize != m->commsize || (i = common_size(l, m, &k)) < 0)
		return;
	ratio = m->s[k].tavg / l->s[i].tavg;
	beyond = find_beyond(ratio, l->s[i].noise + m->s[k].noise);
	format_bytes(size, sizeof(size), (long)l->s[i].bytes);
	snprintf(text, sizeof(text), "%s communicators of %ld take %.2fx the time of %s at %s per "
		 "peer (%.3g against %.3g ms)%s", head, l->commsize, ratio, other, size,
		 1e3 * m->s[k].tavg, 1e3 * l->s[i].tavg, beyond && ratio > 1 ? why : ".");
	find_emit(o, kind, beyond ? "notice" : "info", text, ids, 2, "ratio", ratio, "commsize",
		  (double)l->commsize, "bytes_per_peer", l->s[i].bytes, NULL);
}

/* Contiguous against strided on one node count. */
static void modes(struct fout *o, const struct fpoint *c, const struct fpoint *s, int vary)
{
	char head[512], at[384];

	where(c, vary, NULL, at, sizeof(at));
	snprintf(head, sizeof(head), "On %ld node%s%s, strided", c->pt->nodes, c->pt->nodes == 1 ? "" : "s", at);
	level1(o, FK_modes, c, s, head, "contiguous ones",
	       ": the network between nodes, not the node, bounds them.");
}

/* Over node counts of one series and mode: the world's per-task bandwidth at b's nodes against a's. */
static void scaling(struct fout *o, const struct fpoint *a, const struct fpoint *b, int vary)
{
	char size[32], text[768], at[384];
	long ids[2] = { a->pt->point, b->pt->point };
	double from, to;
	int i, k;

	if (b == a || (i = common_size(&a->levels[0], &b->levels[0], &k)) < 0 ||
	    !(a->levels[0].s[i].bwavg > 0))
		return;
	from = a->levels[0].s[i].bwavg;
	to = b->levels[0].s[k].bwavg;
	format_bytes(size, sizeof(size), (long)a->levels[0].s[i].bytes);
	where(a, vary, a->pt->mode, at, sizeof(at));
	snprintf(text, sizeof(text), "From %ld to %ld nodes%s, the whole world's all-to-all at %s "
		 "per peer keeps %.3g%% of its per-task bandwidth (%.3g to %.3g GiB/s).", a->pt->nodes,
		 b->pt->nodes, at, size, 100 * to / from, from, to);
	find_emit(o, FK_scaling, to < 0.5 * from ? "notice" : "info", text, ids, 2, "efficiency",
		  to / from, "nodes_from", (double)a->pt->nodes, "nodes_to", (double)b->pt->nodes,
		  "bytes_per_peer", a->levels[0].s[i].bytes, NULL);
}

/*
 * A point whose job needed more than one attempt: how each earlier one
 * ended; a warning when one was killed by a signal ("(signal 11, ...)",
 * "ended by SIGKILL": a crash a retry hid), a notice otherwise.
 */
static void retried(struct fout *o, const struct fpoint *p)
{
	char where[256], text[1536];
	int n;

	if (p->retries == 0)
		return;
	find_where(where, sizeof(where), p);
	n = snprintf(text, sizeof(text), "%s: its job needed %d attempts (the point is %s); ", where,
		     p->retries + 1, p->pt->state);
	for (const char *s = p->retried, *e; s && *s && n > 0 && (size_t)n < sizeof(text); s = *e ? e + 1 : e) {
		e = s + strcspn(s, "\n");
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%s%.*s", s == p->retried ? "" : "; ",
			      (int)(e - s), s);
	}
	if (n > 0 && (size_t)n < sizeof(text) - 1)
		snprintf(text + n, sizeof(text) - (size_t)n, ".");
	find_emit(o, FK_retried, strstr(p->retried, "(signal ") || strstr(p->retried, "ended by SIG") ? "warning"
		  : "notice", text, &p->pt->point, 1, "attempts", (double)(p->retries + 1), NULL);
}

/* A point that ran with aller's test hooks set: a test, named so, and nothing of it acted on. */
static void tested(struct fout *o, const struct fpoint *p)
{
	char where[256], text[768];

	if (!p->hooks[0])
		return;
	find_where(where, sizeof(where), p);
	snprintf(text, sizeof(text), "%s: aller ran with its test hooks set (%s): a test, not a "
		 "measurement; none of its findings names a suspect, and it is not exported.", where,
		 p->hooks);
	find_emit(o, FK_test_hooks, "warning", text, &p->pt->point, 1, NULL);
}

static void states(struct fout *o, const struct fpoint *p)
{
	char where[256], text[768];
	long floors;

	tested(o, p);
	retried(o, p);
	if (!strcmp(p->pt->state, "complete"))
		return;
	find_where(where, sizeof(where), p);
	floors = !strcmp(p->pt->state, "failed") ? p->floors : 0;
	if (floors > 0)
		snprintf(text, sizeof(text), "%s: %ld row%s below a floor (the point failed; its "
			 "output names them).", where, floors, floors > 1 ? "s" : "");
	else
		snprintf(text, sizeof(text), "%s: the point is %s; rerun it with make campaign "
			 "(only what is missing runs).", where, p->pt->state);
	find_emit(o, floors > 0 ? FK_floor : FK_state, "warning", text, &p->pt->point, 1, "rows_below_floor",
		  (double)floors, NULL);
}

/*
 * Points by campaign, series, variant and placement, then (modes) nodes and
 * mode, or (scaling) mode and nodes; or (placements) by all of these but
 * the placement, then the placement.
 */
static int by_nodes_mode(const void *a, const void *b)
{
	const struct fpoint *x = *(const struct fpoint *const *)a, *y = *(const struct fpoint *const *)b;
	int c;

	if ((c = series_cmp(x, y, 1)) || x->pt->nodes != y->pt->nodes)
		return c ? c : x->pt->nodes < y->pt->nodes ? -1 : 1;
	return strcmp(x->pt->mode, y->pt->mode);
}

static int by_mode_nodes(const void *a, const void *b)
{
	const struct fpoint *x = *(const struct fpoint *const *)a, *y = *(const struct fpoint *const *)b;
	int c;

	if ((c = series_cmp(x, y, 1)) || (c = strcmp(x->pt->mode, y->pt->mode)))
		return c;
	return x->pt->nodes < y->pt->nodes ? -1 : x->pt->nodes > y->pt->nodes;
}

/* A point without --placement, or with block, is the one others are measured against. */
static int block(const struct fpoint *p)
{
	return !p->pt->placement[0] || !strcmp(p->pt->placement, "block");
}

static int by_where_placement(const void *a, const void *b)
{
	const struct fpoint *x = *(const struct fpoint *const *)a, *y = *(const struct fpoint *const *)b;
	int c;

	if ((c = series_cmp(x, y, 0)) || (c = strcmp(x->pt->mode, y->pt->mode)) || x->pt->nodes != y->pt->nodes)
		return c ? c : x->pt->nodes < y->pt->nodes ? -1 : 1;
	if (block(x) != block(y))
		return block(x) ? -1 : 1;
	return strcmp(x->pt->placement, y->pt->placement);
}

/* Another placement against block (or the launcher's order) on one node count and mode. */
static void placements(struct fout *o, const struct fpoint *b, const struct fpoint *p, int vary)
{
	char head[512], at[384];

	where(p, vary & ~VARY_PLACEMENT, p->pt->mode, at, sizeof(at));
	snprintf(head, sizeof(head), "On %ld node%s%s, %s", p->pt->nodes, p->pt->nodes == 1 ? "" : "s", at,
		 p->pt->placement);
	level1(o, FK_placement, b, p, head, b->pt->placement[0] ? "block ones" :
	       "ones in the launcher's order", ": more of their bytes leave the node, or the "
	       "same bytes cross more links.");
}

/*
 * Contiguous against strided per node count, each mode's scaling, and
 * other placements against block: groups of sorted points.
 */
static void groups(struct fout *o, const struct fpoint **s, long n)
{
	int vary = varied(s, n);

	qsort(s, (size_t)n, sizeof(*s), by_nodes_mode);
	for (long i = 0; i < n; i++)
		for (long k = i + 1; k < n && same_series(s[i], s[k]) && s[k]->pt->nodes == s[i]->pt->nodes; k++)
			if (!strcmp(s[i]->pt->mode, "contiguous") && !strcmp(s[k]->pt->mode, "strided"))
				modes(o, s[i], s[k], vary);
	qsort(s, (size_t)n, sizeof(*s), by_mode_nodes);
	for (long i = 0, k; i < n; i = k) {
		const struct fpoint *a = NULL, *b = NULL;
		/* network with network: from the fewest nodes whose world leaves its node */
		for (k = i; k < n && same_series(s[i], s[k]) && !strcmp(s[k]->pt->mode, s[i]->pt->mode); k++)
			if (s[k]->levels[0].n > 0 && s[k]->pt->nodes > 1) {
				a = a ? a : s[k];
				b = s[k];
			}
		if (a)
			scaling(o, a, b, vary);
	}
	qsort(s, (size_t)n, sizeof(*s), by_where_placement);
	for (long i = 0, k; i < n; i = k)
		for (k = i + 1; k < n && !series_cmp(s[i], s[k], 0) && !strcmp(s[k]->pt->mode, s[i]->pt->mode) &&
				s[k]->pt->nodes == s[i]->pt->nodes; k++)
			if (block(s[i]) && !block(s[k]))
				placements(o, s[i], s[k], vary);
}

void find_across(struct fout *o, const struct fpoint *pts, long n)
{
	const struct fpoint **sorted = malloc(sizeof(*sorted) * (size_t)(n > 0 ? n : 1));
	long unknown = 0, measured = 0;

	for (long i = 0; i < n; i++) {
		states(o, &pts[i]);
		measured += pts[i].peak.point >= 0 && pts[i].pt->nodes > 1;
		unknown += pts[i].peak.point >= 0 && pts[i].pt->nodes > 1 && pts[i].eff.point < 0;
		if (sorted)
			sorted[i] = &pts[i];
	}
	if (sorted)
		groups(o, sorted, n);
	free(sorted);
	if (unknown > 0)
		find_emit(o, FK_limit, "info", unknown == measured ? "No output records its nodes' line "
			  "rate: how far a number is from the hardware's limit is unknown (declare it "
			  "with --line-rate or ALLER_LINE_RATE)." : "Some outputs record no line rate: "
			  "their eff is unknown.", NULL, 0, "points", (double)unknown, NULL);
}

struct links {
	struct fout *o;
	struct suspects *sus;
	const struct topo *topo;
	const struct campaign *c;
	int slow;
};

/*
 * A --pairs slow link: a finding and a suspect; or, where its share of the median is within the
 * noise (find_beyond: its exchanges' spread and the links' median spread), or the declared topology
 * says its step's other flows shared its links and it got TOPO_EXPLAINED or more of what that
 * leaves it, a finding that says so, and neither slow nor a suspect.
 */
static void one_link(void *ctx, const char *link, const char *since, const char *campaign, long point)
{
	struct links *l = ctx;
	char text[4200];
	long src = -1, dst = -1;
	double r = sscanf(link, "%ld (%*[^)]) -> %ld", &src, &dst) == 2 ? topo_link(l->topo, point, src, dst) : NAN;
	const struct mpoint *p = campaign_point(l->c, point);
	long n = p && p->world <= TOPO_PAIRS && src >= 0 && dst >= 0 && src < p->world && dst < p->world ? p->world : 0;
	double share = 0, spread = NAN, typical = NAN, *m = n > 1 ? malloc(sizeof(double) * (size_t)(2 * n * n)) : NULL;
	double of = sscanf(link, "%*[^,], %lf", &share) == 1 && m ? share : 0;   /* its share of the median, read once */

	if (of != 0 && campaign_matrix(l->c, point, n, m, m + n * n) == 0)
		spread = m[n * n + src * n + dst], typical = median_of(m + n * n, n * n);   /* sorts the spreads */
	free(m);
	if (of > 0 && !find_beyond(1 / of, spread + typical)) {   /* in time, as the spreads: 1% of the median 99x */
		snprintf(text, sizeof(text), "Link %s (--pairs): below the median, but within the noise: its exchanges' "
			 "average took %.0f%% more than its best, the links' %.0f%% (the median), and the %.0f%% more time "
			 "it took than the median is not twice the two (a load's, not a fault).", link, 100 * spread,
			 100 * typical, 100 * (1 / of - 1));
		find_emit(l->o, FK_slow_link, "info", text, &point, point >= 0, "spread", spread, "spread_median",
			  typical, NULL);
	} else if (r >= TOPO_EXPLAINED) {
		snprintf(text, sizeof(text), "Link %s (--pairs): below the median, but its step's other flows share "
			 "its busiest link, and it got %.0f%% of what the fabric allows it beside them: the topology's "
			 "share, not a fault.", link, 100 * r);
		find_emit(l->o, FK_slow_link, "info", text, &point, point >= 0, "of_bound", r, NULL);
	} else {
		snprintf(text, sizeof(text), "Slow link %s (--pairs).", link);
		find_emit(l->o, FK_slow_link, "warning", text, &point, point >= 0, NULL);
		suspects_link(l->sus, link, share, since, campaign, point);
		l->slow++;
	}
}

int find_slow_links(struct fout *o, const struct campaign *c, struct suspects *sus, const struct topo *topo)
{
	struct links l = { o, sus, topo, c, 0 };

	campaign_slow_links(c, one_link, &l);
	return l.slow;
}

/* The located link(s) as suspects: each link, and a NIC's node (the node alone where it is slow itself). */
static void located_suspects(const struct locate *loc, const char **names, int n,
			     const struct fpoint *pts, long np, struct suspects *sus, int itself)
{
	char evidence[256], host[LOCATE_NAME];

	snprintf(evidence, sizeof(evidence), "%d rows at %.0f%%-%.0f%% of their bound, each with its "
		 "slowest task in a communicator through it%s", loc->slow_rows, 100 * loc->eff_lo,
		 100 * loc->eff_hi, n > 1 ? " (the campaign cannot separate it from the other links named)" : itself ?
		 "; its rows within the node slow too: the node itself (compute or memory), not its NIC" : "");
	for (int i = 0; i < n && !itself; i++)
		suspects_add(sus, "link", names[i], evidence, np ? pts[0].pt->campaign : "", loc->points[0]);
	if (n == 1 && !strncmp(names[0], "nic:", 4) &&   /* NODE of NODE:IF */
	    snprintf(host, sizeof(host), "%.*s", (int)strcspn(names[0] + 4, ":"), names[0] + 4) > 0)
		suspects_add(sus, "host", host, evidence, np ? pts[0].pt->campaign : "", loc->points[0]);
}

const struct fpoint *find_itself(const struct fpoint *pts, long np, const char *link)
{
	size_t n = strncmp(link, "nic:", 4) ? 0 : strcspn(link + 4, ":(");

	for (long i = 0; i < np && n; i++)
		if (!strncmp(pts[i].slow_host, link + 4, n) && !pts[i].slow_host[n] && pts[i].on_rows >= FIND_SLOW_ROWS &&
		    pts[i].slow_on == pts[i].on_rows)
			return &pts[i];
	return NULL;
}

/* Whether the points have contiguous and strided ones. */
static int both_modes(const struct fpoint *pts, long np)
{
	int seen = 0;

	for (long i = 0; i < np; i++)
		seen |= !strcmp(pts[i].pt->mode, "strided") ? 2 : 1;
	return seen == 3;
}

int find_located(struct fout *o, const struct locate *loc, const struct fpoint *pts, long np,
		 struct suspects *sus)
{
	const char *names[LOCATE_MAX];
	char words[LOCATE_MAX][LOCATE_NAME + 16], all[3 * (LOCATE_NAME + 24)] = "", text[1536];
	int n = locate_suspects(loc, names, LOCATE_MAX);
	const struct fpoint *first = NULL;   /* a point with a slow row: the links' tiers in its fabric */

	if (n == 0)
		return 0;
	for (long i = 0; i < np && !first && loc->npoints > 0; i++)
		first = pts[i].pt->point == loc->points[0] ? &pts[i] : NULL;
	for (int i = 0; i < n; i++) {
		find_link_words(first, names[i], words[i], sizeof(words[i]));
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s",
			 i == 0 ? "" : i == n - 1 ? " or " : ", ", words[i]);
	}
	const struct fpoint *itself = n == 1 ? find_itself(pts, np, names[0]) : NULL;
	if (n == 1) {
		char cite[512] = "", node[128] = "";
		if (!strncmp(names[0], "nic:", 4))
			find_nic_cite(pts, np, loc->points, loc->npoints, names[0] + 4, cite, sizeof(cite));
		if (itself)
			snprintf(node, sizeof(node), "; it holds the slowest task in %d of %d rows within a node",
				 itself->slow_on, itself->on_rows);
		snprintf(text, sizeof(text), "The slow %s%s%s: %d rows ran at %.0f%%-%.0f%% of what the fabric allows, "
			 "each with its slowest task in a communicator through it, and no row at its bound cleared it%s.%s",
			 itself ? "node is " : "link is ", itself ? itself->slow_host : all, itself ? " itself (its on-node rows "
			 "slow too: compute or memory, not its NIC)" : "", loc->slow_rows,
			 100 * loc->eff_lo, 100 * loc->eff_hi, itself ? node : !strncmp(names[0], "nic:", 4) ? " (which "
			 "way, its all-to-all rows cannot tell: they load a NIC alike both ways; a --pairs run can)" : "", cite);
	}
	else
		snprintf(text, sizeof(text), "A slow link is %s: %d rows ran at %.0f%%-%.0f%% of what the "
			 "fabric allows, through each of them, and no row of this campaign separates them "
			 "(%s).", all, loc->slow_rows, 100 * loc->eff_lo, 100 * loc->eff_hi,
			 both_modes(pts, np) ? "every row through one ran through the others too"
					     : "points of the other mode, strided or contiguous, cross other links");
	find_emit(o, FK_located, n == 1 ? "warning" : "notice", text, loc->points, loc->npoints,
		  "slow_rows", (double)loc->slow_rows, "rows", (double)loc->rows, "eff_lo", loc->eff_lo,
		  "eff_hi", loc->eff_hi, "candidates", (double)n, NULL);
	located_suspects(loc, names, n, pts, np, sus, itself != NULL);
	return n;
}

/*
 * The verdict's first sentence: the share of its bound the network-bound
 * rows reach (model/health.h), the weakest named with its bottleneck; the
 * topology; the points that needed a retry.
 */
static void health_words(char *buf, size_t len, const struct health *h, const struct fpoint *pts,
			 long n, long nretried, const char *topology)
{
	char where[256] = "", size[32], link[320], share[64], retries[64];
	const char *sep = topology[0] ? "; " : "";   /* the topology's words (none: not judged, no fabric) */

	if (nretried > 0)
		snprintf(retries, sizeof(retries), "%ld point%s needed a retry (below)", nretried, nretried == 1 ? "" : "s");
	else
		snprintf(retries, sizeof(retries), "no point needed a retry");
	if (h->rows == 0) {
		format_bytes(size, sizeof(size), HEALTH_MIN_BYTES);
		snprintf(buf, len, "Fabric: no row is bound by a network link at %s per peer or more (no "
			 "fabric known, or every row inside a node), so no share of the bound is judged; %s%s%s.",
			 size, topology, sep, retries);
		return;
	}
	const struct fpoint *weakest = NULL;
	for (long i = 0; i < n; i++)
		if (pts[i].pt->point == h->weakest.point) {
			find_where(where, sizeof(where), &pts[i]);
			where[0] = 'o';   /* "On 2 nodes" inside the sentence */
			weakest = &pts[i];
		}
	format_bytes(size, sizeof(size), (long)h->weakest.bytes);
	find_link_words(weakest, h->weakest.BOTTLENECK, link, sizeof(link));
	if (lround(100 * h->lo) == lround(100 * h->hi))
		snprintf(share, sizeof(share), "%.0f%%", 100 * h->lo);
	else
		snprintf(share, sizeof(share), "%.0f%%-%.0f%%", 100 * h->lo, 100 * h->hi);
	snprintf(buf, len, "Fabric: the network-bound rows reach %s of what the topology allows (%ld "
		 "row%s, each curve's largest size; the weakest, %.0f%%: %s at %s per peer, bound by %s)%s; "
		 "%s%s%s.", share, h->rows, h->rows == 1 ? "" : "s", 100 * h->lo, where, size, link,
		 h->hi > 1.05 ? "; past 100% where a row's median task beat its slowest, a shaper passed a burst "
		 "or a rate is declared too low, as each row's limit finding says" : "", topology, sep, retries);
}

void find_verdict(struct fout *o, const struct fpoint *pts, long n, const struct verdict_in *in)
{
	const struct health *h = in->health;
	long done = 0, failed = 0, nretried = 0, sim = 0;
	char text[2560], head[1536];
	const char *links = in->slow_links ? "slow links were found (below)"
			    : in->unseparated ? "a slow link was found, not told apart from others (below)" : NULL;
	int weak;

	for (long i = 0; i < n; i++) {
		done += !strcmp(pts[i].pt->state, "complete");
		failed += !strcmp(pts[i].pt->state, "failed");
		nretried += pts[i].retries > 0;
		sim += campaign_fact(pts[i].pt, ALLER_KEY_SIMULATED) != NULL;
	}
	int k = sim ? snprintf(head, sizeof(head), "Simulated (aller-simulate's model), not measured: ") : 0;
	health_words(head + k, sizeof(head) - (size_t)k, h, pts, n, nretried, in->topology);
	if (done == n)
		snprintf(text, sizeof(text), "%s All %ld points complete (none below a floor); %s%s.", head, n,
			 links ? "but " : "", links ? links : "no slow link found");
	else
		snprintf(text, sizeof(text), "%s %ld of %ld points complete: %ld failed (a floor or an "
			 "error, below), %ld incomplete or unknown%s%s.", head, done, n, failed, n - done - failed,
			 links ? "; " : "", links ? links : "");
	weak = (h->rows > 0 && h->lo < HEALTH_WEAK) || in->verified < 0;
	find_emit(o, FK_verdict, done == n && !links && !nretried && !weak ? "info" : "warning", text, NULL, 0,
		  "points", (double)n, "complete", (double)done, "failed", (double)failed,
		  "slow_links", (double)in->slow_links, "retried", (double)nretried,
		  "bound_rows", (double)h->rows, "bound_lo", h->rows ? h->lo : NAN,
		  "bound_hi", h->rows ? h->hi : NAN, "topology_verified", (double)in->verified, NULL);
}
