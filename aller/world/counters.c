/* counters.c: see counters.h. */
#include "counters.h"
#include "limits.h"
#include "qdisc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number in the first line of a file, or -1 (none). */
static int read_number(const char *path, unsigned long long *v)
{
	FILE *f = fopen(path, "r");
	char line[64], *end;
	int ok;

	if (!f)
		return -1;
	ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	*v = strtoull(line, &end, 10);
	return end != line ? 0 : -1;
}

static void add(struct counters *c, const char *where, const char *what, const char *path,
		unsigned long long scale)
{
	unsigned long long v;

	if (c->n == COUNTERS_MAX || read_number(path, &v) != 0)
		return;
	snprintf(c->name[c->n], COUNTERS_NAME, "%.29s %.17s", where, what);
	c->v[c->n++] = v * scale;
}

/* An interface's queue counters (q's), after its own. */
static void queue(const struct qdisc_stats *q, const char *name, struct counters *c)
{
	for (int i = 0; i < q->n && c->n + 2 <= COUNTERS_MAX; i++)
		if (!strcmp(q->name[i], name)) {
			snprintf(c->name[c->n], COUNTERS_NAME, "%.29s qdisc_drops", name);
			c->v[c->n++] = q->drops[i];
			snprintf(c->name[c->n], COUNTERS_NAME, "%.29s qdisc_overlimits", name);
			c->v[c->n++] = q->overlimits[i];
		}
}

/*
 * Each interface of the network namespace (procfs' net/dev: the node's own,
 * which sysfs is not where a container or namespace mounted it), lo never;
 * each with its queue's counters (q).
 */
static void ethernet(const char *proc, const char *only, const struct qdisc_stats *q, struct counters *c)
{
	static const struct { int field; const char *name; } stat[] = {
		{ 8, "tx_bytes" }, { 0, "rx_bytes" }, { 9, "tx_packets" }, { 1, "rx_packets" },
		{ 11, "tx_dropped" }, { 3, "rx_dropped" }, { 10, "tx_errors" }, { 2, "rx_errors" },
	};
	char path[1024], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/net/dev", proc);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *name = line + strspn(line, " "), *end;
		unsigned long long v[16];
		int n = 0;
		if (!colon || strchr(line, '|'))
			continue;   /* the two header lines */
		*colon = '\0';
		for (char *p = colon + 1; n < 16; p = end, n++) {
			v[n] = strtoull(p, &end, 10);
			if (end == p)
				break;
		}
		if (n < 16 || !strcmp(name, "lo") || !limits_listed(only, name))
			continue;
		for (size_t i = 0; i < sizeof(stat) / sizeof(stat[0]) && c->n < COUNTERS_MAX; i++) {
			snprintf(c->name[c->n], COUNTERS_NAME, "%.31s %s", name, stat[i].name);
			c->v[c->n++] = v[stat[i].field];
		}
		queue(q, name, c);
	}
	fclose(f);
}

/* One InfiniBand port's counters, where it is ACTIVE. */
static void ib_port(const char *root, const char *dev, const char *port, struct counters *c)
{
	static const struct { const char *name; unsigned long long scale; } ctr[] = {
		{ "port_xmit_data", 4 }, { "port_rcv_data", 4 }, { "port_xmit_wait", 1 },
		{ "symbol_error", 1 }, { "port_rcv_errors", 1 }, { "link_downed", 1 },
	};
	char path[1024], state[64] = "", where[COUNTERS_NAME];
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%s/state", root, dev, port);
	if ((f = fopen(path, "r")) != NULL) {
		if (!fgets(state, sizeof(state), f))
			state[0] = '\0';
		fclose(f);
	}
	if (!strstr(state, "ACTIVE"))
		return;
	snprintf(where, sizeof(where), "%.20s:%.8s", dev, port);
	for (size_t i = 0; i < sizeof(ctr) / sizeof(ctr[0]); i++) {
		snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%s/counters/%s", root, dev, port,
			 ctr[i].name);
		add(c, where, ctr[i].name, path, ctr[i].scale);
	}
}

static void infiniband(const char *root, struct counters *c)
{
	char path[1024];
	DIR *devs, *ports;
	struct dirent *d, *p;

	snprintf(path, sizeof(path), "%s/class/infiniband", root);
	if (!(devs = opendir(path)))
		return;
	while ((d = readdir(devs)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports", root, d->d_name);
		if (!(ports = opendir(path)))
			continue;
		while ((p = readdir(ports)) != NULL)
			if (p->d_name[0] != '.')
				ib_port(root, d->d_name, p->d_name, c);
		closedir(ports);
	}
	closedir(devs);
}

/* procfs' net/snmp "Tcp: ... RetransSegs ..." header and values lines: RetransSegs' value. */
static void tcp(const char *proc, struct counters *c)
{
	char names[1024], values[1024];
	FILE *f;

	snprintf(names, sizeof(names), "%s/net/snmp", proc);
	f = fopen(names, "r");
	if (!f)
		return;
	while (c->n < COUNTERS_MAX && fgets(names, sizeof(names), f)) {
		if (strncmp(names, "Tcp:", 4) || !fgets(values, sizeof(values), f) || strncmp(values, "Tcp:", 4))
			continue;
		char *sn = NULL, *sv = NULL, *n = strtok_r(names, " \n", &sn), *v = strtok_r(values, " \n", &sv);
		for (; n && v; n = strtok_r(NULL, " \n", &sn), v = strtok_r(NULL, " \n", &sv))
			if (!strcmp(n, "RetransSegs")) {
				snprintf(c->name[c->n], COUNTERS_NAME, "tcp retrans_segs");
				c->v[c->n++] = strtoull(v, NULL, 10);
			}
		break;
	}
	fclose(f);
}

void counters_read(const char *sysroot, const char *proc, const char *only, struct counters *c)
{
	struct qdisc_stats q = { 0 };

	memset(c, 0, sizeof(*c));
	if (!strcmp(proc, "/proc"))
		qdisc_read(&q);   /* the kernel's own, never a test's procfs */
	ethernet(proc, only, &q, c);
	infiniband(sysroot, c);
	tcp(proc, c);
}

void counters_line(const struct counters *before, const struct counters *after, char *buf, size_t len)
{
	size_t n = 0;
	char last[COUNTERS_NAME] = "";

	buf[0] = '\0';
	for (int i = 0; i < after->n && n < len; i++) {
		const char *space = strchr(after->name[i], ' ');
		size_t wl = space ? (size_t)(space - after->name[i]) : 0;
		int k = 0;
		while (k < before->n && strcmp(before->name[k], after->name[i]))
			k++;
		if (k == before->n || !space)
			continue;   /* not there before: no difference to tell */
		if (strncmp(last, after->name[i], wl) || last[wl] != '\0') {
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? "; " : "", (int)wl, after->name[i]);
			snprintf(last, sizeof(last), "%.*s", (int)wl, after->name[i]);
		}
		if (n >= len)
			break;
		if (after->v[i] >= before->v[k])
			n += (size_t)snprintf(buf + n, len - n, " %s=%llu", space + 1, after->v[i] - before->v[k]);
		else
			n += (size_t)snprintf(buf + n, len - n, " %s=-", space + 1);
	}
	if (n >= len && len > 0)
		buf[len - 1] = '\0';
}
