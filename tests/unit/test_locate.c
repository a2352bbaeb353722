/*
 * Unit tests: the slow link located from rows against their bounds
 * (collect/judge/locate.c); each row's efficiency its bound over its
 * slowest task's time (a healthy row's 0.3-0.9, a slow one's below 0.25, or
 * below 0.5 where the tasks beside its slowest ran at their bound).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "judge/locate.h"

/* One row, its links by name (locate_row_ids's by index). */
static int locate_row(struct locate *L, long point, double eff, const char *const *used, int nused,
	       const char *const *clear, int nclear)
{
	int u[nused > 0 ? nused : 1], c[nclear > 0 ? nclear : 1];

	for (int i = 0; i < nclear; i++)
		if ((c[i] = locate_link(L, clear[i])) < 0)
			return -1;
	for (int i = 0; i < nused; i++)
		if ((u[i] = locate_link(L, used[i])) < 0)
			return -1;
	return locate_row_ids(L, point, eff, 1, u, nused, c, nclear);
}

/*
 * Four nodes, one task each, n1 n2 under leaf1, n3 n4 under leaf2, n3's NIC
 * slow. The rows of a campaign: the world (all links), contiguous pairs
 * (n1 n2 | n3 n4: NICs only) and strided pairs (n1 n3 | n2 n4: NICs and both
 * uplinks); each names the links of its slowest task's communicator.
 */
static const char *world[] = { "nic:n1", "nic:n2", "nic:n3", "nic:n4", "up:leaf1", "up:leaf2" };
static const char *c34[] = { "nic:n3", "nic:n4" };
static const char *c12[] = { "nic:n1", "nic:n2" };
static const char *s13[] = { "nic:n1", "nic:n3", "up:leaf1", "up:leaf2" };

static void row(struct locate *L, long point, double eff, const char **used, int n)
{
	assert_int_equal(locate_row(L, point, eff, used, n, NULL, 0), 0);
}

static int found(struct locate *L, const char **names)
{
	return locate_suspects(L, names, LOCATE_MAX);
}

static void a_slow_nic_from_both_modes(void **state)
{
	struct locate L = { 0 };
	const char *names[LOCATE_MAX];

	(void)state;
	for (int size = 0; size < 3; size++) {
		row(&L, 0, 0.1, world, 6);
		row(&L, 0, 0.125, c34, 2);
		row(&L, 1, 0.1, world, 6);
		row(&L, 1, 0.15, s13, 4);
	}
	assert_int_equal(found(&L, names), 1);
	assert_string_equal(names[0], "nic:n3");
	assert_int_equal(L.slow_rows, 12);
	assert_true(L.eff_lo == 0.1 && L.eff_hi == 0.15);
	assert_int_equal(L.npoints, 2);
	locate_release(&L);
}

static void contiguous_alone_cannot_separate(void **state)
{
	struct locate L = { 0 };
	const char *names[LOCATE_MAX];

	(void)state;
	for (int size = 0; size < 3; size++) {
		row(&L, 0, 0.1, world, 6);
		row(&L, 0, 0.125, c34, 2);
	}
	assert_int_equal(found(&L, names), 2);
	assert_string_equal(names[0], "nic:n3");
	assert_string_equal(names[1], "nic:n4");
	locate_release(&L);
}

static void blame_in_rows_at_their_bound_separates(void **state)
{
	struct locate L = { 0 };
	const char *names[LOCATE_MAX];

	(void)state;
	/* the strided rows are not slow against their uplinks, but n1-n3 was their slower pair */
	for (int size = 0; size < 3; size++) {
		row(&L, 0, 0.1, world, 6);
		row(&L, 0, 0.125, c34, 2);
		row(&L, 1, 0.35, s13, 4);
	}
	assert_int_equal(L.slow_rows, 6);
	assert_int_equal(found(&L, names), 1);
	assert_string_equal(names[0], "nic:n3");
	locate_release(&L);
}

static void healthy_noisy_and_cleared(void **state)
{
	struct locate L = { 0 };
	const char *names[LOCATE_MAX];

	(void)state;
	/* at their bound: nothing */
	for (int size = 0; size < 4; size++) {
		row(&L, 0, 0.4, c34, 2);
		row(&L, 1, 0.45, s13, 4);
	}
	assert_int_equal(found(&L, names), 0);
	/* two slow rows are not enough */
	row(&L, 0, 0.15, c34, 2);
	row(&L, 0, 0.15, c34, 2);
	assert_int_equal(found(&L, names), 0);
	/* slow rows scattered over other communicators: no link in 3/4 of them */
	row(&L, 0, 0.15, c12, 2);
	row(&L, 0, 0.15, c12, 2);
	assert_int_equal(found(&L, names), 0);
	locate_release(&L);
	/* a link a row cleared (it alone needed a quarter of the row's time) is no suspect */
	for (int size = 0; size < 3; size++)
		row(&L, 0, 0.125, c34, 2);
	assert_int_equal(locate_row(&L, 1, 0.225, c12, 2, (const char *[]){ "nic:n4" }, 1), 0);
	assert_int_equal(found(&L, names), 1);
	assert_string_equal(names[0], "nic:n3");
	/* slow rows of the world alone: six links, too many to name */
	locate_release(&L);
	for (int size = 0; size < 4; size++)
		row(&L, 0, 0.1, world, 6);
	assert_int_equal(found(&L, names), 0);
	locate_release(&L);
}

static void half_its_bound_with_its_neighbours_at_theirs(void **state)
{
	struct locate L = { 0 };
	const char *names[LOCATE_MAX];
	int u[2] = { locate_link(&L, "nic:n3"), locate_link(&L, "up:leaf2") };

	(void)state;
	/* rows at 40% of their bound: a healthy VM's noise where the others' tasks were as slow (spread 1.1) */
	for (int size = 0; size < 4; size++)
		assert_int_equal(locate_row_ids(&L, 0, 0.4, 1.1, u, 2, NULL, 0), 0);
	assert_int_equal(L.slow_rows, 0);
	/* a link at half its rate where the rest ran at their bound (the slowest at 2x the median): slow, and
	 * a NIC in every slow row beside its leaf's uplink is the NIC (a slow uplink slows its other NICs' too) */
	for (int size = 0; size < 4; size++)
		assert_int_equal(locate_row_ids(&L, 0, 0.45, 2.0, u, 2, NULL, 0), 0);
	assert_int_equal(L.slow_rows, 4);
	assert_int_equal(found(&L, names), 1);
	assert_string_equal(names[0], "nic:n3");
	locate_release(&L);
}

/* rows n ROWS at EFF with their median task at EFFMED, through c34, into both views of a campaign */
static void both(struct locate L[2], int n, double eff, double effmed)
{
	for (int i = 0; i < n; i++)
		for (int m = 0; m < 2; m++) {
			int u[2] = { locate_link(&L[m], "nic:n3"), locate_link(&L[m], "nic:n4") };
			assert_int_equal(locate_row_ids(&L[m], 0, eff, effmed / eff, u, 2, NULL, 0), 0);
		}
}

static void judged_at_half_where_the_rows_are_tight(void **state)
{
	struct locate L[2] = { { 0 }, { .half = 1 } };
	const char *names[LOCATE_MAX];

	(void)state;
	/* a link at half its rate, the others at 0.8 of their bound (the median task's 0.85, all alike): a
	 * quarter names nothing; at half, n3 and n4 both (their rows never part them) */
	both(L, 5, 0.45, 0.85);
	both(L, 5, 0.8, 0.85);
	assert_int_equal(found(&L[0], names), 0);
	assert_ptr_equal(locate_pick(L), &L[1]);
	assert_int_equal(L[1].slow_rows, 5);
	assert_int_equal(found(&L[1], names), 2);
	locate_release(&L[0]), locate_release(&L[1]);
	/* a loaded machine's rows, the median task's at 0.55-0.95 of their bound: a quarter's view stands */
	L[1].half = 1;
	both(L, 5, 0.45, 0.55);
	both(L, 5, 0.6, 0.95);
	assert_int_equal(L[1].slow_rows, 5);
	assert_ptr_equal(locate_pick(L), &L[0]);
	assert_int_equal(found(&L[0], names), 0);
	/* a quarter's suspects before half's, tight or not */
	locate_release(&L[0]), locate_release(&L[1]);
	L[1].half = 1;
	both(L, 5, 0.2, 0.85);
	both(L, 5, 0.8, 0.85);
	assert_ptr_equal(locate_pick(L), &L[0]);
	locate_release(&L[0]), locate_release(&L[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_slow_nic_from_both_modes),
		cmocka_unit_test(contiguous_alone_cannot_separate),
		cmocka_unit_test(blame_in_rows_at_their_bound_separates),
		cmocka_unit_test(healthy_noisy_and_cleared),
		cmocka_unit_test(half_its_bound_with_its_neighbours_at_theirs),
		cmocka_unit_test(judged_at_half_where_the_rows_are_tight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
