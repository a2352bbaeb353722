/* plots_kinds.c: which plots a merge has, and their rows (see plots_impl.h). */
#include "plots_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "merged.h"
#include "strbuf.h"

/* Bandwidth and time per call versus message size: commsize 1 apart when there are others. */
static int bw(const struct plots *P, const struct set *s)
{
	(void)P;
	return set_is(s, SET_kind, "bandwidth") && set_num(s, SET_rows) > 0;
}

static void sizes(struct plots *P, struct set **g, long n)
{
	struct set **local = malloc(sizeof(*g) * (size_t)n);
	long nl = 0, nm = 0;
	char suffix[300], about[300], name[600], local_name[700], main_list[800], local_list[800], out[700], title[2][2048];

	if (!local) {
		P->failed = 1;
		return;
	}
	for (long i = 0; i < n; i++) {   /* the levels above 1 first in g, commsize 1 in local */
		if (set_num(g[i], SET_commsize) == 1)
			local[nl++] = g[i];
		else
			g[nm++] = g[i];
	}
	if (nm == 0) {   /* commsize 1 alone: it is the plot */
		memcpy(g, local, sizeof(*g) * (size_t)nl);
		nm = nl;
		nl = 0;
	}
	plots_named(g[0], suffix, sizeof(suffix), about, sizeof(about));
	snprintf(name, sizeof(name), "sizes-%s-n%s%s", g[0]->v[SET_mode], g[0]->v[SET_nodes], suffix);
	plots_list(P, name, "index commsize label", g, nm, main_list, sizeof(main_list));
	snprintf(local_name, sizeof(local_name), "%s-local", name);
	plots_list(P, local_name, "index commsize label", local, nl, local_list, sizeof(local_list));
	for (int k = 0; k < 2; k++) {
		snprintf(out, sizeof(out), "%s-%s-n%s%s", k ? "latency" : "bandwidth", g[0]->v[SET_mode],
			 g[0]->v[SET_nodes], suffix);
		snprintf(title[k], sizeof(title[k]), "%s: %s versus message size, %s, %s nodes%s",
			 P->title, k ? "time per call" : "bandwidth", g[0]->v[SET_mode], g[0]->v[SET_nodes], about);
		plots_add(P, &(struct plot_row){ "sizes.gp", "bandwidth.dat", out, title[k], P->subtitle,
					       g[0]->v[SET_mode], main_list, local_list, k ? "latency" : "bandwidth", !k });
	}
	free(local);
}

/* Whether a group's sets differ in column c. */
static int varies(struct set **g, long n, int c)
{
	for (long i = 1; i < n; i++)
		if (!set_is(g[i], c, g[0]->v[c]))
			return 1;
	return 0;
}

/* The algorithms side by side, per (mode, nodes, commsize, split) with two or more. */
static void algorithms(struct plots *P, struct set **g, long n)
{
	char suffix[300], about[300], list[700], out[700], title[2048];
	struct set s = *g[0];

	if (!varies(g, n, SET_algo))
		return;
	s.v[SET_algo] = "alltoall";
	plots_named(&s, suffix, sizeof(suffix), about, sizeof(about));
	snprintf(out, sizeof(out), "algorithms-%s-n%s-c%s%s", s.v[SET_mode], s.v[SET_nodes], s.v[SET_commsize], suffix);
	plots_list(P, out, "index algo label algo_index", g, n, list, sizeof(list));
	snprintf(title, sizeof(title), "%s: the algorithms, %s, %s nodes, commsize %s%s", P->title,
		 s.v[SET_mode], s.v[SET_nodes], s.v[SET_commsize], about);
	plots_add(P, &(struct plot_row){ "algorithms.gp", "bandwidth.dat", out, title, P->subtitle,
				       list, "", "", "", plots_cites(P, "algorithms") });
}

/* Time per call versus the split, per (mode, nodes, commsize) with two or more, at the
 * largest size every one measured. */
static void splits(struct plots *P, struct set **g, long n)
{
	char list[700], out[700], title[2048], size[64], bytes[32];
	struct strbuf order;
	long b = -1;

	if (!varies(g, n, SET_split))
		return;
	for (long i = 0; i < n; i++)
		b = b < 0 || set_num(g[i], SET_bytes_max) < b ? set_num(g[i], SET_bytes_max) : b;
	if (b <= 0)
		return;
	snprintf(out, sizeof(out), "splits-%s-n%s-c%s", g[0]->v[SET_mode], g[0]->v[SET_nodes], g[0]->v[SET_commsize]);
	plots_list(P, out, "index algo split label algo_index bytes_max", g, n, list, sizeof(list));
	strbuf_init(&order);
	for (long i = 0; i < n; i++) {   /* the splits, once each, in the list's order */
		long k = 0;
		while (k < i && !set_is(g[k], SET_split, g[i]->v[SET_split]))
			k++;
		if (k == i)
			strbuf_addf(&order, "%s%s", i ? " " : "", g[i]->v[SET_split]);
	}
	format_bytes(size, sizeof(size), b);
	snprintf(bytes, sizeof(bytes), "%ld", b);
	snprintf(title, sizeof(title), "%s: time per call versus the split, %s, %s nodes, commsize "
		 "%s, %s per peer", P->title, g[0]->v[SET_mode], g[0]->v[SET_nodes], g[0]->v[SET_commsize], size);
	plots_add(P, &(struct plot_row){ "splits.gp", "bandwidth.dat", out, title, P->subtitle, list,
				       bytes, order.s ? order.s : "", "", 0 });
	P->failed |= order.failed;
	strbuf_release(&order);
}

/* aller --moe: the round trip's phases, per (mode, nodes, algorithm, split) at its largest
 * communicator size: one data set. */
static int moe(const struct plots *P, const struct set *s)
{
	long p = set_num(s, SET_point);
	return bw(P, s) && p >= 0 && p < P->np && P->moe[p];
}

static void phases(struct plots *P, struct set **g, long n)
{
	char suffix[300], about[300], list[700], out[700], title[2048];

	(void)n;
	plots_named(g[0], suffix, sizeof(suffix), about, sizeof(about));
	snprintf(out, sizeof(out), "phases-%s-n%s%s", g[0]->v[SET_mode], g[0]->v[SET_nodes], suffix);
	plots_list(P, out, "index commsize label", g, 1, list, sizeof(list));
	snprintf(title, sizeof(title), "%s: MoE round trip by phase, %s, %s nodes, commsize %s%s",
		 P->title, g[0]->v[SET_mode], g[0]->v[SET_nodes], g[0]->v[SET_commsize], about);
	plots_add(P, &(struct plot_row){ "phases.gp", "bandwidth.dat", out, title, P->subtitle, list, "", "", "", 0 });
}

/* The distinct sizes of g ascending into b (n at most); how many. */
static long distinct_sizes(struct set **g, long n, long *b)
{
	long k = 0;

	for (long i = 0; i < n; i++) {
		long x = set_num(g[i], SET_bytes_per_peer), j = k;
		while (j > 0 && b[j - 1] > x)
			j--;
		if (j > 0 && b[j - 1] == x)
			continue;
		memmove(b + j + 1, b + j, sizeof(*b) * (size_t)(k - j));
		b[j] = x;
		k++;
	}
	return k;
}

/* Of k sizes ascending, the largest, a middle and the smallest, once each, ascending, into b. */
static long three(long *b, long k)
{
	long pick[3] = { b[0], b[k / 2], b[k - 1] }, m = 0;

	for (int i = 0; i < 3; i++)
		if (m == 0 || b[m - 1] != pick[i])
			b[m++] = pick[i];
	return m;
}

/* Bandwidth versus concurrency, per node count, at the largest, a middle and the smallest
 * size that every level has (the sets with the most rows; commsize 1's row alone: none). */
static int conc(const struct plots *P, const struct set *s)
{
	(void)P;
	return set_is(s, SET_kind, "concurrency") && set_num(s, SET_rows) - set_is(s, SET_local, "yes") > 0;
}

static void concurrency(struct plots *P, struct set **g, long n)
{
	long max = 0, k = 0, *b = malloc(sizeof(*b) * (size_t)n), m;
	struct set **top = malloc(sizeof(*top) * (size_t)n);

	for (long i = 0; i < n; i++)
		max = set_num(g[i], SET_rows) > max ? set_num(g[i], SET_rows) : max;
	for (long i = 0; b && top && i < n; i++)
		if (set_num(g[i], SET_rows) == max)
			top[k++] = g[i];
	m = b && top ? three(b, distinct_sizes(top, k, b)) : 0;
	P->failed |= !b || !top;
	for (long j = m - 1; j >= 0; j--) {   /* the largest first */
		char list[700], out[700], title[2048];
		const char *size = "";
		long c = 0;
		for (long i = 0; i < n; i++)
			if (set_num(g[i], SET_bytes_per_peer) == b[j])
				top[c++] = g[i];
		qsort(top, (size_t)c, sizeof(*top), plots_by_row);
		size = c ? top[0]->v[SET_size] : size;
		snprintf(out, sizeof(out), "concurrency-n%s-%ldB", g[0]->v[SET_nodes], b[j]);
		plots_list(P, out, "index mode label local", top, c, list, sizeof(list));
		snprintf(title, sizeof(title), "%s: bandwidth versus concurrency, %s nodes, %s per peer",
			 P->title, g[0]->v[SET_nodes], size);
		plots_add(P, &(struct plot_row){ "concurrency.gp", "concurrency.dat", out, title, P->subtitle, list, "", "", "",
					       j == m - 1 && plots_cites(P, "concurrency") });
	}
	free(b);
	free(top);
}

/* Interference (aller --isolate): per (nodes, algorithm, split), at up to three sizes. */
static int interfering(const struct plots *P, const struct set *s)
{
	(void)P;
	return set_is(s, SET_kind, "concurrency") && set_num(s, SET_rows) > 1;
}

static void interference(struct plots *P, struct set **g, long n)
{
	long *b = malloc(sizeof(*b) * (size_t)n), m, c = 0;
	char suffix[300], about[300], list[700], out[700], title[2048];

	if (!b) {
		P->failed = 1;
		return;
	}
	m = three(b, distinct_sizes(g, n, b));
	for (long i = 0; i < n; i++) {   /* the sets of the picked sizes, kept in g */
		int pick = 0;
		for (long j = 0; j < m; j++)
			pick |= set_num(g[i], SET_bytes_per_peer) == b[j];
		if (pick)
			g[c++] = g[i];
	}
	plots_named(g[0], suffix, sizeof(suffix), about, sizeof(about));
	snprintf(out, sizeof(out), "interference-n%s%s", g[0]->v[SET_nodes], suffix);
	plots_list(P, out, "index mode size", g, c, list, sizeof(list));
	snprintf(title, sizeof(title), "%s: interference between concurrent communicators, %s "
		 "nodes%s", P->title, g[0]->v[SET_nodes], about);
	plots_add(P, &(struct plot_row){ "interference.gp", "concurrency.dat", out, title,
				       P->subtitle, list, "", "", "", plots_cites(P, "interference") });
	free(b);
}

/* Scaling: per (mode, label, commsize) its largest size; drawn with two node counts. */
static int scaled(const struct plots *P, const struct set *s)
{
	(void)P;
	return set_is(s, SET_kind, "scaling") && set_num(s, SET_rows) > 0;
}

static void scaling_last(struct plots *P, struct set **g, long n)
{
	P->picked[P->npicked++] = g[n - 1];
}

static void scaling(struct plots *P)
{
	/* two sets alike in all four: the last by index as text (sort(1)'s last resort) */
	static const struct order o = { 5, { SET_mode, SET_label, SET_commsize, SET_bytes_per_peer, SET_index }, "ssnns" };
	char list[700], title[2048];
	long nodes = 0;

	for (long i = 0; i < P->n; i++)   /* two node counts at least */
		if (set_is(&P->s[i], SET_kind, "bandwidth") && set_num(&P->s[i], SET_nodes) != nodes)
			nodes = nodes ? -1 : set_num(&P->s[i], SET_nodes);
	P->npicked = 0;
	if (!(P->picked = malloc(sizeof(*P->picked) * (size_t)(P->n + 1)))) {
		P->failed = 1;
		return;
	}
	plots_each_group(P, scaled, &o, 3, scaling_last);
	if (P->npicked > 0 && nodes < 0) {
		plots_list(P, "scaling", "index mode commsize size label", P->picked, P->npicked, list, sizeof(list));
		snprintf(title, sizeof(title), "%s: scaling over node counts at the largest message size", P->title);
		plots_add(P, &(struct plot_row){ "scaling.gp", "scaling.dat", "scaling", title,
					       P->subtitle, list, "", "", "", 1 });
	}
	free(P->picked);
	P->picked = NULL;
}

/* The distinct values of column c over the bandwidth sets, in their order, joined by " | ". */
static void distinct(const struct plots *P, int c, struct strbuf *b)
{
	for (long i = 0; i < P->n; i++) {
		long k = 0;
		if (!set_is(&P->s[i], SET_kind, "bandwidth"))
			continue;
		while (k < i && !(set_is(&P->s[k], SET_kind, "bandwidth") && set_is(&P->s[k], c, P->s[i].v[c])))
			k++;
		if (k == i)
			strbuf_addf(b, "%s%s", b->len ? " | " : "", P->s[i].v[c]);
	}
}

/* The title (the campaigns, or the directory's name) and subtitle (MPI, tasks, buffers). */
static void titles(struct plots *P, const char *name)
{
	struct strbuf c, m, t, b;

	strbuf_init(&c);
	strbuf_init(&m);
	strbuf_init(&t);
	strbuf_init(&b);
	distinct(P, SET_campaign, &c);
	distinct(P, SET_mpi, &m);
	distinct(P, SET_tasks_per_node, &t);
	distinct(P, SET_buffers, &b);
	for (char *p = c.s; p && (p = strstr(p, " | "));) {   /* campaigns: "a, b" */
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
		*p = ',';
	}
	snprintf(P->title, sizeof(P->title), "aller: %.1000s", !c.s || strcmp(c.s, "-") == 0 ? name : c.s);
	snprintf(P->subtitle, sizeof(P->subtitle), "%s; %s tasks per node; %s buffers",
		 !m.s || strcmp(m.s, "-") == 0 ? "MPI unknown" : m.s, t.s ? t.s : "", b.s ? b.s : "");
	P->failed |= c.failed || m.failed || t.failed || b.failed;
	strbuf_release(&c);
	strbuf_release(&m);
	strbuf_release(&t);
	strbuf_release(&b);
}

/* pairs.tsv's file field: the collector's escapes undone, its name less ".out". */
static void pair_name(const char *file, char *name, size_t len)
{
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	size_t k = 0, n;

	for (const char *p = base; *p && k + 1 < len; p++) {
		char c = *p;
		if (c == '\\' && p[1])
			c = *++p == 't' ? '\t' : *p == 'n' ? '\n' : *p == 'r' ? '\r' : *p;
		name[k++] = c;
	}
	name[k] = '\0';
	n = strlen(name);
	if (n > 4 && strcmp(name + n - 4, ".out") == 0)
		name[n - 4] = '\0';
}

/* A --pairs point's facts: its tasks' hosts as "RANK HOST" words into tics, its slow links' summary into slow. */
static void pair_facts(const struct mfact *f, long n, struct strbuf *tics, char *slow, size_t len)
{
	for (long i = 0; i < n; i++)
		if (strcmp(f[i].key, "pair_host") == 0) {   /* a word each for gnuplot: a quote is a '?' */
			strbuf_addf(tics, "%s", tics->len ? " " : "");
			for (const char *p = f[i].value; *p; p++)
				strbuf_addf(tics, "%c", strchr("._ -", *p) || (*p >= 'A' && *p <= 'Z') ||
							(*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ? *p : '?');
		} else if (strcmp(f[i].key, "slow_links") == 0 && !slow[0]) {   /* its count and median */
			snprintf(slow, len, "slow links: %.*s", (int)strcspn(f[i].value, ";"), f[i].value);
		}
}

/* Whether pairs.tsv's row i is a complete point with a matrix. */
static int drawn(const struct mtable *t, long i)
{
	return mtable_at(t, i, PAIR_index)[0] && strcmp(mtable_at(t, i, PAIR_state), "complete") == 0;
}

/* A heatmap per complete --pairs point (the first row of a point takes its facts). */
static void pairs(struct plots *P, const char *dirname)
{
	const struct mtable *t = &P->c.pairs;

	for (long i = 0; i < t->n; i++) {
		const char *point = mtable_at(t, i, PAIR_point), *nodes = mtable_at(t, i, PAIR_nodes);
		char name[1024], out[1100], title[2048], slow[256] = "";
		struct strbuf tics;
		int first = 1;
		long n = 0;
		if (!drawn(t, i))
			continue;
		for (long k = 0; k < i; k++)
			first &= !(drawn(t, k) && strtol(mtable_at(t, k, PAIR_point), NULL, 10) == strtol(point, NULL, 10));
		strbuf_init(&tics);
		if (first) {
			const struct mfact *f = campaign_facts(&P->c, strtol(point, NULL, 10), &n);
			pair_facts(f, n, &tics, slow, sizeof(slow));
		}
		pair_name(mtable_at(t, i, PAIR_file), name, sizeof(name));
		snprintf(out, sizeof(out), "pairs-%s", name);
		snprintf(title, sizeof(title), "aller: %.500s: node pairs, %.23s nodes (%s)", dirname, nodes, name);
		plots_add(P, &(struct plot_row){ "pairs.gp", MERGED_PAIRS_DAT, out, title, slow,
					       tics.s ? tics.s : "", mtable_at(t, i, PAIR_index), "", "",
					       plots_cites(P, "pairs") });
		P->failed |= tics.failed;
		strbuf_release(&tics);
	}
}

void plots_merge(struct plots *P, const char *dirname)
{
	static const struct order by_size = { 4, { SET_mode, SET_nodes, SET_algo, SET_split }, "snss" },
		by_level = { 4, { SET_mode, SET_nodes, SET_commsize, SET_split }, "snrs" },
		by_split = { 3, { SET_mode, SET_nodes, SET_commsize }, "snr" },
		by_phase = { 5, { SET_mode, SET_nodes, SET_algo, SET_split, SET_commsize }, "snssr" },
		by_nodes = { 1, { SET_nodes }, "n" }, by_isolated = { 3, { SET_nodes, SET_algo, SET_split }, "nss" };
	int isolated = 0, bandwidth = 0;

	pairs(P, dirname);
	for (long i = 0; i < P->n; i++) {
		isolated |= set_is(&P->s[i], SET_kind, "concurrency") && set_is(&P->s[i], SET_isolated, "yes");
		bandwidth |= set_is(&P->s[i], SET_kind, "bandwidth");
	}
	if (!bandwidth)   /* node-pair matrices alone, or nothing */
		return;
	titles(P, dirname);
	plots_each_group(P, bw, &by_size, 4, sizes);
	plots_each_group(P, bw, &by_level, 4, algorithms);
	plots_each_group(P, bw, &by_split, 3, splits);
	plots_each_group(P, moe, &by_phase, 4, phases);
	plots_each_group(P, conc, &by_nodes, 1, concurrency);
	if (isolated)
		plots_each_group(P, interfering, &by_isolated, 3, interference);
	scaling(P);
}
