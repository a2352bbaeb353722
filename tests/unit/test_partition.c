/* Unit tests: partition arithmetic (partition.c) for every world 1..64. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "plan/partition.h"

/* Each rank in exactly one group, at its key, groups as the spec says. */
static void check_world(long world, int strided)
{
	for (int level = 0; level < partition_nlevels(world); level++) {
		struct partition p;
		long target = partition_level_target(world, level);
		int *seen = calloc((size_t)world, sizeof(int));
		long total = 0, maxsize = 0, minsize = world;
		double sumsq = 0;

		partition_init(&p, world, target, strided);
		assert_int_equal(p.ncomms, (world + target - 1) / target);
		for (long c = 0; c < p.ncomms; c++) {
			long size = partition_size(&p, c);
			assert_true(size >= 1);
			assert_true(size <= target);
			total += size;
			sumsq += (double)size * (double)size;
			maxsize = size > maxsize ? size : maxsize;
			minsize = size < minsize ? size : minsize;
			for (long i = 0; i < size; i++) {
				long r = partition_member(&p, c, i);
				assert_true(r >= 0 && r < world);
				seen[r]++;
				assert_int_equal(partition_color(&p, r), c);
				assert_int_equal(partition_key(&p, r), i);
				if (!strided)
					assert_int_equal(r, c * target + i);
				else
					assert_int_equal(r % p.ncomms, c);
			}
		}
		assert_int_equal(total, world);
		for (long r = 0; r < world; r++)
			assert_int_equal(seen[r], 1);
		assert_int_equal(partition_max_size(&p), maxsize);
		assert_int_equal(partition_min_size(&p), minsize);
		assert_true(partition_sum_sizes(&p) == sumsq);
		free(seen);
	}
}

static void every_world_both_modes(void **state)
{
	(void)state;
	for (long w = 1; w <= 64; w++) {
		check_world(w, 0);
		check_world(w, 1);
	}
}

static void levels_halve(void **state)
{
	(void)state;
	assert_int_equal(partition_nlevels(1), 1);
	assert_int_equal(partition_nlevels(8), 4);
	assert_int_equal(partition_nlevels(7), 3);   /* 7, 3, 1 */
	assert_int_equal(partition_level_target(7, 1), 3);
	assert_int_equal(partition_level_target(7, 2), 1);
	assert_int_equal(partition_nlevels(6), 3);   /* 6, 3, 1 */
}

static void seven_ranks_target_three(void **state)
{
	struct partition c, s;
	(void)state;
	partition_init(&c, 7, 3, 0);
	assert_int_equal(c.ncomms, 3);
	assert_int_equal(partition_size(&c, 0), 3);
	assert_int_equal(partition_size(&c, 1), 3);
	assert_int_equal(partition_size(&c, 2), 1);
	partition_init(&s, 7, 3, 1);
	assert_int_equal(partition_size(&s, 0), 3);  /* 0 3 6 */
	assert_int_equal(partition_size(&s, 1), 2);  /* 1 4 */
	assert_int_equal(partition_size(&s, 2), 2);  /* 2 5 */
	assert_int_equal(partition_member(&s, 0, 2), 6);
}

/* Strided pairs at the penultimate level differ by world/2. */
static void strided_pairs(void **state)
{
	(void)state;
	for (long w = 2; w <= 64; w *= 2) {
		struct partition p;
		partition_init(&p, w, 2, 1);
		assert_int_equal(p.ncomms, w / 2);
		for (long c = 0; c < p.ncomms; c++) {
			assert_int_equal(partition_size(&p, c), 2);
			assert_int_equal(partition_member(&p, c, 1) - partition_member(&p, c, 0), w / 2);
		}
	}
}

static void count_sequences(void **state)
{
	(void)state;
	assert_int_equal(partition_ncounts(64, 4), 5);      /* 16 8 4 2 1 */
	assert_int_equal(partition_count(64, 4, 0), 16);
	assert_int_equal(partition_count(64, 4, 4), 1);
	assert_int_equal(partition_ncounts(100, 3), 6);     /* 33 16 8 4 2 1 */
	assert_int_equal(partition_count(100, 3, 1), 16);
	assert_int_equal(partition_ncounts(3, 4), 0);
	/* 2^60 longs at one rank: 2^60 .. 1 */
	assert_int_equal(partition_ncounts(1L << 60, 1), 61);
	assert_true(partition_count(1L << 60, 1, 0) == 1L << 60);
	assert_true(partition_count(1L << 60, 1, 29) > INT_MAX);
}

static void counts_above_int_max(void **state)
{
	long q = -1, r = -1;
	(void)state;
	assert_int_equal(partition_bigcount(INT_MAX, &q, &r), 0);
	assert_int_equal(partition_bigcount(1L << 20, &q, &r), 0);
	assert_int_equal(partition_bigcount((long)INT_MAX + 1, &q, &r), 1);
	assert_int_equal(q, 2);
	assert_int_equal(r, 0);
	assert_int_equal(partition_bigcount(3L * PARTITION_CHUNK + 5, &q, &r), 1);
	assert_int_equal(q, 3);
	assert_int_equal(r, 5);
	assert_int_equal(partition_bigcount(1L << 60, &q, &r), 1);
	assert_true(q * PARTITION_CHUNK + r == 1L << 60);
	assert_true(q <= INT_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_world_both_modes),
		cmocka_unit_test(levels_halve),
		cmocka_unit_test(seven_ranks_target_three),
		cmocka_unit_test(strided_pairs),
		cmocka_unit_test(count_sequences),
		cmocka_unit_test(counts_above_int_max),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
