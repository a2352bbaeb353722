/* fabric.c: a point's fabric from its facts (see fabric.h). */
#include "fabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosts.h"
#include "stacks.h"

#define FABRIC_LINE 512   /* a fact line longer than this is not read */

struct fabric_memo {
	int done, rc;             /* done: worked out */
	struct bound unit;        /* the bound at 1 byte per peer */
	double *t;                /* each link's time per byte per peer: nodes' NICs, then leaves' uplinks */
};

/* The index of a node's (leaves: 1) name, or -1. */
static long find_name(const struct fabric *f, int leaves, const char *name)
{
	const struct namehash *h = leaves ? &f->leaves : &f->nodes;

	return h->slot[namehash_slot(h, name, (const char *)(leaves ? f->leafname : f->node), FABRIC_NAME)];
}

/* The index of a name, added as the next when new (while there is room); -1: none. */
static long add_name(struct fabric *f, int leaves, const char *name)
{
	struct namehash *h = leaves ? &f->leaves : &f->nodes;
	long *n = leaves ? &f->nleaves : &f->nnodes;
	char (*names)[FABRIC_NAME] = leaves ? f->leafname : f->node;
	size_t k = namehash_slot(h, name, (const char *)names, FABRIC_NAME);

	if (h->slot[k] < 0 && *n < (leaves ? f->switch_room : f->room) && strlen(name) < FABRIC_NAME) {
		snprintf(names[*n], FABRIC_NAME, "%s", name);
		h->slot[k] = (*n)++;
	}
	return h->slot[k];
}

/*
 * hosts_each: rank r's node, added as first seen; a rank's first line holds
 * it. A host line's ranks come one after another: its name is looked up once.
 */
static int task_node(const char *name, long r, void *ctx)
{
	struct fabric *f = ctx;

	if (r >= 0 && r < f->world && f->task[r] < 0) {
		if (f->last < 0 || strcmp(f->node[f->last], name) != 0)
			f->last = add_name(f, 0, name);
		f->task[r] = f->last;
	}
	return 0;
}

/* Each task's node (its index in f->node, added as first seen); 0, or -1 (a task on none). */
static int task_nodes(struct fabric *f)
{
	f->last = -1;
	for (long r = 0; r < f->world; r++)
		f->task[r] = -1;
	if (hosts_each(f->hosts, task_node, f) != 0)
		return -1;
	for (long r = 0; r < f->world; r++)
		if (f->task[r] < 0)
			return -1;
	return 0;
}

static int words(char *line, char **w, int n);

/*
 * The interfaces the facts give a node's NICs ("fabric switch NODE:IF
 * LEAF" or "fabric nic_rate NODE:IF RATE" of a node the host lines name),
 * each once, in name order, into rail (at most FABRIC_RAILS); how many.
 */
static long rails_named(const struct fabric *f, const char **at, const signed char *pass, size_t lines,
			char (*rail)[FABRIC_NAME])
{
	long n = 0;

	for (size_t i = 0; i < lines; i++) {
		char line[FABRIC_LINE], node[FABRIC_LINE], *w[4], *colon;
		size_t len = strcspn(at[i], "\n");
		long k = 0;
		if (pass[i] != 1 || len >= sizeof(line) || !memchr(at[i], ':', len))
			continue;   /* a NIC's name has its colon */
		memcpy(line, at[i], len);
		line[len] = '\0';
		if (words(line, w, 4) < 4 || strcmp(w[0], "fabric") || (strcmp(w[1], "switch") && strcmp(w[1], "nic_rate")) ||
		    !(colon = strchr(w[2], ':')) || !colon[1] || strlen(colon + 1) >= FABRIC_NAME)
			continue;
		snprintf(node, sizeof(node), "%.*s", (int)(colon - w[2]), w[2]);
		if (find_name(f, 0, node) < 0)
			continue;
		while (k < n && strcmp(rail[k], colon + 1) < 0)
			k++;
		if ((k < n && !strcmp(rail[k], colon + 1)) || n == FABRIC_RAILS)
			continue;
		memmove(rail[k + 1], rail[k], (size_t)(n - k) * FABRIC_NAME);
		snprintf(rail[k], FABRIC_NAME, "%s", colon + 1);
		n++;
	}
	return n;
}

/* realloc to n elements of size, keeping p where it cannot. */
static void *shrink(void *p, size_t n, size_t size)
{
	void *q = realloc(p, (n + 1) * size);

	return q ? q : p;
}

/*
 * Rails: each node made its NICs (node i's k-th at i x rails + k, named
 * NODE:IF, of node i), each task its node's NIC (its slot on the node, in
 * rank order, mod the rails); 0, or -1 (memory, a name too long).
 */
static int rails_expand(struct fabric *f, char (*rail)[FABRIC_NAME], long nr)
{
	long nn = f->nnodes, ne = nn * nr, *slot = calloc((size_t)nn + 1, sizeof(long));
	char (*name)[FABRIC_NAME] = calloc((size_t)ne + 1, FABRIC_NAME);

	f->host = malloc(((size_t)ne + 1) * sizeof(long));
	f->leaf = shrink(f->leaf, (size_t)ne, sizeof(long));
	f->nic = shrink(f->nic, (size_t)ne, sizeof(double));
	f->nic_burst = shrink(f->nic_burst, (size_t)ne, sizeof(double));
	f->gpu = shrink(f->gpu, (size_t)ne, sizeof(double));
	namehash_free(&f->nodes);
	if (!slot || !name || !f->host || namehash_init(&f->nodes, (size_t)ne) != 0) {
		free(slot);
		free(name);
		return -1;
	}
	for (long r = 0; r < f->world; r++)
		f->task[r] = f->task[r] * nr + slot[f->task[r]]++ % nr;
	for (long e = 0; e < ne; e++) {
		if (snprintf(name[e], FABRIC_NAME, "%s:%s", f->node[e / nr], rail[e % nr]) >= FABRIC_NAME) {
			free(slot);
			free(name);
			return -1;
		}
		f->host[e] = e / nr;
		f->leaf[e] = -1;
		f->nic[e] = f->nic_burst[e] = f->gpu[e] = 0;
	}
	free(f->node);
	free(slot);
	f->node = name;
	f->nnodes = f->room = ne;
	for (long e = 0; e < ne; e++)
		f->nodes.slot[namehash_slot(&f->nodes, name[e], (const char *)name, FABRIC_NAME)] = e;
	f->nrails = nr;
	return 0;
}

/* A node's (leaves: 1) index by name, -1 unknown; a "NAME:" as NAME. */
static long named(const struct fabric *f, int leaves, char *name)
{
	size_t n = strlen(name);

	if (n > 0 && name[n - 1] == ':')
		name[n - 1] = '\0';
	return find_name(f, leaves, name);
}

/* A dragonfly's fact: "global LINKS RATE ROUTING", or "group SWITCH GROUP" of a switch named already; 1, or 0 another. */
static int dragonfly_fact(struct fabric *f, const char *what, char *name, const char *val, const char *routing)
{
	long at, g = 0;

	if (!strcmp(what, "global")) {
		f->global_links = strtol(name, NULL, 10);
		f->global_rate = bound_rate(val);
		f->adaptive = !strcmp(routing, "adaptive");
		return 1;
	}
	if (strcmp(what, "group"))
		return 0;
	at = named(f, 1, name);
	while (g < f->ngroups && strcmp(f->groupname[g], val))
		g++;
	if (strlen(val) >= FABRIC_NAME || (g == f->ngroups && g >= f->switch_room))
		return 1;
	if (g == f->ngroups)   /* every group, the run's or not: adaptive routing goes through any (as aller's bound) */
		snprintf(f->groupname[f->ngroups++], FABRIC_NAME, "%s", val);
	if (at >= 0)
		f->group[at] = g;
	return 1;
}

/*
 * With rails, the NICs the MPI stack was told to use ('# fabric: task_nics
 * IF,IF VAR', aller's: common/stacks.h): one rail among them, every task on
 * its node's NIC of that rail; several, each task's bytes striped over them
 * (bound.h). None of the rails named: each task on its slot's NIC.
 */
static void task_nics(struct fabric *f, const char *list)
{
	long n = 0;

	for (long k = 0; k < f->nrails && k < FABRIC_RAILS; k++)   /* the first node's NICs: NODE:IF, rail k */
		if (strchr(f->node[k], ':') && stack_listed(list, strchr(f->node[k], ':') + 1))
			f->stripe[n++] = k;
	for (long r = 0; n > 0 && r < f->world; r++)
		f->task[r] = f->host[f->task[r]] * f->nrails + f->stripe[0];
	f->nstripe = n > 1 ? n : 0;
	f->told |= n > 0;
}

/* A node's GPUs' port rate (GB/s each way), with rails each of its NICs'. */
static void gpu_of(struct fabric *f, const char *name, double gbs)
{
	size_t len = strlen(name);
	long one = f->nrails ? -1 : find_name(f, 0, name);   /* without rails, by hash */

	for (long e = f->nrails ? 0 : one; e >= 0 && e < (f->nrails ? f->nnodes : one + 1); e++)
		if (f->nrails ? !strncmp(f->node[e], name, len) && f->node[e][len] == ':' : 1)
			f->gpus |= (f->gpu[e] = gbs) > 0;
}

/*
 * One fact, its words w (nw of them): a node's leaf, a leaf's uplink rate
 * or burst, a node's NIC rate or burst (the limit's first).
 */
static void fact(struct fabric *f, char **w, int nw, char *nic_from_limit)
{
	int sw = nw >= 3 && !strcmp(w[0], "node_switch"), fab = nw >= 4 && !strcmp(w[0], "fabric");
	int limit = nw >= 5 && !strcmp(w[0], "limit") && !strcmp(w[1], "nic") && !strncmp(w[4], "GB/s", 4);
	const char *what = fab ? w[1] : "", *val = fab ? w[3] : "";
	char *name;
	double gbs;
	long n;

	if (!sw && !fab && !limit)
		return;   /* (host lines are read apart) */
	name = sw ? w[1] : w[2];
	if (sw || !strcmp(what, "switch")) {
		if ((n = named(f, 0, name)) >= 0) {
			char *leaf = sw ? w[2] : w[3];
			f->leaf[n] = f->nleaves < f->nnodes || find_name(f, 1, leaf) >= 0 ? add_name(f, 1, leaf) : -1;
		}
		return;
	}
	if (dragonfly_fact(f, what, name, val, nw >= 5 ? w[4] : ""))
		return;
	if (!strcmp(what, "task_nics")) {
		if (f->nrails > 0)
			task_nics(f, name);
		return;
	}
	if (!strcmp(what, "gpu_rate")) {   /* a node's GPUs' port rate: with rails, each of its NICs' */
		gpu_of(f, name, bound_rate(val));
		return;
	}
	if (!strcmp(what, "parent")) {   /* a switch above one named already (a leaf, or one above a leaf) */
		long child = named(f, 1, name), up = child >= 0 ? add_name(f, 1, w[3]) : -1, a = up;
		for (long hops = 0; a >= 0 && a != child && f->parent[child] != up && hops < f->nleaves; hops++)
			a = f->parent[a];
		if (up >= 0 && a != child)   /* never a cycle: a line that would close one is left out */
			f->parent[child] = up;
		return;
	}
	/* leaves are named by the node lines first: an uplink's rate and burst come later */
	n = !strncmp(what, "uplink_", 7) ? named(f, 1, name) : named(f, 0, name);
	gbs = strtod(fab ? val : w[3], NULL);
	if (n < 0)
		return;
	if (limit && gbs > 0) {
		f->nic[n] = gbs;
		nic_from_limit[n] = 1;
	} else if (!strcmp(what, "uplink_rate")) {
		f->uplink[n] = bound_rate(val);
	} else if (!strcmp(what, "uplink_linkspeed") && !(f->uplink[n] > 0)) {
		f->uplink[n] = bound_rate(val);   /* Slurm's LinkSpeed where nothing else rates the uplink */
	} else if (!strcmp(what, "uplink_burst") && gbs > 0) {
		f->up_burst[n] = gbs;
	} else if (!strcmp(what, "nic_burst") && gbs > 0) {
		f->nic_burst[n] = gbs;
	} else if (!strcmp(what, "nic_rate")) {
		f->nic[n] = bound_nic_rate(nic_from_limit[n] ? f->nic[n] : 0, val);
	}
}

/* Whether a fact's key (up to its tab or space) is one the fabric reads. */
static int fabric_key(const char *s)
{
	const char *k = *s == 'h' ? "host" : *s == 'n' ? "node_switch" : *s == 'f' ? "fabric" : *s == 'l' ? "limit"
		      : *s == 'd' ? "device" : NULL;
	size_t n = k ? strlen(k) : 0;

	return k && !strncmp(s, k, n) && (s[n] == '\t' || s[n] == ' ');
}

/* The first n words of line (split in place at spaces and tabs); how many. */
static int words(char *line, char **w, int n)
{
	int k = 0;

	for (char *s = line; k < n && *(s += strspn(s, " \t"));) {
		w[k++] = s;
		s += strcspn(s, " \t");
		if (*s)
			*s++ = '\0';
	}
	return k;
}

/*
 * Which of fabric_open's passes reads a fact line (a line too long to read
 * whole is left out: a host line cut short would lie): 0 the host lines, 1
 * the rest but the switches', 2 the switches above switches (read again
 * for each tier: a parent is named by its child), 3 uplink rates and
 * bursts and groups (their switches named first) and devices (after the
 * stack's task_nics and a declared gpu_rate), 4 uplink_linkspeed (where 3
 * gave none); -1 none.
 */
static int pass_of(const char *s, size_t len)
{
	if (len >= FABRIC_LINE || !fabric_key(s))
		return -1;
	if (!strncmp(s, "host", 4) && (s[4] == '\t' || s[4] == ' '))
		return 0;
	if (!strncmp(s, "fabric", 6) && !strncmp(s + 7, "parent", 6))
		return 2;
	if (!strncmp(s, "fabric", 6) && !strncmp(s + 7, "uplink_", 7))
		return !strncmp(s + 14, "linkspeed", 9) ? 4 : 3;
	if ((!strncmp(s, "fabric", 6) && !strncmp(s + 7, "group", 5)) || !strncmp(s, "device", 6))
		return 3;
	return 1;
}

/* A task of a GPU whose nearest NIC is rail `rail` of its node: on it. */
struct nearest {
	struct fabric *f;
	long rail;
};

static int nearest_rank(const char *name, long rank, void *ctx)
{
	struct nearest *n = ctx;
	struct fabric *f = n->f;

	(void)name;
	if (rank >= 0 && rank < f->world)
		f->task[rank] = f->host[f->task[rank]] * f->nrails + n->rail;
	return 0;
}

/*
 * A GPU (aller's '# device: HOST ID RANKS ... nic=IF(HOW) link=nvlink:N
 * link_GBs=G'; read after the rest): its NVLinks' rate as its node's GPU
 * port rate (NVML's, before a declared gpu_rate); with rails, the tasks of
 * its ranks on its nearest NIC's rail of their node, where the MPI stack
 * names none of the rails (task_nics).
 */
static void device_fact(struct fabric *f, char *line)
{
	const char *nic = strstr(line, " nic="), *link = strstr(line, " link_GBs=");
	double gbs = link ? strtod(link + 10, NULL) : 0;
	char ifn[FABRIC_NAME] = "", ranks[FABRIC_LINE], *w[4];
	struct nearest n = { f, -1 };

	if (nic)
		snprintf(ifn, sizeof(ifn), "%.*s", (int)strcspn(nic + 5, "( "), nic + 5);
	for (long k = 0; nic && !f->told && k < f->nrails && k < FABRIC_RAILS && n.rail < 0; k++)
		if (strchr(f->node[k], ':') && !strcmp(strchr(f->node[k], ':') + 1, ifn))
			n.rail = k;
	if (words(line, w, 4) < 4)
		return;
	if (gbs > 0)
		gpu_of(f, w[1], gbs);
	snprintf(ranks, sizeof(ranks), "%s %s", w[1], w[3]);   /* "HOST RANKS", a host line */
	if (n.rail >= 0)
		hosts_each(ranks, nearest_rank, &n);
}

/* One fact line of pass 0 (its value onto f->hosts) or a later one (fact(), device_fact()). */
static void each_line(struct fabric *f, const char *s, size_t len, int pass, char *nic_from_limit,
		      size_t *have)
{
	char line[FABRIC_LINE], *w[5];

	if (pass == 0) {
		if (*have < f->hosts_len)
			*have += (size_t)snprintf(f->hosts + *have, f->hosts_len - *have, "%s%.*s",
						  *have ? "\n" : "", (int)len - 5, s + 5);
		return;
	}
	memcpy(line, s, len);
	line[len] = '\0';
	if (!strncmp(line, "device", 6))
		device_fact(f, line);
	else
		fact(f, w, words(line, w, 5), nic_from_limit);
}

/*
 * The fact lines of each pass in turn (pass_of), the facts scanned once:
 * each line's pass noted in `at` (its start, lines of them), then read by
 * pass. Pass 0 alone before the nodes are known (task_nodes): `through` is
 * the last pass to read now.
 */
static void each_fact(struct fabric *f, const char **at, const signed char *pass, size_t lines,
		      int from, int through, char *nic_from_limit)
{
	size_t have = 0;   /* of f->hosts */

	for (int k = from; k <= through; k++) {
		long before;
		do {   /* pass 2 again while it names a switch: the next tier up */
			before = f->nleaves;
			for (size_t i = 0; i < lines; i++)
				if (pass[i] == k)
					each_line(f, at[i], strcspn(at[i], "\n"), k, nic_from_limit, &have);
		} while (k == 2 && f->nleaves > before);
	}
}

/* Each line's start and pass (pass_of) into at and pass (room for lines); how many. */
static size_t classify(const char *facts, const char **at, signed char *pass, size_t room)
{
	size_t n = 0;

	for (const char *s = facts; s && *s && n < room;) {
		size_t len = strcspn(s, "\n");
		at[n] = s;
		pass[n++] = (signed char)pass_of(s, len);
		s += len + (s[len] == '\n');
	}
	return n;
}

/*
 * Once read: the names and rates at the nodes' and leaves' counts (they were
 * sized for a node per task), the hash and the host lines gone, so that a
 * merge that keeps every point's fabric keeps what it needs.
 */
static void fabric_settle(struct fabric *f)
{
	f->node = shrink(f->node, (size_t)f->nnodes, FABRIC_NAME);
	f->leafname = shrink(f->leafname, (size_t)f->nleaves, FABRIC_NAME);
	f->leaf = shrink(f->leaf, (size_t)f->nnodes, sizeof(long));
	f->nic = shrink(f->nic, (size_t)f->nnodes, sizeof(double));
	f->nic_burst = shrink(f->nic_burst, (size_t)f->nnodes, sizeof(double));
	f->gpu = shrink(f->gpu, (size_t)f->nnodes, sizeof(double));
	f->uplink = shrink(f->uplink, (size_t)f->nleaves, sizeof(double));
	f->parent = shrink(f->parent, (size_t)f->nleaves, sizeof(long));
	f->up_burst = shrink(f->up_burst, (size_t)f->nleaves, sizeof(double));
	f->group = shrink(f->group, (size_t)f->nleaves, sizeof(long));
	f->groupname = shrink(f->groupname, (size_t)f->ngroups, FABRIC_NAME);
	namehash_free(&f->nodes);
	namehash_free(&f->leaves);
	free(f->hosts);
	f->hosts = NULL;
	f->hosts_len = 0;
	f->node_name = malloc(sizeof(char *) * ((size_t)f->nnodes + 1));
	f->leaf_name = malloc(sizeof(char *) * ((size_t)f->nleaves + 1));
	for (long i = 0; f->node_name && i < f->nnodes; i++)
		f->node_name[i] = f->node[i];
	for (long i = 0; f->leaf_name && i < f->nleaves; i++)
		f->leaf_name[i] = f->leafname[i];
	f->group_name = malloc(sizeof(char *) * ((size_t)f->ngroups + 1));
	for (long g = 0; f->group_name && g < f->ngroups; g++)
		f->group_name[g] = f->groupname[g];
}

/* The lines of the facts: no more nodes or leaves than these are named. */
static size_t lines_of(const char *facts)
{
	size_t n = 1;

	for (const char *s = facts; s && (s = strchr(s, '\n')); s++)
		n++;
	return n;
}

int fabric_open(struct fabric *f, const char *facts, long world)
{
#ifdef COLLECT_NO_FABRIC   /* bench-bound's other build: the merge without the fabric model */
	facts = NULL;
#endif
	size_t w = world > 0 && world <= FABRIC_WORLD ? (size_t)world : 0, nf = strlen(facts ? facts : "") + 1;
	size_t lines = lines_of(facts), r = w < lines ? w : lines;   /* room for nodes' names */
	size_t sr = lines;   /* for switches': a fact names each (a tree's may outnumber the tasks) */
	char *from_limit = calloc(r + 1, 1);
	const char **at = malloc(lines * sizeof(*at));
	signed char *pass = calloc(lines, 1);
	int rc = -1;

	*f = (struct fabric){ .world = (long)w, .room = (long)r, .switch_room = (long)sr,
			      .node = calloc(r + 1, FABRIC_NAME), .leafname = calloc(sr + 1, FABRIC_NAME),
			      .leaf = malloc((r + 1) * sizeof(long)), .parent = malloc((sr + 1) * sizeof(long)),
			      .nic = calloc(r + 1, sizeof(double)), .uplink = calloc(sr + 1, sizeof(double)),
			      .nic_burst = calloc(r + 1, sizeof(double)),
			      .up_burst = calloc(sr + 1, sizeof(double)), .task = malloc((w + 1) * sizeof(long)),
			      .group = malloc((sr + 1) * sizeof(long)), .groupname = calloc(sr + 1, FABRIC_NAME),
			      .gpu = calloc(r + 1, sizeof(double)),
			      .hosts = calloc(nf, 1), .hosts_len = nf, .memo = calloc(2 * FABRIC_LEVELS, sizeof(struct fabric_memo)) };
	if (w > 0 && f->node && f->leafname && f->leaf && f->parent && f->nic && f->uplink && f->nic_burst &&
	    f->up_burst && f->task && f->group && f->groupname && f->gpu && f->hosts && f->memo && from_limit && at && pass &&
	    namehash_init(&f->nodes, r) == 0 && namehash_init(&f->leaves, sr) == 0) {
		lines = classify(facts, at, pass, lines);
		each_fact(f, at, pass, lines, 0, 0, from_limit);
		char rail[FABRIC_RAILS][FABRIC_NAME];
		long nr = f->hosts[0] && task_nodes(f) == 0 ? rails_named(f, at, pass, lines, rail) : -1;
		char *more = nr > 0 && rails_expand(f, rail, nr) == 0 ? calloc((size_t)f->nnodes + 1, 1) : NULL;
		if (more) {   /* room for the NICs' */
			free(from_limit);
			from_limit = more;
		} else if (nr > 0) {
			nr = -1;
		}
		if (nr == 0 || (nr > 0 && f->nrails == nr)) {
			for (long i = 0; i < f->nnodes; i++)
				f->leaf[i] = -1;
			for (size_t i = 0; i <= sr; i++)
				f->parent[i] = f->group[i] = -1;
			each_fact(f, at, pass, lines, 1, 4, from_limit);
			fabric_settle(f);
			rc = 0;
		}
	}
	free(from_limit);
	free(at);
	free(pass);
	return rc;
}

struct bound_fabric fabric_bound(const struct fabric *f)
{
	return (struct bound_fabric){ .nnodes = f->nnodes, .nleaves = f->nleaves, .leaf = f->leaf,
	                              .nic = f->nic, .uplink = f->uplink,
	                              .node_name = (const char *const *)f->node_name,
	                              .leaf_name = (const char *const *)f->leaf_name,
	                              .parent = f->parent, .group = f->ngroups > 0 ? f->group : NULL,
	                              .ngroups = f->ngroups, .group_name = (const char *const *)f->group_name,
	                              .global_links = f->global_links, .global_rate = f->global_rate,
	                              .adaptive = f->adaptive, .host = f->nrails > 0 ? f->host : NULL,
	                              .stripe = f->nstripe > 1 ? f->stripe : NULL, .nstripe = f->nstripe,
	                              .rails = f->nrails,
	                              .gpu = f->gpus ? f->gpu : NULL };
}

int fabric_partition(const struct fabric *f, const char *mode, int level, struct partition *p)
{
	if (level < 0 || level >= partition_nlevels(f->world))
		return -1;
	partition_init(p, f->world, partition_level_target(f->world, level), mode && !strcmp(mode, "strided"));
	return 0;
}

int fabric_level(const struct fabric *f, const char *mode, int level, struct bound *unit, const double **t)
{
	int strided = mode && !strcmp(mode, "strided");
	struct fabric_memo *m = level >= 0 && level < FABRIC_LEVELS ? &f->memo[strided * FABRIC_LEVELS + level] : NULL;
	struct bound_fabric bf = fabric_bound(f);
	struct partition p;

	if (!m)
		return -1;
	if (!m->done) {
		m->done = 1;
		m->t = calloc((size_t)(f->nnodes + f->nleaves + f->ngroups * f->ngroups) + 1, sizeof(double));
		m->rc = !m->t || fabric_partition(f, mode, level, &p) != 0
				? -1
				: bound_times(&bf, f->task, &p, 1, &m->unit, m->t, m->t + f->nnodes);
	}
	*unit = m->unit;
	if (t)
		*t = m->t;
	return m->rc;
}

int fabric_row(const struct fabric *f, const char *mode, int level, double bytes, struct bound *b)
{
	int rc = fabric_level(f, mode, level, b, NULL);

	b->t *= bytes;
	b->t_minimal *= bytes;
	b->load *= bytes;
	return rc;
}

double fabric_row_time(double bytes, long commsize, long world, double aggbw)
{
	return aggbw > 0 ? 2 * bytes * (double)commsize * (double)world / 1073741824.0 / aggbw : 0;
}

const char *fabric_above(const struct fabric *f, const struct bound *b, double tmed_hi, double t_row)
{
	double burst = b->link == BOUND_NIC ? f->nic_burst[b->at]
		       : b->link == BOUND_UPLINK && b->at >= 0 ? f->up_burst[b->at] : 0;

	if (!(tmed_hi > 0) || !(b->t > tmed_hi) || !(b->load > 0))
		return NULL;
	if (t_row >= b->t)
		return "spread";
	/* past the burst the link needs (load - burst) / rate: t per byte x the bytes left */
	if (burst > 0 && (b->load > burst ? b->load - burst : 0) * (b->t / b->load) <= tmed_hi)
		return "burst";
	return "rate";
}

void fabric_close(struct fabric *f)
{
	free(f->node);
	free(f->leafname);
	free(f->node_name);
	free(f->leaf_name);
	free(f->leaf);
	free(f->parent);
	free(f->nic);
	free(f->uplink);
	free(f->nic_burst);
	free(f->gpu);
	free(f->up_burst);
	free(f->group);
	free(f->host);
	free(f->groupname);
	free((void *)f->group_name);
	free(f->task);
	free(f->hosts);
	namehash_free(&f->nodes);
	namehash_free(&f->leaves);
	for (int i = 0; f->memo && i < 2 * FABRIC_LEVELS; i++)
		free(f->memo[i].t);
	free(f->memo);
	memset(f, 0, sizeof(*f));
}

/*
 * fabric_shared's entries: a fabric per distinct key (the fact lines
 * fabric_open reads, each "key value") and world; the least recently used
 * of those no caller holds go past FABRIC_SHARED.
 */
struct shared {
	char *key;
	size_t len;
	unsigned long hash, used;
	long world;
	int ok, refs;
	struct fabric f;
};
static struct shared **shared;
static size_t nshared;
static unsigned long shared_clock;

/* The lines of facts that fabric_open reads (pass_of), each "key value", into a malloc'd key; its length. */
static char *shared_key(const char *facts, size_t *len, unsigned long *hash)
{
	size_t n = 0;
	char *k = malloc(strlen(facts ? facts : "") + 2);   /* a newline after the last line, and its end */

	for (const char *s = facts; k && s && *s;) {
		size_t l = strcspn(s, "\n");
		if (l < FABRIC_LINE && fabric_key(s)) {   /* pass_of's lines */
			memcpy(k + n, s, l);
			k[n + strcspn(s, " \t")] = ' ';
			k[n + l] = '\n';
			n += l + 1;
		}
		s += l + (s[l] == '\n');
	}
	*hash = 14695981039346656037UL;   /* FNV-1a */
	for (size_t i = 0; k && i < n; i++)
		*hash = (*hash ^ (unsigned char)k[i]) * 1099511628211UL;
	if (k)
		k[n] = '\0';
	*len = n;
	return k;
}

/* An entry no caller holds, the least recently used, freed while there are more than FABRIC_SHARED. */
static void shared_trim(void)
{
	while (nshared > FABRIC_SHARED) {
		size_t old = nshared;
		for (size_t i = 0; i < nshared; i++)
			if (shared[i]->refs == 0 && (old == nshared || shared[i]->used < shared[old]->used))
				old = i;
		if (old == nshared)
			return;   /* every one held: kept until one is let go */
		fabric_close(&shared[old]->f);
		free(shared[old]->key);
		free(shared[old]);
		shared[old] = shared[--nshared];
	}
}

const struct fabric *fabric_shared(const char *facts, long world)
{
#ifdef COLLECT_NO_FABRIC   /* bench-bound's other build: not even the facts scanned for a fabric */
	facts = NULL;
#endif
	size_t len;
	unsigned long hash;
	char *key = facts ? shared_key(facts, &len, &hash) : NULL;
	struct shared *e = NULL, **more;

	if (!key)
		return NULL;
	for (size_t i = 0; !e && i < nshared; i++)
		if (shared[i]->hash == hash && shared[i]->world == world && shared[i]->len == len &&
		    !memcmp(shared[i]->key, key, len))
			e = shared[i];
	if (e) {
		free(key);
	} else if ((e = calloc(1, sizeof(*e))) && (more = realloc(shared, (nshared + 1) * sizeof(*shared)))) {
		*e = (struct shared){ .key = key, .len = len, .hash = hash, .world = world };
		e->ok = fabric_open(&e->f, key, world) == 0;
		shared = more;
		shared[nshared++] = e;
	} else {
		free(e);
		free(key);
		return NULL;
	}
	const struct fabric *f = e->ok ? &e->f : NULL;   /* one that failed may go in the trim */
	e->used = ++shared_clock;
	e->refs += e->ok;
	shared_trim();
	return f;
}

void fabric_unshare(const struct fabric *f)
{
	for (size_t i = 0; f && i < nshared; i++)
		if (&shared[i]->f == f && shared[i]->refs > 0)
			shared[i]->refs--;
	shared_trim();
}
