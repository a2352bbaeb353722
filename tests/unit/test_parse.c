/* Unit tests: collect's parser (parse.c) on each damaged form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format.h"
#include "merged.h"
#include "read/parse.h"
#include "read/point.h"
#include "read/splits.h"

struct seen {
	int rows, warnings;
	char last[256];
	struct crow row;
};

static void on_row(void *ctx, const char *line, size_t len, const struct crow *r)
{
	struct seen *s = ctx;
	(void)line;
	(void)len;
	s->rows++;
	s->row = *r;
}

static void on_warn(void *ctx, const char *path, long line, const char *msg)
{
	struct seen *s = ctx;
	s->warnings++;
	snprintf(s->last, sizeof(s->last), "%s:%ld: %s", path, line, msg);
}

/* Feeds text as lines; the last one without '\n' is incomplete. */
static void feed(const char *text, size_t n, struct point *pt, struct seen *s)
{
	struct parser p;
	size_t i = 0;

	point_init(pt);
	pt->path = strdup("f.out");
	memset(s, 0, sizeof(*s));
	parser_init(&p, pt, 0);
	p.row = on_row;
	p.warn = on_warn;
	p.ctx = s;
	while (i < n) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (text + i)) : n - i;
		parser_line(&p, text + i, len, nl != NULL);
		i += len + 1;
	}
	parser_end(&p);
}

#define HEADER "# aller: 1.0.0\n# nodes: 4\n# mode: strided\n# tasks_per_node: 2\n" \
	"# level: 0 target 8 comms 1 commsize 8\n"
#define ROW "1 8 16 1.907349e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5\n"
#define ROW8 "1 8 8 9.536743e-07 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5\n"
#define FEED(s) feed(s, sizeof(s) - 1, &pt, &seen)

static void clean_file(void **state)
{
	struct point pt;
	struct seen seen;
	(void)state;
	FEED(HEADER ROW ROW8 "# Done\n");
	assert_int_equal(seen.rows, 2);
	assert_int_equal(seen.warnings, 0);
	assert_true(pt.done);
	assert_int_equal(pt.nodes, 4);
	assert_string_equal(pt.mode, "strided");
	assert_int_equal(seen.row.count, 8);
	assert_int_equal(seen.row.commsize, 8);
	assert_int_equal(point_state(&pt), POINT_COMPLETE);
	point_release(&pt);
}

static void truncated_file(void **state)
{
	struct point pt;
	struct seen seen;
	(void)state;
	FEED(HEADER ROW "1 8 8 9.5e-07 1.0e-05");
	assert_int_equal(seen.rows, 1);
	assert_int_equal(seen.warnings, 2);  /* partial line, no Done */
	assert_non_null(strstr(seen.last, "no '# Done' line"));
	assert_int_equal(point_state(&pt), POINT_INCOMPLETE);
	point_release(&pt);
}

static void partial_last_line_is_dropped(void **state)
{
	struct point pt;
	struct seen seen;
	(void)state;
	FEED(HEADER "1 8 16 1.907349e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5");
	assert_int_equal(seen.rows, 0);
	/* aller started and was cut: incomplete, rows or not */
	assert_int_equal(point_state(&pt), POINT_INCOMPLETE);
	point_release(&pt);
}

/* The one definition of a point's state (point.h), with its reasons. */
static void point_states_and_reasons(void **state)
{
	static const struct {
		const char *text;
		enum point_state st;
		const char *reason;
	} cases[] = {
		{ "# campaign: c\n# point_nodes: 1\n# exit: 0\n", POINT_FAILED, "no aller output" },
		{ "# campaign: c\n# point_nodes: 1\n", POINT_FAILED, "no aller output" },
		/* aller's 1 (verification) follows its header: before it, MPI_Init or the launcher */
		{ "# campaign: c\n# point_nodes: 1\n# exit: 1\n", POINT_FAILED, "exit 1 before "
		  "aller's header, not a verification failure (the launcher or MPI_Init failed)" },
		{ "# campaign: c\n# point_nodes: 1\n# exit: 2\n", POINT_FAILED, "exit 2" },
		{ HEADER ROW "# Done\n", POINT_COMPLETE, "" },
		{ HEADER ROW "# Done\n# exit: 0\n", POINT_COMPLETE, "" },
		{ HEADER ROW "# exit: 3\n", POINT_FAILED, "exit 3" },
		{ HEADER ROW "# Done\n# exit: 1\n", POINT_FAILED, "exit 1" },
		{ HEADER ROW "# exit: 139\n", POINT_FAILED, "exit 139 (signal 11, SIGSEGV)" },
		/* a task killed as MPI starts: the launcher's 128 + the signal, no header */
		{ "# campaign: c\n# point_nodes: 4\n# exit: 139\n", POINT_FAILED,
		  "exit 139 (signal 11, SIGSEGV) before aller's header (the launcher or MPI_Init)" },
		/* above 128 + 64 no signal: srun's own codes (233 when a node's link went) */
		{ HEADER ROW "# exit: 233\n", POINT_FAILED, "exit 233" },
		/* two worlds in one file (singletons of a launcher the library does not speak) */
		{ HEADER ROW "# Done\n" HEADER ROW "# Done\n", POINT_FAILED, "2 aller runs in one file: "
		  "worlds the launcher started apart (an MPI library that does not speak its process "
		  "manager), not one measurement" },
		/* aller's header against the job's provenance: mode, node count, world against tasks */
		{ "# campaign: c\n# point_nodes: 4\n# point_mode: contiguous\n" HEADER ROW "# Done\n# exit: 0\n",
		  POINT_FAILED, "provenance does not match: the job's mode is contiguous, aller's header "
		  "says strided" },
		{ "# campaign: c\n# point_nodes: 2\n# point_mode: strided\n" HEADER ROW "# Done\n# exit: 0\n",
		  POINT_FAILED, "provenance does not match: the job's node count is 2, aller's header "
		  "says 4" },
		{ "# campaign: c\n# point_nodes: 4\n# tasks: 8 (2 per node)\n" HEADER "# world: 1\n" ROW
		  "# Done\n# exit: 0\n", POINT_FAILED, "provenance does not match: the job's task count is 8, "
		  "aller's header says 1 (its world)" },
		{ "# campaign: c\n# point_nodes: 4\n# point_mode: strided\n# tasks: 8 (2 per node)\n"
		  HEADER "# world: 8\n" ROW "# Done\n# exit: 0\n", POINT_COMPLETE, "" },
		{ HEADER ROW "# exit: 143\n", POINT_INCOMPLETE, "ended by SIGTERM" },
		{ HEADER ROW "# exit: 138\n", POINT_INCOMPLETE, "ended by SIGUSR1" },
		{ HEADER "# exit: 137\n", POINT_INCOMPLETE, "ended by SIGKILL" },
		{ HEADER ROW, POINT_INCOMPLETE, "no '# Done'" },
		{ HEADER, POINT_INCOMPLETE, "no '# Done'" },
		{ HEADER ROW "# incomplete: time limit reached at 12:00\n# exit: 124\n",
		  POINT_INCOMPLETE, "time limit reached at 12:00" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct point pt;
		struct seen seen;
		char reason[256];
		feed(cases[i].text, strlen(cases[i].text), &pt, &seen);
		point_reason(&pt, reason, sizeof(reason));
		if (point_state(&pt) != cases[i].st || strcmp(reason, cases[i].reason) != 0)
			fail_msg("case %zu: %s '%s', wanted %s '%s'", i,
				 point_state_name(point_state(&pt)), reason,
				 point_state_name(cases[i].st), cases[i].reason);
		point_release(&pt);
	}
}

static void corrupt_numbers(void **state)
{
	static const char *bad[] = {
		"1 8 16 1.9e-06 nan 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5\n",
		"1 8 16 1.9e-06 inf 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5\n",
		"1 8 16 1.9e-06 1.0e-05 -2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5\n",
		"1 8 1x6 1.9e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5\n",
		"1 8 0 1.9e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5\n",
		"1 8 16 1.9e-06 1.0e- 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5\n",
		"1 8 16 1.9e-06 . 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5\n",
		"1 8 16 1.9e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 -5\n",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[1024];
		struct point pt;
		struct seen seen;
		snprintf(text, sizeof(text), "%s%s%s# Done\n", HEADER, bad[i], ROW);
		feed(text, strlen(text), &pt, &seen);
		if (seen.rows != 1 || seen.warnings != 1 || !strstr(seen.last, "corrupt"))
			fail_msg("case %zu: %d rows, %d warnings, '%s'", i, seen.rows,
				 seen.warnings, seen.last);
		assert_non_null(strstr(seen.last, "f.out:6: "));
		point_release(&pt);
	}
}

static void crlf_line_ends(void **state)
{
	struct point pt;
	struct seen seen;
	(void)state;
	FEED("# aller: 1.0.0\r\n# nodes: 2\r\n# mode: contiguous\r\n"
	     "1 8 16 1.907349e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5\r\n"
	     "# Done\r\n");
	assert_int_equal(seen.rows, 1);
	assert_true(pt.done);
	assert_string_equal(pt.mode, "contiguous");
	assert_int_equal(seen.warnings, 1); /* data without a level header */
	assert_non_null(strstr(seen.last, "without a '# level:' header"));
	point_release(&pt);
}

static void empty_file(void **state)
{
	struct point pt;
	struct seen seen;
	(void)state;
	feed("", 0, &pt, &seen);
	assert_int_equal(seen.rows, 0);
	assert_int_equal(seen.warnings, 1);
	assert_non_null(strstr(seen.last, "not an aller output"));
	point_release(&pt);
}

static void binary_garbage(void **state)
{
	struct point pt;
	struct seen seen;
	char text[] = HEADER "\x01\x02\x7f\xff garbage\n" ROW "\x00\x00\x00\n# Done\n";
	(void)state;
	feed(text, sizeof(text) - 1, &pt, &seen);
	assert_int_equal(seen.rows, 1);
	assert_int_equal(seen.warnings, 1);   /* reported once per file */
	assert_non_null(strstr(seen.last, "binary data"));
	assert_true(pt.done);
	point_release(&pt);
}

static void mismatched_columns(void **state)
{
	struct point pt;
	struct seen seen;
	(void)state;
	FEED(HEADER "1 8 32 1.9e-06 1.0e-05 2.0e-05\n"
	     "1 8 32 1.9e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01\n" ROW
	     "1 8 8 1.9e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5 "
	     "1.5e-05 2.5e-05 6.0e+00\n"
	     "1 8 4 1.9e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5 1.5e-05\n"
	     "# Done\n");
	/* the spec's ten columns, format 1's twelve and format 2's fifteen */
	assert_int_equal(seen.rows, 3);
	assert_int_equal(seen.warnings, 2);
	assert_non_null(strstr(seen.last, "13 columns, expected 36 (or the first 34, 31, 28, 26, 23, 19, 15, 12 or 10)"));
	point_release(&pt);
}

#define ROW3(iso) "2 4 16 1.9e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5 " \
	"1.5e-05 2.5e-05 6.0e+00 " iso "\n"

/* Format 3: a data set per algorithm, isolation columns measured or "-". */
static void algorithms_and_isolation_columns(void **state)
{
	struct point pt;
	struct seen seen;
	(void)state;
	FEED(HEADER "# algos: pairwise,put\n# isolate: communicator 0\n"
	     "# algo: pairwise\n" ROW3("8.0e-06 1.25e+00 - -")
	     "\n\n# level: 1 target 4 comms 2 commsize 4\n# algo: put\n" ROW3("- - - -")
	     "\n\n# level: 2 target 2 comms 4 commsize 2\n" ROW3("- - - -")
	     "# Done\n");
	assert_int_equal(seen.rows, 3);
	assert_int_equal(seen.warnings, 0);
	assert_string_equal(pt.setting[PS_ALGOS], "pairwise,put");
	assert_string_equal(pt.setting[PS_ISOLATE], "communicator 0");
	assert_int_equal(seen.row.algo, 0);   /* a set without '# algo:' is MPI_Alltoall's */
	point_release(&pt);
	FEED(HEADER "# algo: put\n" ROW3("8.0e-06 1.25e+00 - -") "# Done\n");
	assert_int_equal(seen.row.algo, 5);
	assert_string_equal(merged_algo_name(seen.row.algo), "put");
	point_release(&pt);
	/* "-" only where a column may be missing; an unknown algorithm's rows are dropped */
	FEED(HEADER "1 8 16 - 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5 "
	     "1.5e-05 2.5e-05 6.0e+00 - - - -\n"
	     "# algo: bruck\n" ROW3("- - - -") "# Done\n");
	assert_int_equal(seen.rows, 0);
	assert_int_equal(seen.warnings, 2);
	assert_non_null(strstr(seen.last, "unknown algorithm 'bruck': the data set's rows dropped"));
	point_release(&pt);
	/* format 4: the split of each data set, uniform without '# split:'; format 3's rows too */
	FEED(HEADER "# splits: zipf:1.2:1 uniform\n# algo: alltoallv\n# split: zipf:1.2:1\n"
	     ROW3("- - - - 1.2e+00 3.0e+00 2 3") "\n\n# level: 1 target 4 comms 2 commsize 4\n"
	     "# algo: alltoallv\n" ROW3("- - - - 1.0e+00 3.0e+00 - 3")
	     "2 4 8 1.9e-06 1.0e-05 2.0e-05 3.0e-05 1.0e-01 2.0e-01 3.0e-01 4.0e-01 5 "
	     "1.5e-05 2.5e-05 6.0e+00 - - - -\n" "# Done\n");
	assert_int_equal(seen.rows, 3);
	assert_int_equal(seen.warnings, 0);
	assert_string_equal(pt.setting[PS_SPLITS], "zipf:1.2:1 uniform");
	assert_int_equal(seen.row.split, 0);
	point_release(&pt);
	FEED(HEADER "# algo: alltoallv\n# split: zipf:1.2:1\n" ROW3("- - - - 1.2e+00 3.0e+00 2 3")
	     "# Done\n");
	assert_true(seen.row.split > 0);
	assert_string_equal(splits_name(seen.row.split), "zipf:1.2:1");
	point_release(&pt);
}

static void long_data_line(void **state)
{
	struct point pt;
	struct seen seen;
	char *text = malloc(100000);
	size_t n;
	(void)state;
	n = (size_t)sprintf(text, "%s1 8 16 ", HEADER);
	memset(text + n, '1', 60000);
	n += 60000;
	n += (size_t)sprintf(text + n, " 1\n%s# Done\n", ROW);
	feed(text, n, &pt, &seen);
	assert_int_equal(seen.rows, 1);
	assert_int_equal(seen.warnings, 1);
	assert_non_null(strstr(seen.last, "data line of"));
	free(text);
	point_release(&pt);
}

static void exit_and_incomplete_markers(void **state)
{
	struct point pt;
	struct seen seen;
	(void)state;
	FEED(HEADER ROW "# Done\n# exit: 1\n");
	assert_int_equal(point_state(&pt), POINT_FAILED);
	point_release(&pt);
	FEED(HEADER ROW "# incomplete: time limit\n");
	assert_int_equal(point_state(&pt), POINT_INCOMPLETE);
	point_release(&pt);
}

static void warnings_are_capped(void **state)
{
	struct point pt;
	struct seen seen;
	char *text = malloc(100000);
	size_t n = (size_t)sprintf(text, "%s", HEADER);
	(void)state;
	for (int i = 0; i < 50; i++)
		n += (size_t)sprintf(text + n, "1 2\n");
	n += (size_t)sprintf(text + n, "# Done\n");
	feed(text, n, &pt, &seen);
	assert_int_equal(seen.warnings, PARSE_MAX_WARNINGS + 1);
	assert_non_null(strstr(seen.last, "30 more warnings suppressed"));
	free(text);
	point_release(&pt);
}

static void newest_complete_job_wins(void **state)
{
	struct point a, b;
	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.done = b.done = 1;
	a.has_header = b.has_header = 1;
	a.nrows = b.nrows = 1;
	a.exit_code = b.exit_code = -1;
	a.start = "2026-01-02T00:00:00Z";
	b.start = "2026-01-01T00:00:00Z";
	assert_true(point_newer(&a, &b));
	assert_false(point_newer(&b, &a));
	a.done = 0;   /* complete beats newer */
	assert_true(point_newer(&b, &a));
	a.done = 1;
	b.start = a.start;
	a.job = "99";
	b.job = "100";
	assert_true(point_newer(&b, &a));
	/* the latest attempt of one job wins */
	b.job = a.job;
	a.attempt = 2;
	b.attempt = 1;
	assert_true(point_newer(&a, &b));
	/*
	 * Of one job, the later attempt tells how the point ended: attempt 1
	 * killed by the launcher (143, incomplete), attempt 2 a usage error
	 * (exit 2, failed) is a failed point, not an incomplete one to submit
	 * again; of two jobs, incomplete still beats failed.
	 */
	a.done = b.done = 0;
	b.exit_code = 143;
	a.exit_code = 2;
	assert_int_equal(point_state(&b), POINT_INCOMPLETE);
	assert_int_equal(point_state(&a), POINT_FAILED);
	assert_true(point_newer(&a, &b));
	assert_false(point_newer(&b, &a));
	b.job = "100";
	assert_true(point_newer(&b, &a));
	b.job = a.job;
	b.done = 1;   /* ... but an earlier complete attempt stays */
	b.exit_code = 0;
	assert_true(point_newer(&b, &a));
}

/* A repeated or misplaced row is dropped, once, with a warning. */
static void repeated_rows_are_dropped(void **state)
{
	struct point pt;
	struct seen seen;
	(void)state;
	FEED(HEADER ROW ROW ROW8 "# Done\n");
	assert_int_equal(seen.rows, 2);
	assert_int_equal(seen.warnings, 1);
	assert_non_null(strstr(seen.last, "f.out:7: a row of count 16 after one of count 16: a data "
				       "set's counts go down, each once (a repeated or misplaced "
				       "row): row dropped"));
	point_release(&pt);
	FEED(HEADER ROW8 ROW "# Done\n");
	assert_int_equal(seen.rows, 1);
	assert_non_null(strstr(seen.last, "a row of count 16 after one of count 8"));
	point_release(&pt);
	/* the next data set starts again */
	FEED(HEADER ROW "\n\n# level: 1 target 4 comms 2 commsize 4\n" ROW "# Done\n");
	assert_int_equal(seen.rows, 2);
	assert_int_equal(seen.warnings, 0);
	point_release(&pt);
}

/* '# format:': absent (format 1) and 1..ALLER_FORMAT_VERSION are read; others failed, named. */
static void unknown_formats_are_named(void **state)
{
	static const char *const bad[] = { "99", "abc", "0", "5x", "" };
	char text[1024], why[256];
	struct point pt;
	struct seen seen;
	(void)state;
	FEED(HEADER ROW "# Done\n");
	assert_true(point_format_ok(&pt));
	point_release(&pt);
	snprintf(text, sizeof(text), "# format: %d\n%s%s# Done\n", ALLER_FORMAT_VERSION, HEADER,
		 ROW);
	feed(text, strlen(text), &pt, &seen);
	assert_true(point_format_ok(&pt));
	assert_int_equal(point_state(&pt), POINT_COMPLETE);
	point_release(&pt);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s# format: %s\n%s# Done\n", HEADER, bad[i], ROW);
		feed(text, strlen(text), &pt, &seen);
		if (!bad[i][0]) {   /* "# format: " with nothing: not a key line, format 1 */
			point_release(&pt);
			continue;
		}
		assert_false(point_format_ok(&pt));
		assert_int_equal(point_state(&pt), POINT_FAILED);
		point_reason(&pt, why, sizeof(why));
		assert_non_null(strstr(why, "is not one this collect reads (1.."));
		point_release(&pt);
	}
}

/* Found by the fuzzer: a level line at the very end of the input buffer. */
static void level_line_is_not_read_past_its_end(void **state)
{
	static const char text[] = "# level: 7";
	char *exact = malloc(sizeof(text) - 1);   /* no NUL after it */
	struct point pt;
	struct seen seen;
	(void)state;
	memcpy(exact, text, sizeof(text) - 1);
	feed(exact, sizeof(text) - 1, &pt, &seen);
	assert_int_equal(seen.rows, 0);
	free(exact);
	point_release(&pt);
}

/* A reveal run is instrumented, one whose reveal was unavailable is not; traffic lines are comments. */
static void reveal_marks_instrumented_runs(void **state)
{
	struct point pt;
	struct seen seen;
	(void)state;
	FEED(HEADER "# reveal: pml; counters read through MPI_T\n" ROW
	     "# traffic: count=16 tier=pml msgs=7 bytes=896 cross_bytes=0\n"
	     "# matrix: d/matrix-L0-c16.dat\n# late: level 0 none\n# Done\n");
	assert_int_equal(seen.rows, 1);
	assert_int_equal(seen.warnings, 0);
	assert_non_null(pt.reveal);
	assert_int_equal(point_state(&pt), POINT_COMPLETE);
	point_release(&pt);
	FEED(HEADER "# reveal: unavailable (Open MPI's monitoring is off)\n" ROW "# Done\n");
	assert_null(pt.reveal);
	assert_int_equal(seen.rows, 1);
	point_release(&pt);
}

/*
 * The merged tables name aller's columns as aller does; the CSV has every
 * one, each view its x and what format.h's ALLER_COLUMN_VIEWS gives it.
 */
/* A campaign key's placement suffix, as campaigns/manifest.sh writes it, against aller's header. */
static void series_base_strips_the_placement_suffix(void **state)
{
	static const char *const cases[][3] = {
		{ "t2-L0-default-s1-cyclic", "cyclic", "t2-L0-default-s1" },
		{ "t2-L0-default-s1-random7", "random:7", "t2-L0-default-s1" },
		{ "t2-L0-default-s1-random1", "random:1", "t2-L0-default-s1" },   /* PLACEMENTS=random */
		{ "t2-L0-default-s1", "block", "t2-L0-default-s1" },
		{ "t2-L0-default-s1", NULL, "t2-L0-default-s1" },
		{ "t2-L0-default-s1-random7", "random:8", "t2-L0-default-s1-random7" },   /* not its own */
		{ "t2-L0-default-s1", "cyclic", "t2-L0-default-s1" },   /* outside a campaign: no suffix */
		{ "cyclic", "cyclic", "cyclic" },   /* the suffix is never the whole series */
	};
	char out[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		point_series_base(cases[i][0], cases[i][1], out, sizeof(out));
		assert_string_equal(out, cases[i][2]);
	}
	point_series_base(NULL, "cyclic", out, sizeof(out));
	assert_string_equal(out, "");
}

/*
 * A campaign point's key and base are what its job wrote (the manifest's
 * point_parse); an output outside a campaign is n<nodes>-<mode>, its base
 * its series; an earlier toolkit's output (no point_base) by its suffix.
 */
static void key_and_base_are_the_jobs(void **state)
{
	struct point pt;
	struct seen seen;
	char out[64];

	(void)state;
	FEED("# point: n4-strided-t2-L0-default-s1-cyclic\n# point_series: t2-L0-default-s1-cyclic\n"
	     "# point_base: t2-L0-default-s1\n" HEADER ROW "# Done\n");
	point_key(&pt, out, sizeof(out));
	assert_string_equal(out, "n4-strided-t2-L0-default-s1-cyclic");
	point_base(&pt, out, sizeof(out));
	assert_string_equal(out, "t2-L0-default-s1");
	point_release(&pt);
	FEED(HEADER ROW "# Done\n");
	point_key(&pt, out, sizeof(out));
	assert_string_equal(out, "n4-strided");
	point_base(&pt, out, sizeof(out));
	assert_string_equal(out, "");
	point_release(&pt);
	FEED("# point_series: t2-L0-default-s1-random7\n" HEADER "# placement: random:7\n" ROW "# Done\n");
	point_base(&pt, out, sizeof(out));
	assert_string_equal(out, "t2-L0-default-s1");
	point_release(&pt);
}

/*
 * An attempt that failed before aller's header is of its point's group
 * where the job wrote the point's base: its retry's --placement, said in
 * the header, does not set it apart (it did, and the failed attempt stood
 * as a third point beside the two it belonged to).
 */
static void a_failed_attempt_is_of_its_points_group(void **state)
{
	struct point pt, a;
	struct seen seen;

	(void)state;
	FEED("# campaign: c\n# point: n4-strided-t2-L0-default-s1\n# point_series: t2-L0-default-s1\n"
	     "# point_base: t2-L0-default-s1\n# variant: default\n# point_mode: strided\n# exit: 139\n");
	a = pt;
	FEED("# campaign: c\n# point: n4-strided-t2-L0-default-s1\n# point_series: t2-L0-default-s1\n"
	     "# point_base: t2-L0-default-s1\n# variant: default\n" HEADER "# placement: block\n" ROW "# Done\n");
	assert_int_equal(point_state(&a), POINT_FAILED);
	assert_int_equal(point_cmp_group(&a, &pt), 0);
	free(a.base);   /* without the base: the header's placement sets them apart, as before */
	free(pt.base);
	a.base = pt.base = NULL;
	assert_int_not_equal(point_cmp_group(&a, &pt), 0);
	point_release(&a);
	point_release(&pt);
}

static void merged_columns_agree_with_aller(void **state)
{
	static const char *const aller_names[] = ALLER_COLUMN_NAMES;
	static const char *const want[MERGED_NTABLES] = {
		[MERGED_BANDWIDTH] = "bytes_per_peer tmin_s tavg_s tmax_s bwmin_GiBs bwavg_GiBs "
				     "bwmax_GiBs tmed_s imbalance tmed_lo_s tmed_hi_s tcounts_s tdispatch_s "
				     "tcombine_s bound_s",
		[MERGED_CONCURRENCY] = "comms commsize bwavg_GiBs aggbw_GiBs interference",
		[MERGED_SCALING] = "nodes bwavg_GiBs",
		[MERGED_CSV] = "point level algo split comms commsize count bytes_per_peer GiB tmin_s "
			       "tavg_s tmax_s bwmin_GiBs bwavg_GiBs bwmax_GiBs aggbw_GiBs slowest_rank "
			       "tmed_s tp99_s busbw_GBs talone_s interference interference_avg "
			       "interference_max imbalance busbw_v_GBs hottest_rank iters tcongested_s "
			       "congestion congestion_p99 tmed_lo_s tmed_hi_s offnode_B netbw_GBs eff tcounts_s "
			       "tdispatch_s tcombine_s bound_s bottleneck eff_bound above_bound",
		[MERGED_POINTS] = "point campaign mode nodes tasks_per_node world buffers instrumented "
				  "state job source mpi series variant placement key base",
	};
	char names[1024];
	(void)state;
	for (int t = 0; t < MERGED_NTABLES; t++) {
		const struct merged_table_def *d = merged_table((enum merged_table)t);
		int aller_cols = 0;
		for (int i = 0; i < d->n; i++) {
			if (d->cols[i].src != MSRC_ALLER)
				continue;
			assert_string_equal(d->cols[i].name, aller_names[d->cols[i].arg]);
			aller_cols++;
		}
		if (t == MERGED_CSV)
			/* every column aller prints, its bound_s and bottleneck as collect's own */
			assert_int_equal(aller_cols, ALLER_NCOLS - 2);
		merged_names(d->cols, d->n, ' ', names, sizeof(names));
		assert_string_equal(names, want[t]);
		assert_int_equal(d->sep, t == MERGED_CSV || t == MERGED_POINTS ? ',' : ' ');
	}
	/* a buffer too small cuts the list, never overruns it */
	merged_names(merged_table(MERGED_CSV)->cols, merged_table(MERGED_CSV)->n, ' ', names, 12);
	assert_string_equal(names, "point level");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(key_and_base_are_the_jobs),
		cmocka_unit_test(a_failed_attempt_is_of_its_points_group),
		cmocka_unit_test(merged_columns_agree_with_aller),
		cmocka_unit_test(series_base_strips_the_placement_suffix),
		cmocka_unit_test(clean_file),
		cmocka_unit_test(truncated_file),
		cmocka_unit_test(partial_last_line_is_dropped),
		cmocka_unit_test(point_states_and_reasons),
		cmocka_unit_test(corrupt_numbers),
		cmocka_unit_test(crlf_line_ends),
		cmocka_unit_test(empty_file),
		cmocka_unit_test(binary_garbage),
		cmocka_unit_test(mismatched_columns),
		cmocka_unit_test(algorithms_and_isolation_columns),
		cmocka_unit_test(long_data_line),
		cmocka_unit_test(exit_and_incomplete_markers),
		cmocka_unit_test(warnings_are_capped),
		cmocka_unit_test(newest_complete_job_wins),
		cmocka_unit_test(repeated_rows_are_dropped),
		cmocka_unit_test(unknown_formats_are_named),
		cmocka_unit_test(level_line_is_not_read_past_its_end),
		cmocka_unit_test(reveal_marks_instrumented_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
