/* Unit tests: change points on synthetic series, the false-alarm rates measured (collect/judge/changepoint.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "judge/changepoint.h"

#define DRAWS 10000

static unsigned long long state = 88172645463325252ULL;

/* A standard normal draw (Box-Muller over xorshift). */
static double normal(void)
{
	double u1, u2;

	state ^= state << 13, state ^= state >> 7, state ^= state << 17;
	u1 = ((double)(state >> 11) + 1) / 9007199254740993.0;
	state ^= state << 13, state ^= state >> 7, state ^= state << 17;
	u2 = (double)(state >> 11) / 9007199254740992.0;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* n values around 1 with relative noise `sigma`, times (1 + shift) from `at` on. */
static void series(double *v, long n, double sigma, long at, double shift)
{
	for (long i = 0; i < n; i++)
		v[i] = (1 + sigma * normal()) * (i >= at ? 1 + shift : 1);
}

static double alarm_rate(long n, double sigma, long at, double shift, int want)
{
	double v[64];
	struct change c;
	long hits = 0;

	for (int d = 0; d < DRAWS; d++) {
		series(v, n, sigma, at, shift);
		change_detect(v, n, &c);
		hits += want ? c.found != 0 : c.found != 0;
	}
	return (double)hits / DRAWS;
}

/* Steady series, 10 runs with 5% noise (this VM's run-to-run spread at large sizes): few false alarms. */
static void steady_series_rarely_alarm(void **state_)
{
	(void)state_;
	double r10 = alarm_rate(10, 0.05, 10, 0, 0), r30 = alarm_rate(30, 0.05, 30, 0, 0);
	printf("false alarms: %.2f%% of 10-run and %.2f%% of 30-run steady series (5%% noise)\n",
	       100 * r10, 100 * r30);
	assert_true(r10 <= 0.01 && r30 <= 0.01);
	/* 2% noise: a 10% change is the floor, so steady series never alarm */
	assert_true(alarm_rate(10, 0.02, 10, 0, 0) <= 0.001);
}

/* A 30% fall in the last run, or 4 runs before the end: found (mostly, at 5% noise). */
static void a_fall_is_found_where_it_is(void **state_)
{
	double v[12], r;
	struct change c;
	(void)state_;
	r = alarm_rate(10, 0.05, 9, -0.3, 1);
	printf("a 30%% fall in the last of 10 runs found in %.1f%% (5%% noise)\n", 100 * r);
	assert_true(r >= 0.8);
	r = alarm_rate(10, 0.03, 9, -0.3, 1);
	printf("... in %.1f%% (3%% noise)\n", 100 * r);
	assert_true(r >= 0.99);
	r = alarm_rate(12, 0.05, 8, -0.3, 1);
	printf("a 30%% fall 4 runs before the end of 12 found in %.1f%% (5%% noise)\n", 100 * r);
	assert_true(r >= 0.95);
	series(v, 12, 0.02, 8, -0.3);
	change_detect(v, 12, &c);
	assert_int_equal(c.found, 2);
	assert_int_equal(c.at, 8);
	assert_true(fabs(c.rel + 0.3) < 0.05);
	series(v, 10, 0.02, 9, -0.3);
	change_detect(v, 10, &c);
	assert_int_equal(c.found, 1);
	assert_int_equal(c.at, 9);
}

/* Too short to judge; flat history never alarms on rounding. */
static void short_and_flat(void **state_)
{
	double v[6] = { 1, 1, 1, 1, 0.5, 1 }, f[8] = { 2, 2, 2, 2, 2, 2, 2, 2.01 };
	struct change c;
	(void)state_;
	change_detect(v, 4, &c);
	assert_int_equal(c.found, 0);
	change_detect(f, 8, &c);
	assert_int_equal(c.found, 0);
	f[7] = 1.5;   /* a 25% fall after a flat history: found */
	change_detect(f, 8, &c);
	assert_int_equal(c.found, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steady_series_rarely_alarm),
		cmocka_unit_test(a_fall_is_found_where_it_is),
		cmocka_unit_test(short_and_flat),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
