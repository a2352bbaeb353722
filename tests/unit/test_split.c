/* Unit tests: --split's specs and counts (split.c), uneven blocks' fill and check (verify.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buffers/verify.h"
#include "plan/split.h"

static struct split parsed(const char *spec)
{
	struct split s;
	char err[256] = "";

	if (split_parse(&s, spec, err, sizeof(err)) != 0)
		fail_msg("'%s' refused: %s", spec, err);
	return s;
}

static void specs_that_parse(void **state)
{
	struct split s;
	char buf[128];
	(void)state;

	s = parsed("uniform");
	assert_int_equal(s.kind, SPLIT_UNIFORM);
	assert_false(split_uneven(&s));
	s = parsed("spread:0.25");
	assert_int_equal(s.kind, SPLIT_SPREAD);
	assert_true(s.f == 0.25);
	s = parsed("zipf:1.2");
	assert_int_equal(s.kind, SPLIT_ZIPF);
	assert_int_equal(s.seed, SPLIT_DEFAULT_SEED);
	split_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "zipf:1.2:1");   /* the default seed recorded */
	s = parsed("zipf:0:7");
	assert_int_equal(s.seed, 7);
	split_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "zipf:0:7");
	s = parsed("lognormal:1.5");
	assert_int_equal(s.kind, SPLIT_LOGNORMAL);
	assert_true(s.f == 1.5);
	split_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "lognormal:1.5:1");
	s = parsed("lognormal:0:9");
	split_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "lognormal:0:9");
	s = parsed("hot:2:0.75");
	assert_int_equal(s.kind, SPLIT_HOT);
	assert_int_equal(s.k, 2);
	s = parsed("idle:0.5");
	assert_int_equal(s.kind, SPLIT_IDLE);
	s = parsed("rotate:1:1");
	assert_true(split_varies(&s));
	s = parsed("matrix:/some/where.txt");
	assert_string_equal(split_file(&s), "/some/where.txt");
	assert_false(split_varies(&s));
}

static void specs_that_do_not(void **state)
{
	static const struct { const char *spec, *says; } bad[] = {
		{ "", "invalid split '': allowed are uniform, spread:F" },
		{ "zip:1", "invalid split 'zip:1': allowed are uniform" },
		{ "uniform:1", "invalid split 'uniform:1'" },
		{ "spread", "spread takes a fraction F, 0 <= F <= 1" },
		{ "spread:1.5", "invalid split 'spread:1.5': spread takes a fraction F" },
		{ "spread:-0.1", "spread takes" },
		{ "spread:nan", "spread takes" },
		{ "spread:0.5x", "spread takes" },
		{ "idle:1", "idle takes a fraction F, 0 <= F <= 1 and F < 1" },
		{ "zipf:", "zipf takes an exponent S, 0 <= S <= 16" },
		{ "zipf:17", "zipf takes an exponent" },
		{ "zipf:1:-3", "and an optional seed, a non-negative integer" },
		{ "zipf:1:2:3", "zipf takes" },
		{ "nodes:1.5", "nodes takes a fraction F, 0 <= F <= 1 (e.g. nodes:0.5)" },
		{ "nodes", "nodes takes a fraction F" },
		{ "lognormal", "lognormal takes the spread SIGMA of the log of each receiver's load, "
		  "0 <= SIGMA <= 8, and an optional seed" },
		{ "lognormal:9", "lognormal takes the spread SIGMA" },
		{ "lognormal:-1", "lognormal takes" },
		{ "lognormal:1:x", "lognormal takes" },
		{ "hot:0:0.5", "hot takes K receivers (a positive integer)" },
		{ "hot:1", "hot takes K receivers" },
		{ "hot:1:2", "hot takes" },
		{ "rotate:x:0.5", "rotate takes K receivers" },
		{ "matrix:", "matrix takes a file (matrix:FILE)" },
		{ "matrix:my file", "its name without spaces" },
	};
	char err[256];
	struct split s;
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (split_parse(&s, bad[i].spec, err, sizeof(err)) == 0)
			fail_msg("'%s' accepted", bad[i].spec);
		if (!strstr(err, bad[i].says))
			fail_msg("'%s': '%s' does not say '%s'", bad[i].spec, err, bad[i].says);
	}
}

/* Every count non-negative, every row and the whole matrix adding up to g x c (per row) and g x g x c. */
static void check_sums(const struct split *s, long g, long c, long color, long iter, int rows)
{
	struct split_plan p;
	long all = 0;

	assert_int_equal(split_plan_init(&p, s, g, c, color, iter), 0);
	for (long i = 0; i < g; i++) {
		long row = 0;
		for (long j = 0; j < g; j++) {
			long n = split_count(&p, i, j);
			if (n < 0)
				fail_msg("%s g %ld c %ld: count(%ld, %ld) = %ld", s->spec, g, c, i, j, n);
			row += n;
		}
		if (rows && row != g * c)
			fail_msg("%s g %ld c %ld: row %ld adds up to %ld, not %ld", s->spec, g, c, i, row,
				 g * c);
		all += row;
	}
	if (all != g * g * c)
		fail_msg("%s g %ld c %ld: %ld in all, not %ld", s->spec, g, c, all, g * g * c);
	split_plan_free(&p);
}

static void counts_add_up(void **state)
{
	static const char *specs[] = { "uniform", "spread:0", "spread:0.3", "spread:1", "zipf:0",
				       "zipf:1.2", "zipf:3:9", "hot:1:0.5", "hot:3:0.9", "hot:2:0",
				       "idle:0.5", "idle:0.99", "rotate:1:0.8", "rotate:3:0.5",
				       "lognormal:0", "lognormal:1", "lognormal:3:5", "lognormal:8",
				       "nodes:0", "nodes:0.5", "nodes:1" };
	static const long gs[] = { 1, 2, 3, 5, 8, 13, 64 }, cs[] = { 1, 2, 7, 1024 };
	(void)state;

	for (size_t k = 0; k < sizeof(specs) / sizeof(specs[0]); k++) {
		struct split s = parsed(specs[k]);
		for (size_t a = 0; a < sizeof(gs) / sizeof(gs[0]); a++)
			for (size_t b = 0; b < sizeof(cs) / sizeof(cs[0]); b++)
				for (long iter = 0; iter < 3; iter++)
					check_sums(&s, gs[a], cs[b], 1, iter, 1);
	}
}

static void same_everywhere(void **state)
{
	struct split z = parsed("zipf:1.1:5"), z2 = parsed("zipf:1.1:6");
	struct split_plan a, b, other, seed;
	int differ_color = 0, differ_seed = 0;
	(void)state;

	/* every task computes the same counts from (spec, seed, colour, g, c) */
	assert_int_equal(split_plan_init(&a, &z, 16, 100, 3, 0), 0);
	assert_int_equal(split_plan_init(&b, &z, 16, 100, 3, 0), 0);
	assert_int_equal(split_plan_init(&other, &z, 16, 100, 4, 0), 0);
	assert_int_equal(split_plan_init(&seed, &z2, 16, 100, 3, 0), 0);
	for (long i = 0; i < 16; i++)
		for (long j = 0; j < 16; j++) {
			assert_int_equal(split_count(&a, i, j), split_count(&b, i, j));
			differ_color += split_count(&a, i, j) != split_count(&other, i, j);
			differ_seed += split_count(&a, i, j) != split_count(&seed, i, j);
		}
	assert_true(differ_color > 0);   /* another communicator, other permutations */
	assert_true(differ_seed > 0);
	split_plan_free(&a);
	split_plan_free(&b);
	split_plan_free(&other);
	split_plan_free(&seed);
}

static void shapes(void **state)
{
	struct split_plan p;
	struct split s;
	long g = 64, c = 4096, top = 0, bottom = 1L << 62;
	(void)state;

	/* spread 0 is uniform */
	s = parsed("spread:0");
	assert_int_equal(split_plan_init(&p, &s, g, c, 0, 0), 0);
	for (long i = 0; i < g; i++)
		for (long j = 0; j < g; j++)
			assert_int_equal(split_count(&p, i, j), c);
	split_plan_free(&p);
	/* spread 1: nothing to itself, the most to the peer before it, every column g x c */
	s = parsed("spread:1");
	assert_int_equal(split_plan_init(&p, &s, g, c, 0, 0), 0);
	for (long i = 0; i < g; i++) {
		long col = 0;
		assert_int_equal(split_count(&p, i, i), 0);
		assert_true(split_count(&p, i, (i + g - 1) % g) > split_count(&p, i, (i + 1) % g));
		for (long k = 0; k < g; k++)
			col += split_count(&p, k, i);
		assert_int_equal(col, g * c);
	}
	split_plan_free(&p);
	/* zipf 1: the most popular peer gets g^S times the least's, each sender its own order */
	s = parsed("zipf:1");
	assert_int_equal(split_plan_init(&p, &s, g, c, 0, 0), 0);
	for (long j = 0; j < g; j++) {
		long n = split_count(&p, 0, j);
		top = n > top ? n : top;
		bottom = n < bottom ? n : bottom;
	}
	assert_true(fabs((double)top / (double)bottom / (double)g - 1) < 0.01);
	{
		int same = 1;
		for (long j = 0; j < g; j++)
			same &= split_count(&p, 0, j) == split_count(&p, 1, j);
		assert_false(same);
	}
	split_plan_free(&p);
}

/* hot, idle and rotate: where the load goes. */
static void hot_idle_rotate(void **state)
{
	struct split_plan p;
	struct split s;
	long g = 64, c = 4096;
	(void)state;

	/* hot 2 0.5: receivers 0 and 1 get half of everything */
	s = parsed("hot:2:0.5");
	assert_int_equal(split_plan_init(&p, &s, g, c, 0, 0), 0);
	{
		long hot = 0;
		for (long i = 0; i < g; i++)
			hot += split_count(&p, i, 0) + split_count(&p, i, 1);
		assert_int_equal(hot, g * g * c / 2);
	}
	split_plan_free(&p);
	/* idle 0.25: the last 16 receivers get nothing */
	s = parsed("idle:0.25");
	assert_int_equal(split_plan_init(&p, &s, g, 3072, 0, 0), 0);
	for (long i = 0; i < g; i++) {
		assert_int_equal(split_count(&p, i, 47), 3072 * 64 / 48);
		assert_int_equal(split_count(&p, i, 48), 0);
		assert_int_equal(split_count(&p, i, 63), 0);
	}
	split_plan_free(&p);
	/* idle never idles every receiver */
	s = parsed("idle:0.9");
	check_sums(&s, 2, 1, 0, 0, 1);
	/* rotate 1 0.5: the hot receiver is the call's index mod g */
	s = parsed("rotate:1:0.5");
	for (long it = 0; it < 3; it++) {
		assert_int_equal(split_plan_init(&p, &s, 4, 100, 0, it), 0);
		assert_int_equal(split_count(&p, 2, it % 4), 200);
		assert_int_equal(split_count(&p, 2, (it + 1) % 4), 66);   /* 200/3, rounded */
		split_plan_free(&p);
	}
}

/* lognormal: each receiver's load the same from every sender, their logs spread by SIGMA. */
static void lognormal(void **state)
{
	struct split s = parsed("lognormal:1"), z = parsed("lognormal:0");
	struct split_plan p, q, other;
	long g = 1024, c = 1L << 20, differ = 0;
	double sum = 0, sum2 = 0;
	(void)state;

	assert_int_equal(split_plan_init(&p, &s, g, c, 0, 0), 0);
	assert_int_equal(split_plan_init(&q, &z, g, c, 0, 0), 0);
	assert_int_equal(split_plan_init(&other, &s, g, c, 1, 0), 0);
	for (long j = 0; j < g; j++) {
		double l = log((double)split_count(&p, 0, j));
		assert_int_equal(split_count(&p, 0, j), split_count(&p, g - 1, j));
		assert_int_equal(split_count(&q, 3, j), c);   /* SIGMA 0: uniform */
		differ += split_count(&p, 0, j) != split_count(&other, 0, j);
		sum += l;
		sum2 += l * l;
	}
	/* the logs' standard deviation is SIGMA, within the sample's error (about 2%) */
	assert_true(fabs(sqrt(sum2 / (double)g - (sum / (double)g) * (sum / (double)g)) - 1) < 0.1);
	assert_true(differ > g / 2);   /* another communicator, other loads */
	split_plan_free(&p);
	split_plan_free(&q);
	split_plan_free(&other);
}

/* nodes:F: each node the same share, its first task F of it; F = 1 / tasks per node is uniform. */
static void nodes(void **state)
{
	struct split s = parsed("nodes:0.7"), even = parsed("nodes:0.25");
	static const int node[8] = { 3, 3, 3, 3, 9, 9, 9, 9 }, mixed[5] = { 1, 2, 1, 2, 2 };
	struct split_plan p;
	long c = 1000;
	(void)state;

	assert_int_equal(split_plan_init(&p, &s, 8, c, 0, 0), 0);
	assert_int_equal(split_plan_nodes(&p, node), 0);
	for (long i = 0; i < 8; i++) {
		long first = split_count(&p, i, 0), other = split_count(&p, i, 1);
		assert_true(labs(first - 8 * c * 35 / 100) <= 1);   /* half of it, of that 0.7 */
		assert_true(labs(other - 8 * c * 5 / 100) <= 1);    /* the other three share 0.3 */
		assert_true(labs(split_count(&p, i, 4) - first) <= 1);
		/* balanced per node (within the rounding's one long) */
		assert_true(labs(split_count(&p, i, 0) + split_count(&p, i, 1) + split_count(&p, i, 2) +
				 split_count(&p, i, 3) - 4 * c) <= 1);
	}
	split_plan_free(&p);
	assert_int_equal(split_plan_init(&p, &even, 8, c, 0, 0), 0);
	assert_int_equal(split_plan_nodes(&p, node), 0);
	for (long j = 0; j < 8; j++)
		assert_int_equal(split_count(&p, 5, j), c);
	split_plan_free(&p);
	/* nodes of 2 and 3 tasks, interleaved: node 1 (ranks 0, 2) and node 2 (1, 3, 4) */
	assert_int_equal(split_plan_init(&p, &s, 5, c, 0, 0), 0);
	assert_int_equal(split_plan_nodes(&p, mixed), 0);
	assert_true(labs(split_count(&p, 0, 0) - 5 * c * 35 / 100) <= 1);
	assert_true(labs(split_count(&p, 0, 2) - 5 * c * 15 / 100) <= 1);
	assert_true(labs(split_count(&p, 0, 1) - 5 * c * 35 / 100) <= 1);
	assert_true(labs(split_count(&p, 0, 4) - 5 * c * 75 / 1000) <= 1);
	split_plan_free(&p);
}

/* trace:FILE: matrices one per call, cycling; a bad one named with its line. */
static void traces(void **state)
{
	static const struct { const char *text, *says; } bad[] = {
		{ "", "trace file 't.txt' has no matrices" },
		{ "# nothing\n", "trace file 't.txt', matrix 1 (from line 1) has no numbers" },
		{ "1 2\n3 4\n\n1 2 3\n4 5 6\n7 8 9\n",
		  "trace file 't.txt', matrix 2 (from line 4) is 3 x 3, the first 2 x 2" },
		{ "1 2\n3 4\n\n\n1 2\n3\n", "trace file 't.txt', matrix 2 (from line 5): line 6 has "
		  "1 numbers, the first row 2" },
		{ "1 2\n3 4\n\n1 -1\n1 1\n", "matrix 2 (from line 4): the weight -1 on line 4 is negative" },
	};
	struct split s = parsed("trace:t.txt");
	struct split_plan p;
	char err[256];
	(void)state;

	assert_true(split_has_file(&s));
	assert_true(split_varies(&s));   /* until loaded: a trace may have many */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		double *cum = NULL;
		long n, k;
		if (split_trace_parse(bad[i].text, "t.txt", &n, &k, &cum, err, sizeof(err)) == 0 ||
		    !strstr(err, bad[i].says))
			fail_msg("trace '%s': '%s' does not say '%s'", bad[i].text, err, bad[i].says);
	}
	/* two matrices, comments within and between: call t takes matrix t mod 2 */
	assert_int_equal(split_trace_parse("# call 0\n1 0\n0 1\n\n  \n# call 1\n0 1\n1 0 # swapped\n",
					   "t.txt", &s.n, &s.nmat, &s.cum, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.nmat, 2);
	assert_true(split_varies(&s));
	for (long it = 0; it < 4; it++) {
		assert_int_equal(split_plan_init(&p, &s, 2, 10, 0, it), 0);
		assert_int_equal(split_count(&p, 0, 0), it % 2 ? 0 : 20);
		assert_int_equal(split_count(&p, 0, 1), it % 2 ? 20 : 0);
		assert_int_equal(split_count(&p, 1, 0), it % 2 ? 20 : 0);
		split_plan_free(&p);
	}
	split_free(&s);
}

static void layout(void **state)
{
	struct split s = parsed("hot:1:0.5");
	struct split_plan p;
	struct split_layout v;
	(void)state;

	assert_int_equal(split_plan_init(&p, &s, 4, 10, 0, 0), 0);
	assert_int_equal(split_layout_alloc(&v, 4), 0);
	split_layout_fill(&v, &p, 0);
	assert_int_equal(v.scounts[0], 20);
	assert_int_equal(v.sdispls[1], 20);
	assert_int_equal(v.stotal, 40);
	assert_int_equal(v.rtotal, 80);   /* rank 0 is hot: half of 160 */
	assert_int_equal(v.rdispls[3], 60);
	assert_int_equal(split_layout_max(&v), 80);
	split_layout_free(&v);
	split_plan_free(&p);
}

static const char *matrix_refused(const char *text)
{
	static char err[256];
	double *cum = NULL;
	long n = 0;

	err[0] = '\0';
	if (split_matrix_parse(text, "m.txt", &n, &cum, err, sizeof(err)) == 0) {
		free(cum);
		return NULL;
	}
	return err;
}

static void matrices(void **state)
{
	static const struct { const char *text, *says; } bad[] = {
		{ "", "matrix file 'm.txt' has no numbers" },
		{ "# only a comment\n\n", "has no numbers" },
		{ "1 2\n3\n", "line 2 has 1 numbers, the first row 2: a matrix must be N x N" },
		{ "1 2\n3 4\n5 6\n", "more than 2 rows of 2 numbers (line 3)" },
		{ "1 2 3\n4 5 6\n", "has 2 rows of 3 numbers: a matrix must be N x N" },
		{ "1 -2\n3 4\n", "the weight -2 on line 1 is negative" },
		{ "1 x\n3 4\n", "'x' on line 1 is not a number" },
		{ "1 2\n3 4five\n", "'4five' on line 2 is not a number" },
		{ "0 0\n0 0\n", "every weight is 0" },
		{ "1 inf\n1 1\n", "'inf' on line 1 is not a number" },
	};
	struct split s = parsed("matrix:m.txt");
	struct split_plan p;
	double *cum = NULL;
	long n = 0;
	char err[256];
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *e = matrix_refused(bad[i].text);
		if (!e || !strstr(e, bad[i].says))
			fail_msg("matrix '%s': '%s' does not say '%s'", bad[i].text, e ? e : "(accepted)",
				 bad[i].says);
	}
	/* comments, blank lines, CRLF; counts scaled to the mean count, exactly */
	assert_int_equal(split_matrix_parse("# 2 x 2\n\n 1 3 # first\r\n0\t4\n", "m.txt", &n, &cum,
					    err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	s.n = n;
	s.cum = cum;
	assert_true(split_fits(&s, 2));
	assert_false(split_fits(&s, 4));
	assert_int_equal(split_plan_init(&p, &s, 2, 8, 0, 0), 0);
	assert_int_equal(split_count(&p, 0, 0), 4);   /* 32 longs in all: 1/8, 3/8, 0, 4/8 */
	assert_int_equal(split_count(&p, 0, 1), 12);
	assert_int_equal(split_count(&p, 1, 0), 0);
	assert_int_equal(split_count(&p, 1, 1), 16);
	split_plan_free(&p);
	check_sums(&s, 2, 3, 0, 0, 0);
	split_free(&s);
}

static void uneven_check(void **state)
{
	long peers[3] = { 2, 6, 10 }, count = 5, me = 9;
	struct verify_peers pp = { 2, 4 };   /* peers[] */
	long scounts[3] = { 0, 7, 3 }, sdispls[3] = { 0, 0, 7 };
	long recv[12], send[10];
	struct verify_blocks blk = { scounts, sdispls, 10 };
	struct mismatch m;
	(void)state;

	/* what each peer sends me, packed: 0 from 4, 7 from 9, 3 from 2; then the guard */
	verify_poison(recv, 12);
	for (int k = 0; k < 3; k++)
		for (long j = 0; j < scounts[k]; j++)
			recv[sdispls[k] + j] = verify_value(peers[k], me, j, count, VERIFY_REUSED);
	assert_int_equal(verify_check(recv, pp, 3, count, me, VERIFY_REUSED, 0, &m, &blk), 0);
	/* a wrong element of a skewed block */
	recv[8] ^= 4;
	assert_int_equal(verify_check(recv, pp, 3, count, me, VERIFY_REUSED, 0, &m, &blk), 1);
	assert_int_equal(m.peer, 10);
	assert_int_equal(m.element, 1);
	recv[8] ^= 4;
	/* one element too many lands past the last block: the guard */
	recv[10] = 1;
	assert_int_equal(verify_check(recv, pp, 3, count, me, VERIFY_REUSED, 0, &m, &blk), 1);
	assert_int_equal(m.peer, 10);
	assert_int_equal(m.element, 3);
	assert_true(m.expected == VERIFY_POISON);
	/* the fill writes each block where its displacement says */
	verify_fill(send, pp, 3, count, me, 2, &blk);
	assert_true(send[0] == verify_value(me, 6, 0, count, 2));
	assert_true(send[7] == verify_value(me, 10, 0, count, 2));
}

/* A file's weights are bounded per task, and the bound names the file, N and the matrices. */
static void weights_are_bounded(void **state)
{
	struct split s;
	char err[512];
	(void)state;
	assert_int_equal(split_parse(&s, "trace:big.txt", err, sizeof(err)), 0);
	s.n = 4096;
	s.nmat = 3;
	assert_true(split_weights(&s) == 4096.0 * 4096 * 3 * 8);
	assert_int_equal(split_weights_check(&s, err, sizeof(err)), -1);
	assert_string_equal(err, "--split=trace:big.txt: 3 matrices of 4096 x 4096 weights hold 384 "
			    "MiB in every task: at most 256 MiB (fewer calls, or a smaller N)");
	s.nmat = 2;
	assert_int_equal(split_weights_check(&s, err, sizeof(err)), 0);
	assert_int_equal(split_parse(&s, "zipf:1.2", err, sizeof(err)), 0);
	assert_true(split_weights(&s) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(weights_are_bounded),
		cmocka_unit_test(specs_that_parse),
		cmocka_unit_test(specs_that_do_not),
		cmocka_unit_test(counts_add_up),
		cmocka_unit_test(same_everywhere),
		cmocka_unit_test(shapes),
		cmocka_unit_test(hot_idle_rotate),
		cmocka_unit_test(lognormal),
		cmocka_unit_test(nodes),
		cmocka_unit_test(traces),
		cmocka_unit_test(layout),
		cmocka_unit_test(matrices),
		cmocka_unit_test(uneven_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
