/* Unit tests: a site's fabric file (common/fabricfile.c): its declarations, its ranges, its errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabricfile.h"

static char err[512];

static void declarations_and_the_run_s_lines(void **state)
{
	struct fabricfile ff;
	const char *run[] = { "n2", "n17", "gpu003", "other" };
	char *lines;

	(void)state;
	assert_int_equal(fabricfile_parse(&ff,
		"# two leaves, 4:1\n"
		"switch leaf1 25gbit n[1-16]   # the first rack\n"
		"\n"
		"\tswitch leaf2 3.125GB/s n[17-20,22] gpu[001-003]\n"
		"switch spare 100gbit\n"
		"nic n17 50gbit\n"
		"nic gpu[002-003] 400gbps\n", "site.fabric", err, sizeof(err)), 0);
	assert_int_equal(ff.nsw, 3);
	assert_int_equal(ff.nnode, 16 + 5 + 3);
	lines = fabricfile_lines(&ff, "/etc/site.fabric", run, 4);
	assert_string_equal(lines, "file /etc/site.fabric\n"
		"uplink_rate leaf1 25gbit\nuplink_rate leaf2 3.125GB/s\nuplink_rate spare 100gbit\n"
		"switch n2 leaf1\n"
		"switch n17 leaf2\nnic_rate n17 50gbit\n"
		"switch gpu003 leaf2\nnic_rate gpu003 400gbps\n");
	free(lines);
	fabricfile_free(&ff);
	/* a file that declares nothing is refused, not read as a fabric of no links */
	assert_int_equal(fabricfile_parse(&ff, "# nothing\n\n", "empty", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "fabric file 'empty' declares nothing"));
}

static void a_tree_of_switches(void **state)
{
	struct fabricfile ff;
	const char *run[] = { "n1", "n3" };
	char *lines;

	(void)state;
	/* leaves first, then the switches above them; the top has no uplink */
	assert_int_equal(fabricfile_parse(&ff,
		"switch leaf1 25gbit n[1-2]\n"
		"switch leaf2 25gbit n[3-4]\n"
		"switch agg1 25gbit leaf[1-2]\n"
		"switch core - agg1\n", "tree", err, sizeof(err)), 0);
	assert_int_equal(ff.nsw, 4);
	assert_int_equal(ff.nnode, 4);   /* leaf1 and leaf2 are switches, not nodes */
	assert_int_equal(ff.sw[0].parent, 2);
	assert_int_equal(ff.sw[2].parent, 3);
	assert_int_equal(ff.sw[3].parent, -1);
	lines = fabricfile_lines(&ff, "tree", run, 2);
	assert_string_equal(lines, "file tree\n"
		"uplink_rate leaf1 25gbit\nparent leaf1 agg1\nuplink_rate leaf2 25gbit\nparent leaf2 agg1\n"
		"uplink_rate agg1 25gbit\nparent agg1 core\nuplink_rate core -\n"
		"switch n1 leaf1\nswitch n3 leaf2\n");
	free(lines);
	fabricfile_free(&ff);
}

/* Each bad file: -1, and the message holds the file, the line and `want` ("line N: what": "f:N: what"). */
static void bad(const char *text, const char *want)
{
	struct fabricfile ff;
	char w[512];

	err[0] = '\0';
	snprintf(w, sizeof(w), "%s%s", strncmp(want, "line ", 5) ? "" : "f:", want + (strncmp(want, "line ", 5) ? 0 : 5));
	assert_int_equal(fabricfile_parse(&ff, text, "f", err, sizeof(err)), -1);
	if (!strstr(err, w) || strncmp(err, "f:", 2) != 0) {
		fprintf(stderr, "for '%s': got '%s', want '%s'\n", text, err, want);
		fail();
	}
	assert_int_equal(ff.nnode, 0);
	assert_null(ff.node);
}

static void every_error_is_one_line_naming_the_line(void **state)
{
	(void)state;
	bad("router r1 10gbit\n", "line 1: expected 'switch NAME RATE [CHILD...]', 'nic NODE RATE', 'gpu NODE RATE', "
	    "'group NAME SWITCH...' or 'global LINKS RATE [minimal|adaptive]', not 'router'");
	bad("gpu n1\n", "line 1: a GPU node's links are 'gpu NODE RATE', not 'gpu'");
	bad("gpu n1 fast\n", "rate is not a decimal number");
	bad("gpu n[1-2] 450GB/s\ngpu n2 1GB/s\n", "line 2: the node's GPU links are declared already: 'n2'");
	bad("\nswitch leaf1\n", "line 2: a switch needs its name and its uplink's rate");
	bad("switch leaf1 fast\n", "rate is not a decimal number and kbit, mbit, gbit, gbps or GB/s, 1kbit to 1000000GB/s: 'fast'");
	bad("switch leaf1 0gbit\n", "'0gbit'");
	/* the number door (bytes.h): no infinity, nan, denormal, overflow or hex; within its interval */
	bad("nic n1 inf\n", "'inf'");
	bad("nic n1 infgbit\n", "'infgbit'");
	bad("nic n1 nangbit\n", "'nangbit'");
	bad("nic n1 1e-320gbit\n", "'1e-320gbit'");
	bad("nic n1 1e309gbit\n", "'1e309gbit'");
	bad("nic n1 0x10gbit\n", "'0x10gbit'");
	bad("nic n1 -1gbit\n", "'-1gbit'");
	bad("nic n1 0.5kbit\n", "'0.5kbit'");
	bad("nic n1 1000001GB/s\n", "'1000001GB/s'");
	bad("switch leaf1 10gbit\nswitch leaf1 10gbit\n", "line 2: the switch is declared already: 'leaf1'");
	bad("switch a 1gbit n1\nswitch b 1gbit n[1-2]\n", "line 2: the node is under a switch already: 'n1'");
	bad("nic n1 1gbit\nnic n1 2gbit\n", "the node's NIC is declared already: 'n1'");
	bad("nic n1\n", "a NIC is 'nic NODE RATE'");
	bad("switch a 1gbit n[3-1]\n", "a range's item is N or A-B");
	bad("switch a 1gbit n[1-2000000]\n", "at most 1000000 names");
	bad("switch a 1gbit n[0-9223372036854775808]\n", "a range's item is N or A-B");
	bad("switch a 1gbit n[+1-2]\n", "a range's item is N or A-B");
	bad("switch a 1gbit n[1-2\n", "a range of names is PREFIX[A-B,C,...]SUFFIX");
	bad("switch a 1gbit n[1]x[2]\n", "once in a word");
	bad("switch a 1gbit n[]\n", "a range names no node: 'n[]'");
	bad("switch a/b 1gbit\n", "a switch's name is letters, digits");
	bad("switch a 1gbit n/1\n", "a node's name is letters, digits");
	/* trees */
	bad("switch a 1gbit a\n", "line 1: a switch cannot sit under itself: 'a'");
	bad("switch a 1gbit n1\nswitch b 1gbit a\nswitch c 1gbit a\n",
	    "line 3: the switch sits under another switch already: 'a'");
	bad("switch top - n1\nswitch x 1gbit top\n",
	    "line 2: a switch without an uplink ('-', the top) cannot sit under another: 'top'");
	bad("switch b 1gbit a\nswitch a 1gbit n1\n", "line 2: a switch named as a node on a line above");
	bad("switch a1 1gbit n1\nswitch a2 1gbit n2\nswitch core - a[1-3]\n",
	    "line 3: switch 'core' has nodes and switches under it (a switch's children are nodes, or switches "
	    "declared on lines above); this one is no switch declared above: 'a3'");
	/* dragonflies */
	const char *two = "switch s1 - n1\nswitch s2 - n2\n";
	char text[256];
#define DF(rest) (snprintf(text, sizeof(text), "%s%s", two, rest), text)
	bad(DF("group g1 s1\ngroup g2 s2\n"), "line 3: a group without global links: add 'global LINKS RATE "
	    "[minimal|adaptive]' for 'g1'");
	bad(DF("global 4 25gbit\n"), "line 3: global links without a group");
	bad(DF("group g1 s1 s9\n"), "line 3: a group holds switches declared on lines above; no such switch: 's9'");
	bad(DF("group g1 s1\ngroup g2 s1 s2\n"), "line 4: the switch is in a group already: 's1'");
	bad(DF("group g1 s1\ngroup g1 s2\n"), "line 4: the group is declared already: 'g1'");
	bad(DF("group g1 s1\nglobal 4 25gbit\n"), "line 2: with groups, every tree's top is in one ('group NAME "
	    "SWITCH...'); this one is in none: 's2'");
	bad(DF("group g1 s1 s2\nglobal 0 25gbit\n"), "line 4: LINKS, the global links between each pair of groups, "
	    "is a whole number from 1 to 1000000, not '0'");
	bad(DF("group g1 s1 s2\nglobal 4 fast\n"), "rate is not a decimal number");
	bad(DF("group g1 s1 s2\nglobal 4 25gbit valiant\n"), "line 4: the routing is minimal or adaptive, not 'valiant'");
	bad(DF("group g1 s1 s2\nglobal 4 25gbit\nglobal 2 25gbit\n"), "line 5: the global links are declared already");
	bad(DF("group g1\n"), "line 3: a group needs its name and its switches");
	bad("switch l1 1gbit n1\nswitch l2 1gbit n2\ngroup g1 l1 l2\nglobal 1 1gbit\nswitch top - l[1-2]\n",
	    "line 1: a group holds the tops of its trees; this switch sits under another: 'l1'");
#undef DF
	/* rails */
	bad("switch r0 1gbit n[1-2]:eth0\nswitch r1 1gbit n1:eth1\n",
	    "line 1: the rails differ across nodes (each node the same interfaces, one a rail, as its first in name "
	    "order has): this node's are not: 'n2:eth0'");
	bad("switch r0 1gbit n1:eth0 n1\n", "line 1: a node is declared whole or by its NICs (NODE:IF), not both: 'n1:eth0'");
	bad("switch r0 1gbit n1:eth0\nswitch r1 1gbit n1:eth0\n", "line 2: the node is under a switch already: 'n1:eth0'");
	bad("nic n1:eth0:x 1gbit\n", "(NODE:IF one of its NICs): 'n1:eth0:x'");
	bad("nic n1: 1gbit\n", "(NODE:IF one of its NICs): 'n1:'");
}

static void rails(void **state)
{
	struct fabricfile ff;
	const char *run[] = { "n2", "n10" };
	char *lines;

	(void)state;
	/* two rails: each NIC under its rail's leaf; n10 sorts among n1's names, not between them */
	assert_int_equal(fabricfile_parse(&ff,
		"switch rail0 2gbit n[1-2,10]:eth0\nswitch rail1 2gbit n[1-2,10]:eth1\nnic n[1-2,10]:eth1 500mbit\n",
		"rails", err, sizeof(err)), 0);
	assert_int_equal(ff.nrail, 2);
	assert_string_equal(ff.rail[0], "eth0");
	assert_string_equal(ff.rail[1], "eth1");
	assert_int_equal(ff.node[fabricfile_node_at(&ff, "n10:eth1")].leaf, 1);
	lines = fabricfile_lines(&ff, "rails", run, 2);
	assert_string_equal(lines, "file rails\nuplink_rate rail0 2gbit\nuplink_rate rail1 2gbit\n"
		"switch n2:eth0 rail0\nswitch n2:eth1 rail1\nnic_rate n2:eth1 500mbit\n"
		"switch n10:eth0 rail0\nswitch n10:eth1 rail1\nnic_rate n10:eth1 500mbit\n");
	free(lines);
	fabricfile_free(&ff);
}

static void a_dragonfly(void **state)
{
	struct fabricfile ff;
	const char *run[] = { "n1" };
	char *lines;

	(void)state;
	assert_int_equal(fabricfile_parse(&ff,
		"switch s1 - n[1-2]\nswitch s2 - n[3-4]\nswitch s3 - n[5-6]\n"
		"group g1 s1 s2\ngroup g2 s3\nglobal 4 200gbit adaptive\n", "df", err, sizeof(err)), 0);
	assert_int_equal(ff.ngroup, 2);
	assert_int_equal(ff.sw[1].group, 0);
	assert_int_equal(ff.sw[2].group, 1);
	assert_int_equal(ff.global_links, 4);
	assert_true(ff.adaptive);
	lines = fabricfile_lines(&ff, "df", run, 1);
	assert_string_equal(lines, "file df\n"
		"uplink_rate s1 -\ngroup s1 g1\nuplink_rate s2 -\ngroup s2 g1\nuplink_rate s3 -\ngroup s3 g2\n"
		"global 4 200gbit adaptive\nswitch n1 s1\n");
	free(lines);
	fabricfile_free(&ff);
}

/* Each name a range gives near the largest number, and nothing past it. */
static int near_the_largest(const char *name, void *ctx)
{
	(*(long *)ctx)++;
	return strcmp(name, "n9223372036854775807") && strcmp(name, "n9223372036854775806") ? -9 : 0;
}

/* A range up to LONG_MAX (the fuzzer's n[9223372036854775807]) names its nodes once: no overflow past it. */
static void a_range_to_the_largest_number(void **state)
{
	long n = 0;

	(void)state;
	assert_int_equal(fabricfile_names("n[9223372036854775807]", near_the_largest, &n), 0);
	assert_int_equal(n, 1);
	n = 0;
	assert_int_equal(fabricfile_names("n[9223372036854775806-9223372036854775807]", near_the_largest, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(fabricfile_names("n[9223372036854775808]", near_the_largest, &n), -3);
}

static void a_file_read_whole_or_refused(void **state)
{
	struct fabricfile ff;
	char path[] = "/tmp/test_fabricfile_XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	fputs("switch leaf1 1gbit n[1-2]\n", f);
	fclose(f);
	assert_int_equal(fabricfile_load(&ff, path, err, sizeof(err)), 0);
	assert_int_equal(ff.nnode, 2);
	fabricfile_free(&ff);
	assert_non_null(f = fopen(path, "w"));
	fputs("switch leaf1 1gbit\n", f);
	fputc('\0', f);
	fclose(f);
	assert_int_equal(fabricfile_load(&ff, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":2: a NUL byte: not text"));
	unlink(path);
	assert_int_equal(fabricfile_load(&ff, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot be opened: No such file or directory"));
}

static int counted(const char *name, void *ctx)
{
	(void)name;
	return ++*(long *)ctx > 10 ? -9 : 0;   /* a loop that does not end stops at 10 */
}

/* H1-1: a range that ends at LONG_MAX gives its names once and ends. */
static void a_range_ending_at_long_max_ends(void **state)
{
	long n = 0;

	(void)state;
	assert_int_equal(fabricfile_names("n[9223372036854775806-9223372036854775807]", counted, &n), 0);
	assert_int_equal(n, 2);
	n = 0;
	assert_int_equal(fabricfile_names("n[9223372036854775807]", counted, &n), 0);
	assert_int_equal(n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(declarations_and_the_run_s_lines),
		cmocka_unit_test(a_tree_of_switches),
		cmocka_unit_test(every_error_is_one_line_naming_the_line),
		cmocka_unit_test(a_file_read_whole_or_refused),
		cmocka_unit_test(a_range_to_the_largest_number),
		cmocka_unit_test(a_dragonfly),
		cmocka_unit_test(rails),
		cmocka_unit_test(a_range_ending_at_long_max_ends),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
