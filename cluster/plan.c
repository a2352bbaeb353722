/*
 * cluster/plan.c: the local cluster's fabric as a table, from its settings
 * (cluster/lib.sh), so that the shell that builds it (net.sh), shapes it
 * (shape.sh), faults it (fabric.sh) and tells Slurm of it (config.sh)
 * follows one plan of any depth:
 *
 *   cluster-plan [-t] NODES TIERS LEAVES RAILS NIC_KBIT OVERSUB...
 *
 * TIERS 1 (one switch), 2 (leaves under a spine) or 3 (leaves under
 * aggregation switches under a core); LEAVES 0 for the default (1 for one
 * node or one tier, 2 for two tiers, 4 for three, never more than the
 * nodes); the nodes in blocks in order under the leaves, the leaves in
 * blocks under ceil(LEAVES / 2) aggregation switches. RAILS (1 to 4): each
 * node's NICs, eth0 ... each on its own rail of LEAVES leaves (rail k's
 * leaf j is leaf k x LEAVES + j), every rail's leaves under one spine (two
 * tiers). OVERSUB: one factor per tier boundary, from the leaves up (one
 * factor: every boundary's): a switch's uplink carries what is under it
 * (its NICs, or its switches' uplinks) over its factor.
 *
 * Prints the table net.sh builds (build/cluster/fabric/links): a header,
 * then "nic NIC LEAF KBIT DEV PORT ADDRESS" per NIC (NIC the node's name,
 * or NODE:DEV with rails; DEV its interface in the node, PORT its end on
 * the switch, ADDRESS rail k's 10.0.k.N) and "uplink SWITCH PARENT KBIT"
 * per switch that has one, tab-separated; with -t, Slurm's topology.conf
 * of the same tree instead (with rails, rail 0's: Slurm puts a node under
 * one leaf). A bad setting: one line naming it and what is allowed, exit
 * 2, nothing printed.
 *
 *   cluster-plan rate RATE [MAX_KBIT]
 *
 * RATE (a decimal number and kbit, mbit or gbit, as tc takes it) in kbit/s,
 * from 8 kbit/s to MAX_KBIT (a NIC's built rate; without, 10^9 kbit/s, a
 * terabit per second); anything else one line and exit 2: the shell's one
 * reader of a rate (cluster/shape.sh's rate_kbit), through the number door
 * (common/bytes.h) that aller and collect read theirs with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

#define PLAN_NODES 64
#define PLAN_TIERS 3
#define PLAN_RAILS 4

struct plan {
	long nodes, tiers, leaves, aggs, rails;   /* leaves: a rail's */
	double nic, oversub[PLAN_TIERS - 1];
};

static int bad(const char *what)
{
	fprintf(stderr, "%s\n", what);
	return 2;
}

/* A whole number in lo..hi from s, or -1. */
static long whole(const char *s, long lo, long hi)
{
	long v;

	return parse_long(s, lo, hi, &v) == 0 ? v : -1;
}

/* cluster-plan rate RATE [MAX_KBIT]: 0 with its kbit/s printed, or 2. */
static int rate(int argc, char **argv)
{
	static const char *const units[] = { "kbit", "mbit", "gbit" };
	double v, m = 1, max = argc == 2 ? (double)whole(argv[1], 8, 1000000000) : 1e9;
	const char *end;

	if (argc < 1 || argc > 2 || max < 0)
		return bad("usage: cluster-plan rate RATE [MAX_KBIT] (MAX_KBIT 8 to 1000000000)");
	for (int i = 0; i < 3; i++, m *= 1000)
		if (parse_double(argv[0], 0, 1e9, &v, &end) == 0 && !strcmp(end, units[i]) && v * m >= 8 &&
		    v * m <= max)
			return printf("%.0f\n", v * m) > 0 && fflush(stdout) == 0 ? 0 : 1;
	fprintf(stderr, "rate '%s' is not allowed: a decimal number and kbit, mbit or gbit, from 8kbit to %.0fkbit%s\n",
		argv[0], max, argc == 2 ? " (the NIC's built rate)" : "");
	return 2;
}

/* The settings from argv (after -t); 0, or 2 with the bad one said. */
static int plan_read(struct plan *p, int argc, char **argv)
{
	char msg[256];
	int nf = argc - 5;

	if (argc < 6)
		return bad("usage: cluster-plan [-t] NODES TIERS LEAVES RAILS NIC_KBIT OVERSUB...");
	if ((p->nodes = whole(argv[0], 1, PLAN_NODES)) < 0)
		return bad("CLUSTER_NODES must be a number from 1 to 64");
	if ((p->tiers = whole(argv[1], 1, PLAN_TIERS)) < 0)
		return snprintf(msg, sizeof(msg), "CLUSTER_TIERS '%s' must be 1, 2 or 3", argv[1]), bad(msg);
	p->leaves = whole(argv[2], 0, p->nodes);
	if (p->leaves < 0 || (p->tiers == 1 && p->leaves > 1))
		return snprintf(msg, sizeof(msg), "CLUSTER_LEAVES '%s' must be a number from 1 to CLUSTER_NODES (%ld): "
				"every leaf needs a node%s", argv[2], p->nodes, p->tiers == 1 ? "; 1 with one tier" : ""),
		       bad(msg);
	if (p->leaves == 0)
		p->leaves = p->tiers == 1 ? 1 : p->tiers == 2 ? 2 : 4;
	p->leaves = p->leaves > p->nodes ? p->nodes : p->leaves;
	p->aggs = p->tiers == 3 ? (p->leaves + 1) / 2 : 0;
	if ((p->rails = whole(argv[3], 1, PLAN_RAILS)) < 0 || (p->rails > 1 && p->tiers != 2))
		return snprintf(msg, sizeof(msg), "CLUSTER_RAILS '%s' must be a number from 1 to %d%s", argv[3],
				PLAN_RAILS, p->tiers != 2 ? ", and more than 1 only with CLUSTER_TIERS=2 (the rails' "
				"leaves under one spine)" : ""), bad(msg);
	if (parse_double(argv[4], 8, 1e9, &p->nic, NULL) != 0)
		return bad("the NIC's rate must be 8 kbit/s to 10^9 kbit/s");
	if (nf > (p->tiers > 1 ? p->tiers - 1 : 1))
		return snprintf(msg, sizeof(msg), "CLUSTER_OVERSUB has %d factors: a fabric of %ld tier%s has %ld "
				"boundar%s", nf, p->tiers, p->tiers == 1 ? "" : "s", p->tiers - 1,
				p->tiers == 2 ? "y" : "ies"), bad(msg);
	for (int i = 0; i < PLAN_TIERS - 1; i++) {
		if (parse_double(argv[5 + (i < nf ? i : nf - 1)], 1, 64, &p->oversub[i], NULL) != 0)
			return snprintf(msg, sizeof(msg), "CLUSTER_OVERSUB '%s' must be a number from 1 to 64 per tier "
					"boundary", argv[5 + (i < nf ? i : nf - 1)]), bad(msg);
	}
	return 0;
}

/* Node i's leaf, leaf j's aggregation switch (0-based, in blocks). */
static long leaf_of(const struct plan *p, long i) { return i * p->leaves / p->nodes; }
static long agg_of(const struct plan *p, long j) { return j * p->aggs / p->leaves; }

/* "n[1-2]", "n3" (first..last, 1-based) into buf. */
static void range(char *buf, size_t len, const char *prefix, long first, long last)
{
	if (first == last)
		snprintf(buf, len, "%s%ld", prefix, first);
	else
		snprintf(buf, len, "%s[%ld-%ld]", prefix, first, last);
}

/* The first and last (0-based) of `of` items whose group (fn) is g; 0 where none. */
static int members(const struct plan *p, long (*fn)(const struct plan *, long), long of, long g, long *first,
		   long *last)
{
	*first = -1;
	for (long i = 0; i < of; i++)
		if (fn(p, i) == g) {
			*first = *first < 0 ? i : *first;
			*last = i;
		}
	return *first >= 0;
}

static const char *top(const struct plan *p)
{
	return p->tiers == 3 ? "core" : p->tiers == 2 && p->leaves * p->rails > 1 ? "spine" : NULL;
}

static void topology(const struct plan *p)
{
	long a, b;
	char list[64];

	printf("# Generated by cluster/up.sh (cluster/plan.c): %ld tier%s.\n", p->tiers, p->tiers == 1 ? "" : "s");
	for (long j = 0; j < p->leaves; j++)
		if (members(p, leaf_of, p->nodes, j, &a, &b)) {
			range(list, sizeof(list), "n", a + 1, b + 1);
			printf("SwitchName=leaf%ld Nodes=%s\n", j + 1, list);
		}
	for (long g = 0; g < p->aggs; g++)
		if (members(p, agg_of, p->leaves, g, &a, &b)) {
			range(list, sizeof(list), "leaf", a + 1, b + 1);
			printf("SwitchName=agg%ld Switches=%s\n", g + 1, list);
		}
	if (top(p)) {
		range(list, sizeof(list), p->aggs ? "agg" : "leaf", 1, p->aggs ? p->aggs : p->leaves);
		printf("SwitchName=%s Switches=%s\n", top(p), list);
	}
}

static void links(const struct plan *p)
{
	long a, b;

	printf("link\tfrom\tto\trate_kbit\tdev\tport\taddress\n");
	for (long k = 0; k < p->rails; k++)
		for (long i = 0; i < p->nodes; i++) {
			char nic[32], port[32];
			snprintf(nic, sizeof(nic), p->rails > 1 ? "n%ld:eth%ld" : "n%ld", i + 1, k);
			snprintf(port, sizeof(port), k > 0 ? "n%ld-eth%ld" : "n%ld", i + 1, k);
			printf("nic\t%s\tleaf%ld\t%.0f\teth%ld\t%s\t10.0.%ld.%ld\n", nic, k * p->leaves + leaf_of(p, i) + 1,
			       p->nic, k, port, k, i + 1);
		}
	for (long j = 0; top(p) && j < p->leaves * p->rails; j++) {
		double up = (members(p, leaf_of, p->nodes, j % p->leaves, &a, &b) ? (double)(b - a + 1) : 0) * p->nic /
			    p->oversub[0];
		char parent[32];
		if (p->aggs)
			snprintf(parent, sizeof(parent), "agg%ld", agg_of(p, j) + 1);
		else
			snprintf(parent, sizeof(parent), "%s", top(p));
		printf("uplink\tleaf%ld\t%s\t%.0f\n", j + 1, parent, up);
	}
	for (long g = 0; g < p->aggs; g++) {
		double up = 0;
		for (long j = 0; j < p->leaves; j++)
			if (agg_of(p, j) == g && members(p, leaf_of, p->nodes, j, &a, &b))
				up += (double)(b - a + 1) * p->nic / p->oversub[0];
		printf("uplink\tagg%ld\t%s\t%.0f\n", g + 1, top(p), up / p->oversub[1]);
	}
}

int main(int argc, char **argv)
{
	struct plan p;
	int t = argc > 1 && !strcmp(argv[1], "-t"), rc;

	if (argc > 1 && !strcmp(argv[1], "rate"))
		return rate(argc - 2, argv + 2);
	if ((rc = plan_read(&p, argc - 1 - t, argv + 1 + t)) != 0)
		return rc;
	if (t)
		topology(&p);
	else
		links(&p);
	return fflush(stdout) == 0 ? 0 : 1;
}
