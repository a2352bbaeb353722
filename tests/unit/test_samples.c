/* Unit tests: collect --samples' classification of slow calls (collect/read/samples.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "read/samples.h"

#define N 8
#define CALLS 10

static double t[N * CALLS];
static long comm[N], rank_of[N];
static int host[N];
static const char *const hosts[] = { "n1", "n2" };

/* Every task 10 us a call, the first 30 us; tasks 0-3 on n1 in communicator 0, 4-7 on n2 in 1. */
static struct sample_set quiet(void)
{
	for (long r = 0; r < N; r++) {
		for (long k = 0; k < CALLS; k++)
			t[r * CALLS + k] = k == 0 ? 30e-6 : 10e-6 * (1 + 0.01 * (double)((r + k) % 3));
		comm[r] = r / 4;
		rank_of[r] = r;
		host[r] = (int)(r / 4);
	}
	return (struct sample_set){ N, CALLS, t, comm, rank_of, host, hosts };
}

static void quiet_runs_have_no_slow_call(void **state)
{
	struct sample_set s = quiet();
	struct slow_call c[4];
	(void)state;
	assert_int_equal(samples_slow_calls(&s, c, 4), 0);
	assert_true(fabs(samples_first_ratio(&s) - 3.0) < 0.1);
}

static void a_late_task_is_a_named_straggler(void **state)
{
	struct sample_set s = quiet();
	struct slow_call c[4];
	(void)state;
	/* task 5 came 20 ms late to call 6: its communicator (4-7) waited, it did not */
	for (long r = 4; r < 8; r++)
		t[r * CALLS + 6] = r == 5 ? 15e-6 : 20e-3;
	assert_int_equal(samples_slow_calls(&s, c, 4), 1);
	assert_int_equal(c[0].call, 6);
	assert_int_equal(c[0].kind, SLOW_STRAGGLER);
	assert_int_equal(c[0].who, 5);
	assert_int_equal(c[0].host, 1);
	assert_true(c[0].waited > 19e-3 && c[0].waited < 21e-3);
	assert_string_equal(samples_kind_name(c[0].kind), "straggler");
}

static void everyone_slow_is_system_wide(void **state)
{
	struct sample_set s = quiet();
	struct slow_call c[4];
	(void)state;
	for (long r = 0; r < N; r++)
		t[r * CALLS + 3] = 5e-3;
	assert_int_equal(samples_slow_calls(&s, c, 4), 1);
	assert_int_equal(c[0].kind, SLOW_SYSTEM);
	assert_int_equal(c[0].slowed, N);
}

static void one_host_slow_is_that_host(void **state)
{
	struct sample_set s = quiet();
	struct slow_call c[4];
	(void)state;
	/* a whole communicator on n1 slow together, n2 untouched: no one spared within it */
	for (long r = 0; r < 3; r++)
		t[r * CALLS + 8] = 5e-3;
	comm[3] = 2;   /* task 3 in a communicator of its own, not slowed */
	assert_int_equal(samples_slow_calls(&s, c, 4), 1);
	assert_int_equal(c[0].kind, SLOW_HOST);
	assert_int_equal(c[0].host, 0);
	assert_int_equal(c[0].slowed, 3);
}

static void scattered_is_partial(void **state)
{
	struct sample_set s = quiet();
	struct slow_call c[4];
	(void)state;
	comm[0] = 3, comm[4] = 4;   /* two communicators of one, on two hosts */
	t[0 * CALLS + 2] = 5e-3;
	t[4 * CALLS + 2] = 5e-3;
	assert_int_equal(samples_slow_calls(&s, c, 4), 1);
	assert_int_equal(c[0].kind, SLOW_PARTIAL);
	assert_int_equal(c[0].slowed, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quiet_runs_have_no_slow_call),
		cmocka_unit_test(a_late_task_is_a_named_straggler),
		cmocka_unit_test(everyone_slow_is_system_wide),
		cmocka_unit_test(one_host_slow_is_that_host),
		cmocka_unit_test(scattered_is_partial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
