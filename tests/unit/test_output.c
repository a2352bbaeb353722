/* Unit tests: aller's output (output.c) against the shared format (format.h). */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format.h"
#include "options.h"
#include "output.h"
#include "text.h"
#include "world/world.h"

/* not inlined: gcc 12 then takes its result for a pointer to the local it came through */
static __attribute__((noinline)) char *render(void (*fn)(FILE *, void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(f, arg);
	fclose(f);
	return buf;
}

static struct options opt;
static struct world world;

static struct run_info info(void)
{
	struct run_info r;
	memset(&r, 0, sizeof(r));
	options_init(&opt);
	memset(&world, 0, sizeof(world));
	r.opt = &opt;
	r.w = &world;
	r.command = "aller s 2 64";
	r.mpi = "Open MPI v4.1.4";
	world.size = 7;
	world.nnodes = 2;
	world.tpn_min = 3;
	world.tpn_max = 4;
	r.host_map = "n1 0-3\nn2 4-6\n";
	r.buffers = "host";
	opt.verify = VERIFY_ALL;
	opt.strided = 1;
	opt.warmup = 1;
	opt.iters = 2;
	opt.longs = 64;
	r.selection = "commsizes all; bytes per peer 8 B..max";
	r.algos = "alltoall,put";
	r.large_counts = "MPI_Alltoall_c";
	r.start = "2026-12-01T00:00:00Z";
	r.slurm_job = "42";
	r.slurm_nodes = "n[1-2]";
	return r;
}

static void do_header(FILE *f, void *arg)
{
	output_header(f, arg);
}

static void header_names_every_key(void **state)
{
	struct run_info r = info();
	char *s = render(do_header, &r);
	const char *want[] = { "# aller: " ALLER_VERSION "\n", "# format: 9\n",
			       "# command: aller s 2 64\n", "# mpi: Open MPI v4.1.4\n",
			       "# world: 7\n", "# nodes: 2\n", "# tasks_per_node: 3-4\n",
			       "# host: n1 0-3\n", "# host: n2 4-6\n", "# buffers: host\n",
			       "# verify: all\n", "# data: reused\n", "# mode: strided\n",
			       "# iters: 2\n", "# warmup: 1\n", "# longs: 64\n",
			       "# selection: commsizes all; bytes per peer 8 B..max\n",
			       "# algos: alltoall,put\n", "# isolate: none\n", "# start: 2026-12-01T00:00:00Z\n",
			       "# slurm_job: 42\n", "# slurm_nodes: n[1-2]\n", "# timing: barrier\n",
			       "# cache: hot\n",
			       "# columns: " ALLER_COLUMN_HEADER "\n" };
	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(s, want[i]))
			fail_msg("header lacks '%s':\n%s", want[i], s);
	/* every header line is a comment, so gnuplot skips it */
	for (char *p = s; *p; p = strchr(p, '\n') + 1)
		assert_int_equal(*p, '#');
	free(s);
}

/* Each column's name and meaning, from format.h's rows. */
#define MEANING_(ID, name, kind, value, meaning) { #name, meaning },
static const char *const meanings[][2] = { ALLER_COLUMNS(MEANING_, MEANING_) };
#undef MEANING_
#define NMEANINGS (sizeof(meanings) / sizeof(meanings[0]))

static void statistics_define_every_column(void **state)
{
	struct run_info r = info();
	char *s = render(do_header, &r), *at = strstr(s, "# statistics: ");
	char want[1024], *line;
	(void)state;
	assert_non_null(at);
	line = strndup(at, strcspn(at, "\n"));
	assert_non_null(strstr(line, "over all tasks x 2 timed iterations (1 warm-up excluded)"));
	for (size_t c = 0; c < NMEANINGS; c++) {
		/* plain text, one clause: what joins them and a table cell cannot hold */
		if (strpbrk(meanings[c][1], ";|\n"))
			fail_msg("%s's meaning holds ';', '|' or a newline", meanings[c][0]);
		snprintf(want, sizeof(want), "; %s: %s%s", meanings[c][0], meanings[c][1],
			 c + 1 < NMEANINGS ? "; " : "");
		if (!strstr(line, want))
			fail_msg("# statistics: lacks '%s'", want);
	}
	free(line);
	free(s);
}

/* docs/format.md's column table is format.h's rows, one a column, in order
 * (run from the tree's top, as make test does). */
static void docs_table_is_format_h(void **state)
{
	FILE *f = fopen("docs/format.md", "r");
	char line[2048], want[2048];
	size_t c = 0;
	(void)state;
	if (!f)
		fail_msg("docs/format.md: cannot open it (run from the tree's top)");
	while (fgets(line, sizeof(line), f) && c < NMEANINGS) {
		snprintf(want, sizeof(want), "  | %zu | %s | %s |\n", c + 1, meanings[c][0], meanings[c][1]);
		if (strncmp(line, "  | ", 4) == 0 && isdigit((unsigned char)line[4])) {
			if (strcmp(line, want) != 0)
				fail_msg("docs/format.md's column table has\n%sformat.h's row is\n%s", line, want);
			c++;
		}
	}
	fclose(f);
	if (c != NMEANINGS)
		fail_msg("docs/format.md's column table has %zu rows of %zu columns", c, NMEANINGS);
}

struct level_arg {
	struct run_info r;
	struct partition p;
	int level, first;
};

static void do_level(FILE *f, void *arg)
{
	struct level_arg *a = arg;
	output_level(f, &a->r, a->level, &a->p, "pairwise", NULL, a->first);
}

static void uneven_levels_list_sizes(void **state)
{
	struct level_arg a;
	char *s;
	(void)state;
	a.r = info();
	opt.strided = 0;
	partition_init(&a.p, 7, 3, 0);
	a.level = 1;
	a.first = 0;
	s = render(do_level, &a);
	assert_true(strncmp(s, "\n\n# level: 1 target 3 comms 3 commsize 3\n", 40) == 0);
	assert_non_null(strstr(s, "# sizes: 3x2 1 (uneven)\n"));
	assert_non_null(strstr(s, "# algo: pairwise\n# contiguous world 7 iters 2\n"));
	free(s);
	partition_init(&a.p, 8, 8, 0);
	a.level = 0;
	a.first = 1;
	s = render(do_level, &a);
	assert_int_equal(s[0], '#');           /* the first set follows the header */
	assert_null(strstr(s, "# sizes:"));
	free(s);
	/* a selection may start at a later level: it still follows the header */
	a.level = 2;
	s = render(do_level, &a);
	assert_int_equal(s[0], '#');
	free(s);
}

static void sizes_are_run_length_encoded(void **state)
{
	static const struct { long world, target; int strided; const char *want; } cases[] = {
		{ 7, 3, 1, "3 2x2" }, { 7, 3, 0, "3x2 1" }, { 65536 + 1, 3, 0, "3x21845 2" },
		{ 5, 2, 1, "2x2 1" }, { 10, 4, 1, "4 3x2" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct partition p;
		struct strbuf b;
		char *s;
		partition_init(&p, cases[i].world, cases[i].target, cases[i].strided);
		strbuf_init(&b);
		output_sizes(&b, &p);
		s = strbuf_detach(&b);
		if (strcmp(s, cases[i].want) != 0)
			fail_msg("world %ld target %ld: '%s', wanted '%s'", cases[i].world,
				 cases[i].target, s, cases[i].want);
		free(s);
	}
}

static void do_row(FILE *f, void *arg)
{
	output_row(f, arg);
}

static void rows_have_the_columns_in_order(void **state)
{
	struct row w;
	char *s, *tok;
	int n = 0;
	(void)state;
	memset(&w, 0, sizeof(w));
	w.comms = 2;
	w.commsize = 4;
	w.count = 16;
	w.gib = 1.5;
	stats_init(&w.s);
	stats_add(&w.s, 0.5, 1.5);
	w.aggbw = 6;
	w.slowest = 3;
	w.busbw = 7.5;
	w.isolate[0] = 0.25;
	w.isolate[1] = 2;
	w.isolate[2] = w.isolate[3] = NAN;   /* not measured: "-" */
	w.imbalance = 1.25;
	w.vbusbw = 9;
	w.hottest = NAN;   /* every task alike: "-" */
	w.iters = 2;
	w.congest[0] = w.congest[1] = w.congest[2] = NAN;   /* no --congestion: "-" */
	w.eff.offnode_B = 1536;
	w.eff.netbw_GBs = 3e-6;
	w.eff.eff = NAN;   /* a limit unknown: "-" */
	w.moe[0] = w.moe[1] = w.moe[2] = NAN;   /* no --moe: "-" */
	w.eff.bound_s = 2.5e-1;
	snprintf(w.eff.bottleneck, sizeof(w.eff.bottleneck), "up:leaf1");
	s = render(do_row, &w);
	assert_string_equal(s, "2 4 16 1.500000e+00 5.000000e-01 5.000000e-01 5.000000e-01 "
			       "3.000000e+00 3.000000e+00 3.000000e+00 6.000000e+00 3 "
			       "5.000000e-01 5.000000e-01 7.500000e+00 2.500000e-01 2.000000e+00 - - "
			       "1.250000e+00 9.000000e+00 - 2 - - - 5.000000e-01 5.000000e-01 "
			       "1.536000e+03 3.000000e-06 - - - - 2.500000e-01 up:leaf1\n");
	free(s);
	w.hottest = 5;
	w.congest[0] = 1e-3;
	w.congest[1] = 2;
	w.congest[2] = 3;
	w.eff.eff = 0.75;
	w.moe[0] = 1e-6;
	w.moe[1] = 2e-6;
	w.moe[2] = 3e-6;
	s = render(do_row, &w);
	assert_non_null(strstr(s, " 9.000000e+00 5 2 1.000000e-03 2.000000e+00 3.000000e+00 5.000000e-01 "
				  "5.000000e-01 1.536000e+03 3.000000e-06 7.500000e-01 1.000000e-06 "
				  "2.000000e-06 3.000000e-06 2.500000e-01 up:leaf1\n"));
	w.eff.bound_s = NAN;   /* no bound: "-" for both */
	w.eff.bottleneck[0] = '\0';
	free(s);
	s = render(do_row, &w);
	assert_non_null(strstr(s, " 3.000000e-06 - -\n"));
	for (tok = strtok(s, " \n"); tok; tok = strtok(NULL, " \n"))
		n++;
	assert_int_equal(n, ALLER_NCOLS);
	free(s);
}

static void column_names_agree_with_header(void **state)
{
	const char *names[] = ALLER_COLUMN_NAMES;
	char header[] = ALLER_COLUMN_HEADER, *tok;
	int i = 0;
	(void)state;
	assert_int_equal(sizeof(names) / sizeof(names[0]), ALLER_NCOLS);
	for (tok = strtok(header, " "); tok; tok = strtok(NULL, " "), i++)
		assert_string_equal(tok, names[i]);
	assert_int_equal(i, ALLER_NCOLS);
}

static void env_that_shapes_the_measurement(void **state)
{
	char *env[] = { "PATH=/bin", "UCX_TLS=rc,sm", "OMPI_MCA_btl=self,vader",
			"OMPI_MCA_orte_hnp_uri=1.0;tcp://x", "OMPI_COMM_WORLD_RANK=3",
			"PMIX_RANK=0", "PMIX_MCA_psec=native", "NCCL_ALGO=Ring",
			"CUDA_VISIBLE_DEVICES=0,1", "CUDA_VISIBLE_DEVICESX=1", "FI_PROVIDER=cxi",
			"MPICH_ASYNC_PROGRESS=1", "I_MPI_FABRICS=shm:ofi", "OMPI_MCA_ess_base_vpid=0",
			"HOME=/root", NULL };
	struct strbuf b;
	char *s;
	(void)state;
	strbuf_init(&b);
	output_env(&b, env);
	s = strbuf_detach(&b);
	assert_string_equal(s, "CUDA_VISIBLE_DEVICES=0,1\nFI_PROVIDER=cxi\nI_MPI_FABRICS=shm:ofi\n"
			       "MPICH_ASYNC_PROGRESS=1\nNCCL_ALGO=Ring\nOMPI_MCA_btl=self,vader\n"
			       "PMIX_MCA_psec=native\nUCX_TLS=rc,sm\n");
	free(s);
}

static void do_done(FILE *f, void *arg)
{
	(void)arg;
	output_done(f);
}

static void done_line(void **state)
{
	char *s = render(do_done, NULL);
	(void)state;
	assert_string_equal(s, ALLER_DONE "\n");
	free(s);
}

/* JSON and labels stay valid UTF-8: a Latin-1 byte becomes U+FFFD; cuts keep characters whole. */
static void text_is_valid_utf8(void **state)
{
	struct strbuf b;
	(void)state;
	strbuf_init(&b);
	text_add_json(&b, "caf\xe9 \xc3\xa9 \"q\" \\ \n \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82");
	assert_string_equal(b.s, "\"caf\\ufffd \xc3\xa9 \\\"q\\\" \\\\ \\u000a \\ufffd\\ufffd\\ufffd "
			    "\\ufffd\\ufffd\\ufffd\\ufffd \\ufffd\\ufffd\"");
	strbuf_release(&b);
	strbuf_init(&b);
	text_add_utf8(&b, "a\xe9z");
	assert_string_equal(b.s, "a\xef\xbf\xbdz");
	strbuf_release(&b);
	/* "é" is two bytes: a cut at 2 keeps "a" only, never half of it */
	assert_int_equal(text_utf8_cut("a\xc3\xa9z", 2), 1);
	assert_int_equal(text_utf8_cut("a\xc3\xa9z", 3), 3);
	assert_int_equal(text_utf8_cut("ab", 240), 2);
	assert_int_equal(text_utf8_char("\xc0\x80", 2), 0);   /* overlong */
	assert_int_equal(text_utf8_char("\xf0\x9f\x98\x80", 4), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_names_every_key),
		cmocka_unit_test(statistics_define_every_column),
		cmocka_unit_test(docs_table_is_format_h),
		cmocka_unit_test(uneven_levels_list_sizes),
		cmocka_unit_test(sizes_are_run_length_encoded),
		cmocka_unit_test(rows_have_the_columns_in_order),
		cmocka_unit_test(column_names_agree_with_header),
		cmocka_unit_test(env_that_shapes_the_measurement),
		cmocka_unit_test(done_line),
		cmocka_unit_test(text_is_valid_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
