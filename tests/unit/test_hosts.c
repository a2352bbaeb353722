/* Unit tests: the host of a rank from '# host:' lines (collect/read/hosts.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(single_nodes_and_runs),
		cmocka_unit_test(garbage_is_no_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
