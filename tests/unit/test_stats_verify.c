/* Unit tests: statistics (stats.c), data verification (verify.c), strbuf. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats.h"
#include "strbuf.h"
#include "verify.h"

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
	assert_true(fabs(stats_bwavg(&s) - 3.5 / 3) < 1e-12);
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
	assert_true(fabs(a.tsum - all.tsum) < 1e-12 && fabs(a.bwsum - all.bwsum) < 1e-12);
	assert_true(a.n == 5);
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
	long v = verify_value(3, 5, 7, 2);
	(void)state;
	assert_true(v != verify_value(4, 5, 7, 2));   /* wrong sender */
	assert_true(v != verify_value(3, 6, 7, 2));   /* wrong receiver */
	assert_true(v != verify_value(3, 5, 8, 2));   /* wrong element */
	assert_true(v != verify_value(3, 5, 7, 1));   /* stale iteration */
	assert_true(v != verify_value(5, 3, 7, 2));   /* swapped */
	assert_true(v != VERIFY_POISON);
}

static void fill_then_check(void **state)
{
	long peers[3] = { 4, 9, 2 }, count = 5, me = 9;
	long *send = calloc(15, sizeof(long)), *recv = calloc(15, sizeof(long));
	struct mismatch m;
	(void)state;

	/* what each peer sends to me is what I expect from it */
	for (int k = 0; k < 3; k++)
		for (long j = 0; j < count; j++)
			recv[k * count + j] = verify_value(peers[k], me, j, 1);
	assert_int_equal(verify_check(recv, peers, 3, count, me, 1, &m), 0);
	assert_int_equal(verify_check(recv, peers, 3, count, me, 2, &m), 15); /* stale */

	recv[7] ^= 1;   /* peer 9 (index 1), element 2 */
	assert_int_equal(verify_check(recv, peers, 3, count, me, 1, &m), 1);
	assert_int_equal(m.peer, 9);
	assert_int_equal(m.element, 2);
	assert_int_equal(m.received, m.expected ^ 1);

	verify_poison(recv, 15);
	assert_int_equal(verify_check(recv, peers, 3, count, me, 1, &m), 15);

	verify_fill(send, peers, 3, count, me, 1);
	assert_true(send[count + 3] == verify_value(me, 9, 3, 1));
	free(send);
	free(recv);
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
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stats_over_samples),
		cmocka_unit_test(reduction_equals_one_place),
		cmocka_unit_test(gib_is_in_plus_out),
		cmocka_unit_test(values_differ_by_every_input),
		cmocka_unit_test(fill_then_check),
		cmocka_unit_test(strbuf_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
