/* eff.c: see eff.h. */
#include "eff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"

/* Node i's off-node bytes: the larger direction. */
static double busy(const struct eff_sums *s, long i)
{
	return s->off_out[i] > s->off_in[i] ? s->off_out[i] : s->off_in[i];
}

/*
 * The largest per-node ratio of bytes / tavg to its limit: off-node bytes to
 * the NICs' (net), else in + out bytes to the copy's; NAN when a node that
 * moved bytes has no known limit.
 */
static double nearest(const struct eff_limits *l, const struct eff_sums *s, double tavg, int net)
{
	double worst = 0;

	for (long i = 0; i < l->nnodes; i++) {
		double bytes = net ? busy(s, i) : s->io[i], limit = net ? l->nic[i] : l->copy[i], r;
		if (!(bytes > 0))
			continue;
		if (!(limit > 0))
			return NAN;
		r = bytes / tavg / 1e9 / limit;
		if (r > worst)
			worst = r;
	}
	return worst;
}

/* The link's name (bound.h's), "(partial)" after it where a loaded link has no known rate. */
static void link_name(const struct bound_fabric *f, const struct bound *b, char *buf, size_t len)
{
	size_t n;

	bound_link_id(f, b->link, b->at, buf, len);
	n = strlen(buf);
	snprintf(buf + n, len - n, "%s", b->partial ? "(partial)" : "");
}

/* r's bound_s and bottleneck from the nodes' loads (bound.h); none where memory is short. */
static void row_bound(const struct eff_limits *l, const struct eff_sums *s, struct eff_row *r)
{
	long n = l->nnodes, nl = l->nleaves > 0 ? l->nleaves : 1;
	double *nic = malloc(sizeof(double) * (size_t)n), *up = calloc(2 * (size_t)nl, sizeof(double));
	/* (the leaves' uplinks as measured; the tiers above them are the merge's, from the facts) */
	struct bound_fabric f = { .nnodes = n, .nleaves = l->nleaves, .leaf = l->leaf,
	                          .nic = l->bound_nic, .uplink = l->uplink,
	                          .node_name = l->node_name, .leaf_name = l->leaf_name,
	                          .parent = NULL };
	struct bound b;

	r->bound_s = NAN;
	r->bottleneck[0] = '\0';
	if (nic && up && l->leaf && l->bound_nic && l->node_name) {
		for (long i = 0; i < n; i++) {
			long k = l->leaf[i];
			nic[i] = busy(s, i);
			if (k >= 0 && k < l->nleaves && s->leaf_out) {
				up[k] += s->leaf_out[i];
				up[nl + k] += s->leaf_in[i];
			}
		}
		for (long k = 0; k < l->nleaves; k++)
			up[k] = up[k] > up[nl + k] ? up[k] : up[nl + k];
		bound_loads(&f, nic, up, s->io, l->copy, &b);
		for (long k = 0; l->above > 0 && !b.partial && k < l->nleaves; k++)
			if (up[k] > 0) {   /* bytes leave a leaf: the switches above it are not weighed here */
				b.partial = 1;
				b.unknown = BOUND_UPLINK;
				b.unknown_at = l->above - 1;
			}
		if (b.t > 0) {
			r->bound_s = b.t;
			link_name(&f, &b, r->bottleneck, sizeof(r->bottleneck));
		}
	}
	free(nic);
	free(up);
}

void eff_compute(const struct eff_limits *l, const struct eff_sums *s, double tavg,
		 struct eff_row *r)
{
	r->offnode_B = 0;
	for (long i = 0; i < l->nnodes; i++)
		if (busy(s, i) > r->offnode_B)
			r->offnode_B = busy(s, i);
	row_bound(l, s, r);
	if (!(tavg > 0)) {
		r->netbw_GBs = r->eff = NAN;
		return;
	}
	r->netbw_GBs = r->offnode_B / tavg / 1e9;
	r->eff = nearest(l, s, tavg, r->offnode_B > 0);
}
