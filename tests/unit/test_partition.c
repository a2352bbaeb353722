/* Unit tests: partition arithmetic (partition.c) for every world 1..64, and --placement's order. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "partition.h"
#include "world/placement.h"

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

/*
 * 4 nodes of 4 tasks, launched block-wise: each placement's order (the keys
 * sorted), and the nodes its contiguous communicators span at every level.
 */
static void placements(void **state)
{
	static const struct { const char *spec; long nodes[5]; } want[] = {
		{ "block", { 4, 2, 1, 1, 1 } },   /* commsize 16, 8, 4, 2, 1 */
		{ "cyclic", { 4, 4, 4, 2, 1 } },
	};
	struct placement pl;
	char err[256], buf[64];
	(void)state;

	for (size_t k = 0; k < 2; k++) {
		int key[16], node[16], order[16];
		long seen[4], lo, hi;
		assert_int_equal(placement_parse(&pl, want[k].spec, err, sizeof(err)), 0);
		for (int r = 0; r < 16; r++)
			key[r] = placement_key(&pl, r / 4, 4, r % 4, 4, r);
		/* the placed order: ranks by key (ties: launcher's order), and each one's node */
		for (int r = 0; r < 16; r++) {
			int at = 0;
			for (int q = 0; q < 16; q++)
				at += key[q] < key[r] || (key[q] == key[r] && q < r);
			order[at] = r;
		}
		for (int r = 0; r < 16; r++)
			node[r] = order[r] / 4;
		for (int level = 0; level < partition_nlevels(16); level++) {
			struct partition p;
			partition_init(&p, 16, partition_level_target(16, level), 0);
			partition_nodes(&p, node, seen, 4, &lo, &hi);
			assert_int_equal(lo, want[k].nodes[level]);
			assert_int_equal(hi, want[k].nodes[level]);
		}
	}
	/* random: a permutation from its seed, another with another seed */
	assert_int_equal(placement_parse(&pl, "random:7", err, sizeof(err)), 0);
	placement_describe(&pl, buf, sizeof(buf));
	assert_string_equal(buf, "random:7");
	assert_int_equal(placement_parse(&pl, "random", err, sizeof(err)), 0);
	placement_describe(&pl, buf, sizeof(buf));
	assert_string_equal(buf, "random:1");
	{
		struct placement other = pl;
		int differ = 0;
		other.seed = 2;
		for (int r = 0; r < 16; r++) {
			assert_true(placement_key(&pl, 0, 1, r, 16, r) >= 0);
			differ += placement_key(&pl, 0, 1, r, 16, r) != placement_key(&other, 0, 1, r, 16, r);
		}
		assert_true(differ > 8);
	}
	assert_int_equal(placement_parse(&pl, "round", err, sizeof(err)), -1);
	assert_string_equal(err, "invalid placement 'round': allowed are block (a node's tasks together), "
			    "cyclic (one task of each node in turn) and random[:SEED] (SEED a non-negative "
			    "integer)");
	assert_int_equal(placement_parse(&pl, "random:", err, sizeof(err)), -1);
	assert_int_equal(placement_parse(&pl, "random:-1", err, sizeof(err)), -1);
	assert_int_equal(placement_parse(&pl, "randomly", err, sizeof(err)), -1);
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
		cmocka_unit_test(placements),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
