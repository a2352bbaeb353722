/* eff.c: see eff.h. */
#include "eff.h"

#include <math.h>

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

void eff_compute(const struct eff_limits *l, const struct eff_sums *s, double tavg,
		 struct eff_row *r)
{
	r->offnode_B = 0;
	for (long i = 0; i < l->nnodes; i++)
		if (busy(s, i) > r->offnode_B)
			r->offnode_B = busy(s, i);
	if (!(tavg > 0)) {
		r->netbw_GBs = r->eff = NAN;
		return;
	}
	r->netbw_GBs = r->offnode_B / tavg / 1e9;
	r->eff = nearest(l, s, tavg, r->offnode_B > 0);
}
