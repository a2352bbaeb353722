/* limits.c: see limits.h. */
#include "limits.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "stacks.h"
#include "strbuf.h"

/* The first line of ROOT/class/CLASS/NAME/FILE (up to len - 1 bytes), or -1. */
static int read_line(char *buf, size_t len, const char *root, const char *class, const char *name,
		     const char *file)
{
	char path[1024];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/class/%s/%s/%s", root, class, name, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int limits_listed(const char *only, const char *name)
{
	return !only || !*only || stack_listed(only, name);
}

/* InfiniBand: the ACTIVE ports' rates ("100 Gb/sec (4X EDR)"), summed, in GB/s. */
static double ib_ports(const char *root, struct strbuf *d)
{
	char dir[1024], line[128];
	double sum = 0;
	DIR *devs, *ports;
	struct dirent *e, *p;

	snprintf(dir, sizeof(dir), "%s/class/infiniband", root);
	if (!(devs = opendir(dir)))
		return 0;
	while ((e = readdir(devs)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/ports", root, e->d_name);
		if (!(ports = opendir(dir)))
			continue;
		while ((p = readdir(ports)) != NULL) {
			const char *rest;
			double gbit;
			if (p->d_name[0] == '.')
				continue;
			char port[600], name[600];
			snprintf(port, sizeof(port), "%s/ports/%s", e->d_name, p->d_name);
			snprintf(name, sizeof(name), "%s/%s", e->d_name, p->d_name);
			if (read_line(line, sizeof(line), root, "infiniband", port, "state") != 0 ||
			    !strstr(line, "ACTIVE")) {
				strbuf_addf(d, "%s%s not active", d->len ? ", " : "", name);
				continue;
			}
			if (read_line(line, sizeof(line), root, "infiniband", port, "rate") != 0 ||
			    parse_double(line, 1e-9, 1e9, &gbit, &rest) != 0) {
				strbuf_addf(d, "%s%s: no rate in sysfs", d->len ? ", " : "", name);
				continue;
			}
			sum += gbit / 8;
			strbuf_addf(d, "%s%s %g Gb/s", d->len ? ", " : "", name, gbit);
		}
		closedir(ports);
	}
	closedir(devs);
	return sum;
}

/*
 * Slingshot: each cxi device's Ethernet interface (cxiN/device/net/IF, the
 * same PCI function) when up, its speed in Mb/s; those interfaces are
 * counted here and not again as Ethernet.
 */
static double cxi_devices(const char *root, struct strbuf *d)
{
	char dir[1024], dev[600], line[64];
	const char *rest;
	double sum = 0, mbit;
	DIR *devs, *net;
	struct dirent *e, *i;

	snprintf(dir, sizeof(dir), "%s/class/cxi", root);
	if (!(devs = opendir(dir)))
		return 0;
	while ((e = readdir(devs)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/class/cxi/%s/device/net", root, e->d_name);
		if (!(net = opendir(dir)))
			continue;
		while ((i = readdir(net)) != NULL) {
			if (i->d_name[0] == '.')
				continue;
			snprintf(dev, sizeof(dev), "%s/device/net/%s", e->d_name, i->d_name);
			if (read_line(line, sizeof(line), root, "cxi", dev, "operstate") != 0 ||
			    strcmp(line, "up") != 0) {
				strbuf_addf(d, "%s%s (%s) not up", d->len ? ", " : "", e->d_name, i->d_name);
				continue;
			}
			if (read_line(line, sizeof(line), root, "cxi", dev, "speed") != 0 ||
			    parse_double(line, 1e-9, 1e9, &mbit, &rest) != 0) {
				strbuf_addf(d, "%s%s (%s): no speed in sysfs", d->len ? ", " : "",
					    e->d_name, i->d_name);
				continue;
			}
			sum += mbit / 8000;
			strbuf_addf(d, "%s%s (%s) %g Gb/s", d->len ? ", " : "", e->d_name, i->d_name,
				    mbit / 1000);
		}
		closedir(net);
	}
	closedir(devs);
	return sum;
}

/* An Ethernet interface's Mb/s: its speed, or a bond's members' sum; 0 unknown. */
static double eth_speed(const char *root, const char *ifname)
{
	char line[4096];
	const char *rest;
	double mbit = 0;

	if (read_line(line, sizeof(line), root, "net", ifname, "bonding/slaves") == 0) {
		char *save = NULL;
		for (char *m = strtok_r(line, " ", &save); m; m = strtok_r(NULL, " ", &save))
			mbit += eth_speed(root, m);
		return mbit;
	}
	if (read_line(line, sizeof(line), root, "net", ifname, "speed") != 0)
		return 0;
	return parse_double(line, 1e-9, 1e9, &mbit, &rest) == 0 ? mbit : 0;
}

/* Ethernet: the up interfaces but lo and bond members, listed ones only. */
static double eth_ifaces(const char *root, const char *only, struct strbuf *d)
{
	char dir[1024], line[64];
	double sum = 0, mbit;
	DIR *net;
	struct dirent *e;

	snprintf(dir, sizeof(dir), "%s/class/net", root);
	if (!(net = opendir(dir)))
		return 0;
	while ((e = readdir(net)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "lo") == 0 || !limits_listed(only, e->d_name))
			continue;
		snprintf(dir, sizeof(dir), "%s/class/net/%s/master", root, e->d_name);
		if (access(dir, F_OK) == 0)
			continue;   /* a bond's member (a link to it): counted in its bond */
		if (read_line(line, sizeof(line), root, "net", e->d_name, "operstate") != 0 ||
		    strcmp(line, "up") != 0)
			continue;
		mbit = eth_speed(root, e->d_name);
		if (mbit > 0) {
			sum += mbit / 8000;
			strbuf_addf(d, "%s%s %g Gb/s", d->len ? ", " : "", e->d_name, mbit / 1000);
		} else {
			strbuf_addf(d, "%s%s: no speed in sysfs", d->len ? ", " : "", e->d_name);
		}
	}
	closedir(net);
	return sum;
}

double limits_nic(const char *root, const char *only, char *desc, size_t len)
{
	struct strbuf ib, eth;
	double gbs;

	strbuf_init(&ib);
	strbuf_init(&eth);
	gbs = ib_ports(root, &ib);
	if (gbs > 0) {
		snprintf(desc, len, "InfiniBand %s (%s/class/infiniband)", ib.s, root);
	} else if ((gbs = cxi_devices(root, &ib)) > 0) {
		snprintf(desc, len, "Slingshot %s (%s/class/cxi)", ib.s, root);
	} else {
		gbs = eth_ifaces(root, only, &eth);
		if (gbs > 0)
			snprintf(desc, len, "Ethernet %s (%s/class/net)", eth.s, root);
		else
			snprintf(desc, len, "unknown: no NIC with a rate in %s (%s%s%s)", root,
				 ib.s ? ib.s : "", ib.s && eth.s ? "; " : "",
				 eth.s ? eth.s : ib.s ? "" : "no up NIC");
	}
	strbuf_release(&ib);
	strbuf_release(&eth);
	return gbs;
}
