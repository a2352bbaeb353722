/* Unit tests: the selection of levels and sizes (select.c), byte formatting, the memory check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "buffers/memcheck.h"
#include "bytes.h"
#include "partition.h"
#include "plan/select.h"

static void sizes_that_parse(void **state)
{
	static const struct { const char *s; long bytes; } good[] = {
		{ "8", 8 }, { "1000", 1000 }, { "1", 1 }, { "64K", 65536 }, { "64k", 65536 },
		{ "64KiB", 65536 }, { "64kib", 65536 }, { "64KB", 65536 }, { "8B", 8 }, { "8b", 8 },
		{ "4M", 4L << 20 }, { "4MiB", 4L << 20 }, { "1G", 1L << 30 }, { "2T", 2L << 40 },
		{ "1P", 1L << 50 }, { "4096P", 1L << 62 }, { "007", 7 },
	};
	char err[256];
	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		long b = -1;
		if (select_parse_size("--max-bytes", good[i].s, &b, err, sizeof(err)) != 0 ||
		    b != good[i].bytes)
			fail_msg("'%s': %ld, wanted %ld (%s)", good[i].s, b, good[i].bytes, err);
	}
}

static void sizes_that_do_not(void **state)
{
	static const struct { const char *s, *says; } bad[] = {
		{ "", "invalid size '' for --min-bytes" },
		{ "0", "size '0' for --min-bytes is out of range: allowed are 1 B..4 EiB" },
		{ "0K", "out of range" },
		{ "-8", "invalid size '-8'" },
		{ "+8", "invalid size '+8'" },
		{ " 8", "invalid size ' 8'" },
		{ "8 ", "invalid size '8 '" },
		{ "1.5K", "invalid size '1.5K'" },
		{ "K", "invalid size 'K'" },
		{ "8X", "invalid size '8X'" },
		{ "8KK", "invalid size '8KK'" },
		{ "8Kibi", "invalid size '8Kibi'" },
		{ "0x10", "invalid size '0x10'" },
		{ "1e3", "invalid size '1e3'" },
		{ "4097P", "out of range" },
		{ "99999999999999999999", "out of range" },
		{ "4611686018427387905", "out of range" },
		{ "9223372036854775807K", "out of range" },
	};
	char err[256];
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long b = 0;
		err[0] = '\0';
		if (select_parse_size("--min-bytes", bad[i].s, &b, err, sizeof(err)) != -1 ||
		    !strstr(err, bad[i].says))
			fail_msg("'%s': '%s', wanted '%s'", bad[i].s, err, bad[i].says);
	}
}

/* The counts a selection keeps, as "c1 c2 ..." */
static void counts(const struct selection *s, long longs, long target, char *buf, size_t len)
{
	long c[SELECT_MAX_COUNTS];
	int n = select_counts(s, longs, target, c);
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%ld", i ? " " : "", c[i]);
}

static void size_window(void **state)
{
	struct selection s;
	char buf[256];
	(void)state;
	selection_init(&s);
	counts(&s, 64, 4, buf, sizeof(buf));
	assert_string_equal(buf, "16 8 4 2 1");
	s.max_bytes = 64;
	counts(&s, 64, 4, buf, sizeof(buf));
	assert_string_equal(buf, "8 4 2 1");
	s.min_bytes = 16;
	counts(&s, 64, 4, buf, sizeof(buf));
	assert_string_equal(buf, "8 4 2");
	/* bounds between sizes keep what lies inside */
	s.min_bytes = 17;
	s.max_bytes = 63;
	counts(&s, 64, 4, buf, sizeof(buf));
	assert_string_equal(buf, "4");
	/* uneven sequences (7 ranks, target 3, LONGS 100: 33 16 8 4 2 1) */
	s.min_bytes = 30;
	s.max_bytes = 300;
	counts(&s, 100, 3, buf, sizeof(buf));
	assert_string_equal(buf, "33 16 8 4");
	s.min_bytes = 9;
	s.max_bytes = 15;
	counts(&s, 100, 3, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static void level_selection(void **state)
{
	struct selection s;
	char err[256];
	(void)state;
	selection_init(&s);
	assert_true(select_level(&s, 8, 8) && select_level(&s, 8, 1));
	assert_int_equal(select_parse_commsizes(&s, "world", err, sizeof(err)), 0);
	assert_true(select_level(&s, 8, 8));
	assert_false(select_level(&s, 8, 4));
	assert_true(select_level(&s, 7, 7));
	assert_int_equal(select_parse_commsizes(&s, "8,2", err, sizeof(err)), 0);
	assert_true(select_level(&s, 8, 8) && select_level(&s, 8, 2));
	assert_false(select_level(&s, 8, 4) || select_level(&s, 8, 1));
	assert_int_equal(select_parse_commsizes(&s, "world,1", err, sizeof(err)), 0);
	assert_true(select_level(&s, 6, 6) && select_level(&s, 6, 1));
	assert_false(select_level(&s, 6, 3));
}

static void checks_against_the_world(void **state)
{
	struct selection s;
	char err[256], note[256];
	(void)state;
	selection_init(&s);
	assert_int_equal(select_check(&s, 8, 64, err, sizeof(err), note, sizeof(note)), 0);
	assert_string_equal(note, "");
	/* uneven world: the levels are 7, 3, 1 */
	select_parse_commsizes(&s, "3", err, sizeof(err));
	assert_int_equal(select_check(&s, 7, 64, err, sizeof(err), note, sizeof(note)), 0);
	select_parse_commsizes(&s, "4", err, sizeof(err));
	assert_int_equal(select_check(&s, 7, 64, err, sizeof(err), note, sizeof(note)), -1);
	assert_string_equal(err, "commsize 4 is not a level of a world of 7 ranks: allowed are "
			    "world, 7, 3, 1");
	select_parse_commsizes(&s, "16", err, sizeof(err));
	assert_int_equal(select_check(&s, 8, 64, err, sizeof(err), note, sizeof(note)), -1);
	assert_true(strstr(err, "commsize 16 is not a level of a world of 8 ranks") != NULL);
	/* a window that leaves nothing */
	selection_init(&s);
	s.min_bytes = 1024;
	assert_int_equal(select_check(&s, 4, 64, err, sizeof(err), note, sizeof(note)), -1);
	assert_string_equal(err, "no count to measure: no size per peer of the selected levels "
			    "lies in 1 KiB..any (they are 8 B..512 B with LONGS 64)");
	/* a window off the sequence: a note saying what it became */
	selection_init(&s);
	s.min_bytes = 9;
	s.max_bytes = 100;
	assert_int_equal(select_check(&s, 4, 64, err, sizeof(err), note, sizeof(note)), 0);
	assert_string_equal(note, "--max-bytes=100 is not a size of the halving sequence at "
			    "commsize 4 (world 4): the nearest one inside the bounds is 64 B; "
			    "--min-bytes=9 is not a size of the halving sequence at commsize 4 "
			    "(world 4): the nearest one inside the bounds is 16 B");
	s.min_bytes = 64;
	s.max_bytes = 64;
	assert_int_equal(select_check(&s, 4, 64, err, sizeof(err), note, sizeof(note)), 0);
	assert_string_equal(note, "");
	s.min_bytes = 128;
	s.max_bytes = 8;
	assert_int_equal(select_check(&s, 4, 64, err, sizeof(err), note, sizeof(note)), -1);
	assert_string_equal(err, "--min-bytes=128 is above --max-bytes=8");
}

static void describes_itself(void **state)
{
	struct selection s;
	char buf[256], err[64];
	(void)state;
	selection_init(&s);
	select_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "commsizes all; bytes per peer 8 B..max");
	select_parse_commsizes(&s, "world,2", err, sizeof(err));
	s.min_bytes = 1024;
	s.max_bytes = 4L << 20;
	select_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "commsizes world,2; bytes per peer 1 KiB..4 MiB");
	format_bytes(buf, sizeof(buf), 1000);
	assert_string_equal(buf, "1000 B");
	format_bytes(buf, sizeof(buf), 3L << 30);
	assert_string_equal(buf, "3 GiB");
	format_bytes(buf, sizeof(buf), 1L << 62);
	assert_string_equal(buf, "4 EiB");
}

static void memory_check(void **state)
{
	char err[512];
	(void)state;
	assert_true(memcheck_need(1L << 20, 4, 0) == 4.0 * 2 * 8 * (1 << 20));
	assert_int_equal(memcheck(1L << 20, 4, 0, 64.0 * (1 << 20), "the node", "n1", err,
				  sizeof(err)), 0);
	assert_int_equal(memcheck(1L << 20, 5, 0, 64.0 * (1 << 20), "the node", "n1", err,
				  sizeof(err)), -1);
	assert_string_equal(err, "the buffers do not fit: 5 ranks on n1 need 0.08 GiB (2 x 1048576 "
			    "longs each), the node has 0.06 GiB available: use a smaller LONGS "
			    "or fewer ranks per node");
	assert_int_equal(memcheck(1L << 30, 1, 0, 8e9, "CUDA device 3", "g7", err, sizeof(err)), -1);
	assert_true(strstr(err, "1 rank on g7 need 16.00 GiB") != NULL);
	assert_true(strstr(err, "CUDA device 3 has 7.45 GiB available") != NULL);
	assert_true(strstr(err, "fewer ranks per device") != NULL);
	/* aller's own state counts: 4 ranks fit 64 MiB with none, not with 4 MiB each */
	assert_int_equal(memcheck(1L << 20, 4, 4.0 * (1 << 20), 64.0 * (1 << 20), "the node", "n1",
				  err, sizeof(err)), -1);
	assert_true(strstr(err, "(2 x 1048576 longs each, and 4 MiB of aller's own state each)"));
	/* unknown: no refusal */
	assert_int_equal(memcheck(1L << 40, 8, 0, -1, "the node", "n1", err, sizeof(err)), 0);
	assert_true(memcheck_meminfo("MemTotal:  24000000 kB\nMemFree: 1 kB\nMemAvailable:   "
				     "22000000 kB\n") == 22000000.0 * 1024);
	assert_true(memcheck_meminfo("MemTotal: 1 kB\n") < 0);
}

/* The last-level cache from a CPU's sysfs cache directory (a fake one). */
static void last_level_cache(void **state)
{
	char root[] = "/tmp/aller-llc-XXXXXX", path[256];
	static const char *const idx[][3] = { { "1", "Data", "48K" }, { "1", "Instruction", "64K" },
					      { "2", "Unified", "2048K" }, { "3", "Unified", "32M" } };
	int level = 0;
	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(memcheck_llc(root, &level), -1);   /* nothing there */
	for (int i = 0; i < 4; i++) {
		static const char *const names[] = { "level", "type", "size" };
		snprintf(path, sizeof(path), "%s/index%d", root, i);
		assert_int_equal(mkdir(path, 0700), 0);
		for (int k = 0; k < 3; k++) {
			FILE *f;
			snprintf(path, sizeof(path), "%s/index%d/%s", root, i, names[k]);
			assert_non_null(f = fopen(path, "w"));
			fprintf(f, "%s\n", idx[i][k]);
			fclose(f);
		}
	}
	assert_int_equal(memcheck_llc(root, &level), 32L << 20);
	assert_int_equal(level, 3);
	for (int i = 0; i < 4; i++) {
		static const char *const names[] = { "level", "type", "size" };
		for (int k = 0; k < 3; k++) {
			snprintf(path, sizeof(path), "%s/index%d/%s", root, i, names[k]);
			unlink(path);
		}
		snprintf(path, sizeof(path), "%s/index%d", root, i);
		rmdir(path);
	}
	rmdir(root);
}

/* A VM's sysconf: an L2 and no L3, or nothing. */
static long l2_only(int name)
{
	return name == _SC_LEVEL2_CACHE_SIZE ? 1L << 20 : 0;
}

static long none(int name)
{
	(void)name;
	return -1;
}

/* Without sysfs cache directories (some VMs), what sysconf knows. */
static void last_level_cache_from_sysconf(void **state)
{
	char root[] = "/tmp/aller-llc-XXXXXX";
	const char *from;
	int level = 0;
	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(memcheck_llc_any(root, &level, l2_only, &from), 1L << 20);
	assert_int_equal(level, 2);
	assert_string_equal(from, "sysconf");
	assert_int_equal(memcheck_llc_any(root, &level, none, &from), -1);
	rmdir(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(last_level_cache),
		cmocka_unit_test(last_level_cache_from_sysconf),
		cmocka_unit_test(sizes_that_parse),
		cmocka_unit_test(sizes_that_do_not),
		cmocka_unit_test(size_window),
		cmocka_unit_test(level_selection),
		cmocka_unit_test(checks_against_the_world),
		cmocka_unit_test(describes_itself),
		cmocka_unit_test(memory_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
