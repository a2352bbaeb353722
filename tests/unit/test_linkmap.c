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
#include "median.h"
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
	assert_true(median_of(v, 5) == 2.5);
	assert_true(median_of(w, 4) == 2.5);
	assert_true(isnan(median_of(none, 1)));
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
	assert_int_equal(linkmap_slow(bw, n, 0.8, NULL, median, out, 4), 1);
	assert_int_equal(out[0].src, 2);
	assert_int_equal(out[0].dst, 1);
	assert_true(out[0].ratio < 0.11);
	assert_int_equal(out[0].slow_for, 3);   /* against the median of all: both ends */
	{   /* one slow direction among five nodes: slow for both ends against their references */
		int node[5] = { 0, 1, 2, 3, 4 };
		double ref[5], s2[50];
		assert_int_equal(linkmap_node_refs(bw, n, node, ref, s2), 0);
		assert_int_equal(linkmap_slow(bw, n, 0.8, ref, median, out, 4), 1);
		assert_int_equal(out[0].slow_for, 3);
		assert_true(out[0].ref > 10 && out[0].ref < 10.1);
	}
	/* the sender's and the receiver's medians barely move: one link of four */
	linkmap_task_medians(bw, n, row, col, scratch);
	assert_true(row[2] > 9.9 && col[1] > 9.9);
	/* three slow, two named: the slowest two, slowest first; the count says three */
	bw[0 * n + 3] = 0.5;
	bw[4 * n + 0] = 2;
	assert_int_equal(linkmap_slow(bw, n, 0.8, NULL, median, out, 2), 3);
	assert_int_equal(out[0].src, 0);
	assert_int_equal(out[0].dst, 3);
	assert_int_equal(out[1].src, 2);
	/* nothing below the threshold: none */
	free(bw);
	bw = matrix(n);
	assert_int_equal(linkmap_slow(bw, n, 0.8, NULL, median, out, 4), 0);
	free(bw);
	free(scratch);
}

/* A slow node on 3 nodes (aller-undrain's re-check): 4 of the 6 links slow, so the median of
 * all is a slow one; each link's reference, the links avoiding one of its ends' nodes, is not. */
static void slow_node_among_few(void **state)
{
	long n = 3;
	int node[3] = { 0, 1, 2 };
	double bw[9], ref[3], scratch[18], median;
	struct slow_link out[6];
	(void)state;

	for (long i = 0; i < 9; i++)
		bw[i] = i / n == i % n ? NAN : i / n == 0 || i % n == 0 ? 0.02 : 0.11;   /* node 0 slow */
	median = linkmap_links_median(bw, n, scratch);
	assert_true(median < 0.03);
	assert_int_equal(linkmap_slow(bw, n, 0.5, NULL, median, out, 6), 0);   /* the median of all: none */
	assert_int_equal(linkmap_node_refs(bw, n, node, ref, scratch), 0);
	assert_float_equal(ref[0], 0.11, 1e-12);   /* the links 1 <-> 2 */
	assert_float_equal(ref[1], 0.02, 1e-12);   /* 0 <-> 2, both slow */
	assert_int_equal(linkmap_slow(bw, n, 0.5, ref, median, out, 6), 4);
	for (int i = 0; i < 4; i++) {
		assert_true(out[i].src == 0 || out[i].dst == 0);
		assert_float_equal(out[i].ref, 0.11, 1e-12);
		/* slow for node 0 alone: against node 1's or 2's reference (0.02) it is not */
		assert_int_equal(out[i].slow_for, out[i].src == 0 ? 1 : 2);
	}
}

/* Tasks by node (two a node): a node's links are every link of its tasks; on two nodes no
 * link avoids both ends, and a node's reference is its tasks' links to each other. */
static void references_by_node(void **state)
{
	long n = 6;
	int node[6] = { 0, 0, 1, 1, 2, 2 };
	double bw[36], ref[6], scratch[72];
	(void)state;

	for (long i = 0; i < 36; i++)
		bw[i] = i / n == i % n ? NAN : 1 + (double)(i % 5);
	bw[2 * n + 3] = 100;   /* on node 1: avoided by nodes 0 and 2 */
	assert_int_equal(linkmap_node_refs(bw, n, node, ref, scratch), 0);
	assert_float_equal(ref[0], ref[1], 0);
	assert_float_equal(ref[4], ref[5], 0);
	/* node 0's reference: the links among tasks 2..5, exactly */
	double v[12];
	long m = 0;
	for (long i = 2; i < n; i++)
		for (long j = 2; j < n; j++)
			if (i != j)
				v[m++] = bw[i * n + j];
	assert_float_equal(ref[0], median_of(v, m), 1e-12);
	/* one node: nothing avoids it */
	int one[2] = { 0, 0 };
	double two[4] = { NAN, 1, 2, NAN };
	assert_int_equal(linkmap_node_refs(two, 2, one, ref, scratch), 0);
	assert_true(isnan(ref[0]) && isnan(ref[1]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(schedule_meets_every_pair_once),
		cmocka_unit_test(medians),
		cmocka_unit_test(one_slow_link),
		cmocka_unit_test(slow_node_among_few),
		cmocka_unit_test(references_by_node),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
