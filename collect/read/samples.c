/* samples.c: see samples.h. */
#define _GNU_SOURCE 1   /* strverscmp: a key's numbers in their order, 2 before 16 */
#include "samples.h"
#include "text.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "median.h"
#include "grow.h"
#include "input.h"

/* Task r's median over calls from..iters-1. */
static double task_median(const struct sample_set *s, long r, long from, double *tmp)
{
	memcpy(tmp, s->t + r * s->iters + from, sizeof(double) * (size_t)(s->iters - from));
	return median_of(tmp, s->iters - from);
}

double samples_first_ratio(const struct sample_set *s)
{
	double *a = malloc(sizeof(double) * (size_t)(s->n + s->iters)), first, rest;

	if (!a || s->iters < 2) {
		free(a);
		return NAN;
	}
	for (long r = 0; r < s->n; r++)
		a[r] = s->t[r * s->iters];
	first = median_of(a, s->n);
	for (long r = 0; r < s->n; r++)
		a[r] = task_median(s, r, 1, a + s->n);
	rest = median_of(a, s->n);
	free(a);
	return first / rest;
}

const char *samples_kind_name(enum slow_kind k)
{
	static const char *const names[] = { "straggler", "system-wide", "host", "partial" };
	return names[k];
}

/* Call k's kind, from which tasks it slowed (slowed[r]). */
static void classify(const struct sample_set *s, long k, const char *slowed, struct slow_call *c,
		     double *tmp)
{
	long spared = 0, first = -1, nslow = 0, in_hit = 0;
	int one_host = 1, host = -1, slow_host = -1, slow_one_host = 1;

	for (long r = 0; r < s->n; r++) {
		int hit = 0;
		if (slowed[r]) {
			nslow++;
			if (slow_host >= 0 && s->host[r] != slow_host)
				slow_one_host = 0;
			slow_host = s->host[r];
			continue;
		}
		/* spared: is its communicator one of the slowed ones? */
		for (long q = 0; q < s->n && !hit; q++)
			hit = slowed[q] && s->comm[q] == s->comm[r];
		if (!hit)
			continue;
		if (spared++ == 0)
			first = r;
		if (host >= 0 && s->host[r] != host)
			one_host = 0;
		host = s->host[r];
	}
	c->slowed = nslow;
	c->who = -1;
	c->host = -1;
	c->waited = NAN;
	for (long r = 0; r < s->n; r++)
		if (slowed[r])
			tmp[in_hit++] = s->t[r * s->iters + k];
	if (spared > 0 && one_host) {
		c->kind = SLOW_STRAGGLER;
		c->host = host;
		c->who = spared == 1 ? s->rank[first] : -1;
		c->waited = median_of(tmp, in_hit) - s->t[first * s->iters + k];
	} else if (2 * nslow >= s->n) {
		c->kind = SLOW_SYSTEM;
	} else if (slow_one_host) {
		c->kind = SLOW_HOST;
		c->host = slow_host;
	} else {
		c->kind = SLOW_PARTIAL;
	}
}

long samples_slow_calls(const struct sample_set *s, struct slow_call *out, long max)
{
	double *hi = malloc(sizeof(double) * (size_t)s->iters), *own = NULL, *tmp = NULL, typical;
	char *slowed = malloc((size_t)s->n);
	long found = 0;

	own = malloc(sizeof(double) * (size_t)s->n);
	tmp = malloc(sizeof(double) * (size_t)(s->n + s->iters));
	if (!hi || !slowed || !own || !tmp || s->n == 0)
		goto done;
	for (long r = 0; r < s->n; r++)
		own[r] = task_median(s, r, 0, tmp);
	for (long k = 0; k < s->iters; k++) {
		hi[k] = 0;
		for (long r = 0; r < s->n; r++)
			hi[k] = fmax(hi[k], s->t[r * s->iters + k]);
	}
	memcpy(tmp, hi, sizeof(double) * (size_t)s->iters);
	typical = median_of(tmp, s->iters);
	for (long k = 0; k < s->iters && found < max; k++) {
		if (!(hi[k] > SAMPLES_SLOW * typical))
			continue;
		for (long r = 0; r < s->n; r++)
			slowed[r] = s->t[r * s->iters + k] > SAMPLES_SLOW * own[r] &&
				    s->t[r * s->iters + k] > hi[k] / SAMPLES_SLOW;
		out[found].call = k;
		out[found].factor = hi[k] / typical;
		classify(s, k, slowed, &out[found], tmp);
		found++;
	}
done:
	free(hi);
	free(slowed);
	free(own);
	free(tmp);
	return found;
}

/* --- reading the files --- */

/* One line's task of a data set's count. */
struct task {
	char key[400];            /* "level algo split count" */
	const char *path;         /* where its line is */
	long line;
	long comm, rank;
	int host;
	long iters;
	double *t;
};

struct reader {
	struct task *tasks;
	long n;
	size_t cap;
	char **hosts;
	int nhosts, host;         /* the file's host */
	const char *path;
	long lineno, bad;
	long lines, end_lines;    /* the file's task lines; what its "# end:" says (-1: none) */
	FILE *out;                /* the table's stream; NULL: none */
	long counts, slow;        /* the counts reported, their slow calls */
	long late_total, *late;   /* straggling calls: all, and per host (late_n of them) */
	int late_n;
};

/* The table's line, where it is printed. */
static void put(const struct reader *rd, const char *fmt, ...)
{
	va_list ap;

	if (!rd->out)
		return;
	va_start(ap, fmt);
	vfprintf(rd->out, fmt, ap);
	va_end(ap);
}

/* One straggling call more, by host h's tasks. */
static void came_late(struct reader *rd, int h)
{
	if (h >= rd->late_n) {
		long *l = realloc(rd->late, sizeof(*l) * (size_t)(h + 1));
		if (!l)
			return;
		memset(l + rd->late_n, 0, sizeof(*l) * (size_t)(h + 1 - rd->late_n));
		rd->late = l;
		rd->late_n = h + 1;
	}
	rd->late[h]++;
	rd->late_total++;
}

static int host_index(struct reader *rd, const char *name)
{
	char **h;

	for (int i = 0; i < rd->nhosts; i++)
		if (strcmp(rd->hosts[i], name) == 0)
			return i;
	h = realloc(rd->hosts, sizeof(*h) * (size_t)(rd->nhosts + 1));
	if (!h)
		return 0;
	rd->hosts = h;
	h[rd->nhosts] = strdup(name);
	return h[rd->nhosts] ? rd->nhosts++ : 0;
}

static void bad_line(struct reader *rd, const char *why)
{
	if (rd->bad++ < 10)
		text_error(0, "collect: %s:%ld: %s: line skipped\n", rd->path, rd->lineno, why);
}

/* A comment line: the end line's count, or the host the next lines are of. */
static void comment_line(struct reader *rd, const char *text)
{
	const char *p;

	if (strncmp(text, ALLER_SAMPLES_END " ", strlen(ALLER_SAMPLES_END) + 1) == 0)
		rd->end_lines = strtol(text + strlen(ALLER_SAMPLES_END) + 1, NULL, 10);
	else if ((p = strstr(text, ", host ")) != NULL)
		rd->host = host_index(rd, p + strlen(", host "));
}

/* The times after a task line's six keys, into tk->t; 0, or -1 (said, tk->t freed). */
static int read_times(struct reader *rd, const char *p, struct task *tk)
{
	size_t cap = 16;
	char *end;

	for (int f = 0; f < 6; f++) {   /* past the six keys */
		p += strspn(p, " ");
		p += strcspn(p, " ");
	}
	tk->t = malloc(sizeof(double) * cap);
	while (tk->t && *(p += strspn(p, " "))) {
		double v = strtod(p, &end);
		if (end == p || !(v >= 0) || !isfinite(v)) {
			bad_line(rd, "a time that is not a number");
			free(tk->t);
			return -1;
		}
		if ((size_t)tk->iters == cap) {
			double *t = grow(tk->t, &cap, cap + 1, sizeof(*t), 16);
			if (!t)
				break;
			tk->t = t;
		}
		tk->t[tk->iters++] = v;
		p = end;
	}
	return 0;
}

/* "level algo split count comm rank t..." */
static int one_line(void *ctx, const char *line, size_t len, int complete)
{
	struct reader *rd = ctx;
	char *text = malloc(len + 1), level[32], algo[64], split[256];
	struct task tk;
	long count;
	int bad;

	rd->lineno++;
	if (!text)
		return 1;
	memcpy(text, line, len);
	text[len] = '\0';
	if (text[0] == '#') {
		comment_line(rd, text);
		free(text);
		return 0;
	}
	if (len)
		rd->lines++;
	memset(&tk, 0, sizeof(tk));
	tk.host = rd->host;
	tk.path = rd->path;
	tk.line = rd->lineno;
	if (!complete || len == 0 || sscanf(text, "%31s %63s %255s %ld %ld %ld", level, algo, split,
					    &count, &tk.comm, &tk.rank) != 6 || tk.comm < 0 || tk.rank < 0) {
		if (len)
			bad_line(rd, complete ? "not 'level algo split count comm rank times...' (comm "
					      "and rank 0 or more)"
					      : "partial last line");
		free(text);
		return 0;
	}
	snprintf(tk.key, sizeof(tk.key), "%s %s %s %ld", level, algo, split, count);
	bad = read_times(rd, text, &tk) != 0;
	free(text);
	if (bad)
		return 0;
	if ((size_t)rd->n == rd->cap) {
		struct task *t = grow(rd->tasks, &rd->cap, rd->cap + 1, sizeof(*t), 256);
		if (!t) {
			free(tk.t);
			return 1;
		}
		rd->tasks = t;
	}
	rd->tasks[rd->n++] = tk;
	return 0;
}

static void long_line(void *ctx, size_t total)
{
	struct reader *rd = ctx;

	rd->lineno++;
	(void)total;
	bad_line(rd, "longer than 64 KiB (about 5,000 calls)");
}

static int by_key(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	int c = strverscmp(x->key, y->key);

	if (c || x->rank != y->rank)
		return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
	c = strcmp(x->path, y->path);   /* a repeated line: the first read first */
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/*
 * Whether one (level, algo, split, count)'s tasks (sorted by rank, distinct)
 * disagree: calls of differing counts, or a rank past the n tasks seen; 1
 * with its line of the table and an error on stderr, else 0.
 */
static int tasks_disagree(const struct reader *rd, const struct task *ts, long n)
{
	for (long r = 0; r < n; r++) {
		if (ts[r].iters != ts[0].iters) {
			put(rd, "%s %ld - - tasks differ in their calls (%ld, %ld)\n", ts[0].key, n,
			       ts[0].iters, ts[r].iters);
			return text_error(1, "collect: error: '%s': rank %ld has %ld calls, rank %ld %ld: one "
				"run's samples have as many calls in every task\n", ts[0].key,
				ts[0].rank, ts[0].iters, ts[r].rank, ts[r].iters);
		}
		if (ts[r].rank >= n) {
			put(rd, "%s %ld - - rank %ld out of range (%ld tasks)\n", ts[0].key, n,
			       ts[r].rank, n);
			return text_error(1, "collect: error: '%s': rank %ld, but the samples have %ld tasks "
				"(ranks 0..%ld): a task's samples are missing or the rank is wrong\n",
				ts[0].key, ts[r].rank, n, n - 1);
		}
	}
	return 0;
}

/* One (level, algo, split, count): its line of the table; 0, or 1 when its tasks disagree. */
static int report_set(struct reader *rd, const struct task *ts, long n)
{
	long iters = ts[0].iters, nslow;
	double *t = malloc(sizeof(double) * (size_t)(n * iters));
	long *comm = malloc(sizeof(long) * (size_t)n), *rank = malloc(sizeof(long) * (size_t)n);
	int *host = malloc(sizeof(int) * (size_t)n);
	struct slow_call calls[8];
	struct sample_set s = { n, iters, t, comm, rank, host, (const char *const *)rd->hosts };
	int bad = 0;

	if (!t || !comm || !rank || !host)
		goto done;
	rd->counts++;
	if ((bad = tasks_disagree(rd, ts, n)) != 0)
		goto done;
	for (long r = 0; r < n; r++) {
		memcpy(t + r * iters, ts[r].t, sizeof(double) * (size_t)iters);
		comm[r] = ts[r].comm;
		rank[r] = ts[r].rank;
		host[r] = ts[r].host;
	}
	nslow = samples_slow_calls(&s, calls, 8);
	rd->slow += nslow;
	put(rd, "%s %ld %ld %.3g", ts[0].key, n, iters, samples_first_ratio(&s));
	for (long i = 0; i < nslow; i++) {
		const struct slow_call *c = &calls[i];
		put(rd, "%s call %ld (%.1fx): %s", i ? ";" : "", c->call, c->factor,
		    samples_kind_name(c->kind));
		if (c->kind == SLOW_STRAGGLER)
			came_late(rd, c->host);
		if (c->kind == SLOW_STRAGGLER && c->who >= 0)
			put(rd, ", rank %ld on %s came late, its communicator waited %.3g s", c->who,
			    rd->hosts[c->host], c->waited);
		else if (c->kind == SLOW_STRAGGLER)
			put(rd, ", the tasks of %s came late, their communicators waited %.3g s",
			    rd->hosts[c->host], c->waited);
		else if (c->kind == SLOW_HOST)
			put(rd, ", %ld tasks on %s", c->slowed, rd->hosts[c->host]);
		else
			put(rd, ", %ld of %ld tasks", c->slowed, n);
	}
	put(rd, "%s\n", nslow == 0 ? " -" : "");
done:
	free(t);
	free(comm);
	free(rank);
	free(host);
	return bad;
}

/* A directory's .samples-<host>.txt.part: a run that did not finish wrote it; 1 when any. */
static int unfinished(const char *path)
{
	struct dirent *e;
	DIR *d = opendir(path);
	int found = 0;

	while (d && (e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (strncmp(e->d_name, ".samples-", 9) == 0 && n > 5 &&
		    strcmp(e->d_name + n - 5, ".part") == 0) {
			text_error(0, "collect: %s/%s: the samples of a run that did not finish "
				"(never renamed): skipped\n", path, e->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* The file ended as aller ends it ("# end: N lines", N its lines); 0, or 1 with a warning. */
static int check_end(const struct reader *rd)
{
	if (rd->end_lines < 0)
		text_error(0, "collect: %s: no '%s' line: cut short (a run that did not finish, or "
			"a copy); its samples are partial\n", rd->path, ALLER_SAMPLES_END);
	else if (rd->end_lines != rd->lines)
		text_error(0, "collect: %s: %ld lines of samples, and its '%s' says %ld: a "
			"damaged file\n", rd->path, rd->lines, ALLER_SAMPLES_END, rd->end_lines);
	return rd->end_lines != rd->lines;
}

/* The same task's line of a count twice (sorted by key and rank): the second dropped, said. */
static void drop_repeated(struct reader *rd)
{
	long k = 0;

	for (long i = 0; i < rd->n; i++) {
		struct task *t = &rd->tasks[i];
		if (k > 0 && strcmp(rd->tasks[k - 1].key, t->key) == 0 &&
		    rd->tasks[k - 1].rank == t->rank) {
			if (rd->bad++ < 10)
				text_error(0, "collect: %s:%ld: rank %ld's samples of '%s' again (first "
					"at %s:%ld): line skipped\n", t->path, t->line, t->rank, t->key,
					rd->tasks[k - 1].path, rd->tasks[k - 1].line);
			free(t->t);
			continue;
		}
		rd->tasks[k++] = *t;
	}
	rd->n = k;
}

/* The tasks read from nfiles files, in order, as the report: 0, or -1 when there were none. */
static int report(struct reader *rd, size_t nfiles)
{
	int rc = 0;

	qsort(rd->tasks, (size_t)rd->n, sizeof(*rd->tasks), by_key);
	drop_repeated(rd);
	if (rd->n == 0)
		rc = text_error(-1, "collect: error: no samples in the %zu file%s given\n", nfiles,
			nfiles > 1 ? "s" : "");
	put(rd, "# collect --samples: per (level, algo, split, count): tasks, calls, the first call "
	    "over the rest (medians over tasks), and the slow calls: the slowest task above %gx "
	    "the median call's slowest; kinds: straggler (one task, or one host's, came late: "
	    "its peers waited), system-wide (half the tasks or more slowed), host (fewer, all "
	    "on one host), partial\n# columns: level algo split count tasks calls first_over_rest "
	    "slow_calls...\n", SAMPLES_SLOW);
	for (long i = 0, j; i < rd->n; i = j) {
		for (j = i + 1; j < rd->n && strcmp(rd->tasks[j].key, rd->tasks[i].key) == 0; j++)
			;
		if (report_set(rd, rd->tasks + i, j - i) != 0 && rc == 0)
			rc = 1;
	}
	return rc;
}

/* The files of PATHs read into rd; 0, 1 (warnings) or 2 (none, or a bad path). */
static int read_all(struct reader *rd, int argc, char **argv)
{
	struct filelist files = { 0 };
	char err[4608];
	int rc = 0;

	for (int i = 0; i < argc; i++)
		if (input_add(&files, argv[i], err, sizeof(err)) != 0) {
			text_error(0, "collect: error: %s\n", err);
			filelist_release(&files);
			return 2;
		}
	for (int i = 0; i < argc; i++)
		rc |= unfinished(argv[i]);
	if (files.n == 0) {
		text_error(0, "collect: error: no samples files in %s%s%s\n", argc > 1 ? "the "
			"directories given" : "'", argc > 1 ? "" : argv[0], argc > 1 ? "" : "'");
		filelist_release(&files);
		return 2;
	}
	for (size_t i = 0; i < files.n; i++) {
		rd->path = files.paths[i];
		rd->lineno = rd->lines = 0;
		rd->end_lines = -1;
		rd->host = host_index(rd, "?");
		if (input_lines(files.paths[i], one_line, long_line, rd, err, sizeof(err)) != 0) {
			text_error(0, "collect: %s\n", err);
			rc = 1;
		} else {
			rc |= check_end(rd);
		}
	}
	rc = rd->bad ? 1 : rc;
	if (report(rd, files.n) != 0)
		rc = 1;
	filelist_release(&files);
	return rc;
}

/* The tallies of rd into t, which takes its hosts. */
static void tally(struct reader *rd, struct samples_tally *t)
{
	char *seen = calloc((size_t)rd->nhosts + 1, 1);

	t->counts = rd->counts, t->slow = rd->slow, t->late_total = rd->late_total;
	t->late = calloc((size_t)rd->nhosts + 1, sizeof(*t->late));
	for (int h = 0; t->late && h < rd->late_n; h++)
		t->late[h] = rd->late[h];
	for (long i = 0; seen && i < rd->n; i++)
		t->hosts_seen += !seen[rd->tasks[i].host]++;
	free(seen);
	t->hosts = rd->hosts, t->nhosts = rd->nhosts;
	rd->hosts = NULL, rd->nhosts = 0;
}

int samples_read(int argc, char **argv, FILE *table, struct samples_tally *t)
{
	struct reader rd;
	int rc;

	memset(&rd, 0, sizeof(rd));
	rd.out = table;
	rc = read_all(&rd, argc, argv);
	if (t)
		tally(&rd, t);
	for (long i = 0; i < rd.n; i++)
		free(rd.tasks[i].t);
	free(rd.tasks);
	for (int i = 0; i < rd.nhosts; i++)
		free(rd.hosts[i]);
	free(rd.hosts);
	free(rd.late);
	return rc;
}

void samples_tally_release(struct samples_tally *t)
{
	for (int i = 0; i < t->nhosts; i++)
		free(t->hosts[i]);
	free(t->hosts);
	free(t->late);
	memset(t, 0, sizeof(*t));
}
