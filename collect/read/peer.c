/* peer.c: another tool's all-to-all output (see peer.h). */
#include "peer.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "grow.h"

#define PEER_COLS 48     /* a table's columns, at most */
#define PEER_COL 40      /* a column name's bytes */
#define PEER_HOSTS (1L << 20)
#define PEER_HOST_SCAN "63"   /* PEER_HOST - 1 */

static const char *const format_names[] = { "", "osu", "imb", "nccl-tests" };
static const char *const tool_names[] = { "", "osu_alltoall", "IMB-MPI1", "alltoall_perf" };

const char *peer_format_name(enum peer_format f)
{
	return format_names[f];
}

enum peer_format peer_format_named(const char *name)
{
	for (int f = PEER_OSU; f <= PEER_NCCL; f++)
		if (!strcmp(name, format_names[f]))
			return (enum peer_format)f;
	return PEER_NONE;
}

/* The reading of one file: where it is, and the table it is in. */
struct reader {
	struct peer *p;
	const char *file;
	long line;
	char *err;
	size_t errlen;
	int ncols, stamp;          /* the table's columns (0: no header yet); 1: its rows end in a date and time */
	char col[PEER_COLS][PEER_COL];
	int bytes, time;           /* their columns */
	int alltoall;              /* IMB: the table is Alltoall's */
	long procs;                /* IMB: its # #processes */
};

/* "FILE:LINE: what 'text'" (text cut at 80 bytes; NULL: none); -1. */
static int bad(struct reader *r, const char *what, const char *text)
{
	snprintf(r->err, r->errlen, "%s:%ld: %s%s%.80s%s", r->file, r->line, what, text ? " '" : "",
		 text ? text : "", text ? "'" : "");
	return -1;
}

/* A number a column holds: decimal, finite, at least 0 (bytes.h); 0, or -1. */
static int number(const char *s, double *v)
{
	return parse_double(s, 0, DBL_MAX, v, NULL) == 0 ? 0 : -1;
}

/* The words of s, split at spaces (cut in place); how many, or -1 for more than max. */
static int split(char *s, char **w, int max)
{
	int n = 0;

	for (char *save = NULL, *t = strtok_r(s, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (n == max)
			return -1;
		w[n++] = t;
	}
	return n;
}

/* The column named so, or -1. */
static int column(const struct reader *r, const char *name)
{
	for (int i = 0; i < r->ncols; i++)
		if (!strcmp(r->col[i], name))
			return i;
	return -1;
}

static int add_row(struct reader *r, double bytes, long tasks, double t)
{
	struct peer *p = r->p;
	struct peer_row *row = grow(p->row, &p->caprows, (size_t)p->nrows + 1, sizeof(*row), 64);

	if (!row)
		return bad(r, "out of memory", NULL);
	p->row = row;
	p->row[p->nrows++] = (struct peer_row){ bytes, tasks, t, r->line };
	return 0;
}

/* A title line's text, from its first letter on, into the title (the first one kept). */
static void title(struct reader *r, const char *s)
{
	if (!r->p->title[0])
		snprintf(r->p->title, sizeof(r->p->title), "%s", s + strspn(s, "# "));
}

/* A header's columns (words, n of them) as the table's: 0, or -1. */
static int header(struct reader *r, char **w, int n)
{
	if (n <= 0 || n > PEER_COLS)
		return bad(r, "a table's header of no or too many columns:", NULL);
	r->ncols = n;
	for (int i = 0; i < n; i++)
		snprintf(r->col[i], PEER_COL, "%s", w[i]);
	return 0;
}

/* OSU's "# Size  Avg Latency(us)  ...": its names are apart by two spaces or more. */
static int osu_header(struct reader *r, char *line)
{
	char *w[PEER_COLS + 1], *s = line + strlen("# Size");
	int n = 0;

	if (r->ncols)
		return bad(r, "a second table's header: one osu_alltoall run per file", NULL);
	w[n++] = "Size";
	while (*(s += strspn(s, " \t\r")) && n <= PEER_COLS) {
		char *end = strstr(s, "  ");
		w[n++] = s;
		if (!end)
			end = s + strcspn(s, "\t\r");
		s = end + (*end != '\0');
		*end = '\0';
	}
	if (header(r, w, n) != 0)
		return -1;
	r->bytes = 0;
	r->time = column(r, "Max Latency(us)");
	if (r->time < 0)
		r->time = column(r, "Avg Latency(us)");
	if (r->time < 0)
		return bad(r, "osu_alltoall's header has no 'Avg Latency(us)' column:", line);
	snprintf(r->p->timecol, sizeof(r->p->timecol), "%s", r->col[r->time]);
	return 0;
}

/* A row of the table (its words): its columns checked, its size, time and verdict read. */
static int table_row(struct reader *r, char **w, int n, const char *tool, double *bytes, double *t)
{
	double v = 0;

	if (n != r->ncols + 2 * r->stamp)
		return bad(r, "not a row of the table above (a number a column):", NULL);
	for (int i = 0; i < r->ncols; i++) {
		int verdict = !strcmp(r->col[i], "#wrong") || !strcmp(r->col[i], "Validation");
		long root;
		if (!strcmp(r->col[i], "redop") && strcmp(w[i], "none"))   /* by the row: a nccl-tests of any version */
			return bad(r, "a row of a reduction (all_reduce_perf, reduce_scatter_perf or reduce_perf), not "
				   "alltoall_perf's: its redop", w[i]);
		if ((verdict && (!strcmp(w[i], "Pass") || !strcmp(w[i], "N/A"))) ||
		    !strcmp(r->col[i], "type") || !strcmp(r->col[i], "redop"))
			continue;   /* (alltoall_perf's type and redop are words: float, none) */
		if (!strcmp(r->col[i], "root") && parse_long(w[i], -1, LONG_MAX, &root) == 0) {
			if (root != -1)   /* (-1: none) */
				return bad(r, "a row of a rooted collective (broadcast_perf, reduce_perf, gather_perf or "
					   "scatter_perf), not alltoall_perf's: its root", w[i]);
			continue;
		}
		if (!(verdict && !strcmp(w[i], "Fail")) && number(w[i], &v) != 0)
			return bad(r, "a column that is not a number of at least 0:", w[i]);
		if (verdict && (!strcmp(w[i], "Fail") || v > 0)) {
			char what[200];
			snprintf(what, sizeof(what), "%s found this row's data wrong (%s %s): a measurement of "
				 "wrong data is not judged; row", tool, r->col[i], w[i]);
			return bad(r, what, w[0]);
		}
	}
	if (parse_double(w[r->bytes], 0, 0x1p50, bytes, NULL) != 0 || *bytes != floor(*bytes))
		return bad(r, "a size that is not a whole number of bytes from 0 to 2^50 per peer:", w[r->bytes]);
	if (parse_double(w[r->time], DBL_MIN, DBL_MAX, t, NULL) != 0)
		return bad(r, "a time that is not a number of us above 0:", w[r->time]);
	*t *= 1e-6;
	return 0;
}

/* A line past the comments: a row of the table above (none: the line is not the tool's). */
static int data_row(struct reader *r, char *line, const char *tool, const char *header, double *bytes,
		    double *t)
{
	char *w[PEER_COLS * 2], what[160];
	int n;

	if (!r->ncols) {
		snprintf(what, sizeof(what), "not a line of %s's output (no %s header above it):", tool, header);
		return bad(r, what, line);
	}
	if ((n = split(line, w, PEER_COLS * 2)) < 0)
		return bad(r, "not a row of the table above (a number a column):", NULL);
	return table_row(r, w, n, tool, bytes, t);
}

static int osu_line(struct reader *r, char *line)
{
	double bytes, t;

	if (!strncmp(line, "# OSU MPI", 9)) {
		if (!strstr(line, "All-to-All Personalized Exchange Latency Test"))
			return bad(r, "an OSU output of another benchmark, not osu_alltoall's:", line);
		title(r, line);
		return 0;
	}
	if (!strncmp(line, "# Size", 6))
		return osu_header(r, line);
	if (line[0] == '#')
		return 0;
	if (data_row(r, line, "osu_alltoall", "'# Size'", &bytes, &t) != 0)
		return -1;
	return add_row(r, bytes, 0, t);
}

static int imb_line(struct reader *r, char *line)
{
	char *w[PEER_COLS * 2], *s = line + strspn(line, " \t");
	double bytes, t;
	int n;

	if (strstr(line, "Intel(R) MPI Benchmarks"))
		title(r, line);
	if (!strncmp(line, "# Benchmarking ", 15)) {
		r->alltoall = !strcmp(line + 15 + strspn(line + 15, " "), "Alltoall") ||
			      !strncmp(line + 15, "Alltoall ", 9);
		r->procs = 0;
		r->ncols = 0;
		return 0;
	}
	if (sscanf(line, "# #processes = %ld", &r->procs) == 1)
		return r->procs > 0 ? 0 : bad(r, "a table's #processes that is not a number above 0:", line);
	if (line[0] == '#')
		return 0;
	if (s[0] == '#') {   /* a table's header: "#bytes #repetitions ...", Barrier's "#repetitions ..." */
		if ((n = split(s, w, PEER_COLS * 2)) < 0)
			return bad(r, "a table's header of too many columns:", NULL);
		if (header(r, w, n) != 0)
			return -1;
		r->bytes = 0;
		r->time = column(r, "t_max[usec]");
		if (r->alltoall && r->time < 0)
			return bad(r, "an Alltoall table without its t_max[usec] column:", s);
		if (r->alltoall && r->procs <= 0)
			return bad(r, "an Alltoall table without '# #processes = P' above it", NULL);
		if (r->time < 0)
			r->time = 0;   /* another benchmark's: its rows read, not kept */
		return 0;
	}
	if (data_row(r, line, "IMB-MPI1", "table's '#bytes'", &bytes, &t) != 0)
		return -1;
	return r->alltoall ? add_row(r, bytes, r->procs, t) : 0;
}

/* "#  Rank R Group G Pid P on HOST device D ...": rank R's host. */
static int nccl_rank(struct reader *r, const char *line)
{
	struct peer *p = r->p;
	char host[PEER_HOST];
	long rank;
	int group, pid, at = 0, end = 0;

	/* a longer name is refused: cut, it would be one host with another of its beginning */
	if (sscanf(line, "# Rank %ld Group %d Pid %d on %" PEER_HOST_SCAN "s%n device %n", &rank, &group, &pid, host,
		   &at, &end) != 4 || !end || line[at] != ' ' || rank < 0 || rank >= PEER_HOSTS)
		return bad(r, "a rank's line that is not '#  Rank R Group G Pid P on HOST device D' (HOST of at most "
			   PEER_HOST_SCAN " bytes, as a fabric file's):", line);
	if (rank >= p->nhosts) {
		char (*h)[PEER_HOST] = grow(p->host, &p->caphosts, (size_t)rank + 1, sizeof(*h), 64);
		if (!h)
			return bad(r, "out of memory", NULL);
		p->host = h;
		for (long i = p->nhosts; i <= rank; i++)
			p->host[i][0] = '\0';
		p->nhosts = rank + 1;
	}
	if (p->host[rank][0])
		return bad(r, "a rank's second line:", line);
	snprintf(p->host[rank], sizeof(p->host[rank]), "%s", host);
	return 0;
}

static int nccl_header(struct reader *r, char *line)
{
	char *w[PEER_COLS + 1];
	int n = split(line + 1, w, PEER_COLS + 1);

	if (n < 0 || header(r, w, n) != 0)
		return n < 0 ? bad(r, "a table's header of too many columns", NULL) : -1;
	r->stamp = column(r, "timestamp") >= 0;
	r->ncols -= r->stamp;
	r->bytes = 0;
	r->time = column(r, "time") >= 0 ? column(r, "time") : column(r, "cputime");
	if (r->time < 0)
		return bad(r, "alltoall_perf's header has no 'time' column:", line);
	snprintf(r->p->timecol, sizeof(r->p->timecol), "out-of-place %s (us)", r->col[r->time]);
	return 0;
}

static int nccl_line(struct reader *r, char *line)
{
	char name[64];
	double size, t;
	long ranks = r->p->nhosts;

	if (!strncmp(line, "# nccl-tests version", 20))
		title(r, line);
	if (sscanf(line, "# Collective test starting: %63s", name) == 1 && strcmp(name, "alltoall_perf"))
		return bad(r, "a nccl-tests output of another collective, not alltoall_perf's:", name);
	if (!strncmp(line, "#  Rank ", 8))
		return nccl_rank(r, line);
	if (!strncmp(line + strspn(line, "# "), "size ", 5) && line[0] == '#')
		return nccl_header(r, line);
	if (line[0] == '#')
		return 0;
	if (data_row(r, line, "alltoall_perf", "'# size count ...'", &size, &t) != 0)
		return -1;
	for (long i = 0; i < ranks; i++)
		if (!r->p->host[i][0])
			return bad(r, "a rank has no '#  Rank' line above the table: which host it ran on is not known", NULL);
	if (ranks == 0)
		return bad(r, "no '#  Rank' lines above the table: which host each rank ran on is not known", NULL);
	return add_row(r, floor(size / (double)ranks), ranks, t);
}

/* The format a file's lines tell (PEER_NONE: none of them); of a line, that line's. */
static enum peer_format told(const char *text)
{
	for (const char *s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL) {
		if (!strncmp(s, "# OSU MPI", 9))
			return PEER_OSU;
		if (!strncmp(s, "# nccl-tests version", 20) || !strncmp(s, "# Collective test starting:", 27))
			return PEER_NCCL;
		if (!strncmp(s, "# Benchmarking ", 15) || (strstr(s, "Intel(R) MPI Benchmarks") &&
							   strstr(s, "Intel(R) MPI Benchmarks") < strchr(s, '\n')))
			return PEER_IMB;
	}
	return PEER_NONE;
}

int peer_parse(struct peer *p, const char *text, const char *file, enum peer_format want, char *err,
	       size_t errlen)
{
	static int (*const each[])(struct reader *, char *) = { NULL, osu_line, imb_line, nccl_line };
	struct reader r = { .p = p, .file = file, .err = err, .errlen = errlen };
	char *copy, *line, *next;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->format = want != PEER_NONE ? want : told(text);
	if (p->format == PEER_NONE) {
		snprintf(err, errlen, "%s: not an osu_alltoall, IMB-MPI1 or nccl-tests alltoall_perf output "
			 "(none of their title lines): name its format with --format=osu, imb or nccl-tests", file);
		return -1;
	}
	if (!(copy = strdup(text)))
		return bad(&r, "out of memory", NULL);
	for (line = copy; line && rc == 0; line = next) {
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		r.line++;
		line[strcspn(line, "\r")] = '\0';
		if (told(line) != PEER_NONE && told(line) != p->format)
			rc = bad(&r, "a title line of another tool's output (a file holds one run of one tool):", line);
		else if (line[strspn(line, " \t")])
			rc = each[p->format](&r, line);
	}
	free(copy);
	if (rc == 0 && p->nrows == 0) {
		snprintf(err, errlen, "%s: no row of %s's all-to-all table: nothing to judge", file,
			 tool_names[p->format]);
		rc = -1;
	}
	if (rc == 0 && p->format == PEER_IMB)
		snprintf(p->timecol, sizeof(p->timecol), "t_max[usec]");
	if (rc == 0 && !p->title[0])
		snprintf(p->title, sizeof(p->title), "%s", tool_names[p->format]);
	if (rc != 0)
		peer_free(p);
	return rc;
}

void peer_free(struct peer *p)
{
	free(p->row);
	free(p->host);
	memset(p, 0, sizeof(*p));
}
