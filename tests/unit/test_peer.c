/* Unit tests: other tools' all-to-all outputs read strictly (collect/read/peer.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "read/peer.h"

static char err[512];

static int parse(struct peer *p, const char *text, enum peer_format want)
{
	err[0] = '\0';
	return peer_parse(p, text, "f", want, err, sizeof(err));
}

static void osu_rows_and_time_column(void **state)
{
	struct peer p;

	(void)state;
	assert_int_equal(parse(&p, "# OSU MPI All-to-All Personalized Exchange Latency Test v7.4\n"
				   "# Size       Avg Latency(us)\n1   2.5\n\n4096  100.0\n", PEER_NONE), 0);
	assert_int_equal(p.format, PEER_OSU);
	assert_string_equal(p.timecol, "Avg Latency(us)");
	assert_int_equal(p.nrows, 2);
	assert_true(p.row[1].bytes == 4096 && p.row[1].tasks == 0 && p.row[1].line == 5);
	assert_true(p.row[1].t > 99.99e-6 && p.row[1].t < 100.01e-6);
	peer_free(&p);
	/* -f: the slowest task's time, Max Latency */
	assert_int_equal(parse(&p, "# OSU MPI-CUDA All-to-All Personalized Exchange Latency Test v7.4\n"
				   "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n"
				   "8   1.0   0.5   3.0   1000\n", PEER_NONE), 0);
	assert_string_equal(p.timecol, "Max Latency(us)");
	assert_true(p.row[0].t > 2.99e-6 && p.row[0].t < 3.01e-6);
	peer_free(&p);
	/* validated rows pass, a failed one is refused */
	assert_int_equal(parse(&p, "# Size       Avg Latency(us)        Validation\n8  1.0  Pass\n", PEER_OSU), 0);
	peer_free(&p);
	assert_int_equal(parse(&p, "# Size       Avg Latency(us)        Validation\n8  1.0  Pass\n16  1.0  Fail\n",
			       PEER_OSU), -1);
	assert_string_equal(err, "f:3: osu_alltoall found this row's data wrong (Validation Fail): a measurement of "
				 "wrong data is not judged; row '16'");
}

static void osu_refusals(void **state)
{
	struct peer p;

	(void)state;
	assert_int_equal(parse(&p, "# OSU MPI Broadcast Latency Test v7.4\n", PEER_NONE), -1);
	assert_string_equal(err, "f:1: an OSU output of another benchmark, not osu_alltoall's: "
				 "'# OSU MPI Broadcast Latency Test v7.4'");
	assert_int_equal(parse(&p, "# OSU MPI All-to-All Personalized Exchange Latency Test\n"
				   "# Size  Avg Latency(us)\n8 1.0 2.0\n", PEER_NONE), -1);
	assert_string_equal(err, "f:3: not a row of the table above (a number a column):");
	assert_int_equal(parse(&p, "# OSU MPI All-to-All Personalized Exchange Latency Test\n"
				   "[n1:123] mca: warning\n", PEER_NONE), -1);
	assert_string_equal(err, "f:2: not a line of osu_alltoall's output (no '# Size' header above it): "
				 "'[n1:123] mca: warning'");
	assert_int_equal(parse(&p, "# Size  Avg Latency(us)\n8.5 1.0\n", PEER_OSU), -1);
	assert_string_equal(err, "f:2: a size that is not a whole number of bytes from 0 to 2^50 per peer: '8.5'");
	/* H1-16: a size past 2^50 bytes per peer, or a time of 0, is refused, not judged */
	assert_int_equal(parse(&p, "# Size  Avg Latency(us)\n1e300 1.0\n", PEER_OSU), -1);
	assert_string_equal(err, "f:2: a size that is not a whole number of bytes from 0 to 2^50 per peer: '1e300'");
	assert_int_equal(parse(&p, "# Size  Avg Latency(us)\n1024 0.00\n", PEER_OSU), -1);
	assert_string_equal(err, "f:2: a time that is not a number of us above 0: '0.00'");
	assert_int_equal(parse(&p, "# Size  Avg Latency(us)\n1024 0x10\n", PEER_OSU), -1);
	assert_int_equal(parse(&p, "# OSU MPI All-to-All Personalized Exchange Latency Test\n", PEER_NONE), -1);
	assert_string_equal(err, "f: no row of osu_alltoall's all-to-all table: nothing to judge");
	assert_int_equal(parse(&p, "just text\n", PEER_NONE), -1);
	assert_non_null(strstr(err, "f: not an osu_alltoall, IMB-MPI1 or nccl-tests alltoall_perf output"));
}

static const char imb[] =
	"#    Intel(R) MPI Benchmarks 2021.7, MPI-1 part\n"
	"# Benchmarking Barrier \n"
	"# #processes = 8 \n"
	" #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
	"         1000        61.02        61.40        61.21\n"
	"# Benchmarking Alltoall \n"
	"# #processes = 4 \n"
	"# ( 4 additional processes waiting in MPI_Barrier)\n"
	"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
	"            0         1000         0.04         0.05         0.04\n"
	"      1048576           10     34780.02     35100.44     34950.71\n"
	"# Benchmarking Alltoallv \n"
	"# #processes = 8 \n"
	"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
	"      1048576           10     1.0     2.0     1.5\n";

static void imb_alltoall_tables_only(void **state)
{
	struct peer p;
	char bad[sizeof(imb) + 64];

	(void)state;
	assert_int_equal(parse(&p, imb, PEER_NONE), 0);
	assert_int_equal(p.format, PEER_IMB);
	assert_string_equal(p.title, "Intel(R) MPI Benchmarks 2021.7, MPI-1 part");
	assert_string_equal(p.timecol, "t_max[usec]");
	assert_int_equal(p.nrows, 2);   /* Alltoall's 2 rows; Barrier's and Alltoallv's left out */
	assert_true(p.row[1].bytes == 1048576 && p.row[1].tasks == 4 && p.row[1].line == 11);
	assert_true(p.row[1].t > 0.0351 && p.row[1].t < 0.03511);
	peer_free(&p);
	/* a line of another program among the tables */
	snprintf(bad, sizeof(bad), "%.*sWARNING: something\n%s", (int)(strstr(imb, "      1048576") - imb), imb,
		 strstr(imb, "      1048576"));
	assert_int_equal(parse(&p, bad, PEER_NONE), -1);
	assert_string_equal(err, "f:11: not a row of the table above (a number a column):");
	/* a header of more words than any table has (found by fuzz_parse): said, never a silent -1 */
	char many[2048] = "# Benchmarking Alltoall\n# #processes = 2\n";
	for (int i = 0; i < 100; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), " #c%d", i);
	strcat(many, "\n");
	assert_int_equal(parse(&p, many, PEER_IMB), -1);
	assert_string_equal(err, "f:3: a table's header of too many columns:");
}

static const char nccl[] =
	"# nccl-tests version 2.19.6 nccl-headers=22803 nccl-library=22803\n"
	"# Collective test starting: alltoall_perf\n"
	"#  Rank  0 Group  0 Pid   4100 on         n1 device  0 [0000:1b:00] NVIDIA H100\n"
	"#  Rank  1 Group  0 Pid   4101 on         n2 device  0 [0000:1b:00] NVIDIA H100\n"
	"#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong \n"
	"#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         \n"
	"     1048576        262144     float    none      -1  17800.7    0.06    0.05       0  17978.7    0.06    0.05     N/A\n";

static void nccl_hosts_and_per_peer_bytes(void **state)
{
	struct peer p;
	char text[sizeof(nccl) + 64];

	(void)state;
	assert_int_equal(parse(&p, nccl, PEER_NONE), 0);
	assert_int_equal(p.format, PEER_NCCL);
	assert_int_equal(p.nhosts, 2);
	assert_string_equal(p.host[1], "n2");
	assert_string_equal(p.timecol, "out-of-place time (us)");
	assert_true(p.row[0].bytes == 524288 && p.row[0].tasks == 2);   /* each rank's buffer over 2 peers */
	peer_free(&p);
	/* wrong data is not judged */
	snprintf(text, sizeof(text), "%s", nccl);
	memcpy(strstr(text, "       0  17978.7"), "       3", 8);
	assert_int_equal(parse(&p, text, PEER_NONE), -1);
	assert_string_equal(err, "f:7: alltoall_perf found this row's data wrong (#wrong 3): a measurement of "
				 "wrong data is not judged; row '1048576'");
	/* another collective */
	snprintf(text, sizeof(text), "%s", nccl);
	memcpy(strstr(text, "alltoall_perf"), "sendrecv_perf", 13);
	assert_int_equal(parse(&p, text, PEER_NONE), -1);
	assert_string_equal(err, "f:2: a nccl-tests output of another collective, not alltoall_perf's: "
				 "'sendrecv_perf'");
	/* no rank lines: the hosts unknown */
	assert_int_equal(parse(&p, strstr(nccl, "#       size"), PEER_NCCL), -1);
	assert_string_equal(err, "f:3: no '#  Rank' lines above the table: which host each rank ran on is not known");
	assert_int_equal(peer_format_named("nccl-tests"), PEER_NCCL);
	assert_int_equal(peer_format_named("osu_alltoall"), PEER_NONE);
}

/* The lines of nccl's text from `from` on, with its first `what` replaced by `with` (NULL: none), into out. */
static const char *nccl_edit(char *out, size_t len, const char *from, const char *what, const char *with)
{
	const char *at = what ? strstr(from, what) : NULL;

	snprintf(out, len, "%.*s%s%s", at ? (int)(at - from) : (int)strlen(from), from, at ? with : "",
		 at ? at + strlen(what) : "");
	return out;
}

/* Host names of 63 bytes (a fabric file's longest) kept whole; a longer one is refused, never cut into another. */
static void nccl_long_host_names_whole(void **state)
{
	char text[4096], h1[65], h2[65], line[128];
	const char *rank1 = strstr(nccl, "#  Rank  1");
	struct peer p;

	(void)state;
	memset(h1, 'a', 64);
	memset(h2, 'a', 64);
	h1[63] = h2[63] = h1[64] = h2[64] = '\0';
	h2[62] = 'b';
	snprintf(text, sizeof(text), "%.*s#  Rank  0 Group  0 Pid   4100 on %s device  0 [0000:1b:00] NVIDIA H100\n"
		 "#  Rank  1 Group  0 Pid   4101 on %s device  0 [0000:1b:00] NVIDIA H100\n%s",
		 (int)(strstr(nccl, "#  Rank  0") - nccl), nccl, h1, h2, strstr(rank1, "\n#") + 1);
	assert_int_equal(parse(&p, text, PEER_NONE), 0);
	assert_int_equal(p.nhosts, 2);
	assert_string_equal(p.host[0], h1);
	assert_string_equal(p.host[1], h2);
	peer_free(&p);
	h1[63] = 'c';   /* 64 bytes */
	snprintf(line, sizeof(line), " %s device", h1);
	assert_int_equal(parse(&p, nccl_edit(text, sizeof(text), nccl, "         n2 device", line), PEER_NONE), -1);
	assert_true(strncmp(err, "f:4: a rank's line that is not '#  Rank R Group G Pid P on HOST device D' (HOST of at "
				 "most 63 bytes, as a fabric file's): '#  Rank  1 Group", 113) == 0);
}

/* Another collective's output, told by its rows where no line names it (an older nccl-tests): refused, named. */
static void nccl_another_collective_by_its_rows(void **state)
{
	char text[4096], body[4096];
	struct peer p;

	(void)state;
	nccl_edit(body, sizeof(body), nccl, "# Collective test starting: alltoall_perf\n", "");
	assert_int_equal(parse(&p, nccl_edit(text, sizeof(text), body, "none      -1", " sum      -1"), PEER_NCCL), -1);
	assert_string_equal(err, "f:6: a row of a reduction (all_reduce_perf, reduce_scatter_perf or reduce_perf), not "
				 "alltoall_perf's: its redop 'sum'");
	assert_int_equal(parse(&p, nccl_edit(text, sizeof(text), body, "none      -1", "none       0"), PEER_NONE), -1);
	assert_string_equal(err, "f:6: a row of a rooted collective (broadcast_perf, reduce_perf, gather_perf or "
				 "scatter_perf), not alltoall_perf's: its root '0'");
	assert_int_equal(parse(&p, body, PEER_NONE), 0);
	peer_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(osu_rows_and_time_column),
		cmocka_unit_test(osu_refusals),
		cmocka_unit_test(imb_alltoall_tables_only),
		cmocka_unit_test(nccl_hosts_and_per_peer_bytes),
		cmocka_unit_test(nccl_long_host_names_whole),
		cmocka_unit_test(nccl_another_collective_by_its_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
