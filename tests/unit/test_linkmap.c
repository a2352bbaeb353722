/*
 * Unit tests: the node-pair matrix of --pairs (linkmap.c): its schedule
 * meets every ordered pair exactly once (N = 1..64, odd ones too), medians,
 * and the slow links: one made slow comes out alone, slowest first.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "algo/algo_list.h"
#include "modes/linkmap.h"

static void schedule_meets_every_pair_once(void **state)
{
	(void)state;
	for (long n = 1; n <= 64; n++) {
		char *seen = calloc((size_t)(n * n), 1);
		assert_non_null(seen);
		for (long k = 1; k < n; k++)
			for (long r = 0; r < n; r++) {
				long to, from, to_of_from, dummy;
				algo_pairwise_step(r, k, n, &to, &from);
				assert_true(to != r && from != r);
				/* what r receives at step k is what `from` sends at step k */
				algo_pairwise_step(from, k, n, &to_of_from, &dummy);
				assert_int_equal(to_of_from, r);
				assert_int_equal(seen[r * n + to]++, 0);
			}
		for (long i = 0; i < n; i++)
			for (long j = 0; j < n; j++)
				assert_int_equal(seen[i * n + j], i != j);
		free(seen);
	}
}

static void medians(void **state)
{
	double v[] = { 5, NAN, 1, 3, 2 }, w[] = { 4, 1, 3, 2 }, none[] = { NAN };
	(void)state;
	assert_true(linkmap_median(v, 5) == 2.5);
	assert_true(linkmap_median(w, 4) == 2.5);
	assert_true(isnan(linkmap_median(none, 1)));
}

/* n x n of 10 GB/s, the diagonal NAN; one link 2 -> 1 at 1 GB/s. */
static double *matrix(long n)
{
	double *bw = malloc(sizeof(double) * (size_t)(n * n));
	for (long i = 0; i < n * n; i++)
		bw[i] = i / n == i % n ? NAN : 10 + 0.01 * (double)(i % 7);
	return bw;
}

static void one_slow_link(void **state)
{
	long n = 5;
	double *bw = matrix(n), *scratch = malloc(sizeof(double) * 25), row[5], col[5], median;
	struct slow_link out[4];
	(void)state;

	bw[2 * n + 1] = 1;
	median = linkmap_links_median(bw, n, scratch);
	assert_true(median > 10 && median < 10.1);
	assert_int_equal(linkmap_slow(bw, n, 0.8, median, out, 4), 1);
	assert_int_equal(out[0].src, 2);
	assert_int_equal(out[0].dst, 1);
	assert_true(out[0].ratio < 0.11);
	/* the sender's and the receiver's medians barely move: one link of four */
	linkmap_task_medians(bw, n, row, col, scratch);
	assert_true(row[2] > 9.9 && col[1] > 9.9);
	/* three slow, two named: the slowest two, slowest first; the count says three */
	bw[0 * n + 3] = 0.5;
	bw[4 * n + 0] = 2;
	assert_int_equal(linkmap_slow(bw, n, 0.8, median, out, 2), 3);
	assert_int_equal(out[0].src, 0);
	assert_int_equal(out[0].dst, 3);
	assert_int_equal(out[1].src, 2);
	/* nothing below the threshold: none */
	free(bw);
	bw = matrix(n);
	assert_int_equal(linkmap_slow(bw, n, 0.8, median, out, 4), 0);
	free(bw);
	free(scratch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(schedule_meets_every_pair_once),
		cmocka_unit_test(medians),
		cmocka_unit_test(one_slow_link),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
