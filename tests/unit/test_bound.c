/* Unit tests: what a tree fabric allows a row (common/bound.c), on hand-computed cases. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bound.h"
#include "flows.h"

/*
 * The local cluster's fabric: n1..n4, two tasks each (ranks 0-1 on n1, ...),
 * n1 and n2 under leaf 0, n3 and n4 under leaf 1; NICs 1 Gbit/s (0.125 GB/s),
 * each leaf's uplink `up` GB/s (0.125: 2:1 oversubscribed); 1 MB per peer.
 */
static const long node8[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
static const long leaf4[4] = { 0, 0, 1, 1 };
static const double nic4[4] = { 0.125, 0.125, 0.125, 0.125 };

static struct bound row(double up0, double up1, long target, int strided, const long *leaf)
{
	double up[2] = { up0, up1 };
	struct bound_fabric f = { .nnodes = 4, .nleaves = 2, .leaf = leaf ? leaf : leaf4,
	                          .nic = nic4, .uplink = up, .node_name = NULL, .leaf_name = NULL,
	                          .parent = NULL };
	struct partition p;
	struct bound b;

	partition_init(&p, 8, target, strided);
	assert_int_equal(bound_row(&f, node8, &p, 1e6, &b), 0);
	return b;
}

static void a_two_to_one_tree(void **state)
{
	struct bound b;

	(void)state;
	/* the world: a node's 2 tasks send to 6 off-node peers (12 MB, 0.096 s); a
	 * leaf's 4 to the other leaf's 4 (16 MB, 0.128 s): the uplink bounds it */
	b = row(0.125, 0.125, 8, 0, NULL);
	assert_int_equal(b.link, BOUND_UPLINK);
	assert_int_equal(b.at, 0);
	assert_true(b.t > 0.127999 && b.t < 0.128001);
	assert_true(b.load > 15.9e6 && b.load < 16.1e6);
	assert_false(b.partial);
	/* contiguous 4s stay under their leaf: each NIC 2 x 2 MB, 0.032 s */
	b = row(0.125, 0.125, 4, 0, NULL);
	assert_int_equal(b.link, BOUND_NIC);
	assert_true(b.t > 0.031999 && b.t < 0.032001);
	/* strided 4s span both leaves: NICs 6 MB (0.048 s), uplinks 8 MB (0.064 s) */
	b = row(0.125, 0.125, 4, 1, NULL);
	assert_int_equal(b.link, BOUND_UPLINK);
	assert_true(b.t > 0.063999 && b.t < 0.064001);
	/* ... without oversubscription the NICs bound it */
	b = row(0.25, 0.25, 4, 1, NULL);
	assert_int_equal(b.link, BOUND_NIC);
	assert_true(b.t > 0.047999 && b.t < 0.048001);
	/* contiguous pairs never leave their node: no link carries a byte */
	b = row(0.125, 0.125, 2, 0, NULL);
	assert_int_equal(b.link, BOUND_NONE);
	assert_true(b.t == 0);
	/* strided pairs (r, r + 4) cross the spine: NICs 2 MB, uplinks 4 MB */
	b = row(0.125, 0.125, 2, 1, NULL);
	assert_int_equal(b.link, BOUND_UPLINK);
	assert_true(b.t > 0.031999 && b.t < 0.032001);
}

static void a_hot_leaf(void **state)
{
	struct bound b;

	(void)state;
	/* leaf 1's uplink at a fifth: it alone bounds the strided world */
	b = row(0.125, 0.025, 8, 1, NULL);
	assert_int_equal(b.link, BOUND_UPLINK);
	assert_int_equal(b.at, 1);
	assert_true(b.t > 0.639999 && b.t < 0.640001);
}

static void what_is_unknown_is_named(void **state)
{
	static const long leaf_unknown[4] = { 0, 0, 1, -1 };
	struct bound b;

	(void)state;
	/* leaf 1's uplink rate unknown: the bound is the rest's, and partial */
	b = row(0.125, 0, 8, 0, NULL);
	assert_true(b.partial);
	assert_int_equal(b.unknown, BOUND_UPLINK);
	assert_int_equal(b.unknown_at, 1);
	assert_int_equal(b.at, 0);
	/* n4's leaf unknown: so is what crosses its uplink */
	b = row(0.125, 0.125, 8, 0, leaf_unknown);
	assert_true(b.partial);
	assert_int_equal(b.unknown_at, -1 - 3);
	/* contiguous 4s under known leaves stay exact beside it */
	b = row(0.125, 0.125, 4, 0, NULL);
	assert_false(b.partial);
}

static void names_and_rates(void **state)
{
	const char *nodes[] = { "n1", "n2", "n3", "n4" }, *leaves[] = { "leaf1", "leaf2" };
	struct bound_fabric f = { .nnodes = 4, .nleaves = 2, .leaf = NULL, .nic = NULL,
	                          .uplink = NULL, .node_name = nodes, .leaf_name = leaves,
	                          .parent = NULL };
	char id[64], buf[128];

	(void)state;
	bound_link_id(&f, BOUND_UPLINK, 1, id, sizeof(id));
	bound_link_words(id, buf, sizeof(buf));
	assert_string_equal(id, "up:leaf2");
	assert_string_equal(buf, "the uplink of leaf2");
	bound_link_id(&f, BOUND_NIC, 2, id, sizeof(id));
	bound_link_words(id, buf, sizeof(buf));
	assert_string_equal(id, "nic:n3");
	assert_string_equal(buf, "the NIC of n3");
	bound_link_id(&f, BOUND_UPLINK, -1 - 3, id, sizeof(id));
	bound_link_words(id, buf, sizeof(buf));
	assert_string_equal(id, "up:leaf-of-n4");
	assert_string_equal(buf, "the uplink of n4's leaf");
	bound_link_id(&f, BOUND_COPY, 0, id, sizeof(id));
	assert_string_equal(id, "copy:n1");
	bound_link_id(&f, BOUND_UPLINK, 2, id, sizeof(id));   /* no third leaf */
	assert_string_equal(id, "");
	bound_link_words("up:leaf1(partial:nic:n2)", buf, sizeof(buf));
	assert_string_equal(buf, "the uplink of leaf1 (a partial bound: no rate for the NIC of n2)");
	bound_link_words("", buf, sizeof(buf));
	assert_string_equal(buf, "no link");
	assert_true(bound_rate("1000000kbit") > 0.124999 && bound_rate("1000000kbit") < 0.125001);
	assert_true(bound_rate("1gbit") > 0.124999 && bound_rate("1gbit") < 0.125001);
	assert_true(bound_rate("500mbit") > 0.0624999 && bound_rate("500mbit") < 0.0625001);
	assert_true(bound_rate("12.5GB/s") == 12.5);
	assert_true(bound_rate("fast") == 0);
	assert_true(bound_rate("-1gbit") == 0);
	assert_true(bound_rate("1gbitx") == 0);
}

static void each_link_and_a_communicator_s_links(void **state)
{
	double up[2] = { 0.125, 0.125 }, nic_t[4], up_t[2];
	struct bound_fabric f = { .nnodes = 4, .nleaves = 2, .leaf = leaf4, .nic = nic4,
	                          .uplink = up, .node_name = NULL, .leaf_name = NULL,
	                          .parent = NULL };
	char nic_used[4], up_used[2];
	struct partition p;
	struct bound b;

	(void)state;
	/* strided 4s: every NIC 6 MB (0.048 s), every uplink 8 MB (0.064 s) */
	partition_init(&p, 8, 4, 1);
	assert_int_equal(bound_times(&f, node8, &p, 1e6, &b, nic_t, up_t), 0);
	assert_int_equal(b.link, BOUND_UPLINK);   /* the bound of the same pass: the busiest of them */
	assert_true(b.t > 0.063999 && b.t < 0.064001);
	for (int i = 0; i < 4; i++)
		assert_true(nic_t[i] > 0.047999 && nic_t[i] < 0.048001);
	assert_true(up_t[0] > 0.063999 && up_t[1] < 0.064001);
	/* its communicator 0 (ranks 0 2 4 6) spans all nodes and both leaves */
	bound_comm_links(&f, node8, &p, 0, nic_used, up_used);
	assert_memory_equal(nic_used, "\1\1\1\1", 4);
	assert_memory_equal(up_used, "\1\1", 2);
	/* contiguous 4s: communicator 1 (ranks 4-7) is n3 and n4 under leaf 1: their NICs only */
	partition_init(&p, 8, 4, 0);
	bound_comm_links(&f, node8, &p, 1, nic_used, up_used);
	assert_memory_equal(nic_used, "\0\0\1\1", 4);
	assert_memory_equal(up_used, "\0\0", 2);
	assert_int_equal(bound_times(&f, node8, &p, 1e6, &b, nic_t, up_t), 0);
	assert_true(up_t[0] == 0 && up_t[1] == 0);
	assert_int_equal(b.link, BOUND_NIC);
	/* contiguous pairs stay on their node: no link */
	partition_init(&p, 8, 2, 0);
	bound_comm_links(&f, node8, &p, 3, nic_used, up_used);
	assert_memory_equal(nic_used, "\0\0\0\0", 4);
}

/*
 * Trees of 1 to 4 tiers, one task a node, 1 MB per peer, NICs 1 Gbit/s
 * (0.125 GB/s); each switch's uplink 0.25 GB/s (two NICs' worth: the leaves
 * non-blocking, every tier above 2:1 tapered), the top switch none.
 * Switch k's parent is parent[k]; node i under leaf i / 2.
 */
static struct bound tree(long nodes, long nsw, const long *parent, long target, int strided, int *tier)
{
	static const long node16[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	long leaf[16];
	double nic[16], up[16];
	struct bound_fabric f = { .nnodes = nodes, .nleaves = nsw, .leaf = leaf, .nic = nic,
	                          .uplink = up, .node_name = NULL, .leaf_name = NULL,
	                          .parent = parent };
	struct partition p;
	struct bound b;

	for (long i = 0; i < nodes; i++) {
		leaf[i] = nsw == 1 ? 0 : i / 2;
		nic[i] = 0.125;
	}
	for (long k = 0; k < nsw; k++)
		up[k] = parent && parent[k] < 0 ? 0 : 0.25;
	partition_init(&p, nodes, target, strided);
	assert_int_equal(bound_row(&f, node16, &p, 1e6, &b), 0);
	*tier = b.link == BOUND_UPLINK ? bound_tier(&f, b.at) : 0;
	return b;
}

static void trees_of_any_depth(void **state)
{
	/* 3 tiers, 8 nodes: leaves 0-3, aggregation 4 (leaves 0, 1) and 5 (2, 3), core 6 */
	static const long three[7] = { 4, 4, 5, 5, 6, 6, -1 };
	/* 4 tiers, 16 nodes: leaves 0-7, aggregation 8-11, spines 12-13, core 14 */
	static const long four[15] = { 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, -1 };
	static const long top[1] = { -1 };
	struct bound b;
	int tier;

	(void)state;
	/* 1 tier: one switch, no uplink: each NIC sends to 7 peers, 7 MB / 0.125 GB/s = 0.056 s */
	b = tree(8, 1, top, 8, 0, &tier);
	assert_int_equal(b.link, BOUND_NIC);
	assert_true(b.t > 0.055999 && b.t < 0.056001);
	/*
	 * 3 tiers, the world: a NIC 7 MB (0.056 s); a leaf's 2 tasks to 6 others,
	 * 12 MB (0.048 s); an aggregation switch's 4 to 4, 16 MB (0.064 s); the
	 * core's 8 to none. The uplink of switch 4, tier 2, bounds it.
	 */
	b = tree(8, 7, three, 8, 0, &tier);
	assert_int_equal(b.link, BOUND_UPLINK);
	assert_int_equal(b.at, 4);
	assert_int_equal(tier, 2);
	assert_true(b.t > 0.063999 && b.t < 0.064001);
	assert_true(b.load > 15.99e6 && b.load < 16.01e6);
	/* ... read as two tiers (every switch under the spine) the leaves' 12 MB do not bound it: the NICs do */
	b = tree(8, 6, NULL, 8, 0, &tier);
	assert_int_equal(b.link, BOUND_NIC);
	/* contiguous 4s stay under their aggregation switch: NIC 3 MB (0.024 s), leaf 2 x 2 MB (0.016 s) */
	b = tree(8, 7, three, 4, 0, &tier);
	assert_int_equal(b.link, BOUND_NIC);
	assert_true(b.t > 0.023999 && b.t < 0.024001);
	/* strided 4s (i, i + 2, ...) cross the core: aggregation 2 x 2 MB per communicator, 2 of them: 8 MB */
	b = tree(8, 7, three, 4, 1, &tier);
	assert_int_equal(tier, 2);
	assert_true(b.t > 0.031999 && b.t < 0.032001);
	/*
	 * 4 tiers, the world of 16: NIC 15 MB (0.12 s), leaf 2 x 14 (0.112 s),
	 * aggregation 4 x 12 (0.192 s), spine 8 x 8 = 64 MB (0.256 s): tier 3.
	 */
	b = tree(16, 15, four, 16, 0, &tier);
	assert_int_equal(b.link, BOUND_UPLINK);
	assert_int_equal(b.at, 12);
	assert_int_equal(tier, 3);
	assert_true(b.t > 0.255999 && b.t < 0.256001);
}

/*
 * A three-tier 2:1 tapered fat tree on paper: 128 nodes of one 200 Gbit/s
 * NIC (25 GB/s); leaves of 16 nodes whose uplinks carry half their nodes'
 * (16 x 25 / 2 = 200 GB/s); aggregation switches of 2 leaves whose uplinks
 * carry half their leaves' (2 x 200 / 2 = 200 GB/s); a core. A machine-wide
 * all-to-all, one task a node, 1 MB per peer, each way per call:
 *   a NIC        127 MB              / 25 GB/s  =  5.08 ms
 *   a leaf       16 x 112 = 1,792 MB / 200 GB/s =  8.96 ms
 *   aggregation  32 x 96  = 3,072 MB / 200 GB/s = 15.36 ms   <- the bound, tier 2
 */
static void a_tapered_fat_tree_on_paper(void **state)
{
	long node[128], leaf[128], parent[13];
	double nic[128], up[13];
	const char *names[13];
	struct bound_fabric f = { .nnodes = 128, .nleaves = 13, .leaf = leaf, .nic = nic,
	                          .uplink = up, .node_name = NULL, .leaf_name = names,
	                          .parent = parent };
	struct partition p;
	struct bound b;
	char id[32];

	(void)state;
	for (long i = 0; i < 128; i++) {
		node[i] = i;
		leaf[i] = i / 16;   /* leaves 0-7 */
		nic[i] = 25;
	}
	for (long k = 0; k < 8; k++)
		parent[k] = 8 + k / 2;   /* aggregation switches 8-11 */
	for (long k = 8; k < 12; k++)
		parent[k] = 12;          /* the core */
	parent[12] = -1;
	for (long k = 0; k < 13; k++) {
		up[k] = k < 12 ? 200 : 0;
		names[k] = k < 8 ? "leaf" : k < 12 ? "agg" : "core";
	}
	partition_init(&p, 128, 128, 0);
	assert_int_equal(bound_row(&f, node, &p, 1e6, &b), 0);
	assert_int_equal(b.link, BOUND_UPLINK);
	assert_int_equal(b.at, 8);
	assert_int_equal(bound_tier(&f, b.at), 2);
	assert_true(b.t > 0.015359 && b.t < 0.015361);
	bound_link_id(&f, b.link, b.at, id, sizeof(id));
	assert_string_equal(id, "up:agg");
	/* without the taper above the leaves (aggregation uplinks at 400 GB/s: 7.68 ms) the leaves bound it */
	for (long k = 8; k < 12; k++)
		up[k] = 400;
	assert_int_equal(bound_row(&f, node, &p, 1e6, &b), 0);
	assert_int_equal(bound_tier(&f, b.at), 1);
	assert_true(b.t > 0.008959 && b.t < 0.008961);
}

static void a_tree_s_links_of_a_communicator(void **state)
{
	static const long three[7] = { 4, 4, 5, 5, 6, 6, -1 };
	static const long node8b[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const long leaf8[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	double nic[8] = { 0 }, up[7] = { 0 };
	struct bound_fabric f = { .nnodes = 8, .nleaves = 7, .leaf = leaf8, .nic = nic,
	                          .uplink = up, .node_name = NULL, .leaf_name = NULL,
	                          .parent = three };
	char nic_used[8], up_used[7];
	struct partition p;

	(void)state;
	/* contiguous 4s: communicator 0 is nodes 0-3, under aggregation switch 4: its leaves' uplinks only */
	partition_init(&p, 8, 4, 0);
	bound_comm_links(&f, node8b, &p, 0, nic_used, up_used);
	assert_memory_equal(up_used, "\1\1\0\0\0\0\0", 7);
	/* strided 4s: 0 2 4 6, every leaf and both aggregation switches; never the core */
	partition_init(&p, 8, 4, 1);
	bound_comm_links(&f, node8b, &p, 0, nic_used, up_used);
	assert_memory_equal(up_used, "\1\1\1\1\1\1\0", 7);
	assert_int_equal(bound_tier(&f, 0), 1);
	assert_int_equal(bound_tier(&f, 6), 3);
}

/*
 * A dragonfly on paper, Cray EX's published group (HPE Slingshot): 32
 * switches of 16 endpoints each, 512 a group, links of 200 Gbit/s (25 GB/s),
 * here 4 global links per pair of groups ("links per arc") and 8 groups:
 * 4,096 nodes of one NIC, a task each, a machine-wide all-to-all of 1 MiB
 * (1,048,576 B) per peer, each way per call:
 *   a NIC            4,095 MiB                          / 25 GB/s           =  0.1718 s
 *   a pair's links   512 x 512 MiB = 262,144 MiB        / (4 x 25 GB/s)     =  2.7488 s  <- minimal
 *   a group's links  512 x 3,584 MiB = 1,835,008 MiB    / (7 x 4 x 25 GB/s) =  2.7488 s  <- adaptive
 * (uniform traffic: adaptive routing has no spare path; the global links
 * bound it 16x above the NICs). Two groups alone (1,024 nodes):
 *   a pair's links   262,144 MiB / 100 GB/s = 2.7488 s (minimal: one pair's links)
 *   a group's links  262,144 MiB / 700 GB/s = 0.3927 s (adaptive: through the 6 other groups)
 *   a NIC            1,023 MiB / 25 GB/s    = 0.0429 s
 */
static void a_dragonfly_on_paper(void **state)
{
	static long node[4096], leaf[4096], group[256];
	static double nic[4096], up[256];
	static const char *gname[8] = { "g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7" };
	struct bound_fabric f = { .nnodes = 4096, .nleaves = 256, .leaf = leaf, .nic = nic,
	                          .uplink = up, .parent = NULL, .group = group, .ngroups = 8,
	                          .group_name = gname, .global_links = 4, .global_rate = 25 };
	struct partition p;
	struct bound b;
	char id[32], words[64];
	const double mib = 1048576;

	(void)state;
	for (long i = 0; i < 4096; i++) {
		node[i] = i;
		leaf[i] = i / 16;
		nic[i] = 25;
	}
	for (long k = 0; k < 256; k++)
		group[k] = k / 32;   /* up[k] 0: a group's local links bound nothing here */
	partition_init(&p, 4096, 4096, 0);
	assert_int_equal(bound_row(&f, node, &p, mib, &b), 0);
	assert_int_equal(b.link, BOUND_GLOBAL);
	assert_false(b.partial);
	assert_true(fabs(b.t - 262144 * mib / 1e11) < 1e-9 && fabs(b.t_minimal - b.t) < 1e-9);
	assert_true(fabs(b.t / (4095 * mib / 25e9) - 16.0) < 0.01);
	bound_link_id(&f, b.link, b.at, id, sizeof(id));
	assert_string_equal(id, "global:g0:g1");
	bound_link_words(id, words, sizeof(words));
	assert_string_equal(words, "the global links from g0 to g1");
	f.adaptive = 1;
	assert_int_equal(bound_row(&f, node, &p, mib, &b), 0);
	assert_true(fabs(b.t - 1835008 * mib / 7e11) < 1e-9 && fabs(b.t_minimal - b.t) < 1e-9);
	/* two groups alone: adaptive routing spreads over the other groups, minimal cannot */
	partition_init(&p, 1024, 1024, 0);
	assert_int_equal(bound_row(&f, node, &p, mib, &b), 0);
	assert_true(fabs(b.t - 262144 * mib / 7e11) < 1e-9);
	assert_true(fabs(b.t_minimal - 262144 * mib / 1e11) < 1e-9);
	bound_link_id(&f, b.link, b.at, id, sizeof(id));
	assert_string_equal(id, "global:g0");
	bound_link_words(id, words, sizeof(words));
	assert_string_equal(words, "the global links of g0");
	f.adaptive = 0;
	assert_int_equal(bound_row(&f, node, &p, mib, &b), 0);
	assert_true(fabs(b.t - 262144 * mib / 1e11) < 1e-9);
	/* inside one group no global link is crossed: the NICs bound it */
	partition_init(&p, 1024, 512, 0);
	assert_int_equal(bound_row(&f, node, &p, mib, &b), 0);
	assert_int_equal(b.link, BOUND_NIC);
	assert_true(fabs(b.t - 511 * mib / 25e9) < 1e-9);
	/* global links without a rate: the bound is partial, naming them */
	f.global_rate = 0;
	partition_init(&p, 1024, 1024, 0);
	assert_int_equal(bound_row(&f, node, &p, mib, &b), 0);
	assert_true(b.partial && b.unknown == BOUND_GLOBAL);
	bound_link_of(&f, &b, id, sizeof(id));
	assert_non_null(strstr(id, "(partial:global:g0:g1)"));
}

/*
 * Rails and the node's own links on paper, a DGX H100 SuperPOD's shape: 128 nodes of 8 GPUs, each
 * GPU's task on its own NIC of 400 Gbit/s (50 GB/s), NIC k on rail k; 4
 * scalable units of 32 nodes, one leaf per unit and rail (32 leaves of 32
 * NICs), non-blocking (each leaf's uplink 32 x 50 = 1,600 GB/s) to a spine.
 * A machine-wide all-to-all of 1,024 tasks, 1 MB per peer each way per call:
 *   a NIC    its task to the 1,016 tasks on other nodes: 1,016 MB / 50 GB/s = 20.32 ms  <- the bound
 *   a leaf   32 tasks x (992 not under it - 7 on their own nodes) = 31,520 MB / 1,600 GB/s = 19.70 ms
 * (a task's bytes to the 7 other GPUs of its node cross no NIC and no
 * leaf). Tapered 2:1 (800 GB/s) the leaves bound it: 39.40 ms. One rail
 * alone (every task on NIC 0): that NIC carries its node's 8 tasks, 8 x
 * 1,016 MB / 50 GB/s = 162.56 ms, 8x the eight rails'.
 */
static void rails_on_paper(void **state)
{
	static long nic_of[1024], leaf[1024], host[1024], one[1024];
	static double rate[1024], up[32];
	struct bound_fabric f = { .nnodes = 1024, .nleaves = 32, .leaf = leaf, .nic = rate, .uplink = up,
	                          .host = host };
	struct partition p;
	struct bound b;

	(void)state;
	for (long e = 0; e < 1024; e++) {   /* NIC e: node e / 8, rail e % 8 */
		host[e] = e / 8;
		leaf[e] = (e / 8 / 32) * 8 + e % 8;   /* unit, then rail */
		rate[e] = 50;
	}
	for (long r = 0; r < 1024; r++) {
		nic_of[r] = r;              /* task r: GPU r % 8 of node r / 8, its own rail */
		one[r] = r / 8 * 8;         /* ... every task of a node on its rail-0 NIC */
	}
	for (long k = 0; k < 32; k++)
		up[k] = 1600;
	partition_init(&p, 1024, 1024, 0);
	assert_int_equal(bound_row(&f, nic_of, &p, 1e6, &b), 0);
	assert_int_equal(b.link, BOUND_NIC);
	assert_true(fabs(b.t - 1016e6 / 50e9) < 1e-12);
	assert_false(b.partial);
	double nic_t[1024], up_t[32];
	assert_int_equal(bound_times(&f, nic_of, &p, 1e6, &b, nic_t, up_t), 0);
	assert_true(fabs(up_t[0] - 31520e6 / 1600e9) < 1e-12 && fabs(up_t[31] - up_t[0]) < 1e-12);
	for (long k = 0; k < 32; k++)
		up[k] = 800;
	assert_int_equal(bound_row(&f, nic_of, &p, 1e6, &b), 0);
	assert_int_equal(b.link, BOUND_UPLINK);
	assert_true(fabs(b.t - 31520e6 / 800e9) < 1e-12);
	for (long k = 0; k < 32; k++)
		up[k] = 1600;
	assert_int_equal(bound_row(&f, one, &p, 1e6, &b), 0);
	assert_int_equal(b.link, BOUND_NIC);
	assert_int_equal(b.at % 8, 0);
	assert_true(fabs(b.t - 8 * 1016e6 / 50e9) < 1e-12);
	/*
	 * The node's own links: each H100's NVLink 4 to the NVSwitches, 18 links
	 * of 25 GB/s, 450 GB/s each way. A node's 8 GPUs alone: each port carries
	 * its 7 peers' 1 MB, 7 MB / 450 GB/s = 15.56 us (without them: no link at
	 * all); in the machine-wide row the NICs' 20.32 ms, not the GPUs' 15.56 us.
	 */
	static double nvlink[1024];
	for (long e = 0; e < 1024; e++)
		nvlink[e] = 450;
	f.gpu = nvlink;
	assert_int_equal(bound_row(&f, nic_of, &p, 1e6, &b), 0);
	assert_int_equal(b.link, BOUND_NIC);
	partition_init(&p, 8, 8, 0);
	assert_int_equal(bound_row(&f, nic_of, &p, 1e6, &b), 0);
	assert_int_equal(b.link, BOUND_GPU);
	assert_int_equal(b.at, 0);
	assert_true(fabs(b.t - 7e6 / 450e9) < 1e-15);
	char words[64];
	bound_link_words("gpu:n1", words, sizeof(words));
	assert_string_equal(words, "the GPU links of n1");
	f.gpu = NULL;
	assert_int_equal(bound_row(&f, nic_of, &p, 1e6, &b), 0);
	assert_int_equal(b.link, BOUND_NONE);
}

/*
 * Two nodes of 2 NICs (rails 0 and 1, each rail its leaf), 2 tasks a node,
 * 1 MiB per peer: over one rail each node's NIC carries both tasks' 2 x 2
 * MiB, over both rails each NIC one task's 2 MiB: bound twice as high. A
 * slowed rail (n1's NIC 1 at a quarter) is the one named. Tasks of a node
 * on its two NICs exchange nothing through a leaf.
 */
static void one_rail_or_two(void **state)
{
	long leaf[4] = { 0, 1, 0, 1 }, host[4] = { 0, 0, 1, 1 };
	long both[4] = { 0, 1, 2, 3 }, rail0[4] = { 0, 0, 2, 2 };
	double rate[4] = { 0.125, 0.125, 0.125, 0.125 }, up[2] = { 1, 1 };
	const char *names[4] = { "n1:eth0", "n1:eth1", "n2:eth0", "n2:eth1" };
	struct bound_fabric f = { .nnodes = 4, .nleaves = 2, .leaf = leaf, .nic = rate, .uplink = up,
	                          .node_name = names, .host = host };
	struct partition p;
	struct bound b, b1;
	char id[64];
	double up_t[2];

	(void)state;
	partition_init(&p, 4, 4, 0);
	assert_int_equal(bound_row(&f, rail0, &p, 1048576, &b1), 0);
	assert_int_equal(bound_times(&f, both, &p, 1048576, &b, NULL, up_t), 0);
	assert_true(fabs(b1.t - 4 * 1048576 / 0.125e9) < 1e-12);
	assert_true(fabs(b.t - 2 * 1048576 / 0.125e9) < 1e-12);
	assert_true(fabs(b1.t / b.t - 2) < 1e-9);
	/* rail 0's leaf: task 0 to task 2 (rail 0 both) stays; to task 3 (n2's rail 1) goes up: 2 MiB */
	assert_true(fabs(up_t[0] - 2 * 1048576 / 1e9) < 1e-12);
	rate[1] = 0.125 / 4;
	assert_int_equal(bound_row(&f, both, &p, 1048576, &b), 0);
	bound_link_id(&f, b.link, b.at, id, sizeof(id));
	assert_string_equal(id, "nic:n1:eth1");
	assert_true(fabs(b.t - 2 * 1048576 / (0.125e9 / 4)) < 1e-12);
}

/* t within a microsecond of want */
#define NEAR(t, want) assert_true(fabs((t) - (want)) < 1e-6)

/*
 * Rails striped (the TCP BTL given both interfaces: each message over both,
 * NIC k to the peer's NIC k), the fabric of one_rail_or_two. One task a
 * node, 1 MiB per peer: each rail carries half of it, 0.5 MiB / 0.125 GB/s
 * = 4.19 ms, half what one rail alone needs (every byte on NIC 0: 8.39 ms);
 * no byte crosses a leaf's uplink (rail-aligned). 2 tasks a node: each NIC
 * carries both tasks' halves to the other node's 2, 2 MiB / 0.125 GB/s
 * (16.78 ms), as spread evenly, but without the uplinks those cross. n1's
 * rail-1 NIC at a quarter: its half at a quarter of the rate, 0.5 MiB /
 * 0.03125 GB/s = 16.78 ms, bound by it. Both of a node's NICs are its
 * communicators' links.
 */
static void striped_rails(void **state)
{
	long leaf[4] = { 0, 1, 0, 1 }, host[4] = { 0, 0, 1, 1 }, stripe[2] = { 0, 1 };
	long one[2] = { 0, 2 }, two[4] = { 0, 0, 2, 2 }, spread[4] = { 0, 1, 2, 3 };
	double rate[4] = { 0.125, 0.125, 0.125, 0.125 }, up[2] = { 1, 1 }, up_t[2];
	const char *names[4] = { "n1:eth0", "n1:eth1", "n2:eth0", "n2:eth1" };
	struct bound_fabric f = { .nnodes = 4, .nleaves = 2, .leaf = leaf, .nic = rate, .uplink = up,
	                          .node_name = names, .host = host };
	struct partition p;
	struct bound b, b1;
	char id[64], nic_used[4], up_used[2];

	(void)state;
	partition_init(&p, 2, 2, 0);
	assert_int_equal(bound_row(&f, one, &p, 1048576, &b1), 0);
	NEAR(b1.t, 1048576 / 0.125e9);
	f.stripe = stripe, f.nstripe = 2, f.rails = 2;
	assert_int_equal(bound_times(&f, one, &p, 1048576, &b, NULL, up_t), 0);
	NEAR(b.t, 0.5 * 1048576 / 0.125e9);
	assert_true(fabs(b1.t / b.t - 2) < 1e-9);
	assert_true(up_t[0] == 0 && up_t[1] == 0);
	bound_comm_links(&f, one, &p, 0, nic_used, up_used);
	assert_memory_equal(nic_used, ((char[4]){ 1, 1, 1, 1 }), 4);
	assert_true(!up_used[0] && !up_used[1]);
	partition_init(&p, 4, 4, 0);
	assert_int_equal(bound_times(&f, two, &p, 1048576, &b, NULL, up_t), 0);
	NEAR(b.t, 2 * 1048576 / 0.125e9);
	assert_true(up_t[0] == 0 && up_t[1] == 0);
	f.stripe = NULL;
	assert_int_equal(bound_times(&f, spread, &p, 1048576, &b1, NULL, up_t), 0);
	NEAR(b1.t, b.t);
	assert_true(up_t[0] > 0);
	f.stripe = stripe;
	rate[1] = 0.125 / 4;
	partition_init(&p, 2, 2, 0);
	assert_int_equal(bound_row(&f, one, &p, 1048576, &b), 0);
	bound_link_id(&f, b.link, b.at, id, sizeof(id));
	assert_string_equal(id, "nic:n1:eth1");
	NEAR(b.t, 0.5 * 1048576 / (0.125e9 / 4));
	/* a rail out of range: not striped, each task on its own NIC */
	stripe[1] = 2;
	assert_int_equal(bound_row(&f, one, &p, 1048576, &b), 0);
	NEAR(b.t, 1048576 / 0.125e9);
}


/*
 * --pairs' steps on the local cluster's fabric, one task a node, 4 MB a
 * message: step k sends i -> i + k (mod 4) at once (flows.h).
 */
static void the_flows_of_a_step(void **state)
{
	long leaf[4] = { 0, 0, 1, 1 }, s1[4] = { 0, 1, 2, 3 }, d1[4] = { 1, 2, 3, 0 }, d2[4] = { 2, 3, 0, 1 }, by[4];
	double up[2] = { 0.125, 0.125 }, nic[4] = { 0.125, 0.125, 0.125, 0.025 }, t[4];
	struct bound_fabric f = { .nnodes = 4, .nleaves = 2, .leaf = leaf, .nic = nic4, .uplink = up };

	(void)state;
	/* step 1: one flow a link each way: 4 MB / 0.125 GB/s = 0.032 s each */
	assert_int_equal(bound_flows(&f, s1, d1, 4, 4e6, t, NULL), 0);
	for (int i = 0; i < 4; i++)
		NEAR(t[i], 0.032);
	/* step 2: 0 -> 2 and 1 -> 3 share leaf 0's uplink up (2 -> 0 and 3 -> 1 leaf 1's): 0.064 s each */
	assert_int_equal(bound_flows(&f, s1, d2, 4, 4e6, t, by), 0);
	for (int i = 0; i < 4; i++)
		NEAR(t[i], 0.064);
	/* ... each pair by its uplink: the same link for the two that share one */
	assert_true(by[0] >= 0 && by[0] == by[1] && by[2] >= 0 && by[2] == by[3] && by[0] != by[2]);
	/* node 2's cable on leaf 0: 0 -> 2 and 2 -> 0 stay under it, 1 -> 3 and 3 -> 1 alone on the uplink */
	leaf[2] = 0;
	assert_int_equal(bound_flows(&f, s1, d2, 4, 4e6, t, NULL), 0);
	for (int i = 0; i < 4; i++)
		NEAR(t[i], 0.032);
	/* max-min: node 3's NIC at 0.025 GB/s holds 1 -> 3 to it (0.16 s); 0 -> 2 takes the
	 * rest of the uplink it shared, 0.1 GB/s (0.04 s), as built (node 2 on leaf 1) */
	leaf[2] = 1;
	f.nic = nic;
	assert_int_equal(bound_flows(&f, s1, d2, 4, 4e6, t, by), 0);
	assert_true(by[1] == 4 + 3 && by[3] == 3 && by[0] != by[2]);   /* node 3's NIC in (links 4..7), out (0..3) */
	NEAR(t[0], 0.04);
	NEAR(t[1], 0.16);
	NEAR(t[3], 0.16);   /* 3 -> 1 out of node 3's NIC */
	NEAR(t[2], 0.04);   /* 2 -> 0 beside it on leaf 1's uplink */
	/* a task to its own node crosses nothing; an uplink without a rate makes its flows unknown */
	up[1] = 0;
	f.nic = nic4;
	assert_int_equal(bound_flows(&f, (long[]){ 0, 0 }, (long[]){ 0, 2 }, 2, 4e6, t, NULL), 0);
	assert_true(t[0] == 0);
	assert_true(isnan(t[1]));
	/* not a tree, or a node out of range: -1 */
	assert_int_equal(bound_flows(&f, (long[]){ 0 }, (long[]){ 4 }, 1, 4e6, t, NULL), -1);
	f.host = s1;
	assert_int_equal(bound_flows(&f, s1, d1, 4, 4e6, t, NULL), -1);
}

/*
 * Three tiers: nodes 0..3 each on its own leaf (0..3), leaves 0-1 under
 * aggregation switch 4, 2-3 under 5, both under core 6 (no uplink); every
 * uplink 0.125 GB/s. Step 2 (0 -> 2, 1 -> 3 ...) crosses the core: switch
 * 4's uplink carries two flows up, 0.064 s each; step 1 one (1 -> 2): 0.032 s.
 */
static void the_flows_of_three_tiers(void **state)
{
	long leaf[4] = { 0, 1, 2, 3 }, parent[7] = { 4, 4, 5, 5, 6, 6, -1 }, s[4] = { 0, 1, 2, 3 };
	double up[7] = { 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0 }, t[4];
	struct bound_fabric f = { .nnodes = 4, .nleaves = 7, .leaf = leaf, .nic = nic4, .uplink = up, .parent = parent };

	(void)state;
	assert_int_equal(bound_flows(&f, s, (long[]){ 2, 3, 0, 1 }, 4, 4e6, t, NULL), 0);
	for (int i = 0; i < 4; i++)
		NEAR(t[i], 0.064);
	assert_int_equal(bound_flows(&f, s, (long[]){ 1, 2, 3, 0 }, 4, 4e6, t, NULL), 0);
	for (int i = 0; i < 4; i++)
		NEAR(t[i], 0.032);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trees_of_any_depth),
		cmocka_unit_test(a_tapered_fat_tree_on_paper),
		cmocka_unit_test(a_dragonfly_on_paper),
		cmocka_unit_test(rails_on_paper),
		cmocka_unit_test(one_rail_or_two),
		cmocka_unit_test(striped_rails),
		cmocka_unit_test(a_tree_s_links_of_a_communicator),
		cmocka_unit_test(a_two_to_one_tree),
		cmocka_unit_test(a_hot_leaf),
		cmocka_unit_test(what_is_unknown_is_named),
		cmocka_unit_test(names_and_rates),
		cmocka_unit_test(each_link_and_a_communicator_s_links),
		cmocka_unit_test(the_flows_of_a_step),
		cmocka_unit_test(the_flows_of_three_tiers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
