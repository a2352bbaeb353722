/* Unit tests: the NICs' line rate from sysfs (limits.c), against fake trees. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(infiniband_active_ports, fresh),
		cmocka_unit_test_setup(ethernet_and_bonds, fresh),
		cmocka_unit_test_setup(unknown_is_said_never_guessed, fresh),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
