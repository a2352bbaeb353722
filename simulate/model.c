/* model.c: see model.h. */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "partition.h"

static int fabric_init(struct sim_fabric *x, const struct sim *s, const char **leaf_name,
		       const char **group_name)
{
	const struct fabricfile *ff = s->ff;
	long nsw = ff->nsw;

	x->leaf = malloc(sizeof(long) * (size_t)s->nnic);
	x->nic = malloc(sizeof(double) * (size_t)s->nnic);
	x->parent = malloc(sizeof(long) * (size_t)(nsw + 1));
	x->group = malloc(sizeof(long) * (size_t)(nsw + 1));
	x->uplink = malloc(sizeof(double) * (size_t)(nsw + 1));
	if (!x->leaf || !x->nic || !x->parent || !x->group || !x->uplink)
		return -1;
	for (long i = 0; i < s->nnic; i++) {
		const struct fabricfile_node *n = &ff->node[s->node_at[i]];
		x->leaf[i] = n->leaf;
		x->nic[i] = n->rate[0] ? bound_rate(n->rate) : 0;
	}
	for (long k = 0; k < nsw; k++) {
		x->parent[k] = ff->sw[k].parent;
		x->group[k] = ff->sw[k].group;
		x->uplink[k] = strcmp(ff->sw[k].rate, "-") ? bound_rate(ff->sw[k].rate) : 0;
	}
	x->f = (struct bound_fabric){ .nnodes = s->nnic, .nleaves = nsw, .leaf = x->leaf, .nic = x->nic,
				      .uplink = x->uplink, .node_name = (const char *const *)s->nic_name,
				      .leaf_name = leaf_name, .parent = x->parent, .host = s->rails ? s->host : NULL,
				      .group_name = group_name };   /* (sim_free's to free, groups or none) */
	if (ff->ngroup > 0) {
		x->f.group = x->group;
		x->f.ngroups = ff->ngroup;
		x->f.global_links = ff->global_links;
		x->f.global_rate = bound_rate(ff->global_rate);
		x->f.adaptive = ff->adaptive;
	}
	return 0;
}

static void fabric_free(struct sim_fabric *x)
{
	free(x->leaf);
	free(x->nic);
	free(x->parent);
	free(x->group);
	free(x->uplink);
}

int sim_init(struct sim *s, const struct fabricfile *ff, const char *const *names, long n, uint64_t seed,
	     char *err, size_t errlen)
{
	const char **leaf_name, **group_name;

	memset(s, 0, sizeof(*s));
	s->ff = ff;
	s->nnodes = n;
	s->seed = seed;
	s->copy = SIM_COPY_GBS;
	s->pair[0] = s->pair[1] = -1;
	s->rails = ff->nrail;
	s->nnic = n * (s->rails ? s->rails : 1);
	s->node_at = malloc(sizeof(long) * (size_t)(s->nnic + 1));
	s->host = malloc(sizeof(long) * (size_t)(s->nnic + 1));
	s->nic_name = calloc((size_t)s->nnic + 1, sizeof(char *));
	s->names = malloc(sizeof(char *) * (size_t)(n + 1));
	s->slow = malloc(sizeof(double) * (size_t)(n + 1));
	s->way[0] = calloc((size_t)s->nnic + 1, sizeof(double));
	s->way[1] = calloc((size_t)s->nnic + 1, sizeof(double));
	leaf_name = malloc(sizeof(char *) * (size_t)(ff->nsw + 1));
	group_name = malloc(sizeof(char *) * (size_t)(ff->ngroup + 1));
	if (!s->node_at || !s->host || !s->nic_name || !s->names || !s->slow || !s->way[0] || !s->way[1] || !leaf_name || !group_name) {
		free(leaf_name);
		free(group_name);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (long k = 0; k < ff->nsw; k++)
		leaf_name[k] = ff->sw[k].name;
	for (long g = 0; g < ff->ngroup; g++)
		group_name[g] = ff->group[g];
	for (long j = 0; j < s->nnic; j++) {   /* with rails, host h's NIC of rail k is h x rails + k */
		long i = s->rails ? j / s->rails : j;
		size_t len = strlen(names[i]) + (s->rails ? strlen(ff->rail[j % s->rails]) + 2 : 1);
		s->names[i] = names[i];
		s->slow[i] = 1;
		s->host[j] = i;
		if ((s->nic_name[j] = malloc(len)) != NULL)
			snprintf(s->nic_name[j], len, s->rails ? "%s:%s" : "%s", names[i], s->rails ? ff->rail[j % s->rails] : "");
		s->node_at[j] = s->nic_name[j] ? fabricfile_node_at(ff, s->nic_name[j]) : -1;
		if (!s->nic_name[j] || s->node_at[j] < 0 || ff->node[s->node_at[j]].leaf < 0) {
			snprintf(err, errlen, s->nic_name[j] ? "host '%s' is under no switch of the fabric file: allowed "
				 "are the nodes its switch lines name" : "out of memory", s->nic_name[j]);
			s->declared.f.leaf_name = leaf_name;
			s->declared.f.group_name = group_name;
			return -1;
		}
	}
	if (fabric_init(&s->declared, s, leaf_name, group_name) || fabric_init(&s->real, s, leaf_name, group_name)) {
		s->declared.f.leaf_name = leaf_name;
		s->declared.f.group_name = group_name;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void sim_free(struct sim *s)
{
	free((void *)s->declared.f.leaf_name);
	free((void *)s->declared.f.group_name);
	fabric_free(&s->declared);
	fabric_free(&s->real);
	for (long j = 0; s->nic_name && j < s->nnic; j++)
		free(s->nic_name[j]);
	free(s->nic_name);
	free(s->host);
	free(s->node_at);
	free(s->names);
	free(s->slow);
	free(s->way[0]);
	free(s->way[1]);
	memset(s, 0, sizeof(*s));
}

/* A host by name, -1 none. */
static long node_of(const struct sim *s, const char *name)
{
	for (long i = 0; i < s->nnodes; i++)
		if (!strcmp(s->names[i], name))
			return i;
	return -1;
}

/* The NICs a name gives: NODE all of a host's, NODE:IF one (with rails); their first, n of them; -1 none. */
static long nics_of(const struct sim *s, const char *name, long *n)
{
	long r = s->rails ? s->rails : 1, h = node_of(s, name);

	*n = h >= 0 ? r : 1;
	if (h >= 0)
		return h * r;
	for (long j = 0; s->rails && j < s->nnic; j++)
		if (!strcmp(s->nic_name[j], name))
			return j;
	return -1;
}

static long switch_of(const struct sim *s, const char *name)
{
	for (long k = 0; k < s->ff->nsw; k++)
		if (!strcmp(s->ff->sw[k].name, name))
			return k;
	return -1;
}

static long group_of(const struct sim *s, const char *name)
{
	for (long g = 0; g < s->ff->ngroup; g++)
		if (!strcmp(s->ff->group[g], name))
			return g;
	return -1;
}

#define SIM_FAULTS "slow-nic NODE[:IF] RATE, slow-tx NODE[:IF] RATE, slow-rx NODE[:IF] RATE, " \
	"slow-uplink SWITCH RATE, slow-global GROUP GROUP RATE, move NODE[:IF] SWITCH, slow-node NODE FACTOR"

/* A word of a fault that is not what its place wants: its line, and -1. */
static int bad_word(char *err, size_t errlen, const char *fault, const char *word, const char *why)
{
	snprintf(err, errlen, "invalid fault '%s': '%s' is %s", fault, word, why);
	return -1;
}

#define NO_HOST "no host of the run (HOSTS), nor one's NIC NODE:IF"
#define NO_RATE "not a rate (a number and kbit, mbit, gbit, gbps or GB/s: 25gbit, 12.5GB/s)"
#define NO_SWITCH "no switch of the fabric file"
#define NO_GROUP "no group of the fabric file (its group lines)"

int sim_fault(struct sim *s, const char *fault, char *err, size_t errlen)
{
	char w[5][FABRICFILE_NAME], *colon;
	int nw = 0, nic, want;
	double r = 0;
	long a = -1, b = -1;

	for (const char *p = fault; *p;) {
		size_t len;
		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (!len)
			break;
		if (nw == 5 || len >= FABRICFILE_NAME)
			goto bad;
		memcpy(w[nw], p, len);
		w[nw++][len] = 0;
		p += len;
	}
	nic = nw && (!strcmp(w[0], "slow-nic") || !strcmp(w[0], "slow-tx") || !strcmp(w[0], "slow-rx"));
	want = !nw ? 0 : nic || !strcmp(w[0], "slow-uplink") || !strcmp(w[0], "move") || !strcmp(w[0], "slow-node") ? 3
		: !strcmp(w[0], "slow-global") ? 4 : 0;
	if (!want || nw != want)
		goto bad;
	if ((colon = strchr(w[1], ':')) != NULL && !s->rails && (nic || !strcmp(w[0], "move"))) {
		snprintf(err, errlen, "invalid fault '%s': %.*s has one NIC (the fabric file declares no "
			 "rails), name it without ':IF'", fault, (int)(colon - w[1]), w[1]);
		return -1;
	}
	if (nic) {
		if ((a = nics_of(s, w[1], &b)) < 0)
			return bad_word(err, errlen, fault, w[1], NO_HOST);
		if (!((r = bound_rate(w[2])) > 0))
			return bad_word(err, errlen, fault, w[2], NO_RATE);
		for (long j = a; j < a + b; j++) {
			s->real.nic[j] = r;   /* an all-to-all loads a NIC alike both ways: one way slow binds */
			if (w[0][5] != 'n')   /* slow-rx, slow-tx: the pair matrix's flows one way */
				s->way[w[0][5] == 't'][j] = r;
		}
	} else if (!strcmp(w[0], "slow-uplink")) {
		if ((a = switch_of(s, w[1])) < 0)
			return bad_word(err, errlen, fault, w[1], NO_SWITCH);
		if (!strcmp(s->ff->sw[a].rate, "-"))
			return bad_word(err, errlen, fault, w[1], "the top of its tree: it has no uplink");
		if (!((r = bound_rate(w[2])) > 0))
			return bad_word(err, errlen, fault, w[2], NO_RATE);
		s->real.uplink[a] = r;
	} else if (!strcmp(w[0], "slow-global")) {
		if ((a = group_of(s, w[1])) < 0 || (b = group_of(s, w[2])) < 0)
			return bad_word(err, errlen, fault, w[a < 0 ? 1 : 2], NO_GROUP);
		if (a == b)
			return bad_word(err, errlen, fault, w[2], "the same group twice: name two");
		if (!((r = bound_rate(w[3])) > 0))
			return bad_word(err, errlen, fault, w[3], NO_RATE);
		s->pair[0] = a, s->pair[1] = b, s->pair_rate = r;
	} else if (!strcmp(w[0], "move")) {
		long n;
		if ((a = nics_of(s, w[1], &n)) < 0)
			return bad_word(err, errlen, fault, w[1], NO_HOST);
		if ((b = switch_of(s, w[2])) < 0)
			return bad_word(err, errlen, fault, w[2], NO_SWITCH);
		for (long j = a; j < a + n; j++)
			s->real.leaf[j] = b;
	} else {
		if ((a = node_of(s, w[1])) < 0)
			return bad_word(err, errlen, fault, w[1], "no host of the run (HOSTS)");
		if (parse_double(w[2], 1, 1e6, &r, NULL) != 0)
			return bad_word(err, errlen, fault, w[2], "not a factor 1..1e6 (how many times slower)");
		s->slow[a] = r;
	}
	return 0;
bad:
	snprintf(err, errlen, "invalid fault '%s': allowed are %s", fault, SIM_FAULTS);
	return -1;
}

int sim_faults(struct sim *s, const char *list, char *err, size_t errlen)
{
	char one[256];

	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ";");
		if (len >= sizeof(one)) {
			snprintf(err, errlen, "invalid fault '%.40s...': too long", p);
			return -1;
		}
		size_t lead = strspn(p, " \t");
		lead = lead < len ? lead : len;
		memcpy(one, p + lead, len - lead);
		for (one[len - lead] = 0; len - lead > 0 && strchr(" \t", one[len - lead - 1]); lead++)
			one[len - lead - 1] = 0;   /* the fault as given, less its blanks around */
		if (one[0] && sim_fault(s, one, err, errlen) != 0)
			return -1;
		p += len + (p[len] == ';');
	}
	return 0;
}

double sim_uniform(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t z = seed;
	uint64_t in[3] = { a, b, c };

	for (int i = 0; i < 3; i++) {
		z += 0x9e3779b97f4a7c15ULL + in[i];
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
	}
	return (double)(z >> 11) / 9007199254740992.0;
}

/* The k-th smallest of a[0..n) (0-based), a reordered around it: quickselect, linear on average. */
static double kth(double *a, long n, long k)
{
	long lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = a[lo + (hi - lo) / 2], tmp;
		long i = lo, j = hi;
		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j)
				tmp = a[i], a[i++] = a[j], a[j--] = tmp;
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return a[k];
}

/* The time of the links on each task's path, per task (t[world]); 0, or -1. */
static int task_times(const struct sim *s, const long *node, const struct partition *p, double bytes,
		      long tpn, double *t)
{
	const struct sim_fabric *x = &s->real;
	long nsw = s->ff->nsw, nc = p->ncomms;
	double *nic_t = calloc((size_t)s->nnic + 1, sizeof(double));
	double *up_t = calloc((size_t)(nsw + x->f.ngroups * x->f.ngroups) + 1, sizeof(double));   /* (+ pairs of groups) */
	long *ga = calloc((size_t)nc + 1, sizeof(long)), *gb = calloc((size_t)nc + 1, sizeof(long));
	long *g0 = malloc(sizeof(long) * (size_t)(nc + 1));
	struct bound b;
	double pair = 0, commsize = (double)partition_max_size(p);
	int rc = -1;

	if (!nic_t || !up_t || !ga || !gb || !g0 || bound_times(&x->f, node, p, bytes, &b, nic_t, up_t) != 0)
		goto out;
	for (long c = 0; c < nc; c++)
		g0[c] = -2;   /* a communicator's group: -2 none yet, -1 several */
	for (long r = 0; r < p->world; r++) {
		long c = partition_color(p, r), g = x->f.group ? x->group[x->leaf[node[r]]] : -1;
		for (long sw = x->leaf[node[r]]; x->f.group && sw >= 0 && g < 0; sw = bound_above(&x->f, sw))
			g = x->group[sw];
		g0[c] = g0[c] == -2 || g0[c] == g ? g : -1;
		ga[c] += g == s->pair[0] && g >= 0;
		gb[c] += g == s->pair[1] && g >= 0;
	}
	for (long c = 0; s->pair[0] >= 0 && c < nc; c++)
		pair += (double)ga[c] * (double)gb[c] * bytes;
	pair = s->pair[0] >= 0 ? pair / ((double)s->ff->global_links * s->pair_rate * 1e9) : 0;
	for (long r = 0; r < p->world; r++) {
		long n = node[r], c = partition_color(p, r), h = s->host[n];
		double net = nic_t[n], copy = 2 * bytes * commsize * (double)tpn / (s->copy * 1e9);
		for (long sw = x->leaf[n], hops = 0; sw >= 0 && hops <= nsw; sw = bound_above(&x->f, sw), hops++)
			net = up_t[sw] > net ? up_t[sw] : net;
		if (g0[c] == -1 && b.link == BOUND_GLOBAL && b.t > net)
			net = b.t;
		if (ga[c] && gb[c] && pair > net)
			net = pair;
		copy *= s->slow[h];
		t[r] = (net > copy ? net : copy) + SIM_PEER_S * commsize * s->slow[h];
	}
	rc = 0;
out:
	free(nic_t);
	free(up_t);
	free(ga);
	free(gb);
	free(g0);
	return rc;
}

static void put(char *c, double v)
{
	snprintf(c, 64, "%.6e", v);
}

int sim_row(const struct sim *s, long nodes, long tpn, int strided, long target, long count, long iters,
	    char col[ALLER_NCOLS][64])
{
	struct partition p;
	long world = nodes * tpn, *node = malloc(sizeof(long) * (size_t)(world + 1));
	double *t = malloc(sizeof(double) * (size_t)(world + 1)), *call = NULL, *smp = NULL;
	double bytes = (double)count * 8, sum = 0, agg = 0, tmin = INFINITY, tmax = 0, commsize, gib, tmed;
	long slowest = 0, n = world * iters, lo, hi;
	struct bound b = { 0 };
	char link[64];
	int rc = -1;

	partition_init(&p, world, target, strided);
	commsize = (double)partition_max_size(&p);
	call = malloc(sizeof(double) * (size_t)(p.ncomms + 1));
	smp = malloc(sizeof(double) * (size_t)(n + 1));
	if (!node || !t || !call || !smp)
		goto out;
	for (long r = 0; r < world; r++)   /* a task on its node's NIC of rail (local rank % rails) */
		node[r] = s->rails ? r / tpn * s->rails + r % tpn % s->rails : r / tpn;
	if (task_times(s, node, &p, bytes, tpn, t) != 0 || bound_row(&s->declared.f, node, &p, bytes, &b) != 0)
		goto out;
	for (long i = 0; i < iters; i++) {
		double most = 0;
		for (long c = 0; c < p.ncomms; c++)
			call[c] = 0;
		for (long r = 0; r < world; r++) {
			long c = partition_color(&p, r);
			call[c] = t[r] > call[c] ? t[r] : call[c];
		}
		for (long c = 0; c < p.ncomms; c++) {
			double u = sim_uniform(s->seed, (uint64_t)target, (uint64_t)count, (uint64_t)(i * p.ncomms + c));
			call[c] /= SIM_EFF_LO + (SIM_EFF_HI - SIM_EFF_LO) * u;
		}
		for (long r = 0; r < world; r++) {
			double u = sim_uniform(s->seed ^ 0x5151, (uint64_t)count, (uint64_t)i, (uint64_t)(r * 64 + target));
			double v = call[partition_color(&p, r)] * (1 + SIM_JITTER * u);
			smp[i * world + r] = v;
			sum += v;
			if (v > tmax)
				tmax = v, slowest = r;
			tmin = v < tmin ? v : tmin;
			most = v > most ? v : most;
		}
		agg += most;
	}
	tmed = kth(smp, n, (n - 1) / 2);
	lo = n < 6 ? 0 : (long)floor(n / 2.0 - 0.98 * sqrt((double)n));
	hi = n < 6 ? n - 1 : (long)ceil(n / 2.0 + 0.98 * sqrt((double)n));
	lo = lo < 0 ? 0 : lo;
	hi = hi >= n ? n - 1 : hi;
	gib = 2 * bytes * commsize / 1073741824.0;
	for (int k = 0; k < ALLER_NCOLS; k++)
		snprintf(col[k], 64, "%s", ALLER_MISSING);
	snprintf(col[ALLER_COL_COMMS], 64, "%ld", p.ncomms);
	snprintf(col[ALLER_COL_COMMSIZE], 64, "%.0f", commsize);
	snprintf(col[ALLER_COL_COUNT], 64, "%ld", count);
	put(col[ALLER_COL_GIB], gib);
	put(col[ALLER_COL_TMIN], tmin);
	put(col[ALLER_COL_TAVG], sum / (double)n);
	put(col[ALLER_COL_TMAX], tmax);
	put(col[ALLER_COL_BWMIN], gib / tmax);
	put(col[ALLER_COL_BWAVG], gib * (double)n / sum);
	put(col[ALLER_COL_BWMAX], gib / tmin);
	put(col[ALLER_COL_AGGBW], gib * (double)world * (double)iters / agg);
	snprintf(col[ALLER_COL_SLOWEST], 64, "%ld", slowest);
	put(col[ALLER_COL_TMED], tmed);
	put(col[ALLER_COL_TP99], kth(smp, n, (long)ceil(0.99 * (double)n) - 1));
	put(col[ALLER_COL_BUSBW], bytes * commsize / (sum / (double)n) / 1e9 * (commsize - 1) / commsize);
	put(col[ALLER_COL_IMBALANCE], 1);
	put(col[ALLER_COL_VBUSBW], bytes * commsize / (sum / (double)n) / 1e9 * (commsize - 1) / commsize);
	snprintf(col[ALLER_COL_ITERS], 64, "%ld", iters);
	put(col[ALLER_COL_TMED_LO], kth(smp, n, lo));
	put(col[ALLER_COL_TMED_HI], kth(smp, n, hi));
	put(col[ALLER_COL_OFFNODE], b.link == BOUND_NIC ? b.load : 0);
	put(col[ALLER_COL_NETBW], (b.link == BOUND_NIC ? b.load : 0) / (sum / (double)n) / 1e9);
	for (long h = 0; h < nodes; h++) {   /* aller's bound: the memory at each node's copy as measured */
		double mem = 2 * bytes * commsize * (double)tpn * s->slow[h] / (s->copy * 1e9);
		if (mem > b.t && !b.partial)
			b.t = mem, b.link = BOUND_COPY, b.at = h;
	}
	if (b.t > 0) {
		put(col[ALLER_COL_BOUND], b.t);
		if (b.link == BOUND_COPY)
			snprintf(link, sizeof(link), "copy:%s", s->names[b.at]);
		else
			bound_link_of(&s->declared.f, &b, link, sizeof(link));
		snprintf(col[ALLER_COL_BOTTLENECK], 64, "%s", link);
	}
	rc = 0;
out:
	free(node);
	free(t);
	free(call);
	free(smp);
	return rc;
}
