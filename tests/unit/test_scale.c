/*
 * Unit tests at P = 10^6 tasks on 10^4 nodes (pure parts, no MPI): what a
 * task keeps beside its buffers (footprint.h), its communicator's members
 * computed, not stored (verify.h's peers: both partitions are affine), and
 * rank 0's host lines (hostmap.h), which
 * stay one line for block and cyclic placements. Each test prints its
 * figures and time (make bench-scale runs this binary alone).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "algo/algo_list.h"
#include "buffers/footprint.h"
#include "buffers/verify.h"
#include "options.h"
#include "partition.h"
#include "world/hostmap.h"

#define P 1000000L
#define NODES 10000L
#define NAME 256

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void footprint_at_a_million(void **state)
{
	struct options o;
	struct footprint_in f;
	double base, v, pml, iso, r0;
	(void)state;

	options_init(&o);
	footprint_from(&f, &o, P, NODES);
	base = footprint_task(&f);
	/* the default (MPI_Alltoall): nothing per peer, nothing per task of the world */
	assert_true(base < 16 * 1024);
	footprint_from(&f, &o, 2 * P, 2 * NODES);
	assert_true(footprint_task(&f) - base < NODES / 8 + 1);   /* only the nodes' bitmap */
	/* alltoallv: MPI's counts and displacements, 16 B per peer of the communicator */
	assert_int_equal(algo_list_parse(&o.algos, "alltoall,alltoallv,pairwise", NULL, 0), 0);
	footprint_from(&f, &o, P, NODES);
	v = footprint_task(&f);
	assert_true(v - base == 16.0 * P);
	/* --reveal=pml: MPI_T's array of P and four tracked counters per peer */
	o.reveal = REVEAL_PML;
	footprint_from(&f, &o, P, NODES);
	pml = footprint_task(&f);
	assert_true(pml - v == 8.0 * P + 4 * 8.0 * P + 16 * 256);
	o.isolate = ISOLATE_ALL;
	footprint_from(&f, &o, P, NODES);
	iso = footprint_task(&f);
	assert_true(iso - pml == 16.0 * (P + 1));
	r0 = footprint_rank0(&f);
	printf("# scale: P = %ld on %ld nodes, per task beside the buffers: %.0f B (alltoall), "
	       "%.1f MB (+ alltoallv), %.1f MB (+ --reveal=pml), %.1f MB (+ --isolate=all); "
	       "rank 0 besides: %.1f MB\n", P, NODES, base, v / 1e6, pml / 1e6, iso / 1e6, r0 / 1e6);
}

/* Every member of every communicator at every level, as verify_peer computes it. */
static void peers_computed_not_stored(void **state)
{
	long checked = 0;
	double t0 = now();
	(void)state;

	for (int strided = 0; strided < 2; strided++)
		for (int level = 0; level < partition_nlevels(P); level++) {
			struct partition p;
			long rank = 123457 % P, color, g;
			struct verify_peers m;
			partition_init(&p, P, partition_level_target(P, level), strided);
			color = partition_color(&p, rank);
			g = partition_size(&p, color);
			m.base = partition_member(&p, color, 0);
			m.step = partition_member(&p, color, 1) - m.base;
			for (long k = 0; k < g; k++)
				if (verify_peer(m, k) != partition_member(&p, color, k))
					fail_msg("level %d member %ld: %ld, not %ld", level, k,
						 verify_peer(m, k), partition_member(&p, color, k));
			assert_int_equal(verify_peer(m, partition_key(&p, rank)), rank);
			checked += g;
		}
	printf("# scale: %ld members of one task's communicators over all levels, both modes, "
	       "computed in %.3f s (16 B of state per level)\n", checked, now() - t0);
}

/* Node n's ranks under block (k per node) or cyclic placement; names nid00000... */
static char *host_lines(int cyclic, int numbered, double *secs)
{
	long k = P / NODES, *ranks = malloc(sizeof(long) * P), *at = malloc(sizeof(long) * (NODES + 1));
	char *names = calloc(NODES, NAME), *lines;
	double t0;

	assert_non_null(ranks);
	assert_non_null(at);
	assert_non_null(names);
	for (long n = 0; n < NODES; n++) {
		if (numbered)
			snprintf(names + n * NAME, NAME, "nid%05ld", n);
		else
			snprintf(names + n * NAME, NAME, "%c%ld-ib", 'a' + (int)(n * 7 % 26),
				 n * 7919 % 100003);
		at[n] = n * k;
		for (long i = 0; i < k; i++)
			ranks[n * k + i] = cyclic ? n + i * NODES : n * k + i;
	}
	at[NODES] = P;
	t0 = now();
	lines = hostmap_lines(NODES, names, NAME, ranks, at);
	*secs = now() - t0;
	free(ranks);
	free(at);
	free(names);
	assert_non_null(lines);
	return lines;
}

static void host_lines_at_a_million(void **state)
{
	double tb, tc, tu;
	char *block = host_lines(0, 1, &tb), *cyclic = host_lines(1, 1, &tc);
	char *unnumbered = host_lines(0, 0, &tu);
	long lines = 0;
	(void)state;

	assert_string_equal(block, "nid[00000-09999] 0-99 +100\n");
	assert_string_equal(cyclic, "nid[00000-09999] 0-990000:10000 +1\n");
	/* names that do not count up: one line per node, none longer than its name and ranges */
	for (const char *c = unnumbered; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, NODES);
	assert_true(strlen(unnumbered) < NODES * 24);
	printf("# scale: host lines of %ld ranks on %ld nodes: block %zu B (%.3f s), cyclic %zu B "
	       "(%.3f s), unnumbered names %zu B (%.3f s)\n", P, NODES, strlen(block), tb,
	       strlen(cyclic), tc, strlen(unnumbered), tu);
	free(block);
	free(cyclic);
	free(unnumbered);
}

/* Small cases: runs break where the names or the pattern do. */
static void host_lines_runs(void **state)
{
	const char *names[] = { "n1", "n2", "n3", "n9", "n10", "x", "n011", "n012" };
	char flat[8][NAME] = { { 0 } };
	long ranks[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	long at[] = { 0, 2, 4, 6, 8, 10, 12, 14, 16 }, odd[] = { 0, 2, 4, 5, 8, 10, 12, 14, 16 };
	char *s;
	(void)state;

	for (int i = 0; i < 8; i++)
		snprintf(flat[i], NAME, "%s", names[i]);
	s = hostmap_lines(8, flat[0], NAME, ranks, at);
	assert_string_equal(s, "n[1-3] 0-1 +2\nn[9-10] 6-7 +2\nx 10-11\nn[011-012] 12-13 +2\n");
	free(s);
	/* node 3 holds one rank, node 4 three: the pattern breaks there */
	s = hostmap_lines(8, flat[0], NAME, ranks, odd);
	assert_string_equal(s, "n[1-2] 0-1 +2\nn3 4\nn9 5-7\nn10 8-9\nx 10-11\n"
			    "n[011-012] 12-13 +2\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(footprint_at_a_million),
		cmocka_unit_test(peers_computed_not_stored),
		cmocka_unit_test(host_lines_at_a_million),
		cmocka_unit_test(host_lines_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
