/* fbound.c: a point's row against what its fabric allows (see fbound.h). */
#include "fbound.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "locate.h"
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

/* A point's tasks on its nodes and the fabric over them (freed by net_close); 0 or -1. */
static int net_open(const struct fpoint *p, struct fnet *net, long **node)
{
	long w = p->world;
	char *from_limit = NULL;
	int rc = -1;

	*net = (struct fnet){ 0, 0, calloc((size_t)w + 1, FB_NAME), calloc((size_t)w + 1, FB_NAME),
			      malloc(((size_t)w + 1) * sizeof(long)), calloc((size_t)w + 1, sizeof(double)),
			      calloc((size_t)w + 1, sizeof(double)) };
	*node = malloc(((size_t)w + 1) * sizeof(long));
	if (w > 0 && w <= FB_WORLD && p->hosts && net->node && net->leafname && net->leaf && net->nic &&
	    net->uplink && *node && (from_limit = calloc((size_t)w + 1, 1)) &&
	    task_nodes(p, net, *node) == 0) {
		for (long i = 0; i < net->nnodes; i++)
			net->leaf[i] = -1;
		facts(p, net, from_limit);
		rc = 0;
	}
	free(from_limit);
	return rc;
}

static void net_close(struct fnet *net, long *node)
{
	free(net->node);
	free(net->leafname);
	free(net->leaf);
	free(net->nic);
	free(net->uplink);
	free(node);
}

int fbound_row(const struct fpoint *p, const struct frow *r, struct fbound *b)
{
	struct fnet net;
	long *node;
	int rc = -1;

	if (net_open(p, &net, &node) == 0 && strcmp(r->split, "uniform") == 0) {
		struct bound_fabric f = { net.nnodes, net.nleaves, net.leaf, net.nic, net.uplink };
		struct partition part;
		struct bound bd;
		partition_init(&part, p->world, partition_level_target(p->world, (int)r->level),
			       !strcmp(p->mode, "strided"));
		if (bound_row(&f, node, &part, r->bytes, &bd) == 0) {
			describe(&net, &bd, r, b);
			rc = 0;
		}
	}
	net_close(&net, node);
	return rc;
}

/* Link i (nodes first, then leaves) by name: "nic:n3", "up:leaf1". */
static void link_name(const struct fnet *net, long i, char *buf, size_t len)
{
	if (i < net->nnodes)
		snprintf(buf, len, "nic:%s", net->node[i]);
	else
		snprintf(buf, len, "up:%s", net->leafname[i - net->nnodes]);
}

/*
 * A row's time per call: its slowest task's, which ends the call for all its
 * communicators (from aggbw, the mean over calls of all tasks' bytes / that
 * time); tmed where aggbw is unknown. tmed alone is the typical task's: a
 * fast communicator beside a slow one hides the slow one there.
 */
static double row_time(const struct fpoint *p, const struct frow *r)
{
	double gib = r->bytes * (double)r->commsize * (double)p->world / 1073741824.0;

	return r->aggbw > 0 ? gib / r->aggbw : r->tmed;
}

/* The row's links onto L: those its slowest task's communicator used, those it clears. */
static int locate_links(const struct fnet *net, const struct bound_fabric *f, const long *node,
			const struct partition *part, const struct frow *r, double row_t, double bound_t,
			const double *t, char *used, struct locate *L)
{
	long nl = net->nnodes + net->nleaves;
	char (*names)[LOCATE_NAME] = malloc((size_t)nl * LOCATE_NAME);
	const char **u = malloc((size_t)nl * sizeof(char *)), **c = malloc((size_t)nl * sizeof(char *));
	int nu = 0, nc = 0, rc = -1;

	if (names && u && c) {
		bound_comm_links(f, node, part, partition_color(part, r->slowest), used, used + net->nnodes);
		for (long i = 0; i < nl; i++) {
			link_name(net, i, names[i], LOCATE_NAME);
			if (used[i])
				u[nu++] = names[i];
			if (t[i] >= LOCATE_SLOW * row_t)
				c[nc++] = names[i];
		}
		rc = locate_row(L, r->point, bound_t / row_t, u, nu, c, nc);
	}
	free(names);
	free(u);
	free(c);
	return rc;
}

/* The row on the point's fabric onto L; 0, or -1 out of memory. */
static int locate_net(const struct fpoint *p, const struct frow *r, const struct fnet *net,
		      const long *node, struct locate *L)
{
	struct bound_fabric f = { net->nnodes, net->nleaves, net->leaf, net->nic, net->uplink };
	long nl = net->nnodes + net->nleaves;
	double *t = calloc((size_t)nl + 1, sizeof(double));
	char *used = calloc((size_t)nl + 1, 1);
	struct partition part;
	struct bound bd;
	int rc = t && used ? 0 : -1;

	partition_init(&part, p->world, partition_level_target(p->world, (int)r->level),
		       !strcmp(p->mode, "strided"));
	if (rc == 0 && bound_row(&f, node, &part, r->bytes, &bd) == 0 && bd.t > 0 && !bd.partial &&
	    bound_times(&f, node, &part, r->bytes, t, t + net->nnodes) == 0)
		rc = locate_links(net, &f, node, &part, r, row_time(p, r), bd.t, t, used, L);
	free(t);
	free(used);
	return rc;
}

/* Whether row r can be judged for locate.h: large enough, its time and slowest task known, uniform. */
static int locatable(const struct fpoint *p, const struct frow *r, const char *algo)
{
	return r->bytes >= LOCATE_MIN_BYTES && r->tmed > 0 && r->slowest >= 0 && r->slowest < p->world &&
	       !strcmp(r->split, "uniform") && !strcmp(r->algo, algo);
}

int fbound_locate(const struct fpoint *p, const struct frow *rows, long n, struct locate *L)
{
	struct fnet net;
	long *node, i = 0;
	int rc = 0;

	while (i < n && !locatable(p, &rows[i], rows[0].algo))
		i++;
	if (i == n)
		return 0;   /* no row to judge: the fabric not even read */
	if (net_open(p, &net, &node) == 0)
		for (; rc == 0 && i < n; i++)
			if (locatable(p, &rows[i], rows[0].algo))
				rc = locate_net(p, &rows[i], &net, node, L);
	net_close(&net, node);
	return rc;
}
