/* plots.c: collect --plots DIR, the plot list (see plots.h). */
#include "plots.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "merged.h"
#include "outset.h"
#include "strbuf.h"
#include "merge/table.h"

/* sets.tsv's columns the plots read */
enum { S_INDEX, S_KIND, S_CAMPAIGN, S_MODE, S_NODES, S_COMMSIZE, S_BYTES, S_SIZE, S_TPN, S_BUFFERS,
       S_MPI, S_ALGO, S_SPLIT, S_LABEL, S_ROWS, S_POINT, S_ALGO_INDEX, S_BYTES_MAX, S_ISOLATED,
       S_LOCAL, S_N };
static const char *const set_cols[S_N] = { "index", "kind", "campaign", "mode", "nodes",
	"commsize", "bytes_per_peer", "size", "tasks_per_node", "buffers", "mpi", "algo", "split",
	"label", "rows", "point", "algo_index", "bytes_max", "isolated", "local" };

struct set {
	const char *v[S_N];   /* its fields as sets.tsv has them ("-": none) */
	long at;              /* its row: every list is in this order */
};

struct plots {
	const char *dir;
	struct set *s;
	long n;
	char *text;                 /* sets.tsv, its fields' storage */
	char *moe;                  /* moe[point]: the point is an aller --moe one */
	long np;                    /* points: one past the largest a set or pairs.tsv names */
	struct table_out out;       /* plots.tsv */
	char title[1024], subtitle[1024];
	int failed;
};

static long num(const struct set *s, int c)
{
	return strtol(s->v[c], NULL, 10);   /* "-": 0, as sort -n reads it */
}

static int is(const struct set *s, int c, const char *v)
{
	return strcmp(s->v[c], v) == 0;
}

/* A TSV line split in place at its tabs (its newline dropped); the number of fields. */
static int tsv_split(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	for (char *p = line; n < max; p++) {
		f[n++] = p;
		if (!(p = strchr(p, '\t')))
			break;
		*p = '\0';
	}
	return n;
}

/* at[i]: the field of header fields f[0..n-1] named want[i]; 0, or -1 when one lacks. */
static int columns_at(char **f, int n, const char *const *want, int *at, int nwant)
{
	for (int c = 0; c < nwant; c++) {
		at[c] = -1;
		for (int k = 0; k < n; k++)
			at[c] = strcmp(f[k], want[c]) == 0 ? k : at[c];
		if (at[c] < 0)
			return -1;
	}
	return 0;
}

/* sets.tsv read whole, each row split into its fields; 0, or -1. */
static int read_sets(struct plots *P)
{
	char path[4200], *line, *next;
	int at[S_N], ncols = 0;
	long cap = 0;
	FILE *in;
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", P->dir, MERGED_SETS_FILE);
	if (!(in = fopen(path, "r")) || fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode) ||
	    !(P->text = calloc(1, (size_t)st.st_size + 1)) ||
	    fread(P->text, 1, (size_t)st.st_size, in) != (size_t)st.st_size) {
		if (in)
			fclose(in);
		return -1;
	}
	fclose(in);
	for (line = P->text; line && *line; line = next) {
		char *f[TABLE_FIELDS];
		int n;
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		n = tsv_split(line, f, TABLE_FIELDS);
		if (!ncols) {   /* the header: each wanted column's field */
			if (columns_at(f, n, set_cols, at, S_N) != 0)
				return -1;
			ncols = n;
			continue;
		}
		if (n != ncols)
			continue;
		if (P->n == cap) {
			struct set *g = realloc(P->s, sizeof(*g) * (size_t)(cap = cap ? 2 * cap : 256));
			if (!g)
				return -1;
			P->s = g;
		}
		for (int c = 0; c < S_N; c++)
			P->s[P->n].v[c] = f[at[c]];
		P->s[P->n].at = P->n;
		if (num(&P->s[P->n], S_POINT) >= P->np)
			P->np = num(&P->s[P->n], S_POINT) + 1;
		P->n++;
	}
	return ncols ? 0 : -1;
}

/* A group's order: up to 5 columns, each text ('s'), a number up ('n') or down ('r'). */
struct order {
	int n, col[5];
	char how[5];
};
static const struct order *sort_by;   /* qsort's, for cmp_sets */

static int cmp_col(const struct set *a, const struct set *b, int c, char how)
{
	long x, y;

	if (how == 's')
		return strcmp(a->v[c], b->v[c]);
	x = num(a, c);
	y = num(b, c);
	return how == 'n' ? (x > y) - (x < y) : (x < y) - (x > y);
}

/* By the order's columns, then by their rows in sets.tsv. */
static int cmp_sets(const void *x, const void *y)
{
	const struct set *a = *(const struct set *const *)x, *b = *(const struct set *const *)y;

	for (int i = 0; i < sort_by->n; i++) {
		int c = cmp_col(a, b, sort_by->col[i], sort_by->how[i]);
		if (c)
			return c;
	}
	return (a->at > b->at) - (a->at < b->at);
}

static int by_row(const void *x, const void *y)
{
	const struct set *a = *(const struct set *const *)x, *b = *(const struct set *const *)y;
	return (a->at > b->at) - (a->at < b->at);
}

typedef void group_fn(struct plots *P, struct set **g, long n);

/*
 * The sets `keep` takes, sorted by `o`, in groups alike in o's first `key`
 * columns: fn on each, its sets in o's order.
 */
static void each_group(struct plots *P, int (*keep)(const struct plots *, const struct set *),
		       const struct order *o, int key, group_fn *fn)
{
	struct set **v = malloc(sizeof(*v) * (size_t)(P->n + 1));
	long k = 0;

	if (!v) {
		P->failed = 1;
		return;
	}
	for (long i = 0; i < P->n; i++)
		if (keep(P, &P->s[i]))
			v[k++] = &P->s[i];
	sort_by = o;
	qsort(v, (size_t)k, sizeof(*v), cmp_sets);
	for (long i = 0, j; i < k; i = j) {
		for (j = i + 1; j < k; j++) {
			int c = 0;
			for (int m = 0; m < key && !c; m++)
				c = cmp_col(v[i], v[j], o->col[m], o->how[m]);
			if (c)
				break;
		}
		fn(P, v + i, j - i);
	}
	free(v);
}

/*
 * A plot's data sets: PLOTS_LISTS/NAME.tsv, a header of COLS (space-separated
 * names) and the COLS of g[0..n-1] in that order; its name relative to the
 * merged directory into path.
 */
static void write_list(struct plots *P, const char *name, const char *cols, struct set **g,
		       long n, char *path, size_t len)
{
	char file[8400], names[256];
	int c[8], nc = 0;
	FILE *f;

	snprintf(path, len, PLOTS_LISTS "/%s.tsv", name);
	snprintf(file, sizeof(file), "%s/%s", P->dir, path);
	snprintf(names, sizeof(names), "%s", cols);
	for (char *w = strtok(names, " "); w && nc < 8; w = strtok(NULL, " "))
		for (int k = 0; k < S_N; k++)
			if (strcmp(set_cols[k], w) == 0)
				c[nc++] = k;
	if (!(f = fopen(file, "w"))) {
		P->failed = 1;
		return;
	}
	for (int k = 0; k < nc; k++)
		fprintf(f, "%s%s", k ? "\t" : "", set_cols[c[k]]);
	fputc('\n', f);
	for (long i = 0; i < n; i++)
		for (int k = 0; k < nc; k++)
			fprintf(f, "%s%s", g[i]->v[c[k]], k + 1 < nc ? "\t" : "\n");
	P->failed |= fclose(f) != 0;
}

static void add_plot(struct plots *P, const struct plot_row *r)
{
	TABLE_ROW(&P->out, r, PLOTS_COLUMNS);
}

/* What a plot's file and title add for an algorithm and a split (none for alltoall, uniform). */
static void named(const struct set *s, char *suffix, size_t slen, char *about, size_t alen)
{
	int a = !is(s, S_ALGO, "alltoall"), sp = !is(s, S_SPLIT, "uniform");
	char split[256];
	size_t k = 0;

	for (const char *p = s->v[S_SPLIT]; *p && k + 1 < sizeof(split); p++)
		split[k++] = *p == ':' || *p == '/' ? '_' : *p;
	split[k] = '\0';
	snprintf(suffix, slen, "%s%s%s%s", a ? "-" : "", a ? s->v[S_ALGO] : "", sp ? "-" : "",
		 sp ? split : "");
	snprintf(about, alen, "%s%s%s%s", a ? ", " : "", a ? s->v[S_ALGO] : "", sp ? ", split " : "",
		 sp ? s->v[S_SPLIT] : "");
}


/* Bandwidth and time per call versus message size: commsize 1 apart when there are others. */
static int bw(const struct plots *P, const struct set *s)
{
	(void)P;
	return is(s, S_KIND, "bandwidth") && num(s, S_ROWS) > 0;
}

static void sizes(struct plots *P, struct set **g, long n)
{
	struct set **local = malloc(sizeof(*g) * (size_t)n);
	long nl = 0, nm = 0;
	char suffix[300], about[300], name[600], main_list[700], local_list[700], out[700],
		title[2][2048];

	if (!local) {
		P->failed = 1;
		return;
	}
	for (long i = 0; i < n; i++) {   /* the levels above 1 first in g, commsize 1 in local */
		if (num(g[i], S_COMMSIZE) == 1)
			local[nl++] = g[i];
		else
			g[nm++] = g[i];
	}
	if (nm == 0) {   /* commsize 1 alone: it is the plot */
		memcpy(g, local, sizeof(*g) * (size_t)nl);
		nm = nl;
		nl = 0;
	}
	named(g[0], suffix, sizeof(suffix), about, sizeof(about));
	snprintf(name, sizeof(name), "sizes-%s-n%s%s", g[0]->v[S_MODE], g[0]->v[S_NODES], suffix);
	write_list(P, name, "index commsize label", g, nm, main_list, sizeof(main_list));
	strcat(name, "-local");
	write_list(P, name, "index commsize label", local, nl, local_list, sizeof(local_list));
	for (int k = 0; k < 2; k++) {
		snprintf(out, sizeof(out), "%s-%s-n%s%s", k ? "latency" : "bandwidth", g[0]->v[S_MODE],
			 g[0]->v[S_NODES], suffix);
		snprintf(title[k], sizeof(title[k]), "%s: %s versus message size, %s, %s nodes%s",
			 P->title, k ? "time per call" : "bandwidth", g[0]->v[S_MODE], g[0]->v[S_NODES],
			 about);
		add_plot(P, &(struct plot_row){ "sizes.gp", "bandwidth.dat", out, title[k], P->subtitle,
					       g[0]->v[S_MODE], main_list, local_list,
					       k ? "latency" : "bandwidth" });
	}
	free(local);
}

/* Whether a group's sets differ in column c. */
static int varies(struct set **g, long n, int c)
{
	for (long i = 1; i < n; i++)
		if (!is(g[i], c, g[0]->v[c]))
			return 1;
	return 0;
}

/* The algorithms side by side, per (mode, nodes, commsize, split) with two or more. */
static void algorithms(struct plots *P, struct set **g, long n)
{
	char suffix[300], about[300], list[700], out[700], title[2048];
	struct set s = *g[0];

	if (!varies(g, n, S_ALGO))
		return;
	s.v[S_ALGO] = "alltoall";
	named(&s, suffix, sizeof(suffix), about, sizeof(about));
	snprintf(out, sizeof(out), "algorithms-%s-n%s-c%s%s", s.v[S_MODE], s.v[S_NODES],
		 s.v[S_COMMSIZE], suffix);
	write_list(P, out, "index algo label algo_index", g, n, list, sizeof(list));
	snprintf(title, sizeof(title), "%s: the algorithms, %s, %s nodes, commsize %s%s", P->title,
		 s.v[S_MODE], s.v[S_NODES], s.v[S_COMMSIZE], about);
	add_plot(P, &(struct plot_row){ "algorithms.gp", "bandwidth.dat", out, title, P->subtitle,
				       list, "", "", "" });
}

/* Time per call versus the split, per (mode, nodes, commsize) with two or more, at the
 * largest size every one measured. */
static void splits(struct plots *P, struct set **g, long n)
{
	char list[700], out[700], title[2048], size[64], bytes[32];
	struct strbuf order;
	long b = -1;

	if (!varies(g, n, S_SPLIT))
		return;
	for (long i = 0; i < n; i++)
		b = b < 0 || num(g[i], S_BYTES_MAX) < b ? num(g[i], S_BYTES_MAX) : b;
	if (b <= 0)
		return;
	snprintf(out, sizeof(out), "splits-%s-n%s-c%s", g[0]->v[S_MODE], g[0]->v[S_NODES],
		 g[0]->v[S_COMMSIZE]);
	write_list(P, out, "index algo split label algo_index bytes_max", g, n, list, sizeof(list));
	strbuf_init(&order);
	for (long i = 0; i < n; i++) {   /* the splits, once each, in the list's order */
		long k = 0;
		while (k < i && !is(g[k], S_SPLIT, g[i]->v[S_SPLIT]))
			k++;
		if (k == i)
			strbuf_addf(&order, "%s%s", i ? " " : "", g[i]->v[S_SPLIT]);
	}
	format_bytes(size, sizeof(size), b);
	snprintf(bytes, sizeof(bytes), "%ld", b);
	snprintf(title, sizeof(title), "%s: time per call versus the split, %s, %s nodes, commsize "
		 "%s, %s per peer", P->title, g[0]->v[S_MODE], g[0]->v[S_NODES], g[0]->v[S_COMMSIZE],
		 size);
	add_plot(P, &(struct plot_row){ "splits.gp", "bandwidth.dat", out, title, P->subtitle, list,
				       bytes, order.s ? order.s : "", "" });
	P->failed |= order.failed;
	strbuf_release(&order);
}

/* aller --moe: the round trip's phases, per (mode, nodes, algorithm, split) at its largest
 * communicator size: one data set. */
static int moe(const struct plots *P, const struct set *s)
{
	long p = num(s, S_POINT);
	return bw(P, s) && p >= 0 && p < P->np && P->moe[p];
}

static void phases(struct plots *P, struct set **g, long n)
{
	char suffix[300], about[300], list[700], out[700], title[2048];

	(void)n;
	named(g[0], suffix, sizeof(suffix), about, sizeof(about));
	snprintf(out, sizeof(out), "phases-%s-n%s%s", g[0]->v[S_MODE], g[0]->v[S_NODES], suffix);
	write_list(P, out, "index commsize label", g, 1, list, sizeof(list));
	snprintf(title, sizeof(title), "%s: MoE round trip by phase, %s, %s nodes, commsize %s%s",
		 P->title, g[0]->v[S_MODE], g[0]->v[S_NODES], g[0]->v[S_COMMSIZE], about);
	add_plot(P, &(struct plot_row){ "phases.gp", "bandwidth.dat",
				       out, title, P->subtitle, list, "", "", "" });
}

/* The distinct sizes of g ascending into b (n at most); how many. */
static long distinct_sizes(struct set **g, long n, long *b)
{
	long k = 0;

	for (long i = 0; i < n; i++) {
		long x = num(g[i], S_BYTES), j = k;
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
	return is(s, S_KIND, "concurrency") && num(s, S_ROWS) - is(s, S_LOCAL, "yes") > 0;
}

static void concurrency(struct plots *P, struct set **g, long n)
{
	long max = 0, k = 0, *b = malloc(sizeof(*b) * (size_t)n), m;
	struct set **top = malloc(sizeof(*top) * (size_t)n);

	for (long i = 0; i < n; i++)
		max = num(g[i], S_ROWS) > max ? num(g[i], S_ROWS) : max;
	for (long i = 0; b && top && i < n; i++)
		if (num(g[i], S_ROWS) == max)
			top[k++] = g[i];
	m = b && top ? three(b, distinct_sizes(top, k, b)) : 0;
	P->failed |= !b || !top;
	for (long j = m - 1; j >= 0; j--) {   /* the largest first */
		char list[700], out[700], title[2048];
		const char *size = "";
		long c = 0;
		for (long i = 0; i < n; i++)
			if (num(g[i], S_BYTES) == b[j])
				top[c++] = g[i];
		qsort(top, (size_t)c, sizeof(*top), by_row);
		size = c ? top[0]->v[S_SIZE] : size;
		snprintf(out, sizeof(out), "concurrency-n%s-%ldB", g[0]->v[S_NODES], b[j]);
		write_list(P, out, "index mode label local", top, c, list, sizeof(list));
		snprintf(title, sizeof(title), "%s: bandwidth versus concurrency, %s nodes, %s per peer",
			 P->title, g[0]->v[S_NODES], size);
		add_plot(P, &(struct plot_row){ "concurrency.gp", "concurrency.dat", out, title,
					       P->subtitle, list, "", "", "" });
	}
	free(b);
	free(top);
}

/* Interference (aller --isolate): per (nodes, algorithm, split), at up to three sizes. */
static int interfering(const struct plots *P, const struct set *s)
{
	(void)P;
	return is(s, S_KIND, "concurrency") && num(s, S_ROWS) > 1;
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
			pick |= num(g[i], S_BYTES) == b[j];
		if (pick)
			g[c++] = g[i];
	}
	named(g[0], suffix, sizeof(suffix), about, sizeof(about));
	snprintf(out, sizeof(out), "interference-n%s%s", g[0]->v[S_NODES], suffix);
	write_list(P, out, "index mode size", g, c, list, sizeof(list));
	snprintf(title, sizeof(title), "%s: interference between concurrent communicators, %s "
		 "nodes%s", P->title, g[0]->v[S_NODES], about);
	add_plot(P, &(struct plot_row){ "interference.gp", "concurrency.dat", out, title,
				       P->subtitle, list, "", "", "" });
	free(b);
}

/* Scaling: per (mode, label, commsize) its largest size; drawn with two node counts. */
static int scaled(const struct plots *P, const struct set *s)
{
	(void)P;
	return is(s, S_KIND, "scaling") && num(s, S_ROWS) > 0;
}

struct scaling {
	struct set **last;
	long n;
};
static struct scaling *scaling_sets;   /* each_group's callback has no context of its own */

static void scaling_last(struct plots *P, struct set **g, long n)
{
	(void)P;
	scaling_sets->last[scaling_sets->n++] = g[n - 1];
}

static void scaling(struct plots *P)
{
	/* two sets alike in all four: the last by index as text (sort(1)'s last resort) */
	static const struct order o = { 5, { S_MODE, S_LABEL, S_COMMSIZE, S_BYTES, S_INDEX }, "ssnns" };
	struct scaling sc = { malloc(sizeof(struct set *) * (size_t)(P->n + 1)), 0 };
	char list[700], title[2048];
	long nodes = 0;

	for (long i = 0; i < P->n; i++)   /* two node counts at least */
		if (is(&P->s[i], S_KIND, "bandwidth") && num(&P->s[i], S_NODES) != nodes)
			nodes = nodes ? -1 : num(&P->s[i], S_NODES);
	if (!sc.last) {
		P->failed = 1;
		return;
	}
	scaling_sets = &sc;
	each_group(P, scaled, &o, 3, scaling_last);
	if (sc.n > 0 && nodes < 0) {
		write_list(P, "scaling", "index mode commsize size label", sc.last, sc.n, list,
			   sizeof(list));
		snprintf(title, sizeof(title), "%s: scaling over node counts at the largest message size",
			 P->title);
		add_plot(P, &(struct plot_row){ "scaling.gp", "scaling.dat", "scaling", title,
					       P->subtitle, list, "", "", "" });
	}
	free(sc.last);
}

/* The distinct values of column c over the bandwidth sets, in their order, joined by " | ". */
static void distinct(const struct plots *P, int c, struct strbuf *b)
{
	for (long i = 0; i < P->n; i++) {
		long k = 0;
		if (!is(&P->s[i], S_KIND, "bandwidth"))
			continue;
		while (k < i && !(is(&P->s[k], S_KIND, "bandwidth") && is(&P->s[k], c, P->s[i].v[c])))
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
	distinct(P, S_CAMPAIGN, &c);
	distinct(P, S_MPI, &m);
	distinct(P, S_TPN, &t);
	distinct(P, S_BUFFERS, &b);
	for (char *p = c.s; p && (p = strstr(p, " | "));) {   /* campaigns: "a, b" */
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
		*p = ',';
	}
	snprintf(P->title, sizeof(P->title), "aller: %.1000s",
		 !c.s || strcmp(c.s, "-") == 0 ? name : c.s);
	snprintf(P->subtitle, sizeof(P->subtitle), "%s; %s tasks per node; %s buffers",
		 !m.s || strcmp(m.s, "-") == 0 ? "MPI unknown" : m.s, t.s ? t.s : "", b.s ? b.s : "");
	P->failed |= c.failed || m.failed || t.failed || b.failed;
	strbuf_release(&c);
	strbuf_release(&m);
	strbuf_release(&t);
	strbuf_release(&b);
}

/* A --pairs point's facts: its tasks' hosts as "RANK HOST" words, its slow links' summary. */
struct pair_facts {
	long point;
	struct strbuf tics;
	char slow[256];
};

static void pair_fact(void *ctx, long point, const char *key, const char *value)
{
	struct pair_facts *f = ctx;

	if (point != f->point)
		return;
	if (strcmp(key, "pair_host") == 0) {   /* a word each for gnuplot: a quote is a '?' */
		strbuf_addf(&f->tics, "%s", f->tics.len ? " " : "");
		for (const char *p = value; *p; p++)
			strbuf_addf(&f->tics, "%c", strchr("._ -", *p) || (*p >= 'A' && *p <= 'Z') ||
						(*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ? *p : '?');
	} else if (strcmp(key, "slow_links") == 0 && !f->slow[0]) {   /* its count and median */
		snprintf(f->slow, sizeof(f->slow), "slow links: %.*s", (int)strcspn(value, ";"), value);
	}
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

/* A heatmap per complete --pairs point (pairs.tsv: file nodes state point index). */
static void pairs(struct plots *P, const char *dirname)
{
	static const char *const cols[5] = { "file", "nodes", "state", "point", "index" };
	char line[8192], path[4200], *f[TABLE_FIELDS];
	int at[5], n;
	FILE *in;

	snprintf(path, sizeof(path), "%s/" MERGED_PAIRS_FILE, P->dir);
	if (!(in = fopen(path, "r")))
		return;
	n = fgets(line, sizeof(line), in) ? tsv_split(line, f, TABLE_FIELDS) : 0;
	if (!n || columns_at(f, n, cols, at, 5) != 0)
		n = 0;
	while (n && fgets(line, sizeof(line), in)) {
		char name[1024], out[1100], title[2048];
		struct pair_facts pf = { 0 };
		if (tsv_split(line, f, TABLE_FIELDS) != n || !f[at[4]][0] ||
		    strcmp(f[at[2]], "complete") != 0)
			continue;
		pf.point = strtol(f[at[3]], NULL, 10);
		strbuf_init(&pf.tics);
		table_each_fact(P->dir, pf.point + 1, pair_fact, &pf);
		pair_name(f[at[0]], name, sizeof(name));
		snprintf(out, sizeof(out), "pairs-%s", name);
		snprintf(title, sizeof(title), "aller: %.500s: node pairs, %.20s nodes (%.1000s)",
			 dirname, f[at[1]], name);
		add_plot(P, &(struct plot_row){ "pairs.gp", MERGED_PAIRS_DAT, out, title, pf.slow,
					       pf.tics.s ? pf.tics.s : "", f[at[4]], "", "" });
		P->failed |= pf.tics.failed;
		strbuf_release(&pf.tics);
	}
	fclose(in);
}

/* facts.tsv's moe lines: the aller --moe points. */
static void moe_fact(void *ctx, long point, const char *key, const char *value)
{
	struct plots *P = ctx;

	(void)value;
	if (strcmp(key, "moe") == 0)
		P->moe[point] = 1;
}

/* Every plot of the merge, in plot.sh's order, onto P->out. */
static void plot_list(struct plots *P, const char *dirname)
{
	static const struct order by_size = { 4, { S_MODE, S_NODES, S_ALGO, S_SPLIT }, "snss" },
		by_level = { 4, { S_MODE, S_NODES, S_COMMSIZE, S_SPLIT }, "snrs" },
		by_split = { 3, { S_MODE, S_NODES, S_COMMSIZE }, "snr" },
		by_phase = { 5, { S_MODE, S_NODES, S_ALGO, S_SPLIT, S_COMMSIZE }, "snssr" },
		by_nodes = { 1, { S_NODES }, "n" },
		by_isolated = { 3, { S_NODES, S_ALGO, S_SPLIT }, "nss" };
	int isolated = 0, bandwidth = 0;

	pairs(P, dirname);
	for (long i = 0; i < P->n; i++) {
		isolated |= is(&P->s[i], S_KIND, "concurrency") && is(&P->s[i], S_ISOLATED, "yes");
		bandwidth |= is(&P->s[i], S_KIND, "bandwidth");
	}
	if (!bandwidth)   /* node-pair matrices alone, or nothing */
		return;
	titles(P, dirname);
	each_group(P, bw, &by_size, 4, sizes);
	each_group(P, bw, &by_level, 4, algorithms);
	each_group(P, bw, &by_split, 3, splits);
	each_group(P, moe, &by_phase, 4, phases);
	each_group(P, conc, &by_nodes, 1, concurrency);
	if (isolated)
		each_group(P, interfering, &by_isolated, 3, interference);
	scaling(P);
}

/* The lists of an earlier run removed: PLOTS_LISTS holds this run's alone. */
static int clear_lists(const char *dir)
{
	char path[4200], file[8400];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/" PLOTS_LISTS, dir);
	mkdir(path, 0777);   /* there already, or opendir says why not */
	if (!(d = opendir(path)))
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
			unlink(file);
		}
	closedir(d);
	return 0;
}

/* The name of the directory DIR is in (plot.sh's: the campaign's, or its out-dir). */
static void dir_name(const char *dir, char *name, size_t len)
{
	char buf[4200], *p;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (int up = 0; up < 2; up++) {   /* DIR's last part off, then the parent's trailing '/'s */
		size_t n = strlen(buf);
		while (n > 1 && buf[n - 1] == '/')
			buf[--n] = '\0';
		if (up == 0 && (p = strrchr(buf, '/')))
			*(p == buf ? p + 1 : p) = '\0';
		else if (up == 0 && !getcwd(buf, sizeof(buf)))
			snprintf(buf, sizeof(buf), ".");
	}
	p = strrchr(buf, '/');
	snprintf(name, len, "%.*s", (int)len - 1, p && p[1] ? p + 1 : buf);
}

static int plots_run(struct plots *P)
{
	static const char *const names[1] = { PLOTS_FILE };
	struct outset o = { .n = 0 };
	char name[1024];

	if (read_sets(P) != 0) {
		fprintf(stderr, "collect: error: --plots: cannot read '%s/%s' (not a merged directory?)\n",
			P->dir, MERGED_SETS_FILE);
		return 3;
	}
	if (!(P->moe = calloc((size_t)P->np + 1, 1)) || outset_open(&o, P->dir, names, 1, 0) != 0 ||
	    clear_lists(P->dir) != 0) {
		fprintf(stderr, "collect: error: --plots: cannot write in '%s'\n", P->dir);
		if (o.n)
			outset_commit(&o, 1);
		return 3;
	}
	table_each_fact(P->dir, P->np, moe_fact, P);
	P->out = (struct table_out){ o.f[0], NULL, '\t', 0 };
	TABLE_HEADER(&P->out, PLOTS_COLUMNS);
	dir_name(P->dir, name, sizeof(name));
	plot_list(P, name);
	if (P->failed)
		fprintf(stderr, "collect: error: --plots: out of memory, or a list not written in '%s'\n",
			P->dir);
	return outset_commit(&o, P->failed) != 0 || P->failed ? 3 : 0;
}

int plots_main(int argc, char **argv)
{
	struct plots P = { 0 };
	int rc;

	if (argc != 1 || !argv[0][0]) {
		fprintf(stderr, "collect: error: --plots takes one merged directory: collect --plots DIR\n");
		return 2;
	}
	P.dir = argv[0];
	rc = plots_run(&P);
	free(P.s);
	free(P.text);
	free(P.moe);
	return rc;
}
