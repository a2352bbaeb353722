/* Unit tests: what --reveal makes of counter deltas (traffic.c). */
#include <errno.h>
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

#include "reveal/traffic.h"

static void log2_ceil(void **state)
{
	(void)state;
	assert_int_equal(traffic_log2_ceil(1), 0);
	assert_int_equal(traffic_log2_ceil(2), 1);
	assert_int_equal(traffic_log2_ceil(3), 2);
	assert_int_equal(traffic_log2_ceil(4), 2);
	assert_int_equal(traffic_log2_ceil(5), 3);
	assert_int_equal(traffic_log2_ceil(16), 4);
	assert_int_equal(traffic_log2_ceil(1025), 11);
}

static void fingerprints(void **state)
{
	(void)state;
	assert_int_equal(traffic_shape(1, 0), TRAFFIC_ALONE);
	assert_int_equal(traffic_shape(2, 1), TRAFFIC_PAIRWISE);
	assert_int_equal(traffic_shape(4, 3), TRAFFIC_PAIRWISE);
	assert_int_equal(traffic_shape(4, 2), TRAFFIC_BRUCK);
	assert_int_equal(traffic_shape(16, 4), TRAFFIC_BRUCK);   /* Open MPI's default at 16 ranks */
	assert_int_equal(traffic_shape(16, 15), TRAFFIC_PAIRWISE);
	assert_int_equal(traffic_shape(16, 9), TRAFFIC_OTHER);
	assert_int_equal(traffic_shape(8, 0), TRAFFIC_OTHER);    /* nothing sent where peers exist */
	assert_string_equal(traffic_shape_name(TRAFFIC_BRUCK), "bruck-like");
	assert_string_equal(traffic_shape_name(TRAFFIC_PAIRWISE), "pairwise/linear");
}

static char *line_of(const struct traffic *t, long count, const char *tier, int msgs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	traffic_line(f, t, count, tier, msgs);
	fclose(f);
	return buf;
}

/* Two "ranks" reduced by pack/unpack as the collectives do. */
static void reduce_two(struct traffic *out, const struct traffic *a, const struct traffic *b)
{
	double ma[TRAFFIC_NMAX], sa[TRAFFIC_NSUM], mb[TRAFFIC_NMAX], sb[TRAFFIC_NSUM];
	traffic_pack(a, ma, sa);
	traffic_pack(b, mb, sb);
	for (int i = 0; i < TRAFFIC_NMAX; i++)
		ma[i] = ma[i] > mb[i] ? ma[i] : mb[i];
	for (int i = 0; i < TRAFFIC_NSUM; i++)
		sa[i] += sb[i];
	traffic_unpack(out, ma, sa);
}

static void pml_line(void **state)
{
	struct traffic a, b, t;
	char *s;
	(void)state;
	/* 4 ranks, count 1, Bruck: 2 messages of 16 bytes against 24 logical bytes */
	traffic_init(&a);
	traffic_add(&a, 4, 2, 32, 24, 0);
	traffic_init(&b);
	traffic_add(&b, 4, 2, 32, 24, 0);
	reduce_two(&t, &a, &b);
	s = line_of(&t, 1, "pml", 1);
	assert_string_equal(s, "# traffic: count=1 tier=pml msgs=2 msgs_min=2 msgs_max=2 bytes=32 "
			    "bytes_min=32 bytes_max=32 logical=24 amplification=1.3333 "
			    "fingerprint=bruck-like cross_bytes=0\n");
	free(s);
}

static void uneven_groups_and_cross_traffic(void **state)
{
	struct traffic a, b, t;
	char *s;
	(void)state;
	/* 3 ranks, target 2: a rank of the pair and the one alone, and 8 stray bytes */
	traffic_init(&a);
	traffic_add(&a, 2, 1, 8, 8, 8);
	traffic_init(&b);
	traffic_add(&b, 1, 0, 0, 0, 0);
	reduce_two(&t, &a, &b);
	s = line_of(&t, 1, "pml", 1);
	assert_non_null(strstr(s, " msgs=0.5 msgs_min=0 msgs_max=1 "));
	assert_non_null(strstr(s, " fingerprint=pairwise/linear "));   /* the lone rank does not count */
	assert_non_null(strstr(s, " cross_bytes=8\n"));
	free(s);
	s = line_of(&t, 1, "coll", 0);
	assert_string_equal(s, "# traffic: count=1 tier=coll logical=4 cross_bytes=8\n");
	free(s);
	/* ranks of two algorithms */
	traffic_init(&b);
	traffic_add(&b, 4, 2, 32, 24, 0);
	reduce_two(&t, &a, &b);
	s = line_of(&t, 1, "pml", 1);
	assert_non_null(strstr(s, " fingerprint=mixed "));
	free(s);
}

static void nothing_sent_has_no_amplification(void **state)
{
	struct traffic t;
	char *s;
	(void)state;
	traffic_init(&t);
	traffic_add(&t, 1, 0, 0, 0, 0);
	s = line_of(&t, 4, "pml", 1);
	assert_non_null(strstr(s, " amplification=n/a fingerprint=alone "));
	free(s);
}

static void late_rule(void **state)
{
	(void)state;
	assert_true(traffic_late(56, 8, 7));
	assert_true(traffic_late(42, 8, 7));     /* exactly 3/4 */
	assert_false(traffic_late(41, 8, 7));
	assert_true(traffic_late(6, 8, 1));
	assert_false(traffic_late(5, 8, 1));
	assert_false(traffic_late(0, 8, 0));     /* alone: never late */
	assert_false(traffic_late(3, 0, 3));
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 4096);
	size_t n = fread(buf, 1, 4095, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void matrix_file(void **state)
{
	char dir[] = "/tmp/aller-traffic-XXXXXX", path[256], tmp[300];
	long ranks[2] = { 0, 2 };
	/* per source: bytes to each destination, then messages */
	uint64_t rows[8] = { 0, 32, 0, 2, 48, 0, 2, 0 };
	char *s;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m.dat", dir);
	char err[4400];
	assert_int_equal(traffic_matrix_write(path, "level 1", 2, ranks, rows, 2, err, sizeof(err)), 0);
	s = slurp(path);
	assert_string_equal(s, "# aller traffic matrix: level 1\n"
			    "# columns: src dst bytes_per_call msgs_per_call\n"
			    "0 0 0 0\n0 2 16 1\n\n2 0 24 1\n2 2 0 0\n\n");
	free(s);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_equal(access(tmp, F_OK), -1);
	unlink(path);
	/* a FIFO or a directory in its place is refused and left as it is */
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(traffic_matrix_write(path, "x", 2, ranks, rows, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is a FIFO: allowed is a regular file or a new name"));
	unlink(path);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(traffic_matrix_write(path, "x", 2, ranks, rows, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is a directory"));
	rmdir(path);
	rmdir(dir);
	/* a directory that is not there: -1 and nothing written */
	assert_int_equal(traffic_matrix_write("/nonexistent/aller/m.dat", "x", 2, ranks, rows, 1,
					      err, sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file or directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(log2_ceil),
		cmocka_unit_test(fingerprints),
		cmocka_unit_test(pml_line),
		cmocka_unit_test(uneven_groups_and_cross_traffic),
		cmocka_unit_test(nothing_sent_has_no_amplification),
		cmocka_unit_test(late_rule),
		cmocka_unit_test(matrix_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
