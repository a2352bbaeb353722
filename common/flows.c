/* flows.c: the flows of one exchange sharing a tree's links (see flows.h). */
#include "flows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The links: each node's NIC out (0..nn-1) and in (nn..2nn-1), each
 * switch's uplink up (2nn..2nn+ns-1) and down (2nn+ns..2nn+2ns-1).
 */
struct net {
	long nl, room;      /* links; the most a flow crosses */
	long *path, *len;   /* flow i's links: path[i x room ..], len[i] of them */
	double *left;       /* per link: its rate not yet given, B/s (INFINITY: unknown) */
	long *cnt;          /* per link: its flows without a rate yet */
	double *rate;       /* per flow: B/s; -1 none yet, -2 given in this round */
	long *by;           /* per flow: the link that gave it its rate (NULL: not wanted) */
	char *unknown;      /* per flow: it crosses a link of no known rate, or has no leaf */
};

/* Whether switch a is sw or a switch above it. */
static int at_or_above(const struct bound_fabric *f, long sw, long a)
{
	for (long hops = 0; sw >= 0 && hops < f->nleaves; hops++, sw = bound_above(f, sw))
		if (sw == a)
			return 1;
	return 0;
}

/* Flow s -> d's links into hops (their count): none on one node; *unknown where a leaf is. */
static long path_of(const struct bound_fabric *f, long s, long d, long *hops, char *unknown)
{
	long k = 0, nn = f->nnodes, ns = f->nleaves, ls = f->leaf[s], ld = f->leaf[d];

	if (s == d)
		return 0;
	hops[k++] = s;
	hops[k++] = nn + d;
	if (ls < 0 || ld < 0 || ls >= ns || ld >= ns) {
		*unknown = 1;
		return k;
	}
	for (long a = ls, h = 0; a >= 0 && h < ns && !at_or_above(f, ld, a); h++, a = bound_above(f, a))
		hops[k++] = 2 * nn + a;
	for (long b = ld, h = 0; b >= 0 && h < ns && !at_or_above(f, ls, b); h++, b = bound_above(f, b))
		hops[k++] = 2 * nn + ns + b;
	return k;
}

/* Link l's rate each way, B/s; 0 unknown. */
static double link_rate(const struct bound_fabric *f, long l)
{
	long nn = f->nnodes;

	return l < 2 * nn ? f->nic[l % nn] * 1e9 : f->uplink[(l - 2 * nn) % f->nleaves] * 1e9;
}

/* One round of the filling: the least share per flow of any link, given to each flow of such a link; 0 when none is left. */
static int fill_round(struct net *x, long n)
{
	double best = INFINITY;

	memset(x->cnt, 0, sizeof(long) * (size_t)x->nl);
	for (long i = 0; i < n; i++)
		for (long h = 0; x->rate[i] == -1 && h < x->len[i]; h++)
			x->cnt[x->path[i * x->room + h]]++;
	for (long l = 0; l < x->nl; l++)
		if (x->cnt[l] > 0 && x->left[l] / (double)x->cnt[l] < best)
			best = x->left[l] / (double)x->cnt[l];
	if (!(best < INFINITY))
		return 0;
	for (long i = 0; i < n; i++)
		for (long h = 0; x->rate[i] == -1 && h < x->len[i]; h++) {
			long l = x->path[i * x->room + h];
			if (x->left[l] / (double)x->cnt[l] <= best * (1 + 1e-9)) {
				x->rate[i] = -2;
				if (x->by)
					x->by[i] = l;
			}
		}
	for (long i = 0; i < n; i++)
		if (x->rate[i] == -2) {
			x->rate[i] = best > 0 ? best : 1e-300;
			for (long h = 0; h < x->len[i]; h++) {
				double *left = &x->left[x->path[i * x->room + h]];
				*left = *left - best > 0 ? *left - best : 0;
			}
		}
	return 1;
}

static void net_release(struct net *x)
{
	free(x->path);
	free(x->len);
	free(x->left);
	free(x->cnt);
	free(x->rate);
	free(x->unknown);
}

int bound_flows(const struct bound_fabric *f, const long *src, const long *dst, long n, double bytes, double *t,
		long *by)
{
	struct net x = { 2 * f->nnodes + 2 * f->nleaves, 2 + 2 * f->nleaves, NULL, NULL, NULL, NULL, NULL, by, NULL };
	int rc = -1;

	if (f->group || f->host || n < 0)
		return -1;
	x.path = malloc(sizeof(long) * (size_t)(n * x.room + 1));
	x.len = malloc(sizeof(long) * (size_t)(n + 1));
	x.left = malloc(sizeof(double) * (size_t)x.nl);
	x.cnt = malloc(sizeof(long) * (size_t)x.nl);
	x.rate = malloc(sizeof(double) * (size_t)(n + 1));
	x.unknown = calloc((size_t)n + 1, 1);
	for (long i = 0; x.path && x.len && x.left && x.cnt && x.rate && x.unknown && i <= n; i++) {
		if (i == n) {
			rc = 0;
			break;
		}
		if (src[i] < 0 || src[i] >= f->nnodes || dst[i] < 0 || dst[i] >= f->nnodes)
			break;
		x.len[i] = path_of(f, src[i], dst[i], &x.path[i * x.room], &x.unknown[i]);
		x.rate[i] = -1;
		if (by)
			by[i] = -1;
	}
	for (long l = 0; rc == 0 && l < x.nl; l++)
		x.left[l] = link_rate(f, l) > 0 ? link_rate(f, l) : INFINITY;
	while (rc == 0 && fill_round(&x, n))
		;
	for (long i = 0; rc == 0 && i < n; i++) {
		for (long h = 0; h < x.len[i]; h++)
			x.unknown[i] |= !(link_rate(f, x.path[i * x.room + h]) > 0);
		t[i] = x.unknown[i] ? NAN : x.len[i] == 0 || x.rate[i] < 0 ? 0 : bytes / x.rate[i];
	}
	net_release(&x);
	return rc;
}
