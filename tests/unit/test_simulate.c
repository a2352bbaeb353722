/* Unit tests: the fabric simulator's model (simulate/model.c): its faults, its noise, its rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"

static char err[512];
static const char *hosts[] = { "n1", "n2", "n3", "n4" };
static const char tree[] = "switch leaf1 1gbit n[1-2]\nswitch leaf2 1gbit n[3-4]\nnic n[1-4] 1gbit\n";

static void model_of(struct fabricfile *ff, struct sim *s, const char *text, uint64_t seed)
{
	assert_int_equal(fabricfile_parse(ff, text, "site.fabric", err, sizeof(err)), 0);
	assert_int_equal(sim_init(s, ff, hosts, 4, seed, err, sizeof(err)), 0);
}

/* A column of the row of 4 nodes x 2 tasks, communicators of target, count longs each. */
static double column(const struct sim *s, long target, long count, enum aller_column c)
{
	char col[ALLER_NCOLS][64];

	assert_int_equal(sim_row(s, 4, 2, 0, target, count, 5, col), 0);
	return atof(col[c]);
}

static void each_fault_changes_its_link_alone(void **state)
{
	struct fabricfile ff;
	struct sim s;

	(void)state;
	model_of(&ff, &s, tree, 1);
	assert_int_equal(sim_faults(&s, " slow-nic n3 100mbit ; slow-uplink leaf1 10mbit;;move n2 leaf2;"
				    "slow-node n4 3; slow-rx n1 500mbit", err, sizeof(err)), 0);
	assert_true(s.real.nic[2] > 0.0124 && s.real.nic[2] < 0.0126);
	assert_true(s.declared.nic[2] > 0.124);   /* the file's fabric, as aller knows it */
	assert_true(s.real.uplink[0] < 0.0013);
	assert_int_equal(s.real.leaf[1], 1);
	assert_int_equal(s.declared.leaf[1], 0);
	assert_true(s.slow[3] == 3 && s.slow[0] == 1);
	assert_true(s.real.nic[0] > 0.062 && s.real.nic[0] < 0.063);
	sim_free(&s);
	fabricfile_free(&ff);
}

static void a_bad_fault_is_one_line_naming_it(void **state)
{
	const char *bad[] = { "slow-nic n9 1gbit", "slow-nic n1", "slow-nic n1 1gbit extra", "slow-uplink leaf3 1gbit",
			      "slow-global g1 g2 1gbit", "move n1 spine", "slow-node n1 0.9", "slow-node n1 nan",
			      "slow-tx n1 -1gbit", "heal" };
	struct fabricfile ff;
	struct sim s;

	(void)state;
	model_of(&ff, &s, tree, 1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[128];
		snprintf(want, sizeof(want), "invalid fault '%s'", bad[i]);
		assert_int_equal(sim_faults(&s, bad[i], err, sizeof(err)), -1);
		assert_non_null(strstr(err, want));
		assert_null(strchr(err, '\n'));
	}
	/* the word that is wrong, named with what its place wants */
	assert_int_equal(sim_fault(&s, "slow-nic n9 1gbit", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'n9' is no host of the run"));
	assert_int_equal(sim_fault(&s, "slow-uplink leaf1 fast", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'fast' is not a rate"));
	assert_int_equal(sim_fault(&s, "slow-nic n1:eth0 1gbit", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "n1 has one NIC"));
	sim_free(&s);
	fabricfile_free(&ff);
}

static void the_noise_is_the_seed_s_and_in_its_range(void **state)
{
	double lo = 1, hi = 0;

	(void)state;
	for (uint64_t i = 0; i < 10000; i++) {
		double u = sim_uniform(7, 1, 2, i);
		assert_true(u >= 0 && u < 1);
		assert_true(u == sim_uniform(7, 1, 2, i));
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	assert_true(lo < 0.01 && hi > 0.99);
	assert_true(sim_uniform(7, 1, 2, 3) != sim_uniform(8, 1, 2, 3));
}

static void a_row_is_its_bound_over_the_efficiency(void **state)
{
	struct fabricfile ff;
	struct sim s, t;

	(void)state;
	model_of(&ff, &s, tree, 1);
	/* 8 tasks, 1 MiB per peer: each leaf's uplink carries 2 x 2 x 2 MiB... the bound, and
	 * every sample lies within 1/SIM_EFF_HI..(1 + SIM_JITTER)/SIM_EFF_LO of it, the latency aside */
	double bound = column(&s, 8, 131072, ALLER_COL_BOUND), tmin = column(&s, 8, 131072, ALLER_COL_TMIN);
	double tmax = column(&s, 8, 131072, ALLER_COL_TMAX);
	assert_true(bound > 0.13 && bound < 0.14);
	assert_true(tmin >= bound / SIM_EFF_HI && tmax <= bound * (1 + SIM_JITTER) / SIM_EFF_LO * 1.01);
	/* the median and its interval, by selection, lie in order between the extremes */
	double lo = column(&s, 8, 131072, ALLER_COL_TMED_LO), med = column(&s, 8, 131072, ALLER_COL_TMED);
	double hi = column(&s, 8, 131072, ALLER_COL_TMED_HI), p99 = column(&s, 8, 131072, ALLER_COL_TP99);
	assert_true(tmin <= lo && lo <= med && med <= hi && hi <= tmax && med <= p99 && p99 <= tmax);
	/* the same seed, the same row; another seed, another */
	assert_true(tmax == column(&s, 8, 131072, ALLER_COL_TMAX));
	assert_int_equal(sim_init(&t, &ff, hosts, 4, 2, err, sizeof(err)), 0);
	assert_true(tmax != column(&t, 8, 131072, ALLER_COL_TMAX));
	/* a slow uplink: the rows across it slow, bound_s (the file's fabric) does not move */
	assert_int_equal(sim_fault(&t, "slow-uplink leaf2 100mbit", err, sizeof(err)), 0);
	assert_true(column(&t, 8, 131072, ALLER_COL_TMIN) > 5 * tmax);
	assert_true(column(&t, 8, 131072, ALLER_COL_BOUND) == bound);
	assert_true(column(&t, 4, 262144, ALLER_COL_TMAX) < 2 * column(&s, 4, 262144, ALLER_COL_TMAX));
	sim_free(&s);
	sim_free(&t);
	fabricfile_free(&ff);
}

static void a_host_off_the_fabric_is_refused(void **state)
{
	struct fabricfile ff;
	struct sim s;
	const char *five[] = { "n1", "n5" };

	(void)state;
	assert_int_equal(fabricfile_parse(&ff, tree, "site.fabric", err, sizeof(err)), 0);
	assert_int_equal(sim_init(&s, &ff, five, 2, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "host 'n5' is under no switch"));
	sim_free(&s);
	fabricfile_free(&ff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_fault_changes_its_link_alone),
		cmocka_unit_test(a_bad_fault_is_one_line_naming_it),
		cmocka_unit_test(the_noise_is_the_seed_s_and_in_its_range),
		cmocka_unit_test(a_row_is_its_bound_over_the_efficiency),
		cmocka_unit_test(a_host_off_the_fabric_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
