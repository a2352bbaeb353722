/* foresee.c: the bound before anything runs (see foresee.h). */
#include "foresee.h"

#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "fabricfile.h"
#include "plan/plan.h"
#include "stacks.h"
#include "world/placement.h"

#define FORESEE_NODES (1L << 16)
#define FORESEE_WORLD (1L << 24)
#define FORESEE_RAILS 64          /* the rails the stack is told of, at most */

/* The nodes --nodes names, in order. */
struct named {
	char (*name)[FABRICFILE_NAME];
	long n, room;
};

static int add_named(const char *name, void *ctx)
{
	struct named *nd = ctx;

	for (long i = 0; i < nd->n; i++)
		if (!strcmp(nd->name[i], name))
			return -5;
	if (strlen(name) >= FABRICFILE_NAME || nd->n >= FORESEE_NODES)
		return -6;
	if (nd->n == nd->room) {
		void *p = realloc(nd->name, (size_t)(nd->room = 2 * nd->room + 16) * FABRICFILE_NAME);
		if (!p)
			return -1;
		nd->name = p;
	}
	snprintf(nd->name[nd->n++], FABRICFILE_NAME, "%s", name);
	return 0;
}

/*
 * The fabric of the named nodes from the file; 0, or -1 (memory). With
 * rails (NODE:IF in the file) its "nodes" are the nodes' NICs, node i's
 * r-th at i x rails + r, named NODE:IF.
 */
struct world_fabric {
	long *leaf, *parent, *group, *host;
	double *nic, *uplink, *gpu;
	const char **node_name, **sw_name, **group_name;
	char (*nic_name)[2 * FABRICFILE_NAME];
};

/* Each NIC's (each node's, without rails) leaf, rate, name and node into w. */
static void endpoints(const struct fabricfile *ff, const struct named *nd, double line_rate, struct world_fabric *w)
{
	long nr = ff->nrail ? ff->nrail : 1;

	for (long e = 0; e < nd->n * nr; e++) {
		long i = e / nr, at;
		snprintf(w->nic_name[e], sizeof(w->nic_name[e]), "%s%s%s", nd->name[i], ff->nrail ? ":" : "",
			 ff->nrail ? ff->rail[e % nr] : "");
		at = fabricfile_node_at(ff, w->nic_name[e]);
		w->leaf[e] = at >= 0 ? ff->node[at].leaf : -1;
		w->nic[e] = bound_nic_rate(line_rate, at >= 0 ? ff->node[at].rate : NULL);
		w->node_name[e] = w->nic_name[e];
		w->host[e] = i;
		w->gpu[e] = bound_rate(fabricfile_gpu_rate(ff, nd->name[i]) ? fabricfile_gpu_rate(ff, nd->name[i]) : "");
	}
}

static int fabric_of(const struct fabricfile *ff, const struct named *nd, double line_rate,
		     struct world_fabric *w, struct bound_fabric *f)
{
	size_t ns = (size_t)ff->nsw + 1, nn = (size_t)nd->n * (size_t)(ff->nrail ? ff->nrail : 1);

	*w = (struct world_fabric){ .leaf = malloc(nn * sizeof(long)), .parent = malloc(ns * sizeof(long)),
				    .group = malloc(ns * sizeof(long)), .host = malloc(nn * sizeof(long)),
				    .nic = calloc(nn, sizeof(double)), .uplink = calloc(ns, sizeof(double)),
				    .gpu = calloc(nn, sizeof(double)), .node_name = malloc(nn * sizeof(char *)),
				    .sw_name = malloc(ns * sizeof(char *)),
				    .group_name = malloc(((size_t)ff->ngroup + 1) * sizeof(char *)),
				    .nic_name = malloc(nn * sizeof(*w->nic_name)) };
	if (!w->leaf || !w->parent || !w->group || !w->host || !w->nic || !w->uplink || !w->node_name ||
	    !w->sw_name || !w->group_name || !w->nic_name || !w->gpu)
		return -1;
	for (long g = 0; g < ff->ngroup; g++)
		w->group_name[g] = ff->group[g];
	for (long k = 0; k < ff->nsw; k++) {
		w->group[k] = ff->sw[k].group;
		w->parent[k] = ff->sw[k].parent;
		w->uplink[k] = bound_rate(ff->sw[k].rate);
		w->sw_name[k] = ff->sw[k].name;
	}
	endpoints(ff, nd, line_rate, w);
	*f = (struct bound_fabric){ .nnodes = (long)nn, .nleaves = ff->nsw, .leaf = w->leaf,
	                            .nic = w->nic, .uplink = w->uplink, .node_name = w->node_name,
	                            .leaf_name = w->sw_name, .parent = w->parent,
	                            .group = ff->ngroup > 0 ? w->group : NULL, .ngroups = ff->ngroup,
	                            .group_name = w->group_name, .global_links = ff->global_links,
	                            .global_rate = bound_rate(ff->global_rate), .adaptive = ff->adaptive,
	                            .host = ff->nrail ? w->host : NULL, .gpu = ff->ngpu ? w->gpu : NULL };
	return 0;
}

static void world_fabric_free(struct world_fabric *w)
{
	free(w->leaf);
	free(w->parent);
	free(w->group);
	free(w->host);
	free(w->group_name);
	free(w->nic);
	free(w->uplink);
	free(w->node_name);
	free(w->sw_name);
	free(w->nic_name);
	free(w->gpu);
}

/* A task in the launcher's order, and where --placement puts it. */
struct task {
	long rank, node, key;
};

static int by_key(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	return x->key != y->key ? (x->key > y->key) - (x->key < y->key) : (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * Each placed rank's node: the launcher's block order, renumbered by
 * --placement; with rails (nrail) its NIC: its node's i-th task (its slot,
 * in the launcher's order) on the node's NIC i mod nrail. NULL (memory).
 */
static long *placed_nodes(const struct options *o, long world, long nnodes, long tpn, long nrail)
{
	struct task *t = malloc(sizeof(*t) * (size_t)world);
	long *node = malloc(sizeof(long) * (size_t)world);

	for (long r = 0; t && node && r < world; r++)
		t[r] = (struct task){ r, r / tpn,
				      o->placement.kind == PLACEMENT_LAUNCHER ? r
				      : placement_key(&o->placement, (int)(r / tpn), (int)nnodes, (int)(r % tpn),
						      (int)tpn, (int)r) };
	if (t && node) {
		qsort(t, (size_t)world, sizeof(*t), by_key);
		for (long i = 0; i < world; i++)
			node[i] = nrail ? t[i].node * nrail + t[i].rank % tpn % nrail : t[i].node;
	} else {
		free(node);
		node = NULL;
	}
	free(t);
	return node;
}

static const char *env_of(const char *name) { return getenv(name); }

/*
 * With rails, those the MPI stack is told to use (common/stacks.h, the
 * environment's) into told (room for FORESEE_RAILS), "VAR=IF,IF" into by;
 * how many.
 */
static long rails_told(const struct fabricfile *ff, long *told, char *by, size_t len)
{
	char nics[256];
	const char *var = ff->nrail ? stack_nics(env_of, nics, sizeof(nics)) : NULL;
	long n = 0;

	for (long r = 0; var && r < ff->nrail && n < FORESEE_RAILS; r++)
		if (stack_listed(nics, ff->rail[r]))
			told[n++] = r;
	snprintf(by, len, "%s=%s", var ? var : "", var ? nics : "");
	return n;
}

/* With rails, which NIC a task uses: told (n of them, by) by the stack, else spread evenly. */
static void say_rails(const struct fabricfile *ff, const long *told, long n, const char *by, FILE *out)
{
	for (long r = 0; r < ff->nrail; r++)
		fprintf(out, "%s%s", r ? " " : "# rails: ", ff->rail[r]);
	if (ff->nrail && n == 0)
		fprintf(out, ": %ld NICs a node, each on its rail; a node's i-th task on its NIC i mod %ld "
			"(spread evenly: the MPI stack is told of no rail's NIC)\n", ff->nrail, ff->nrail);
	else if (n == 1)
		fprintf(out, ": %ld NICs a node, each on its rail; every task on its node's %s (%s)\n", ff->nrail,
			ff->rail[told[0]], by);
	else if (n > 1)
		fprintf(out, ": %ld NICs a node, each on its rail; each message striped over %ld of them, a node's "
			"NIC k to the other's (%s)\n", ff->nrail, n, by);
}

/* The rows: per level, its bound per byte once, then each count's. */
static void rows(const struct options *o, const struct bound_fabric *f, const long *node, long world,
		 FILE *out)
{
	struct plan_level l;

	int range = f->group && f->adaptive;   /* adaptive routing: minimal's bound beside it */

	if (range)
		fprintf(out, "# routing: adaptive: bound_s is the least time any path allows (a byte may go "
			"through a third group), bound_minimal_s the least under minimal routing\n");
	fprintf(out, "# columns: commsize count bytes_per_peer bound_s bottleneck%s\n", range ? " bound_minimal_s" : "");
	for (int i = 0; plan_level(o, world, i, &l) == 0; i = l.index + 1) {
		struct bound unit;
		char link[200] = "-";
		if (bound_row(f, node, &l.p, 1, &unit) != 0)
			continue;
		if (unit.t > 0)
			bound_link_of(f, &unit, link, sizeof(link));
		for (int k = 0; k < l.ncounts; k++) {
			fprintf(out, "%ld %ld %ld %.6e %s", l.target, l.counts[k], l.counts[k] * 8,
				unit.t * (double)l.counts[k] * 8, link);
			if (range)
				fprintf(out, " %.6e", unit.t_minimal * (double)l.counts[k] * 8);
			fputc('\n', out);
		}
	}
}

/*
 * What --check-args prints of the world: what it is, which rail each task
 * uses (the stack's: its node's NIC of that rail, striped where several;
 * node, each task's NIC, rewritten so), and each row's bound.
 */
static void print_bound(const struct options *o, long world, long tpn, const struct named *nd,
			const struct fabricfile *ff, struct bound_fabric *f, long *node, FILE *out)
{
	char place[64], by[300];
	long told[FORESEE_RAILS], nt = rails_told(ff, told, by, sizeof(by));

	placement_describe(&o->placement, place, sizeof(place));
	fprintf(out, "# bound: a world of %ld tasks on %ld node%s (%s ... %s), %ld per node at most, "
		"placement %s, %s; fabric %s\n", world, nd->n, nd->n == 1 ? "" : "s", nd->name[0],
		nd->name[nd->n - 1], tpn, o->placement.kind == PLACEMENT_LAUNCHER ? "the launcher's (block)" : place,
		o->strided ? "strided" : "contiguous", o->fabric);
	fprintf(out, "# the least time the busiest link needs per call, uniform blocks (common/bound.h: "
		"bytes that stay on a node cross none); nothing is run\n");
	for (long i = 0; nt > 0 && i < world; i++)   /* the stack's rail (the first of those striped) */
		node[i] = node[i] / ff->nrail * ff->nrail + told[0];
	f->stripe = nt > 1 ? told : NULL;
	f->nstripe = nt;
	f->rails = ff->nrail;
	say_rails(ff, told, nt, by, out);
	rows(o, f, node, world, out);
	f->stripe = NULL;   /* told is this call's */
}

int foresee_print(const struct options *o, long world, FILE *out, char *err, size_t errlen)
{
	struct named nd = { 0 };
	struct fabricfile ff;
	struct world_fabric wf = { 0 };
	struct bound_fabric f;
	char bad[256] = "";
	long tpn = o->tasks_per_node, *node = NULL;
	int rc = fabricfile_list(o->nodes, add_named, &nd, bad, sizeof(bad));

	if (rc != 0) {
		snprintf(err, errlen, rc == -5 ? "--nodes '%s': a node named twice ('%s')"
			 : rc == -1 ? "--nodes '%s': out of memory%.0s"
			 : rc == -6 ? "--nodes '%s': '%s' is a name of more than 63 bytes, or past 65536 nodes"
			 : "--nodes '%s': '%s' is not a name or a range as Slurm writes them (n[1-4,7])",
			 o->nodes, bad);
		free(nd.name);
		return -1;
	}
	if (world > FORESEE_WORLD) {
		snprintf(err, errlen, "--nodes: a world of %ld tasks: the bound is worked out for at most %ld",
			 world, FORESEE_WORLD);
		free(nd.name);
		return -1;
	}
	if (!tpn && world % nd.n == 0)
		tpn = world / nd.n;
	if (!tpn || world > nd.n * tpn) {
		snprintf(err, errlen, "a world of %ld tasks on %ld node%s%s: give --tasks-per-node=N with "
			 "N x nodes at least the world", world, nd.n, nd.n == 1 ? "" : "s",
			 tpn ? " of --tasks-per-node's" : " is not the same tasks on each");
		free(nd.name);
		return -1;
	}
	rc = fabricfile_load(&ff, o->fabric, err, errlen);
	for (long i = 0, known = 0; rc == 0 && i < nd.n && !known; i++)   /* one unknown: a partial bound */
		if (!(known = fabricfile_knows(&ff, nd.name[i])) && i == nd.n - 1)
			rc = -1, snprintf(err, errlen, "--nodes: no node of them is in the fabric file '%s' "
					  "(no switch, nic or gpu line names '%s')", o->fabric, nd.name[0]);
	if (rc != 0) {
		fabricfile_free(&ff);
		free(nd.name);
		return -1;
	}
	if (fabric_of(&ff, &nd, o->line_rate, &wf, &f) != 0 || !(node = placed_nodes(o, world, nd.n, tpn, ff.nrail))) {
		snprintf(err, errlen, "out of memory for the bound of a world of %ld tasks", world);
		rc = -1;
	} else {
		print_bound(o, world, tpn, &nd, &ff, &f, node, out);
	}
	free(node);
	world_fabric_free(&wf);
	fabricfile_free(&ff);
	free(nd.name);
	return rc;
}
