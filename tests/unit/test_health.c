/* Unit tests: the share of the bound the network-bound rows reach (collect/model/health.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/health.h"

static void row(struct health *h, long point, long level, double bytes, const char *link, double eff)
{
	struct mrow r;

	memset(&r, 0, sizeof(r));
	r.point = point;
	r.level = level;
	r.bytes = bytes;
	snprintf(r.BOTTLENECK, sizeof(r.BOTTLENECK), "%s", link);
	r.eff_bound = eff;
	health_row(h, &r);
}

/* Each curve's largest network-bound size counts, the best algorithm of it; the weakest is named. */
static void each_curve_largest_size(void **state)
{
	struct health h;

	(void)state;
	health_init(&h);
	row(&h, 0, 0, 4194304, "up:leaf1", 0.93);
	row(&h, 0, 0, 4194304, "up:leaf1", 0.97);     /* another algorithm, better: what the fabric delivers */
	row(&h, 0, 0, 1048576, "up:leaf1", 0.40);     /* a smaller size of the curve: not counted */
	row(&h, 0, 1, 8388608, "copy:n1", 0.10);      /* on a node: the memory, not the network */
	row(&h, 0, 1, 2097152, "nic:n3", 0.81);
	row(&h, 1, 0, 8388608, "up:leaf2(partial:up:leaf1)", 0.2);   /* partial: not judged */
	row(&h, 1, 0, 32768, "nic:n2", 0.3);          /* latency's */
	row(&h, 2, 0, 65536, "nic:n4", NAN);          /* no share */
	row(&h, 3, 2, 1048576, "up:agg2", 1.02);
	row(&h, 4, 0, 1048576, "global:g1:g2", 0.95);
	health_end(&h);
	assert_int_equal(h.rows, 4);
	assert_true(fabs(h.lo - 0.81) < 1e-12 && fabs(h.hi - 1.02) < 1e-12);
	assert_int_equal(h.weakest.point, 0);
	assert_int_equal(h.weakest.level, 1);
	assert_string_equal(h.weakest.BOTTLENECK, "nic:n3");
}

/* No network-bound row: nothing judged, nothing named. */
static void none(void **state)
{
	struct health h;

	(void)state;
	health_init(&h);
	row(&h, 0, 0, 4194304, "copy:n1", 0.9);
	row(&h, 0, 0, 4194304, "", 0.9);
	health_end(&h);
	health_end(&h);
	assert_int_equal(h.rows, 0);
	assert_int_equal(h.weakest.point, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_curve_largest_size),
		cmocka_unit_test(none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
