/* Unit tests of collect --compare's pure parts: tolerances and verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "compare/compare.h"

static void one_tolerance_for_all_sizes(void **state)
{
	struct tolerance t;
	char err[256];
	(void)state;
	assert_int_equal(tolerance_parse(&t, "5%", err, sizeof(err)), 0);
	assert_int_equal(t.n, 1);
	assert_true(tolerance_at(&t, 1) == 0.05);
	assert_true(tolerance_at(&t, 1L << 40) == 0.05);
	assert_int_equal(tolerance_parse(&t, "12.5", err, sizeof(err)), 0);   /* % optional */
	assert_true(tolerance_at(&t, 8) == 0.125);
}

static void bands_by_size(void **state)
{
	struct tolerance t;
	char err[256];
	(void)state;
	assert_int_equal(tolerance_parse(&t, "8:20% 64K:5% 1M:2%", err, sizeof(err)), 0);
	assert_int_equal(t.n, 3);
	assert_true(tolerance_at(&t, 1) == 0.20);          /* below the first band: the first */
	assert_true(tolerance_at(&t, 8) == 0.20);
	assert_true(tolerance_at(&t, 65535) == 0.20);
	assert_true(tolerance_at(&t, 65536) == 0.05);      /* from 64 KiB on */
	assert_true(tolerance_at(&t, 1048575) == 0.05);
	assert_true(tolerance_at(&t, 1048576) == 0.02);
	assert_true(tolerance_at(&t, 1L << 40) == 0.02);
	/* a plain percentage first: from 0 B */
	assert_int_equal(tolerance_parse(&t, "5% 64K:1%", err, sizeof(err)), 0);
	assert_true(tolerance_at(&t, 8) == 0.05);
	assert_true(tolerance_at(&t, 65536) == 0.01);
}

static void bad_tolerances(void **state)
{
	static const char *const bad[] = { "", "x", "5%%", "-1%", "8:", ":5%", "64K:5% 8:20%",
					   "8:5% 8:6%", "8:20% 5%", "2000%", "8Q:5%",
					   "nan%" };
	struct tolerance t;
	char err[256];
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (tolerance_parse(&t, bad[i], err, sizeof(err)) == 0)
			fail_msg("'%s' was taken", bad[i]);
		assert_non_null(strstr(err, "invalid tolerance"));
	}
}

static void verdicts(void **state)
{
	(void)state;
	/* within the tolerance, whatever the spread */
	assert_int_equal(compare_verdict(0.05, 1.0, 0.9, 1.1, 1.04, 1.0, 1.1, NAN, NAN), V_SAME);
	assert_int_equal(compare_verdict(0.05, 1.0, 0.9, 1.1, 0.96, 0.9, 1.0, 3.0, NAN), V_SAME);
	/* outside it, ranges apart; medians that agree, or none */
	assert_int_equal(compare_verdict(0.05, 1.0, 0.9, 1.1, 2.0, 1.9, 2.1, 2.0, NAN), V_SLOWER);
	assert_int_equal(compare_verdict(0.05, 1.0, 0.9, 1.1, 0.5, 0.4, 0.6, NAN, NAN), V_FASTER);
	/* medians within the tolerance do not change it (half the tasks slower), */
	assert_int_equal(compare_verdict(0.05, 1.0, 0.9, 1.1, 2.0, 0.9, 2.1, 1.0, NAN), V_SLOWER);
	assert_int_equal(compare_verdict(0.05, 1.0, 0.9, 1.1, 2.0, 0.9, 2.1, 1.0, 0.1), V_SLOWER);
	/* but where one call moved the average by half the difference or more: a spike */
	assert_int_equal(compare_verdict(0.05, 1.0, 0.9, 1.1, 2.0, 0.9, 21.0, 1.0, 1.0), V_SPIKE);
	assert_int_equal(compare_verdict(0.05, 2.0, 0.9, 21.0, 1.0, 0.9, 1.1, 1.02, 0.5), V_SPIKE);
	/* a missing average is neither slower nor faster */
	assert_int_equal(compare_verdict(0.05, 1.0, 0.9, 1.1, NAN, 0.9, 2.1, NAN, NAN), V_MISSING);
	assert_int_equal(compare_verdict(0.05, NAN, 0.9, 1.1, 1.0, 0.9, 2.1, 1.0, NAN), V_MISSING);
	/* averages and medians the other way round: noise */
	assert_int_equal(compare_verdict(0.05, 4.0, 0.1, 1.1, 1.7, 0.1, 2.3, 4.1, NAN), V_NOISE);
	assert_int_equal(compare_verdict(0.05, 1.0, 0.9, 1.1, 2.0, 1.9, 2.1, 0.5, NAN), V_NOISE);
	/* outside it, each average inside the other's range: noise */
	assert_int_equal(compare_verdict(0.05, 1.0, 0.5, 2.0, 1.3, 0.6, 2.2, NAN, NAN), V_NOISE);
	/* ranges that overlap, but one average outside the other's range: not noise */
	assert_int_equal(compare_verdict(0.05, 1.0, 0.5, 1.2, 1.3, 0.6, 2.2, 1.3, NAN), V_SLOWER);
	assert_string_equal(verdict_names[V_NOISE], "noise");
}

/* A measured row against the simulated one: short beyond its slowest call, faster below its fastest. */
static void expected_verdicts(void **state)
{
	(void)state;
	assert_int_equal(compare_expected(1.0, 1.4, 1.2, 1.3), V_SAME);
	assert_int_equal(compare_expected(1.0, 1.4, 1.4, 9.0), V_SAME);   /* the median, not a slow call's average */
	assert_int_equal(compare_expected(1.0, 1.4, 1.41, 1.0), V_SLOWER);
	assert_int_equal(compare_expected(1.0, 1.4, 0.9, 1.0), V_FASTER);
	assert_int_equal(compare_expected(1.0, 1.4, NAN, 2.0), V_SLOWER);   /* an output without medians: its average */
	assert_int_equal(compare_expected(1.0, 1.4, NAN, NAN), V_MISSING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_tolerance_for_all_sizes),
		cmocka_unit_test(bands_by_size),
		cmocka_unit_test(bad_tolerances),
		cmocka_unit_test(verdicts),
		cmocka_unit_test(expected_verdicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
