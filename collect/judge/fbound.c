/* fbound.c: a point's row against what its fabric allows (see fbound.h). */
#include "fbound.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "read/hosts.h"

#define FB_NAME 64
#define FB_WORLD (1L << 16)   /* more tasks than this: not judged here */

/* The names of a point's nodes and leaves, and the fabric over them. */
struct fnet {
	long nnodes, nleaves;
	char (*node)[FB_NAME], (*leafname)[FB_NAME];
	long *leaf;
	double *nic, *uplink;
};

static long find_name(char (*names)[FB_NAME], long n, const char *name)
{
	for (long i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* Each task's node (its index in net->node, added as first seen); 0 or -1. */
static int task_nodes(const struct fpoint *p, struct fnet *net, long *node)
{
	char name[FB_NAME];

	for (long r = 0; r < p->world; r++) {
		if (hosts_of_rank(p->hosts, r, name, sizeof(name)) != 0)
			return -1;
		/* a node's tasks mostly follow one another: its neighbour's first */
		node[r] = r > 0 && !strcmp(net->node[node[r - 1]], name) ? node[r - 1]
				: find_name(net->node, net->nnodes, name);
		if (node[r] < 0) {
			snprintf(net->node[net->nnodes], FB_NAME, "%s", name);
			node[r] = net->nnodes++;
		}
	}
	return 0;
}

/* One fact: a node's leaf, a leaf's uplink rate, a node's NIC rate (limit first). */
static void fact(struct fnet *net, const char *line, char *nic_from_limit)
{
	char a[FB_NAME], b[FB_NAME], rate[FB_NAME];
	double gbs;
	long n, l;

	if (sscanf(line, "node_switch %63s %63s", a, b) == 2 ||
	    sscanf(line, "fabric switch %63s %63s", a, b) == 2) {
		if ((n = find_name(net->node, net->nnodes, a)) < 0)
			return;
		if ((l = find_name(net->leafname, net->nleaves, b)) < 0 && net->nleaves < net->nnodes) {
			snprintf(net->leafname[net->nleaves], FB_NAME, "%s", b);
			l = net->nleaves++;
		}
		net->leaf[n] = l;
	} else if (sscanf(line, "fabric uplink_rate %63s %63s", a, rate) == 2) {
		/* leaves are named by the node lines first: an uplink's comes later */
		for (l = 0; l < net->nleaves; l++)
			if (!strcmp(net->leafname[l], a))
				net->uplink[l] = bound_rate(rate);
	} else if (sscanf(line, "limit nic %63[^:]: %lf GB/s", a, &gbs) == 2 && gbs > 0) {
		if ((n = find_name(net->node, net->nnodes, a)) >= 0) {
			net->nic[n] = gbs;
			nic_from_limit[n] = 1;
		}
	} else if (sscanf(line, "fabric nic_rate %63s %63s", a, rate) == 2) {
		if ((n = find_name(net->node, net->nnodes, a)) >= 0 && !nic_from_limit[n])
			net->nic[n] = bound_rate(rate);
	}
}

/* The fabric facts onto net, in two passes: the leaves before their uplinks' rates. */
static void facts(const struct fpoint *p, struct fnet *net, char *nic_from_limit)
{
	for (int pass = 0; pass < 2 && p->fabric; pass++)
		for (const char *s = p->fabric; *s;) {
			size_t len = strcspn(s, "\n");
			char line[512];
			int uplink;
			snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), s);
			uplink = !strncmp(line, "fabric uplink_rate ", 19);
			if (uplink == pass)
				fact(net, line, nic_from_limit);
			s += len + (s[len] == '\n');
		}
}

/* The bound's words and its efficiency against the row's median. */
static void describe(const struct fnet *net, const struct bound *bd, const struct frow *r,
		     struct fbound *b)
{
	const char **nodes = malloc((size_t)net->nnodes * sizeof(char *));
	const char **leaves = malloc((size_t)(net->nleaves + 1) * sizeof(char *));

	b->t = bd->t;
	b->eff = bd->t > 0 && r->tmed > 0 ? bd->t / r->tmed : -1;
	b->link[0] = b->unknown[0] = '\0';
	if (!nodes || !leaves) {
		free(nodes);
		free(leaves);
		return;
	}
	for (long i = 0; i < net->nnodes; i++)
		nodes[i] = net->node[i];
	for (long i = 0; i < net->nleaves; i++)
		leaves[i] = net->leafname[i];
	bound_link_name(bd->link, bd->at, nodes, leaves, b->link, sizeof(b->link));
	if (bd->partial)
		bound_link_name(bd->unknown, bd->unknown_at, nodes, leaves, b->unknown,
				sizeof(b->unknown));
	free(nodes);
	free(leaves);
}

int fbound_row(const struct fpoint *p, const struct frow *r, struct fbound *b)
{
	long w = p->world;
	struct fnet net = { 0, 0, calloc((size_t)w + 1, FB_NAME), calloc((size_t)w + 1, FB_NAME),
			    malloc(((size_t)w + 1) * sizeof(long)), calloc((size_t)w + 1, sizeof(double)),
			    calloc((size_t)w + 1, sizeof(double)) };
	long *node = malloc(((size_t)w + 1) * sizeof(long));
	char *from_limit = calloc((size_t)w + 1, 1);
	int rc = -1;

	if (w > 0 && w <= FB_WORLD && p->hosts && strcmp(r->split, "uniform") == 0 && net.node && net.leafname &&
	    net.leaf && net.nic && net.uplink && node && from_limit && task_nodes(p, &net, node) == 0) {
		struct bound_fabric f = { net.nnodes, net.nleaves, net.leaf, net.nic, net.uplink };
		struct partition part;
		struct bound bd;
		for (long i = 0; i < net.nnodes; i++)
			net.leaf[i] = -1;
		facts(p, &net, from_limit);
		f.nleaves = net.nleaves;
		partition_init(&part, w, partition_level_target(w, (int)r->level),
			       !strcmp(p->mode, "strided"));
		if (bound_row(&f, node, &part, r->bytes, &bd) == 0) {
			describe(&net, &bd, r, b);
			rc = 0;
		}
	}
	free(net.node);
	free(net.leafname);
	free(net.leaf);
	free(net.nic);
	free(net.uplink);
	free(node);
	free(from_limit);
	return rc;
}
