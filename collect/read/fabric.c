/* fabric.c: a point's fabric from its facts (see fabric.h). */
#include "fabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosts.h"

static long find_name(char (*names)[FABRIC_NAME], long n, const char *name)
{
	for (long i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* Each task's node (its index in f->node, added as first seen); 0 or -1. */
static int task_nodes(struct fabric *f)
{
	char name[FABRIC_NAME];

	for (long r = 0; r < f->world; r++) {
		if (hosts_of_rank(f->hosts, r, name, sizeof(name)) != 0)
			return -1;
		/* a node's tasks mostly follow one another: its neighbour's first */
		f->task[r] = r > 0 && !strcmp(f->node[f->task[r - 1]], name) ? f->task[r - 1]
				: find_name(f->node, f->nnodes, name);
		if (f->task[r] < 0) {
			snprintf(f->node[f->nnodes], FABRIC_NAME, "%s", name);
			f->task[r] = f->nnodes++;
		}
	}
	return 0;
}

/* One fact: a node's leaf, a leaf's uplink rate, a node's NIC rate (limit first). */
static void fact(struct fabric *f, const char *line, char *nic_from_limit)
{
	char a[FABRIC_NAME], b[FABRIC_NAME], rate[FABRIC_NAME];
	double gbs;
	long n, l;

	if (sscanf(line, "node_switch %63s %63s", a, b) == 2 ||
	    sscanf(line, "fabric switch %63s %63s", a, b) == 2) {
		if ((n = find_name(f->node, f->nnodes, a)) < 0)
			return;
		if ((l = find_name(f->leafname, f->nleaves, b)) < 0 && f->nleaves < f->nnodes) {
			snprintf(f->leafname[f->nleaves], FABRIC_NAME, "%s", b);
			l = f->nleaves++;
		}
		f->leaf[n] = l;
	} else if (sscanf(line, "fabric uplink_rate %63s %63s", a, rate) == 2) {
		/* leaves are named by the node lines first: an uplink's comes later */
		for (l = 0; l < f->nleaves; l++)
			if (!strcmp(f->leafname[l], a))
				f->uplink[l] = bound_rate(rate);
	} else if (sscanf(line, "limit nic %63[^:]: %lf GB/s", a, &gbs) == 2 && gbs > 0) {
		if ((n = find_name(f->node, f->nnodes, a)) >= 0) {
			f->nic[n] = gbs;
			nic_from_limit[n] = 1;
		}
	} else if (sscanf(line, "fabric nic_rate %63s %63s", a, rate) == 2) {
		if ((n = find_name(f->node, f->nnodes, a)) >= 0 && !nic_from_limit[n])
			f->nic[n] = bound_rate(rate);
	}
}

/*
 * Each fact line (its key's tab made a space; one too long to read whole is
 * left out): pass 0 collects the host lines' values, 1 the rest but uplink
 * rates, 2 those (their leaves named first).
 */
static void each_fact(struct fabric *f, const char *facts, int pass, char *nic_from_limit)
{
	for (const char *s = facts; s && *s;) {
		size_t len = strcspn(s, "\n");
		char line[512];
		int host, uplink;
		if (len >= sizeof(line)) {   /* never a line cut short: a host line's ranks would lie */
			s += len + (s[len] == '\n');
			continue;
		}
		snprintf(line, sizeof(line), "%.*s", (int)len, s);
		if (strchr(line, '\t'))
			*strchr(line, '\t') = ' ';
		host = !strncmp(line, "host ", 5);
		uplink = !strncmp(line, "fabric uplink_rate ", 19);
		if (pass == 0 && host) {
			size_t have = strlen(f->hosts);
			snprintf(f->hosts + have, f->hosts_len - have, "%s%s", have ? "\n" : "", line + 5);
		} else if (pass > 0 && !host && uplink == (pass == 2)) {
			fact(f, line, nic_from_limit);
		}
		s += len + (s[len] == '\n');
	}
}

int fabric_open(struct fabric *f, const char *facts, long world)
{
	size_t w = world > 0 && world <= FABRIC_WORLD ? (size_t)world : 0;
	char *from_limit = calloc(w + 1, 1);
	int rc = -1;

	*f = (struct fabric){ 0, 0, (long)w, calloc(w + 1, FABRIC_NAME), calloc(w + 1, FABRIC_NAME),
			      malloc((w + 1) * sizeof(long)), calloc(w + 1, sizeof(double)),
			      calloc(w + 1, sizeof(double)), malloc((w + 1) * sizeof(long)),
			      calloc(strlen(facts ? facts : "") + 1, 1), strlen(facts ? facts : "") + 1 };
	if (w > 0 && f->node && f->leafname && f->leaf && f->nic && f->uplink && f->task && f->hosts &&
	    from_limit) {
		each_fact(f, facts, 0, from_limit);
		if (f->hosts[0] && task_nodes(f) == 0) {
			for (long i = 0; i < f->nnodes; i++)
				f->leaf[i] = -1;
			each_fact(f, facts, 1, from_limit);
			each_fact(f, facts, 2, from_limit);
			rc = 0;
		}
	}
	free(from_limit);
	return rc;
}

struct bound_fabric fabric_bound(const struct fabric *f)
{
	return (struct bound_fabric){ f->nnodes, f->nleaves, f->leaf, f->nic, f->uplink };
}

int fabric_partition(const struct fabric *f, const char *mode, int level, struct partition *p)
{
	if (level < 0 || level >= partition_nlevels(f->world))
		return -1;
	partition_init(p, f->world, partition_level_target(f->world, level), mode && !strcmp(mode, "strided"));
	return 0;
}

int fabric_row(const struct fabric *f, const char *mode, int level, double bytes, struct bound *b)
{
	struct bound_fabric bf = fabric_bound(f);
	struct partition p;

	if (fabric_partition(f, mode, level, &p) != 0)
		return -1;
	return bound_row(&bf, f->task, &p, bytes, b);
}

void fabric_link_name(const struct fabric *f, long i, char *buf, size_t len)
{
	if (i >= 0 && i < f->nnodes)
		snprintf(buf, len, "nic:%s", f->node[i]);
	else if (i >= f->nnodes && i < f->nnodes + f->nleaves)
		snprintf(buf, len, "up:%s", f->leafname[i - f->nnodes]);
	else
		snprintf(buf, len, "%s", "");
}

void fabric_bound_name(const struct fabric *f, const struct bound *b, char *buf, size_t len)
{
	fabric_link_name(f, b->link == BOUND_NIC ? b->at : b->link == BOUND_UPLINK ? f->nnodes + b->at : -1,
			 buf, len);
}

void fabric_close(struct fabric *f)
{
	free(f->node);
	free(f->leafname);
	free(f->leaf);
	free(f->nic);
	free(f->uplink);
	free(f->task);
	free(f->hosts);
	memset(f, 0, sizeof(*f));
}
