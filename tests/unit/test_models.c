/* Unit tests: Hockney fits of synthetic curves with known parameters and noise (collect/judge/models.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "judge/models.h"

#define N 20

/* A deterministic noise factor in [1 - a, 1 + a]. */
static double jitter(unsigned *s, double a)
{
	*s = *s * 1103515245u + 12345u;
	return 1 + a * (2.0 * ((*s >> 8) & 0xffff) / 65535.0 - 1);
}

/* x = 8 B .. 4 MiB; t = latency + x / bw (bytes per second) with noise. */
static void curve(double *x, double *t, double lat, double bw, double noise, unsigned seed)
{
	for (int i = 0; i < N; i++) {
		x[i] = 8.0 * (1 << i);
		t[i] = (lat + x[i] / bw) * jitter(&seed, noise);
	}
}

static void one_line_recovers_latency_and_bandwidth(void **state)
{
	double x[N], t[N];
	struct model m;
	(void)state;
	for (unsigned seed = 1; seed <= 50; seed++) {
		curve(x, t, 5e-6, 2e9, 0.05, seed);
		assert_int_equal(model_fit(x, t, N, &m), 0);
		assert_false(m.two);
		assert_true(fabs(m.all.latency / 5e-6 - 1) < 0.1);
		assert_true(fabs(model_bw(&m.all) / 2e9 - 1) < 0.1);
		assert_true(fabs(model_n_half(&m.all) / 1e4 - 1) < 0.2);   /* 5 us x 2 GB/s */
		assert_true(m.all.worst < 0.15 && m.all.r2 > 0.95);
	}
	/* noiseless: exact */
	curve(x, t, 1e-6, 1e9, 0, 1);
	assert_int_equal(model_fit(x, t, N, &m), 0);
	assert_true(fabs(m.all.latency - 1e-6) < 1e-12 && fabs(model_bw(&m.all) - 1e9) < 1);
	assert_int_equal(model_fit(x, t, 1, &m), -1);   /* one point: no line */
}

/* Eager below 64 KiB (2 us, 4 GB/s), rendezvous above (40 us, 1 GB/s): two lines, the break found. */
static void protocol_switch_is_two_lines(void **state)
{
	double x[N], t[N];
	unsigned seed = 7;
	struct model m;
	(void)state;
	for (int i = 0; i < N; i++) {
		x[i] = 8.0 * (1 << i);
		t[i] = (x[i] < 65536 ? 2e-6 + x[i] / 4e9 : 40e-6 + x[i] / 1e9) * jitter(&seed, 0.03);
	}
	assert_int_equal(model_fit(x, t, N, &m), 0);
	assert_true(m.all.worst > MODEL_BAD);
	assert_true(m.two);
	assert_true(m.break_x == 65536);
	assert_true(fabs(model_bw(&m.hi) / 1e9 - 1) < 0.1);
	assert_true(fabs(m.lo.latency / 2e-6 - 1) < 0.2);
	assert_true(m.lo.worst < 0.1 && m.hi.worst < 0.1);
}

/* A flat curve (latency only) has no bandwidth; a fit never has a negative latency. */
static void flat_and_negative(void **state)
{
	double x[N], t[N];
	struct model m;
	(void)state;
	curve(x, t, 3e-6, 1e30, 0, 1);
	assert_int_equal(model_fit(x, t, N, &m), 0);
	assert_true(fabs(m.all.latency - 3e-6) < 1e-9);
	for (int i = 0; i < N; i++)
		t[i] = x[i] / 1e9;   /* no latency at all */
	assert_int_equal(model_fit(x, t, N, &m), 0);
	assert_true(m.all.latency >= 0 && fabs(model_bw(&m.all) / 1e9 - 1) < 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_line_recovers_latency_and_bandwidth),
		cmocka_unit_test(protocol_switch_is_two_lines),
		cmocka_unit_test(flat_and_negative),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
