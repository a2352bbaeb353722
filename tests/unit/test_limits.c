/*
 * Unit tests: the NICs' line rate from sysfs (limits.c), against fake trees;
 * a row's off-node bytes and efficiency against the nodes' limits (eff.c).
 */
#include <math.h>
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

#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "world/counters.h"
#include "world/qdisc.h"
#include "world/eff.h"
#include "world/limits.h"

static char root[64];

/* ROOT/PATH with TEXT, its directories made. */
static void put(const char *path, const char *text)
{
	char p[512], cmd[600];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	assert_int_equal(system(cmd), 0);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int fresh(void **state)
{
	char cmd[128];
	(void)state;
	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(root, sizeof(root), "/tmp/aller-limits-XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static double rate(const char *only, char *desc)
{
	return limits_nic(root, only, desc, 1024);
}

static void infiniband_active_ports(void **state)
{
	char d[1024];
	(void)state;
	put("class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
	put("class/infiniband/mlx5_0/ports/1/rate", "100 Gb/sec (4X EDR)\n");
	put("class/infiniband/mlx5_1/ports/1/state", "1: DOWN\n");
	put("class/infiniband/mlx5_1/ports/1/rate", "100 Gb/sec (4X EDR)\n");
	put("class/net/ib0/operstate", "up\n");   /* IPoIB: not counted again */
	put("class/net/ib0/speed", "100000\n");
	assert_true(rate(NULL, d) == 12.5);
	assert_non_null(strstr(d, "InfiniBand "));
	assert_non_null(strstr(d, "mlx5_0/1 100 Gb/s"));
	assert_non_null(strstr(d, "mlx5_1/1 not active"));
}

static void ethernet_and_bonds(void **state)
{
	char d[1024], link[512];
	(void)state;
	put("class/net/lo/operstate", "unknown\n");
	put("class/net/eth0/operstate", "up\n");
	put("class/net/eth0/speed", "25000\n");
	put("class/net/eth1/operstate", "down\n");
	put("class/net/eth1/speed", "25000\n");
	put("class/net/bond0/operstate", "up\n");
	put("class/net/bond0/bonding/slaves", "eth2 eth3\n");
	for (int i = 2; i <= 3; i++) {
		char p[64];
		snprintf(p, sizeof(p), "class/net/eth%d/operstate", i);
		put(p, "up\n");
		snprintf(p, sizeof(p), "class/net/eth%d/speed", i);
		put(p, "10000\n");
		snprintf(link, sizeof(link), "%s/class/net/eth%d/master", root, i);
		assert_int_equal(symlink("../bond0", link), 0);
	}
	/* eth0 25 Gb/s and the bond's 2 x 10: 45 Gb/s, 5.625 GB/s; eth1 down, the members once */
	assert_true(rate(NULL, d) == 5.625);
	assert_non_null(strstr(d, "Ethernet "));
	assert_non_null(strstr(d, "bond0 20 Gb/s"));
	assert_null(strstr(d, "eth2"));
	/* only the interfaces MPI is told to use */
	assert_true(rate("eth0", d) == 3.125);
	assert_true(rate("bond0,eth9", d) == 2.5);
}

static void slingshot_cxi_devices(void **state)
{
	char d[1024];
	(void)state;
	put("class/cxi/cxi0/device/net/hsn0/operstate", "up\n");
	put("class/cxi/cxi0/device/net/hsn0/speed", "200000\n");
	put("class/cxi/cxi1/device/net/hsn1/operstate", "down\n");
	put("class/cxi/cxi1/device/net/hsn1/speed", "200000\n");
	put("class/cxi/cxi2/device/net/hsn2/operstate", "up\n");
	put("class/cxi/cxi2/device/net/hsn2/speed", "-1\n");
	put("class/net/hsn0/operstate", "up\n");      /* the same NIC: not counted again */
	put("class/net/hsn0/speed", "200000\n");
	put("class/net/eth0/operstate", "up\n");      /* management Ethernet: not the fabric */
	put("class/net/eth0/speed", "1000\n");
	assert_true(rate(NULL, d) == 25);
	assert_non_null(strstr(d, "Slingshot "));
	assert_non_null(strstr(d, "cxi0 (hsn0) 200 Gb/s"));
	assert_non_null(strstr(d, "cxi1 (hsn1) not up"));
	assert_non_null(strstr(d, "cxi2 (hsn2): no speed in sysfs"));
	assert_null(strstr(d, "eth0"));
}

static void unknown_is_said_never_guessed(void **state)
{
	char d[1024];
	(void)state;
	assert_true(rate(NULL, d) == 0);   /* no tree at all */
	assert_non_null(strstr(d, "unknown: no NIC with a rate in"));
	assert_non_null(strstr(d, "no up NIC"));
	put("class/net/veth0/operstate", "up\n");
	put("class/net/veth0/speed", "-1\n");          /* a virtual NIC */
	put("class/net/eth0/operstate", "up\n");
	put("class/net/eth0/speed", "fast\n");         /* garbage */
	put("class/net/eth1/operstate", "up\n");
	put("class/net/eth1/speed/x", "");              /* unreadable: a directory */
	put("class/infiniband/hfi1_0/ports/1/state", "4: ACTIVE\n");
	put("class/infiniband/hfi1_0/ports/1/rate", "garbage\n");
	assert_true(rate(NULL, d) == 0);
	assert_non_null(strstr(d, "veth0: no speed in sysfs"));
	assert_non_null(strstr(d, "eth0: no speed in sysfs"));
	assert_non_null(strstr(d, "eth1: no speed in sysfs"));
	assert_non_null(strstr(d, "hfi1_0/1: no rate in sysfs"));
}

/*
 * Two nodes of 2 tasks, 1 ms per call: node 1 sends 2e6 bytes off-node and
 * receives 1e6, node 2 the reverse and 0.5e6 less; NICs of 4 and 2 GB/s.
 */
static void eff_against_the_nic(void **state)
{
	double nic[2] = { 4, 2 }, copy[2] = { 20, 20 }, tasks[2] = { 2, 2 };
	double out[2] = { 2e6, 0.5e6 }, in[2] = { 1e6, 1.5e6 }, io[2] = { 8e6, 8e6 };
	struct eff_limits l = { 2, nic, copy, tasks, 0, NULL, NULL, NULL, NULL, NULL, 0 };
	struct eff_sums s = { out, in, io, NULL, NULL };
	struct eff_row r;
	(void)state;
	eff_compute(&l, &s, 1e-3, &r);
	assert_true(r.offnode_B == 2e6);                  /* node 1's larger direction */
	assert_true(fabs(r.netbw_GBs - 2) < 1e-12);
	/* node 1: 2 GB/s of 4 (0.5); node 2: 1.5 GB/s of 2 (0.75): the nearer */
	assert_true(fabs(r.eff - 0.75) < 1e-12);
	nic[0] = 0;                                       /* node 1's rate unknown: "-" */
	eff_compute(&l, &s, 1e-3, &r);
	assert_true(isnan(r.eff) && r.offnode_B == 2e6);
	nic[0] = 4;
	out[1] = in[1] = 0;                               /* a node that sends nothing off-node */
	nic[1] = 0;                                       /* ... is not judged by its NIC */
	eff_compute(&l, &s, 1e-3, &r);
	assert_true(fabs(r.eff - 0.5) < 1e-12);
}

/* Every communicator inside a node: offnode_B 0, eff against the copy bandwidth. */
static void eff_inside_nodes_against_the_copy(void **state)
{
	double nic[2] = { 0, 0 }, copy[2] = { 20, 0 }, tasks[2] = { 2, 2 };
	double zero[2] = { 0, 0 }, io[2] = { 10e6, 0 };
	struct eff_limits l = { 2, nic, copy, tasks, 0, NULL, NULL, NULL, NULL, NULL, 0 };
	struct eff_sums s = { zero, zero, io, NULL, NULL };
	struct eff_row r;
	(void)state;
	eff_compute(&l, &s, 1e-3, &r);   /* 10 GB/s of 20; node 2 moved nothing */
	assert_true(r.offnode_B == 0 && r.netbw_GBs == 0 && fabs(r.eff - 0.5) < 1e-12);
	io[1] = 1e6;                     /* node 2 moved bytes: its copy unknown */
	eff_compute(&l, &s, 1e-3, &r);
	assert_true(isnan(r.eff));
	eff_compute(&l, &s, 0, &r);      /* no time: nothing is said */
	assert_true(isnan(r.netbw_GBs) && isnan(r.eff));
}

/*
 * bound_s from measured bytes: four nodes of 1 GB/s NICs (n2's unknown to
 * sysfs, 1 GB/s in the file), two leaves with 1 GB/s uplinks (2:1), 1 ms a
 * call. Each node sends 1e6 bytes off-node, half of them under the other
 * leaf: a NIC needs 1 ms, an uplink (two nodes' halves) 1 ms too, so 2e6
 * through an uplink at half the rate bounds it.
 */
static void bound_from_the_measured_bytes(void **state)
{
	double nic[4] = { 1, 0, 1, 1 }, bnic[4] = { 1, 1, 1, 1 }, copy[4] = { 20, 20, 20, 20 };
	double tasks[4] = { 2, 2, 2, 2 }, up[2] = { 0.5, 1 };
	double off[4] = { 1e6, 1e6, 1e6, 1e6 }, io[4] = { 4e6, 4e6, 4e6, 4e6 };
	double leaf[4] = { 0.5e6, 0.5e6, 0.5e6, 0.5e6 };
	long leaf_of[4] = { 0, 0, 1, 1 };
	const char *names[4] = { "n1", "n2", "n3", "n4" }, *leaves[2] = { "leaf1", "leaf2" };
	struct eff_limits l = { 4, nic, copy, tasks, 2, leaf_of, up, bnic, names, leaves, 0 };
	struct eff_sums s = { off, off, io, leaf, leaf };
	struct eff_row r;
	(void)state;
	eff_compute(&l, &s, 1e-3, &r);   /* leaf1's uplink: 1e6 at 0.5 GB/s = 2 ms */
	assert_true(fabs(r.bound_s - 2e-3) < 1e-12);
	assert_string_equal(r.bottleneck, "up:leaf1");
	up[0] = 2;                       /* the NICs: 1 ms each, the first of them names it */
	eff_compute(&l, &s, 1e-3, &r);
	assert_true(fabs(r.bound_s - 1e-3) < 1e-12);
	assert_string_equal(r.bottleneck, "nic:n1");
	bnic[1] = 0;                     /* a NIC without a rate: the bound is partial */
	eff_compute(&l, &s, 1e-3, &r);
	assert_string_equal(r.bottleneck, "nic:n1(partial)");
	bnic[1] = 1;
	leaf_of[3] = -1;                 /* a node off its node and under no known leaf: partial */
	eff_compute(&l, &s, 1e-3, &r);
	assert_string_equal(r.bottleneck, "nic:n1(partial)");
	leaf_of[3] = 1;
	l.above = 2;                     /* a switch above the leaves with an uplink: not weighed, partial */
	eff_compute(&l, &s, 1e-3, &r);
	assert_string_equal(r.bottleneck, "nic:n1(partial)");
	l.above = 0;
	for (int i = 0; i < 4; i++)      /* inside the nodes: the memory of the busiest */
		off[i] = leaf[i] = 0;
	io[2] = 40e6;
	eff_compute(&l, &s, 1e-3, &r);
	assert_true(fabs(r.bound_s - 2e-3) < 1e-12);
	assert_string_equal(r.bottleneck, "copy:n3");
	copy[2] = 0;                     /* its copy rate unknown: the next, and whole */
	eff_compute(&l, &s, 1e-3, &r);
	assert_string_equal(r.bottleneck, "copy:n1");
	for (int i = 0; i < 4; i++)
		copy[i] = 0;             /* nothing known carries bytes: no bound */
	eff_compute(&l, &s, 1e-3, &r);
	assert_true(isnan(r.bound_s) && r.bottleneck[0] == '\0');
}

/* A node's counters before and after: the differences, per interface, IB's words as bytes, TCP's retransmits. */
static void counters_over_a_run(void **state)
{
	static const char head[] = "Inter-|   Receive  |  Transmit\n face |bytes    packets errs drop fifo frame "
				   "compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n";
	struct counters before, after;
	char line[1024], dev[512];
	(void)state;
	snprintf(dev, sizeof(dev), "%s    lo: 9 9 0 0 0 0 0 0 9 9 0 0 0 0 0 0\n  eth0: 10 1 0 5 0 0 0 0 1000 2 0 0 0 0 0 0\n",
		 head);
	put("net/dev", dev);
	put("class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
	put("class/infiniband/mlx5_0/ports/1/counters/port_xmit_data", "100\n");
	put("class/infiniband/mlx5_0/ports/1/counters/symbol_error", "0\n");
	put("net/snmp", "Ip: Forwarding\nIp: 1\nTcp: RtoAlgorithm RetransSegs InErrs\nTcp: 1 7 0\n");
	counters_read(root, root, NULL, &before);
	assert_int_equal(before.n, 11);   /* eth0's eight, IB's two, TCP's; never lo */
	snprintf(dev, sizeof(dev), "%s    lo: 9 9 0 0 0 0 0 0 9 9 0 0 0 0 0 0\n  eth0: 30 4 1 2 0 0 0 0 4000 7 0 3 0 0 0 0\n",
		 head);
	put("net/dev", dev);
	put("class/infiniband/mlx5_0/ports/1/counters/port_xmit_data", "350\n");
	put("class/infiniband/mlx5_0/ports/1/counters/symbol_error", "3\n");
	put("net/snmp", "Tcp: RtoAlgorithm RetransSegs InErrs\nTcp: 1 1241 0\n");
	counters_read(root, root, NULL, &after);
	counters_line(&before, &after, line, sizeof(line));
	/* rx_dropped went down (a reset): said as unknown */
	assert_string_equal(line, "eth0 tx_bytes=3000 rx_bytes=20 tx_packets=5 rx_packets=3 tx_dropped=3 rx_dropped=- "
			    "tx_errors=0 rx_errors=1; mlx5_0:1 port_xmit_data=1000 symbol_error=3; tcp retrans_segs=1234");
	/* btl_tcp_if_include's list: eth0 left out */
	counters_read(root, root, "ib0", &after);
	counters_line(&before, &after, line, sizeof(line));
	assert_string_equal(line, "mlx5_0:1 port_xmit_data=1000 symbol_error=3; tcp retrans_segs=1234");
}

/* One RTM_NEWQDISC at at: interface ifindex, parent, its queue's drops and overlimits; its length. */
static size_t qdisc_msg(char *at, int ifindex, unsigned int parent, unsigned int drops, unsigned int overlimits)
{
	struct nlmsghdr *h = (struct nlmsghdr *)at;
	struct tcmsg *t = NLMSG_DATA(h);
	struct rtattr *kind = TCA_RTA(t), *stats, *queue;
	struct gnet_stats_queue q = { .drops = drops, .overlimits = overlimits };

	memset(at, 0, 256);
	t->tcm_ifindex = ifindex;
	t->tcm_parent = parent;
	kind->rta_type = TCA_KIND;
	kind->rta_len = RTA_LENGTH(4);
	memcpy(RTA_DATA(kind), "htb", 4);
	stats = (struct rtattr *)((char *)kind + RTA_ALIGN(kind->rta_len));
	stats->rta_type = TCA_STATS2;
	queue = RTA_DATA(stats);
	queue->rta_type = TCA_STATS_QUEUE;
	queue->rta_len = RTA_LENGTH(sizeof(q));
	memcpy(RTA_DATA(queue), &q, sizeof(q));
	stats->rta_len = RTA_LENGTH(RTA_ALIGN(queue->rta_len));
	h->nlmsg_type = RTM_NEWQDISC;
	h->nlmsg_len = (unsigned int)((char *)stats + RTA_ALIGN(stats->rta_len) - at);
	return NLMSG_ALIGN(h->nlmsg_len);
}

/* rtnetlink's dump of the queues: each root queue's counters by interface; a child's not twice; the end, an error. */
static void queues_from_rtnetlink(void **state)
{
	char buf[1024];
	size_t n = 0;
	struct qdisc_stats s = { 0 };
	struct nlmsghdr *done;

	(void)state;
	n += qdisc_msg(buf + n, 3, TC_H_ROOT, 30, 337);
	n += qdisc_msg(buf + n, 3, 0x10063, 30, 0);   /* 1:99 under it: counted in the root's already */
	n += qdisc_msg(buf + n, 2, TC_H_ROOT, 0, 5);
	assert_int_equal(qdisc_parse(buf, n, &s), 0);   /* no end yet: more to come */
	done = (struct nlmsghdr *)(buf + n);
	*done = (struct nlmsghdr){ .nlmsg_len = NLMSG_LENGTH(4), .nlmsg_type = NLMSG_DONE };
	assert_int_equal(qdisc_parse(done, NLMSG_LENGTH(4), &s), 1);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.ifindex[0], 3);
	assert_true(s.drops[0] == 30 && s.overlimits[0] == 337);
	assert_true(s.ifindex[1] == 2 && s.drops[1] == 0 && s.overlimits[1] == 5);
	/* a cut message is not read past its end */
	memset(&s, 0, sizeof(s));
	assert_int_equal(qdisc_parse(buf, 20, &s), 0);
	assert_int_equal(s.n, 0);
	done->nlmsg_type = NLMSG_ERROR;
	assert_int_equal(qdisc_parse(done, NLMSG_LENGTH(4), &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(infiniband_active_ports, fresh),
		cmocka_unit_test_setup(ethernet_and_bonds, fresh),
		cmocka_unit_test_setup(slingshot_cxi_devices, fresh),
		cmocka_unit_test_setup(unknown_is_said_never_guessed, fresh),
		cmocka_unit_test_setup(counters_over_a_run, fresh),
		cmocka_unit_test(eff_against_the_nic),
		cmocka_unit_test(eff_inside_nodes_against_the_copy),
		cmocka_unit_test(bound_from_the_measured_bytes),
		cmocka_unit_test(queues_from_rtnetlink),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
