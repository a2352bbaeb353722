/* fbound.c: the tomography of a point's rows on its fabric (see fbound.h). */
#include "fbound.h"

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

/* A point's links by name and the room its rows need, made once for all of them. */
struct scratch {
	char (*names)[LOCATE_NAME];    /* link i: nodes' NICs, then leaves' uplinks */
	const char **used, **clear;    /* a row's links, by name */
	long nl;                       /* links */
	double *t;                     /* per level, each link's least time per byte per peer */
	char *on;                      /* whether the slowest task's communicator uses it */
	/* per level (a level's rows differ in bytes alone): worked out, its bound per byte per peer */
	char done[FABRIC_LEVELS];
	int rc[FABRIC_LEVELS];
	struct bound unit[FABRIC_LEVELS];
};

static int scratch_open(struct scratch *s, const struct fabric *net)
{
	size_t nl = (size_t)(net->nnodes + net->nleaves) + 1;

	*s = (struct scratch){ .names = malloc(nl * LOCATE_NAME), .used = malloc(nl * sizeof(char *)),
			       .clear = malloc(nl * sizeof(char *)), .nl = (long)nl,
			       .t = calloc(nl * FABRIC_LEVELS, sizeof(double)), .on = calloc(nl, 1) };
	if (!s->names || !s->used || !s->clear || !s->t || !s->on)
		return -1;
	struct bound_fabric f = fabric_bound(net);
	for (long i = 0; i < net->nnodes + net->nleaves; i++)
		bound_link_id(&f, i < net->nnodes ? BOUND_NIC : BOUND_UPLINK, i < net->nnodes ? i : i - net->nnodes,
			      s->names[i], LOCATE_NAME);
	return 0;
}

static void scratch_close(struct scratch *s)
{
	free(s->names);
	free(s->used);
	free(s->clear);
	free(s->t);
	free(s->on);
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
	double row_t = row_time(p, r), *t;
	long lv = r->level;
	int nu = 0, nc = 0;

	if (lv < 0 || lv >= FABRIC_LEVELS || fabric_partition(net, p->pt->mode, (int)lv, &part) != 0)
		return 0;
	t = s->t + lv * s->nl;
	if (!s->done[lv]) {
		s->done[lv] = 1;
		s->rc[lv] = bound_times(&f, net->task, &part, 1, &s->unit[lv], t, t + net->nnodes);
	}
	if (s->rc[lv] != 0 || !(s->unit[lv].t > 0) || s->unit[lv].partial)
		return 0;
	bound_comm_links(&f, net->task, &part, partition_color(&part, r->SLOWEST), s->on,
			 s->on + net->nnodes);
	for (long i = 0; i < net->nnodes + net->nleaves; i++) {
		if (s->on[i])
			s->used[nu++] = s->names[i];
		if (t[i] * r->bytes >= LOCATE_SLOW * row_t)
			s->clear[nc++] = s->names[i];
	}
	return locate_row(L, r->point, s->unit[lv].t * r->bytes / row_t, s->used, nu, s->clear, nc);
}

/* Whether row r can be judged for locate.h: large enough, its time and slowest task known, uniform. */
static int locatable(const struct fpoint *p, const struct mrow *r, const char *algo)
{
	return r->bytes >= LOCATE_MIN_BYTES && r->TMED > 0 && r->SLOWEST >= 0 && r->SLOWEST < p->pt->world &&
	       !strcmp(r->split, "uniform") && !strcmp(r->algo, algo);
}

int fbound_locate(const struct fpoint *p, const struct mrow *rows, long n, struct locate *L)
{
	struct fabric net;
	struct scratch s = { 0 };
	long i = 0;
	int rc = 0;

	while (i < n && !locatable(p, &rows[i], rows[0].algo))
		i++;
	if (i == n)
		return 0;   /* no row to judge: the fabric not even read */
	if (fabric_open(&net, p->fabric, p->pt->world) == 0) {
		rc = scratch_open(&s, &net);
		for (; rc == 0 && i < n; i++)
			if (locatable(p, &rows[i], rows[0].algo))
				rc = locate_net(p, &rows[i], &net, &s, L);
		scratch_close(&s);
	}
	fabric_close(&net);
	return rc;
}
