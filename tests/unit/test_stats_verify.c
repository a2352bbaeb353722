/* Unit tests: statistics (stats.c, hist.c), data verification (verify.c), strbuf. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buffers/verify.h"
#include "plan/hist.h"
#include "plan/stats.h"
#include "strbuf.h"

static void stats_over_samples(void **state)
{
	struct stats s;
	(void)state;
	stats_init(&s);
	stats_add(&s, 1.0, 2.0);   /* 2 GiB/s */
	stats_add(&s, 4.0, 2.0);   /* 0.5 */
	stats_add(&s, 2.0, 2.0);   /* 1 */
	assert_true(s.tmin == 1.0);
	assert_true(s.tmax == 4.0);
	assert_true(fabs(stats_tavg(&s) - 7.0 / 3) < 1e-12);
	assert_true(s.bwmin == 0.5);
	assert_true(s.bwmax == 2.0);
	/* bytes over time, not the mean of the rates (3.5 / 3) */
	assert_true(fabs(stats_bwavg(&s) - 6.0 / 7.0) < 1e-12);
	assert_true(fabs(stats_bwavg(&s) - 2.0 / stats_tavg(&s)) < 1e-12);
}

/* The median's interval by order statistics: the ranks binomial(n, 1/2) gives. */
static void median_ranks_are_binomial(void **state)
{
	double lo, hi;
	(void)state;
	stats_median_ranks(5, &lo, &hi);   /* too few for 95%: the extremes */
	assert_true(lo == 1 && hi == 5);
	stats_median_ranks(6, &lo, &hi);   /* P(B <= 0) = 1/64 <= 0.025 < P(B <= 1) */
	assert_true(lo == 1 && hi == 6);
	stats_median_ranks(20, &lo, &hi);  /* P(B <= 5) = 0.0207, P(B <= 6) = 0.0577 */
	assert_true(lo == 6 && hi == 15);
	stats_median_ranks(100, &lo, &hi); /* the textbook's X(40), X(61) */
	assert_true(lo == 40 && hi == 61);
	stats_median_ranks(1e6, &lo, &hi); /* normal approximation: n/2 -+ 0.98 sqrt(n) */
	assert_true(lo == 499020 && hi == 500981);
}

static double uniform01(unsigned long long *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(*x >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * Coverage: of 10,000 draws of n samples (lognormal, median 1e-3 s), the
 * interval from the histogram holds the true median in 93-97% of them, at
 * small, exact and approximated n.
 */
static void median_interval_covers_95(void **state)
{
	const double ns[] = { 20, 100, 1500 };
	unsigned long long x = 42;
	(void)state;
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		int held = 0, draws = 10000;
		for (int d = 0; d < draws; d++) {
			struct stats s;
			stats_init(&s);
			for (int i = 0; i < ns[k]; i++) {
				/* Box-Muller: a normal of sigma 0.5 in the log */
				double z = sqrt(-2 * log(uniform01(&x))) * cos(2 * M_PI * uniform01(&x));
				stats_add(&s, 1e-3 * exp(0.5 * z), 1.0);
			}
			held += stats_tmed_lo(&s) <= 1e-3 && 1e-3 <= stats_tmed_hi(&s);
		}
		if (held < 0.93 * draws || held > 0.97 * draws)
			fail_msg("n = %g: the interval held the median in %d of %d draws", ns[k], held,
				 draws);
	}
}

/* Uneven communicators: tasks move different bytes; bwavg is still sum / sum. */
static void bwavg_of_uneven_tasks(void **state)
{
	struct stats s;
	(void)state;
	stats_init(&s);
	stats_add(&s, 1.0, 3.0);   /* a task of a communicator of 3 */
	stats_add(&s, 0.5, 1.0);   /* a task left alone */
	assert_true(fabs(stats_bwavg(&s) - 4.0 / 1.5) < 1e-12);
	assert_true(s.bwmin == 2.0 && s.bwmax == 3.0);
}

static void busbw_as_nccl_tests(void **state)
{
	(void)state;
	/* 1 Mi longs per peer, 8 ranks, 1 ms: algbw = 2^20 x 8 x 8 B / 1e-3 s = 67.108864 GB/s */
	assert_true(fabs(stats_busbw(1L << 20, 8, 1e-3) - 67.108864 * 7 / 8) < 1e-9);
	assert_true(stats_busbw(1000, 1, 1e-6) == 0);  /* alone: nothing crosses a bus */
	assert_true(fabs(stats_busbw(1, 2, 1e-9) - 8.0) < 1e-9);
}

/* The exact nearest-rank quantile of n sorted samples. */
static double exact_quantile(double *v, long n, double p)
{
	long k = (long)ceil(p * (double)n - 1e-9);
	return v[(k < 1 ? 1 : k) - 1];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Adds n samples, then checks the median and the 99th percentile against exact ones. */
static void check_quantiles(double *v, long n)
{
	struct stats s;
	const double ps[] = { 0.5, 0.99, 0.01, 0.9, 1.0 };

	stats_init(&s);
	for (long i = 0; i < n; i++)
		stats_add(&s, v[i], 1.0);
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double want = exact_quantile(v, n, ps[i]);
		double got = hist_quantile(s.hist, s.n, ps[i], s.tmin, s.tmax);
		if (fabs(got - want) > HIST_REL_ERROR * want * (1 + 1e-12))
			fail_msg("n %ld p %g: %.9g, exact %.9g (%.3f%%)", n, ps[i], got, want,
				 100 * fabs(got - want) / want);
	}
	assert_true(fabs(stats_tmed(&s) - exact_quantile(v, n, 0.5)) <=
		    HIST_REL_ERROR * exact_quantile(v, n, 0.5) * (1 + 1e-12));
	assert_true(fabs(stats_tp99(&s) - exact_quantile(v, n, 0.99)) <=
		    HIST_REL_ERROR * exact_quantile(v, n, 0.99) * (1 + 1e-12));
}

static void percentiles_within_the_bound(void **state)
{
	static double v[20000];
	unsigned long long x = 42;
	(void)state;
	assert_true(fabs(HIST_REL_ERROR - (exp2(1.0 / 64) - 1)) < 1e-15);
	assert_true(HIST_REL_ERROR < 0.011);
	/* random: log-uniform over 1 ns .. 10 s, many sizes of sample */
	for (long n = 1; n <= 20000; n = n * 3 + 1) {
		for (long i = 0; i < n; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			v[i] = 1e-9 * pow(1e10, (double)(x >> 11) / 9007199254740992.0);
		}
		check_quantiles(v, n);
	}
}

static void percentiles_of_adversarial_samples(void **state)
{
	static double v[4096];
	(void)state;
	/* all equal: exact, clamped to tmin = tmax */
	for (int i = 0; i < 100; i++)
		v[i] = 3.7e-6;
	check_quantiles(v, 100);
	/* on bin edges */
	for (int i = 0; i < 512; i++)
		v[i] = exp2(HIST_LOG2_MIN + 20 + i / (double)HIST_PER_OCTAVE);
	check_quantiles(v, 512);
	/* two clusters far apart, the median on the edge between them */
	for (int i = 0; i < 1000; i++)
		v[i] = i < 500 ? 1e-6 * (1 + i * 1e-4) : 2.0 * (1 + i * 1e-4);
	check_quantiles(v, 1000);
	/* one outlier in a hundred: p99 is the last of the bulk, not the outlier */
	for (int i = 0; i < 100; i++)
		v[i] = i == 37 ? 10.0 : 1e-3 + i * 1e-7;
	check_quantiles(v, 100);
	/* the range's own ends */
	v[0] = exp2(HIST_LOG2_MIN);
	v[1] = exp2(HIST_LOG2_MAX) * 0.999;
	v[2] = exp2(HIST_LOG2_MIN) * 1.5;
	check_quantiles(v, 3);
	/* times that do not fit in 2 bins: neighbours of a binade */
	for (int i = 0; i < 4096; i++)
		v[i] = nextafter(1.0, i % 2 ? 2.0 : 0.0) * (1 + (i % 7) * 1e-9);
	check_quantiles(v, 4096);
	assert_int_equal(hist_bin(0), 0);
	assert_int_equal(hist_bin(-1), 0);
	assert_int_equal(hist_bin(1e300), HIST_BINS - 1);
	assert_int_equal(hist_bin(1.0), -HIST_LOG2_MIN * HIST_PER_OCTAVE);
}

/* Outside the range (never in aller: t >= MPI_Wtick, <= --timeout): still in [tmin, tmax]. */
static void percentiles_outside_the_range(void **state)
{
	struct stats s;
	(void)state;
	stats_init(&s);
	stats_add(&s, 1e-11, 1);
	stats_add(&s, 2e-11, 1);
	assert_true(stats_tmed(&s) >= 1e-11 && stats_tmed(&s) <= 2e-11);
	stats_init(&s);
	stats_add(&s, 4e6, 1);
	stats_add(&s, 5e6, 1);
	assert_true(stats_tp99(&s) >= 4e6 && stats_tp99(&s) <= 5e6);
	stats_init(&s);
	assert_true(hist_quantile(s.hist, 0, 0.5, 0, 0) == 0);
}

/* The reduction layout gives what merging all samples in one place gives. */
static void reduction_equals_one_place(void **state)
{
	struct stats a, b, all;
	double t[] = { 0.5, 3.0, 1.5, 0.25, 2.0 };
	double g[] = { 1.0, 1.0, 4.0, 4.0, 4.0 };
	(void)state;
	stats_init(&a);
	stats_init(&b);
	stats_init(&all);
	for (int i = 0; i < 5; i++) {
		stats_add(i < 2 ? &a : &b, t[i], g[i]);
		stats_add(&all, t[i], g[i]);
	}
	stats_merge(&a, &b);
	assert_true(a.tmin == all.tmin && a.tmax == all.tmax);
	assert_true(a.bwmin == all.bwmin && a.bwmax == all.bwmax);
	assert_true(fabs(a.tsum - all.tsum) < 1e-12 && fabs(a.gibsum - all.gibsum) < 1e-12);
	assert_true(a.n == 5);
	assert_true(stats_tmed(&a) == stats_tmed(&all) && stats_tp99(&a) == stats_tp99(&all));
	assert_memory_equal(a.hist, all.hist, sizeof(a.hist));
}

static void gib_is_in_plus_out(void **state)
{
	(void)state;
	/* 2 x 64Mi longs x 2 peers x 8 B = 2 GiB */
	assert_true(stats_gib(64L * 1024 * 1024, 2) == 2.0);
	assert_true(stats_gib(1, 1) == 16.0 / (1024.0 * 1024 * 1024));
}

static void values_differ_by_every_input(void **state)
{
	long v = verify_value(3, 5, 7, 64, 2), r = verify_value(3, 5, 7, 64, VERIFY_REUSED);
	(void)state;
	assert_true(v != verify_value(4, 5, 7, 64, 2));   /* wrong sender */
	assert_true(v != verify_value(3, 6, 7, 64, 2));   /* wrong receiver */
	assert_true(v != verify_value(3, 5, 8, 64, 2));   /* wrong element */
	assert_true(v != verify_value(3, 5, 7, 64, 1));   /* stale iteration */
	assert_true(v != verify_value(3, 5, 7, 32, 2));   /* another count */
	assert_true(v != verify_value(5, 3, 7, 64, 2));   /* swapped */
	assert_true(v != VERIFY_POISON);
	/* reused data: the same for every call of a count, new for the next count */
	assert_true(r == verify_value(3, 5, 7, 64, VERIFY_REUSED));
	assert_true(r != verify_value(3, 5, 7, 32, VERIFY_REUSED));
	assert_true(r != v);
}

/* The fill and the check step each block's values by an add: the one index that would be the poison is found exactly. */
static void poison_index_exact(void **state)
{
	(void)state;
	for (unsigned long long j = 0; j < 5000; j += 7) {
		unsigned long long seed = (unsigned long long)VERIFY_POISON - j * VERIFY_STEP;
		assert_true(verify_poison_index(seed) == j);
		assert_true((long)(seed + j * VERIFY_STEP) == VERIFY_POISON);
		assert_true(verify_block_value(seed, (long)j) == (VERIFY_POISON ^ 1));   /* moved off it */
		assert_true(verify_block_value(seed, (long)j + 1) == (long)(seed + (j + 1) * VERIFY_STEP));
	}
	/* an ordinary block's is far past any count */
	assert_true(verify_poison_index(verify_seed(3, 5, 64, 2)) > (1ULL << 40));
}

static void fill_then_check(void **state)
{
	long peers[3] = { 2, 6, 10 }, count = 5, me = 9;
	struct verify_peers pp = { 2, 4 };   /* peers[] */
	long *send = calloc(15, sizeof(long)), *recv = calloc(15, sizeof(long));
	struct mismatch m;
	(void)state;

	/* what each peer sends to me is what I expect from it */
	for (int k = 0; k < 3; k++)
		for (long j = 0; j < count; j++)
			recv[k * count + j] = verify_value(peers[k], me, j, count, 1);
	assert_int_equal(verify_check(recv, pp, 3, count, me, 1, 0, &m, NULL), 0);
	assert_int_equal(verify_check(recv, pp, 3, count, me, 2, 0, &m, NULL), 15); /* stale */

	recv[7] ^= 1;   /* peer 6 (index 1), element 2 */
	assert_int_equal(verify_check(recv, pp, 3, count, me, 1, 0, &m, NULL), 1);
	assert_int_equal(m.peer, 6);
	assert_int_equal(m.element, 2);
	assert_int_equal(m.received, m.expected ^ 1);

	verify_poison(recv, 15);
	assert_int_equal(verify_check(recv, pp, 3, count, me, 1, 0, &m, NULL), 15);

	verify_fill(send, pp, 3, count, me, 1, NULL);
	assert_true(send[count + 3] == verify_value(me, 6, 3, count, 1));
	/* the next count's data is not this one's: a call that moved too little fails */
	verify_fill(send, pp, 3, count, me, VERIFY_REUSED, NULL);
	assert_true(send[3] == verify_value(me, 2, 3, count, VERIFY_REUSED));
	assert_true(send[3] != verify_value(me, 2, 3, count / 2, VERIFY_REUSED));
	free(send);
	free(recv);
}

/* Blocks longer than a chunk: every wrong element counted, the first named; repoison. */
static void check_in_chunks_and_repoison(void **state)
{
	long peers[2] = { 1, 0 }, count = 1500, me = 0;
	struct verify_peers pp = { 1, -1 };   /* peers[] */
	long *recv = calloc(2 * 1500, sizeof(long));
	struct mismatch m;
	(void)state;
	for (int k = 0; k < 2; k++)
		for (long j = 0; j < count; j++)
			recv[k * count + j] = verify_value(peers[k], me, j, count, VERIFY_REUSED);
	recv[count + 700] ^= 4;
	recv[count + 1499] ^= 4;
	recv[count + 511] ^= 4;
	assert_int_equal(verify_check(recv, pp, 2, count, me, VERIFY_REUSED, 1, &m, NULL), 3);
	assert_int_equal(m.peer, 0);
	assert_int_equal(m.element, 511);
	assert_true(m.received == (m.expected ^ 4));
	for (long i = 0; i < 2 * count; i++)
		if (recv[i] != VERIFY_POISON)
			fail_msg("element %ld not poisoned again", i);
	/* the next call's check sees the poison: a call that wrote nothing fails */
	assert_int_equal(verify_check(recv, pp, 2, count, me, VERIFY_REUSED, 0, &m, NULL), 2 * count);
	free(recv);
}

/*
 * A block whose values would meet the poison (its seed chosen so, index
 * 1300, in its third chunk of 512): filled off it, checked clean; the poison
 * itself there, or a value moved elsewhere in that chunk, is wrong.
 */
static void the_poison_s_chunk(void **state)
{
	unsigned long long seed = (unsigned long long)VERIFY_POISON - 1300 * VERIFY_STEP;
	long n = 2000, *b = calloc((size_t)n, sizeof(long));
	struct mismatch m = { -1, -1, 0, 0 };

	(void)state;
	verify_fill_block(b, n, seed);
	assert_true(b[1300] == (VERIFY_POISON ^ 1));
	for (long j = 0; j < n; j++)
		if (j != 1300 && b[j] != (long)(seed + (unsigned long long)j * VERIFY_STEP))
			fail_msg("element %ld not seed + %ld steps", j, j);
	assert_int_equal(verify_check_block(b, n, seed, 0, 0, &m), 0);
	b[1300] = VERIFY_POISON;   /* a call that left the receive buffer's poison there */
	b[1301] ^= 8;
	assert_int_equal(verify_check_block(b, n, seed, 1, 0, &m), 2);
	assert_int_equal(m.element, 1300);
	assert_true(m.received == VERIFY_POISON && m.expected == (VERIFY_POISON ^ 1));
	for (long j = 0; j < n; j++)
		if (b[j] != VERIFY_POISON)
			fail_msg("element %ld not poisoned again", j);
	free(b);
}

static void strbuf_ranges(void **state)
{
	long r[] = { 0, 1, 2, 3, 8, 10, 11 };
	struct strbuf b;
	char *s;
	(void)state;
	strbuf_init(&b);
	strbuf_add_ranges(&b, r, 7);
	strbuf_addf(&b, " %s", "x");
	s = strbuf_detach(&b);
	assert_string_equal(s, "0-3,8,10-11 x");
	free(s);
	strbuf_init(&b);
	s = strbuf_detach(&b);
	assert_string_equal(s, "");
	free(s);
	/* strides: three or more a stride apart, two are two numbers */
	long t[] = { 0, 32, 64, 96, 100, 101, 200, 300 };
	strbuf_init(&b);
	strbuf_add_ranges(&b, t, 8);
	s = strbuf_detach(&b);
	assert_string_equal(s, "0-96:32,100-101,200,300");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stats_over_samples),
		cmocka_unit_test(median_ranks_are_binomial),
		cmocka_unit_test(median_interval_covers_95),
		cmocka_unit_test(reduction_equals_one_place),
		cmocka_unit_test(gib_is_in_plus_out),
		cmocka_unit_test(bwavg_of_uneven_tasks),
		cmocka_unit_test(busbw_as_nccl_tests),
		cmocka_unit_test(percentiles_within_the_bound),
		cmocka_unit_test(percentiles_of_adversarial_samples),
		cmocka_unit_test(percentiles_outside_the_range),
		cmocka_unit_test(values_differ_by_every_input),
		cmocka_unit_test(poison_index_exact),
		cmocka_unit_test(fill_then_check),
		cmocka_unit_test(check_in_chunks_and_repoison),
		cmocka_unit_test(the_poison_s_chunk),
		cmocka_unit_test(strbuf_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
