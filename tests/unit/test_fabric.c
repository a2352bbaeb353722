/* Unit tests: the fabrics a merge's points share (collect/read/fabric.c's fabric_shared). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "read/fabric.h"

/* Two nodes of two tasks under leaf1, NICs of 8 Gbit/s (1 GB/s): the facts of job `job`, keys joined by sep. */
static void facts(char *buf, size_t len, long job, char sep, const char *first)
{
	snprintf(buf, len, "job%c%ld\nhost%c%s 0-1\nhost%cn2 2-3\nfabric%cswitch %s leaf1\n"
		 "fabric%cswitch n2 leaf1\nfabric%cnic_rate %s 8gbit\nfabric%cnic_rate n2 8gbit\nexit%c0",
		 sep, job, sep, first, sep, sep, first, sep, sep, first, sep, sep);
}

/* Points whose fabric facts agree share one fabric, whatever else their facts say; world and nodes tell them apart. */
static void one_fabric_per_distinct_facts(void **state)
{
	char a[1024], b[1024], c[1024];
	const struct fabric *fa, *fb, *fc, *fw;

	(void)state;
	facts(a, sizeof(a), 1, '\t', "n1");
	facts(b, sizeof(b), 2, ' ', "n1");   /* another job, the judge's "key value" lines */
	facts(c, sizeof(c), 1, '\t', "n3");
	fa = fabric_shared(a, 4);
	fb = fabric_shared(b, 4);
	fc = fabric_shared(c, 4);
	fw = fabric_shared(a, 2);
	assert_non_null(fa);
	assert_ptr_equal(fa, fb);
	assert_true(fc && fc != fa);
	assert_true(fw && fw != fa);
	assert_int_equal(fa->nnodes, 2);
	assert_null(fabric_shared("job 1\nexit 0", 4));   /* no host lines: no fabric */
	for (int i = 0; i < 2 * FABRIC_SHARED; i++) {   /* failed ones kept apart, let go past the cap */
		char none[64];
		snprintf(none, sizeof(none), "fabric\tswitch m%d leaf1", i);
		assert_null(fabric_shared(none, 4));
	}
	fabric_unshare(fa);
	fabric_unshare(fb);
	fabric_unshare(fc);
	fabric_unshare(fw);
	fabric_unshare(NULL);
}

/*
 * A level's bound and each link's time per byte, worked out once and kept:
 * the world of 4 in one communicator, each node's 2 tasks send 2 x 2 x 1
 * byte to the other node's, 4 bytes through a NIC of 1 GB/s: 4 ns.
 */
static void level_times_kept(void **state)
{
	char a[1024];
	const struct fabric *f;
	const double *t, *again;
	struct bound unit, b;

	(void)state;
	facts(a, sizeof(a), 1, '\t', "n1");
	f = fabric_shared(a, 4);
	assert_non_null(f);
	assert_int_equal(fabric_level(f, "contiguous", 0, &unit, &t), 0);
	assert_true(unit.t > 3.99e-9 && unit.t < 4.01e-9);
	assert_true(t[0] > 3.99e-9 && t[0] < 4.01e-9 && t[1] > 3.99e-9 && t[1] < 4.01e-9);
	assert_int_equal(fabric_level(f, "contiguous", 0, &unit, &again), 0);
	assert_ptr_equal(t, again);
	assert_int_equal(fabric_row(f, "contiguous", 0, 1048576, &b), 0);
	assert_true(b.t > 0.99 * 4 * 1048576e-9 && b.t < 1.01 * 4 * 1048576e-9);
	assert_int_equal(fabric_level(f, "contiguous", FABRIC_LEVELS, &unit, NULL), -1);
	fabric_unshare(f);
}

/* A fabric a caller holds outlives FABRIC_SHARED others asked for since; those let go are closed. */
static void held_outlives_the_others(void **state)
{
	char a[1024], other[1024], name[32];
	const struct fabric *held, *o;

	(void)state;
	facts(a, sizeof(a), 1, '\t', "n1");
	held = fabric_shared(a, 4);
	assert_non_null(held);
	for (int i = 0; i < 2 * FABRIC_SHARED; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		facts(other, sizeof(other), 1, '\t', name);
		o = fabric_shared(other, 4);
		assert_non_null(o);
		assert_int_equal(o->nnodes, 2);
		fabric_unshare(o);
	}
	assert_int_equal(held->nnodes, 2);   /* still open: ASan would see it freed */
	assert_string_equal(held->node_name[0], "n1");
	fabric_unshare(held);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_fabric_per_distinct_facts),
		cmocka_unit_test(level_times_kept),
		cmocka_unit_test(held_outlives_the_others),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
