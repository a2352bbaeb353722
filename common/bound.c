/* bound.c: the bound of a row on a tree fabric (see bound.h). */
#include "bound.h"
#include "bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct loads {
	double *nic, *up;    /* per node, per switch: bytes each way per call */
	long *on, *under;    /* scratch: one communicator's members per node, under each switch */
	int unknown_leaf;    /* a node with off-node bytes has no known leaf */
	long unknown_node;
	double *glob;        /* a dragonfly's (else NULL): per ordered pair of groups A x ngroups + B, bytes per call */
	long *group;         /* ... per node: its group, -1 none */
	long *count, *present;   /* ... scratch: one communicator's members per group, the groups it spans */
	long *hostn, *head, *next, *hosts, *hin, *touched;   /* rails' scratch (rails_before) */
	double *gpu;         /* per node: its busiest GPU port's bytes each way per call (f->gpu), else NULL */
};

long bound_above(const struct bound_fabric *f, long sw)
{
	long p = f->parent ? f->parent[sw] : -1;

	return p >= 0 && p < f->nleaves ? p : -1;
}

/*
 * Each switch from node n's leaf up (at most every switch once: a parent
 * cycle, which the readers refuse, cannot loop) gets `add` members.
 */
static void add_under(const struct bound_fabric *f, long n, long add, long *under)
{
	long sw = f->leaf[n];

	for (long hops = 0; sw >= 0 && hops < f->nleaves; hops++, sw = bound_above(f, sw))
		under[sw] += add;
}

/* Node n's group: the first switch from its leaf up that has one; -1 none. */
static long group_of(const struct bound_fabric *f, long n)
{
	long sw = f->leaf[n];

	for (long hops = 0; sw >= 0 && hops < f->nleaves; hops++, sw = bound_above(f, sw))
		if (f->group[sw] >= 0 && f->group[sw] < f->ngroups)
			return f->group[sw];
	return -1;
}

/* One communicator's bytes between groups: the m_A members in group A send m_B x bytes to group B's. */
static void add_global(const struct bound_fabric *f, const long *at, long g, long step, double bytes,
		       struct loads *l)
{
	long np = 0, ng = f->ngroups;

	for (long i = 0; i < g; i++) {
		long gr = l->group[at[i * step]];
		if (gr >= 0 && l->count[gr]++ == 0)
			l->present[np++] = gr;
	}
	for (long a = 0; a < np; a++)
		for (long b = 0; b < np; b++)
			if (a != b)
				l->glob[l->present[a] * ng + l->present[b]] +=
					bytes * (double)l->count[l->present[a]] * (double)l->count[l->present[b]];
	for (long a = 0; a < np; a++)
		l->count[l->present[a]] = 0;
}

/*
 * Rails, before a communicator's links are loaded: its members per node
 * (hostn) and each node's NICs with members, listed once (head, next; -2:
 * not listed). Then the pairs of members on one node but on NICs under
 * different switches, which the loads count as crossing each uplink that
 * separates them and which cross none: per node with members on two NICs
 * or more, each switch above them gets its members under it (hin) and
 * gives back hin x (the node's members - hin).
 */
static void rails_before(const struct bound_fabric *f, const long *at, long g, long step, double bytes,
			 struct loads *l)
{
	long nh = 0;

	for (long i = 0; i < g; i++) {
		long e = at[i * step], h = f->host[e];
		if (l->hostn[h]++ == 0) {
			l->head[h] = -1;
			l->hosts[nh++] = h;
		}
		if (l->next[e] == -2) {
			l->next[e] = l->head[h];
			l->head[h] = e;
		}
	}
	for (long i = 0; i < nh; i++) {
		long h = l->hosts[i], nt = 0;
		if (l->next[l->head[h]] < 0)
			continue;   /* one NIC: nothing of it crosses a switch */
		for (long e = l->head[h]; e >= 0; e = l->next[e])
			for (long sw = f->leaf[e], hops = 0; sw >= 0 && hops < f->nleaves; hops++, sw = bound_above(f, sw)) {
				if (l->hin[sw] == 0)
					l->touched[nt++] = sw;
				l->hin[sw] += l->on[e];
			}
		for (long t = 0; t < nt; t++) {
			long sw = l->touched[t];
			l->up[sw] -= bytes * (double)l->hin[sw] * (double)(l->hostn[h] - l->hin[sw]);
			l->hin[sw] = 0;
		}
	}
}

/* Rails, after: the counts and lists of rails_before cleared. */
static void rails_after(const struct bound_fabric *f, const long *at, long g, long step, struct loads *l)
{
	for (long i = 0; i < g; i++) {
		l->hostn[f->host[at[i * step]]] = 0;
		l->next[at[i * step]] = -2;
	}
}

/*
 * One communicator's bytes onto the links: each of its k members on a node
 * sends to its g - k others; the u members under a switch to the g - u
 * others, through its uplink. Its members are base + i x step (partition.h).
 */
static void add_comm(const struct bound_fabric *f, const long *node, const struct partition *p,
		     long color, double bytes, double part, struct loads *l)
{
	long g = partition_size(p, color), base = partition_member(p, color, 0);
	long step = g > 1 ? partition_member(p, color, 1) - base : 1;
	const long *at = node + base;

	for (long i = 0; i < g; i++) {
		l->on[at[i * step]]++;
		add_under(f, at[i * step], 1, l->under);
	}
	if (f->host)
		rails_before(f, at, g, step, bytes * part, l);
	for (long i = 0; i < g; i++) {
		long n = at[i * step], k = l->on[n], sw = f->leaf[n];
		long here = f->host ? l->hostn[f->host[n]] : k;   /* members on its node */
		if (k == 0)
			continue;   /* this node's members are counted already */
		l->nic[n] += bytes * part * (double)k * (double)(g - here);
		if (l->gpu && here > 1 && bytes * (double)(here - 1) > l->gpu[n])
			l->gpu[n] = bytes * (double)(here - 1);
		if (here < g && sw < 0 && !l->unknown_leaf) {
			l->unknown_leaf = 1;
			l->unknown_node = n;
		}
		for (long hops = 0; sw >= 0 && hops < f->nleaves; hops++, sw = bound_above(f, sw))
			if (l->under[sw] > 0) {
				l->up[sw] += bytes * part * (double)l->under[sw] * (double)(g - l->under[sw]);
				l->under[sw] = 0;   /* once per switch; its ancestors still to come */
			}
		l->on[n] = 0;
	}
	if (f->host)
		rails_after(f, at, g, step, l);
	if (l->glob)
		add_global(f, at, g, step, bytes * part, l);
}

/* Whether f's rails are striped (bound.h), and each rail striped a NIC of each node. */
static int striped(const struct bound_fabric *f)
{
	if (!f->host || !f->stripe || f->nstripe < 2 || f->rails < 2)
		return 0;
	for (long s = 0; s < f->nstripe; s++)
		if (f->stripe[s] < 0 || f->stripe[s] >= f->rails)
			return 0;
	return 1;
}

/* Each task's NIC of rail k (striped), from its own (node, n of them) into at; 0, or -1 (out of range). */
static int on_rail(const struct bound_fabric *f, const long *node, long n, long k, long *at)
{
	for (long r = 0; r < n; r++) {
		at[r] = node[r] >= 0 && node[r] < f->nnodes ? f->host[node[r]] * f->rails + k : -1;
		if (at[r] < 0 || at[r] >= f->nnodes || f->leaf[at[r]] >= f->nleaves)
			return -1;
	}
	return 0;
}

/* 1 + the most hops up to sw, each switch's once (d: -1 unknown, -2 not under sw), not a walk per tier. */
int bound_tier(const struct bound_fabric *f, long sw)
{
	long *d = f->parent ? malloc(sizeof(long) * (size_t)f->nleaves) : NULL, most = 0;

	for (long c = 0; d && c < f->nleaves; c++)
		d[c] = c == sw ? 0 : -1;
	for (long c = 0, p, n, v; d && c < f->nleaves; c++) {
		for (p = c, n = 0; p >= 0 && d[p] == -1 && n < f->nleaves; n++)
			p = bound_above(f, p);
		v = p >= 0 && d[p] >= 0 ? d[p] + n : -2;
		for (p = c; p >= 0 && d[p] == -1; p = bound_above(f, p), v -= v > 0)
			d[p] = v;
		most = d[c] > most ? d[c] : most;
	}
	free(d);
	return 1 + (int)most;
}

/*
 * The busiest link by load / rate, and the first loaded network link
 * without a rate (a memory whose copy rate is unknown bounds nothing and
 * leaves the bound whole: copy NULL where none is known).
 */
static void busiest(const struct bound_fabric *f, const double *nic, const double *up,
		    const double *mem, const double *copy, struct bound *b)
{
	for (int kind = BOUND_NIC; kind <= BOUND_COPY; kind++) {
		long n = kind == BOUND_UPLINK ? f->nleaves : f->nnodes;
		const double *load = kind == BOUND_NIC ? nic : kind == BOUND_UPLINK ? up : mem;
		const double *rate = kind == BOUND_NIC ? f->nic : kind == BOUND_UPLINK ? f->uplink : copy;
		for (long i = 0; load && i < n; i++) {
			double r = rate ? rate[i] : 0, t = r > 0 ? load[i] / (r * 1e9) : 0;
			int group_top = kind == BOUND_UPLINK && f->group && f->group[i] >= 0 && bound_above(f, i) < 0;
			if (load[i] > 0 && !(r > 0) && kind != BOUND_COPY && !group_top && !b->partial) {
				b->partial = 1;
				b->unknown = (enum bound_link)kind;
				b->unknown_at = i;
			}
			if (t > b->t) {
				b->t = t;
				b->load = load[i];
				b->link = (enum bound_link)kind;
				b->at = i;
			}
		}
	}
}

/*
 * The bound of a dragonfly's global links from their loads, into b (its
 * other links' bound already there): minimal routing's, and adaptive
 * routing's where the fabric says so (see bound.h); b->t_minimal set.
 */
static void global_bound(const struct bound_fabric *f, const double *glob, struct bound *b)
{
	long ng = f->ngroups, pair = -1, group = -1;
	double cap = (double)f->global_links * f->global_rate * 1e9, tmin = 0, lmin = 0, tada = 0, lada = 0;

	for (long a = 0; glob && a < ng; a++) {
		double out = 0, in = 0;
		for (long c = 0; c < ng; c++) {
			double load = c != a ? glob[a * ng + c] : 0;
			out += load;
			in += c != a ? glob[c * ng + a] : 0;
			if (load > 0 && !(cap > 0) && !b->partial) {
				b->partial = 1;
				b->unknown = BOUND_GLOBAL;
				b->unknown_at = a * ng + c;
			}
			if (cap > 0 && load / cap > tmin)
				tmin = load / cap, lmin = load, pair = a * ng + c;
		}
		if (ng > 1 && cap > 0 && (out > in ? out : in) / (cap * (double)(ng - 1)) > tada)
			tada = (out > in ? out : in) / (cap * (double)(ng - 1)), lada = out > in ? out : in, group = a;
	}
	b->t_minimal = b->t > tmin ? b->t : tmin;
	if (!f->adaptive && tmin > b->t)
		b->t = tmin, b->load = lmin, b->link = BOUND_GLOBAL, b->at = pair;
	else if (f->adaptive && tada > b->t)
		b->t = tada, b->load = lada, b->link = BOUND_GLOBAL, b->at = group * ng + group;
}

/* A dragonfly's loads (f has groups) into l: allocated, each node's group; 0, or -1 (memory). */
static int global_loads(const struct bound_fabric *f, struct loads *l)
{
	size_t ng = (size_t)f->ngroups;

	l->glob = calloc(ng * ng + 1, sizeof(double));
	l->group = malloc(((size_t)f->nnodes + 1) * sizeof(long));
	l->count = calloc(ng + 1, sizeof(long));
	l->present = malloc((ng + 1) * sizeof(long));
	if (!l->glob || !l->group || !l->count || !l->present)
		return -1;
	for (long n = 0; n < f->nnodes; n++)
		l->group[n] = group_of(f, n);
	return 0;
}

/* Rails' scratch (rails_before) into l: allocated, nothing listed; 0, or -1 (memory, a NIC's node out of range). */
static int rails_loads(const struct bound_fabric *f, struct loads *l)
{
	size_t nn = (size_t)f->nnodes + 1, nl = (size_t)f->nleaves + 1;

	l->hostn = calloc(nn, sizeof(long));
	l->head = malloc(nn * sizeof(long));
	l->next = malloc(nn * sizeof(long));
	l->hosts = malloc(nn * sizeof(long));
	l->hin = calloc(nl, sizeof(long));
	l->touched = malloc(nl * sizeof(long));
	if (!l->hostn || !l->head || !l->next || !l->hosts || !l->hin || !l->touched)
		return -1;
	for (long e = 0; e < f->nnodes; e++) {
		if (f->host[e] < 0 || f->host[e] >= f->nnodes)
			return -1;
		l->next[e] = -2;
	}
	return 0;
}

/* Striped rails: each rail's share of every communicator's bytes onto l; 0, or -1 (memory, out of range). */
static int striped_loads(const struct bound_fabric *f, const long *node, const struct partition *p, double bytes,
			 struct loads *l)
{
	long *at = malloc(((size_t)p->world + 1) * sizeof(long));
	int rc = at ? 0 : -1;

	for (long s = 0; rc == 0 && s < f->nstripe; s++) {
		rc = on_rail(f, node, p->world, f->stripe[s], at);
		for (long c = 0; rc == 0 && c < p->ncomms; c++)
			add_comm(f, at, p, c, bytes, 1.0 / (double)f->nstripe, l);
	}
	free(at);
	return rc;
}

/* Each link's bytes for the row into l (allocated here); 0, or -1 (memory, a node out of range). */
static int loads_of(const struct bound_fabric *f, const long *node, const struct partition *p,
		    double bytes, struct loads *l)
{
	long nn = f->nnodes, nl = f->nleaves > 0 ? f->nleaves : 1;

	*l = (struct loads){ calloc((size_t)nn, sizeof(double)), calloc((size_t)nl, sizeof(double)),
			     calloc((size_t)nn, sizeof(long)), calloc((size_t)nl, sizeof(long)), 0, -1,
			     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	if (!l->nic || !l->up || !l->on || !l->under)
		return -1;
	for (long r = 0; r < p->world; r++)
		if (node[r] < 0 || node[r] >= nn || f->leaf[node[r]] >= f->nleaves)
			return -1;
	if (f->group && f->ngroups > 0 && global_loads(f, l) != 0)
		return -1;
	if (f->host && rails_loads(f, l) != 0)
		return -1;
	if (f->gpu && !(l->gpu = calloc((size_t)nn + 1, sizeof(double))))
		return -1;
	if (striped(f))
		return striped_loads(f, node, p, bytes, l);
	for (long c = 0; c < p->ncomms; c++)
		add_comm(f, node, p, c, bytes, 1, l);
	return 0;
}

static void loads_release(struct loads *l)
{
	free(l->nic);
	free(l->up);
	free(l->on);
	free(l->under);
	free(l->glob);
	free(l->group);
	free(l->count);
	free(l->present);
	free(l->hostn);
	free(l->head);
	free(l->next);
	free(l->hosts);
	free(l->hin);
	free(l->touched);
	free(l->gpu);
}

/* The bound from the loads: the busiest link, and what is unknown. */
static void bound_of(const struct bound_fabric *f, const struct loads *l, struct bound *b)
{
	busiest(f, l->nic, l->up, NULL, NULL, b);
	if (l->unknown_leaf && !b->partial) {
		b->partial = 1;
		b->unknown = BOUND_UPLINK;
		b->unknown_at = -1 - l->unknown_node;   /* no leaf: -1 - the node */
	}
	for (long n = 0; l->gpu && n < f->nnodes; n++) {   /* a GPU node's own links */
		double r = f->gpu[n], t = r > 0 ? l->gpu[n] / (r * 1e9) : 0;
		if (t > b->t)
			b->t = t, b->load = l->gpu[n], b->link = BOUND_GPU, b->at = n;
	}
	global_bound(f, l->glob, b);
}

int bound_row(const struct bound_fabric *f, const long *node, const struct partition *p,
	      double bytes, struct bound *b)
{
	return bound_times(f, node, p, bytes, b, NULL, NULL);
}

int bound_times(const struct bound_fabric *f, const long *node, const struct partition *p,
		double bytes, struct bound *b, double *nic_t, double *up_t)
{
	struct loads l;
	int rc = loads_of(f, node, p, bytes, &l);

	memset(b, 0, sizeof(*b));
	b->at = b->unknown_at = -1;
	if (rc == 0)
		bound_of(f, &l, b);
	for (long i = 0; rc == 0 && nic_t && i < f->nnodes; i++)
		nic_t[i] = f->nic[i] > 0 ? l.nic[i] / (f->nic[i] * 1e9) : 0;
	for (long i = 0; rc == 0 && up_t && i < f->nleaves; i++)
		up_t[i] = f->uplink[i] > 0 ? l.up[i] / (f->uplink[i] * 1e9) : 0;
	for (long i = 0; rc == 0 && up_t && l.glob && f->global_rate > 0 && i < f->ngroups * f->ngroups; i++)
		up_t[f->nleaves + i] = l.glob[i] / ((double)f->global_links * f->global_rate * 1e9);
	loads_release(&l);
	return rc;
}

void bound_loads(const struct bound_fabric *f, const double *nic_load, const double *up_load,
		 const double *mem_load, const double *copy, struct bound *b)
{
	memset(b, 0, sizeof(*b));
	b->at = b->unknown_at = -1;
	busiest(f, nic_load, f->nleaves > 0 ? up_load : NULL, mem_load, copy, b);
	b->t_minimal = b->t;
	for (long i = 0; i < f->nnodes && !b->partial; i++)
		if (nic_load[i] > 0 && f->leaf[i] < 0) {   /* off the node, through a leaf nobody named */
			b->partial = 1;
			b->unknown = BOUND_UPLINK;
			b->unknown_at = -1 - i;
		}
}

void bound_comm_links(const struct bound_fabric *f, const long *node, const struct partition *p,
		      long color, char *nic_used, char *up_used)
{
	long g = partition_size(p, color), nl = f->nleaves > 0 ? f->nleaves : 1, ns = striped(f) ? f->nstripe : 1;
	long *under = calloc((size_t)nl, sizeof(long)), *at = malloc(((size_t)g + 1) * sizeof(long)), ng = f->ngroups, gr;
	char *in = f->group && ng > 0 ? calloc((size_t)ng, 1) : NULL;

	memset(nic_used, 0, (size_t)f->nnodes);
	memset(up_used, 0, (size_t)nl + (size_t)(f->group && ng > 0 ? ng * ng : 0));
	for (long i = 0; at && i < g; i++)
		if ((at[i] = node[partition_member(p, color, i)]) >= 0 && in && (gr = group_of(f, at[i])) >= 0)
			in[gr] = 1;   /* a dragonfly: the groups it spans, and their pairs after the switches */
	for (long a = 0; in && a < ng * ng; a++)
		up_used[nl + a] = in[a / ng] && in[a % ng] && a / ng != a % ng;
	for (long s = 0; under && at && s < ns; s++) {   /* each rail striped (else once, each task's NIC) */
		int nodes = 0;
		if (ns > 1 && on_rail(f, at, g, f->stripe[s], at) != 0)
			break;
		memset(under, 0, (size_t)nl * sizeof(long));
		for (long i = 0; i < g; i++) {
			nodes |= at[i] != at[0];
			add_under(f, at[i], 1, under);
		}
		for (long i = 0; i < g; i++)
			nic_used[at[i]] |= (char)nodes;
		for (long sw = 0; sw < f->nleaves; sw++)
			up_used[sw] |= under[sw] > 0 && under[sw] < g;   /* members under it and not */
	}
	free(under);
	free(at);
	free(in);
}

void bound_link_id(const struct bound_fabric *f, enum bound_link link, long at, char *buf, size_t len)
{
	int up = link == BOUND_UPLINK && at >= 0;

	if (link == BOUND_GLOBAL) {
		long ng = f->ngroups, a = ng > 0 ? at / ng : 0, c = ng > 0 ? at % ng : 0;
		if (!f->group_name || at < 0 || at >= ng * ng)
			snprintf(buf, len, "%s", "");
		else
			snprintf(buf, len, "global:%s%s%s", f->group_name[a], a == c ? "" : ":", a == c ? "" : f->group_name[c]);
		return;
	}
	long i = at >= 0 ? at : -1 - at;
	const char *const *names = up ? f->leaf_name : f->node_name;

	if (link == BOUND_NONE || !names || i >= (up ? f->nleaves : f->nnodes))
		snprintf(buf, len, "%s", "");
	else if (link == BOUND_UPLINK)
		snprintf(buf, len, "up:%s%s", up ? "" : BOUND_LEAF_OF, names[i]);
	else
		snprintf(buf, len, "%s:%s", link == BOUND_NIC ? "nic" : link == BOUND_GPU ? "gpu" : "copy", names[i]);
}

void bound_link_of(const struct bound_fabric *f, const struct bound *b, char *buf, size_t len)
{
	size_t n;

	bound_link_id(f, b->link, b->at, buf, len);
	n = strlen(buf);
	if (b->partial && n + 10 < len) {   /* a loaded link without a rate, named: the bound is at least this */
		snprintf(buf + n, len - n, "(partial:");
		bound_link_id(f, b->unknown, b->unknown_at, buf + n + 9, len - n - 9);
		snprintf(buf + strlen(buf), len - strlen(buf), ")");
	}
}

void bound_link_words(const char *id, char *buf, size_t len)
{
	static const struct { const char *id, *words; } kinds[] = {
		{ "nic:", "the NIC of %.*s" }, { "up:" BOUND_LEAF_OF, "the uplink of %.*s's leaf" },
		{ "up:", "the uplink of %.*s" }, { "copy:", "the memory of %.*s" },
		{ "global:", "the global links of %.*s" }, { "gpu:", "the GPU links of %.*s" },
	};

	const char *partial = strstr(id, "(partial:");
	size_t n;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(id, kinds[i].id, strlen(kinds[i].id))) {
			const char *name = id + strlen(kinds[i].id), *to = name + strcspn(name, ":()");
			if (*to == ':' && !strcmp(kinds[i].id, "global:"))   /* global:A:B */
				snprintf(buf, len, "the global links from %.*s to %.*s", (int)(to - name), name,
					 (int)strcspn(to + 1, "()"), to + 1);
			else
				snprintf(buf, len, kinds[i].words, (int)strcspn(name, "()"), name);
			if (partial && (n = strlen(buf)) + 1 < len) {
				snprintf(buf + n, len - n, " (a partial bound: no rate for ");
				bound_link_words(partial + strlen("(partial:"), buf + strlen(buf), len - strlen(buf));
				snprintf(buf + strlen(buf), len - strlen(buf), ")");
			}
			return;
		}
	snprintf(buf, len, "no link");
}

double bound_rate(const char *s)
{
	static const struct { const char *unit; double gbs; } units[] = {
		{ "kbit", 1e-6 / 8 }, { "mbit", 1e-3 / 8 }, { "gbit", 1.0 / 8 }, { "gbps", 1.0 / 8 },
		{ "GB/s", 1 },
	};
	const char *end;
	double v;

	for (size_t i = 0; parse_double(s, 0, BOUND_RATE_MAX * 8e6, &v, &end) == 0 &&
			   i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit))
			return v * units[i].gbs >= BOUND_RATE_MIN && v * units[i].gbs <= BOUND_RATE_MAX ?
				       v * units[i].gbs : 0;
	return 0;
}

double bound_nic_rate(double limit, const char *declared)
{
	return limit > 0 ? limit : declared ? bound_rate(declared) : 0;
}
