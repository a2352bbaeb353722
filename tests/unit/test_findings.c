/* Unit tests: the findings' one rule of "beyond the noise" (collect/judge/findings_impl.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "judge/findings_impl.h"

static struct frow row(double tmed, double lo, double hi)
{
	struct frow r = { .tmed = tmed, .lo = lo, .hi = hi, .tavg = tmed, .tmin = lo, .tmax = hi };
	return r;
}

/* A row's noise: its median's interval, relative, half; else min..max around tavg. */
static void noise_is_the_relative_half_interval(void **state)
{
	struct frow r = row(2, 1.8, 2.2), m = row(2, NAN, NAN);
	(void)state;
	assert_float_equal(find_noise(&r), 0.1, 1e-12);
	m.tmin = 1, m.tmax = 3;
	assert_float_equal(find_noise(&m), 0.5, 1e-12);
	m.tavg = 0;
	assert_true(isnan(find_noise(&m)));
}

/* Beyond: more than 10% from 1 and more than twice the noise; either way. */
static void beyond_needs_both_floors(void **state)
{
	(void)state;
	assert_false(find_beyond(1.09, 0));            /* within FIND_NOISE_MIN */
	assert_true(find_beyond(1.11, 0));
	assert_true(find_beyond(1 / 1.12, 0.01));      /* faster counts too */
	assert_false(find_beyond(1.3, 0.2));            /* twice the noise is 40% */
	assert_true(find_beyond(1.5, 0.2));
	assert_true(find_beyond(1.5, NAN));             /* no interval known: the floor alone */
	assert_false(find_beyond(NAN, 0));
	/* two rows compared: their noises added (1.25 is not beyond 0.1 + 0.05 twice) */
	assert_false(find_beyond(1.25, 0.1 + 0.05));
	assert_true(find_beyond(1.35, 0.1 + 0.05));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(noise_is_the_relative_half_interval),
		cmocka_unit_test(beyond_needs_both_floors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
