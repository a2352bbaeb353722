/* fbound.c: the tomography of a point's rows on its fabric (see fbound.h). */
#include "fbound.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "locate.h"
#include "read/fabric.h"

/* A row's time per call: its slowest task's (fabric.h), tmed where aggbw is unknown. */
static double row_time(const struct fpoint *p, const struct mrow *r)
{
	double t = fabric_row_time(r->bytes, r->COMMSIZE, p->pt->world, r->AGGBW);

	return t > 0 ? t : r->TMED;
}

/* A point's links as L counts them and the room its rows need, made once for all of them. */
struct scratch {
	int *id;                       /* link i (NICs, uplinks, pairs of groups): its index in L, -1 not yet */
	int *used, *clear;             /* a row's links, by index */
	char *on;                      /* whether the slowest task's communicator uses it */
};

static int scratch_open(struct scratch *s, const struct fabric *net)
{
	size_t nl = (size_t)(net->nnodes + net->nleaves + net->ngroups * net->ngroups) + 1;

	*s = (struct scratch){ .id = malloc(nl * sizeof(int)), .used = malloc(nl * sizeof(int)),
			       .clear = malloc(nl * sizeof(int)), .on = calloc(nl, 1) };
	return !s->id || !s->used || !s->clear || !s->on ? -1 : (memset(s->id, 0xff, nl * sizeof(int)), 0);   /* ids -1 */
}

/* Link i of the point's fabric in L, named once; -1 (memory). */
static int link_id(struct scratch *s, const struct fabric *net, long i, struct locate *L)
{
	if (s->id[i] < 0) {
		struct bound_fabric f = fabric_bound(net);
		char name[LOCATE_NAME];
		long up = i - net->nnodes, pair = up - net->nleaves;
		bound_link_id(&f, up < 0 ? BOUND_NIC : pair < 0 ? BOUND_UPLINK : BOUND_GLOBAL,
			      up < 0 ? i : pair < 0 ? up : pair, name, sizeof(name));
		s->id[i] = locate_link(L, name);
	}
	return s->id[i];
}

static void scratch_close(struct scratch *s)
{
	free(s->id), free(s->used), free(s->clear), free(s->on);
}

/*
 * Row r on the point's fabric onto L: the links its slowest task's
 * communicator used, those it clears; 0, or -1 out of memory.
 */
static int locate_net(const struct fpoint *p, const struct mrow *r, const struct fabric *net,
		      struct scratch *s, struct locate *L)
{
	struct bound_fabric f = fabric_bound(net);
	struct partition part;
	struct bound unit;
	double row_t = row_time(p, r);
	const double *t;
	int nu = 0, nc = 0;

	if (fabric_partition(net, p->pt->mode, (int)r->level, &part) != 0 ||
	    fabric_level(net, p->pt->mode, (int)r->level, &unit, &t) != 0 || !(unit.t > 0) || unit.partial)
		return 0;
	bound_comm_links(&f, net->task, &part, partition_color(&part, r->SLOWEST), s->on, s->on + net->nnodes);
	for (long i = 0, ng = net->ngroups, sw = net->nnodes + net->nleaves; i < sw + ng * ng; i++) {
		long a = ng ? (i - sw) / ng : 0, b = ng ? (i - sw) % ng : 0;   /* a pair of groups once, a < b */
		double ti = i < sw ? t[i] : fmax(t[i], t[sw + b * ng + a]);   /* (a uniform row loads both ways alike) */
		if ((i >= sw && a >= b) || (i >= net->nnodes && i < sw && ng && !(net->uplink[i - net->nnodes] > 0)))
			continue;   /* (a dragonfly group's unrated uplink is no link) */
		if ((s->on[i] && (s->used[nu++] = link_id(s, net, i, L)) < 0) ||
		    (ti * r->bytes >= (L->half ? LOCATE_HALF : LOCATE_SLOW) * row_t &&
		     (s->clear[nc++] = link_id(s, net, i, L)) < 0))
			return -1;
	}
	return locate_row_ids(L, r->point, unit.t * r->bytes / row_t, row_t / r->TMED, s->used, nu, s->clear, nc);
}

/* Whether row r can be judged for locate.h: large enough, its time and slowest task known, uniform. */
static int locatable(const struct fpoint *p, const struct mrow *r, const char *algo)
{
	return r->bytes >= LOCATE_MIN_BYTES && r->TMED > 0 && r->SLOWEST >= 0 && r->SLOWEST < p->pt->world &&
	       !strcmp(r->split, "uniform") && !strcmp(r->algo, algo);
}

int fbound_locate(const struct fpoint *p, const struct mrow *rows, long n, struct locate *L)
{
	const struct fabric *net;
	struct scratch s = { 0 };
	long i = 0;
	int rc = 0;

	while (i < n && !locatable(p, &rows[i], rows[0].algo))
		i++;
	if (i == n)
		return 0;   /* no row to judge: the fabric not even read */
	if ((net = fabric_shared(p->fabric, p->pt->world))) {
		rc = scratch_open(&s, net);
		for (; rc == 0 && i < n; i++)
			if (locatable(p, &rows[i], rows[0].algo))
				rc = locate_net(p, &rows[i], net, &s, L);
		scratch_close(&s);
	}
	fabric_unshare(net);
	return rc;
}
