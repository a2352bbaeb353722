/* Unit tests: the host of a rank from '# host:' lines (collect/read/hosts.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "read/hosts.h"

static const char *host(const char *lines, long rank)
{
	static char name[64];

	return hosts_of_rank(lines, rank, name, sizeof(name)) == 0 ? name : "-";
}

static void single_nodes_and_runs(void **state)
{
	(void)state;
	assert_string_equal(host("vm 0-3", 2), "vm");
	assert_string_equal(host("vm 0-3", 4), "-");
	assert_string_equal(host("n1 0-1\nn2 2-3\nn3 4,6", 6), "n3");
	assert_string_equal(host("n1 0-1\nn2 2-3\nn3 4,6", 5), "-");
	/* a run: n[1-4], ranks 0-1 on the first, +2 per node */
	assert_string_equal(host("n[1-4] 0-1 +2", 0), "n1");
	assert_string_equal(host("n[1-4] 0-1 +2", 5), "n3");
	assert_string_equal(host("n[1-4] 0-1 +2", 7), "n4");
	assert_string_equal(host("n[1-4] 0-1 +2", 8), "-");
	/* zero-padded names, cyclic placement (strides), several lines */
	assert_string_equal(host("node[001-128] 0-384:128 +1", 130), "node003");
	assert_string_equal(host("a 0\nnode[008-010] 1-2 +2", 6), "node010");
}

static void garbage_is_no_host(void **state)
{
	(void)state;
	assert_string_equal(host("", 0), "-");
	assert_string_equal(host("justaname", 0), "-");
	assert_string_equal(host("n[x-y] 0 +1", 0), "-");
	assert_string_equal(host("n1 abc", 0), "-");
}

/* hosts_each's answer: each rank's host ("" none), and how often a rank came. */
struct seen {
	char name[600][32];
	int times[600];
};

static int add_pair(const char *name, long rank, void *ctx)
{
	struct seen *s = ctx;

	if (rank < 0 || rank >= 600)
		return 1;
	snprintf(s->name[rank], sizeof(s->name[rank]), "%s", name);
	s->times[rank]++;
	return 0;
}

static int stop_at_3(const char *name, long rank, void *ctx)
{
	(void)name;
	(void)ctx;
	return rank == 3 ? 7 : 0;
}

/* hosts_each says what hosts_of_rank says, every rank once, in one pass. */
static void every_pair_in_one_pass(void **state)
{
	static const char *const lines[] = {
		"vm 0-3", "n1 0-1\nn2 2-3\nn3 4,6", "n[1-4] 0-1 +2", "node[001-128] 0-384:128 +1",
		"a 0\nnode[008-010] 1-2 +2",
	};
	static struct seen s;

	(void)state;
	for (size_t k = 0; k < sizeof(lines) / sizeof(lines[0]); k++) {
		memset(&s, 0, sizeof(s));
		assert_int_equal(hosts_each(lines[k], add_pair, &s), 0);
		for (long r = 0; r < 600; r++) {
			assert_string_equal(s.times[r] ? s.name[r] : "-", host(lines[k], r));
			assert_true(s.times[r] <= 1);
		}
	}
	assert_int_equal(hosts_each("n[1-4] 0-1 +2", stop_at_3, NULL), 7);
	assert_int_equal(hosts_each("n[x-y] 0 +1", add_pair, &s), -1);
	assert_int_equal(hosts_each("justaname", add_pair, &s), -1);
	assert_int_equal(hosts_each("n1 abc", add_pair, &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(single_nodes_and_runs),
		cmocka_unit_test(garbage_is_no_host),
		cmocka_unit_test(every_pair_in_one_pass),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
