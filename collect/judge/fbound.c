/* fbound.c: a point's row against what its fabric allows (see fbound.h). */
#include "fbound.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "locate.h"
#include "read/fabric.h"

/* The bound's words and its efficiency against the row's median. */
static void describe(const struct fabric *net, const struct bound *bd, const struct frow *r,
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

int fbound_row(const struct fpoint *p, const struct frow *r, struct fbound *b)
{
	struct fabric net;
	struct bound bd;
	int rc = -1;

	if (strcmp(r->split, "uniform") == 0 && fabric_open(&net, p->fabric, p->world) == 0 &&
	    fabric_row(&net, p->mode, (int)r->level, r->bytes, &bd) == 0) {
		describe(&net, &bd, r, b);
		b->above = fabric_above(&net, &bd, r->hi,
					fabric_row_time(r->bytes, r->commsize, p->world, r->aggbw));
		rc = 0;
	}
	fabric_close(&net);
	return rc;
}

/* A row's time per call: its slowest task's (fabric.h), tmed where aggbw is unknown. */
static double row_time(const struct fpoint *p, const struct frow *r)
{
	double t = fabric_row_time(r->bytes, r->commsize, p->world, r->aggbw);

	return t > 0 ? t : r->tmed;
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
	for (long i = 0; i < net->nnodes + net->nleaves; i++)
		fabric_link_name(net, i, s->names[i], LOCATE_NAME);
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
static int locate_net(const struct fpoint *p, const struct frow *r, const struct fabric *net,
		      struct scratch *s, struct locate *L)
{
	struct bound_fabric f = fabric_bound(net);
	struct partition part;
	double row_t = row_time(p, r), *t;
	long lv = r->level;
	int nu = 0, nc = 0;

	if (lv < 0 || lv >= FABRIC_LEVELS || fabric_partition(net, p->mode, (int)lv, &part) != 0)
		return 0;
	t = s->t + lv * s->nl;
	if (!s->done[lv]) {
		s->done[lv] = 1;
		s->rc[lv] = bound_times(&f, net->task, &part, 1, &s->unit[lv], t, t + net->nnodes);
	}
	if (s->rc[lv] != 0 || !(s->unit[lv].t > 0) || s->unit[lv].partial)
		return 0;
	bound_comm_links(&f, net->task, &part, partition_color(&part, r->slowest), s->on,
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
static int locatable(const struct fpoint *p, const struct frow *r, const char *algo)
{
	return r->bytes >= LOCATE_MIN_BYTES && r->tmed > 0 && r->slowest >= 0 && r->slowest < p->world &&
	       !strcmp(r->split, "uniform") && !strcmp(r->algo, algo);
}

int fbound_locate(const struct fpoint *p, const struct frow *rows, long n, struct locate *L)
{
	struct fabric net;
	struct scratch s = { 0 };
	long i = 0;
	int rc = 0;

	while (i < n && !locatable(p, &rows[i], rows[0].algo))
		i++;
	if (i == n)
		return 0;   /* no row to judge: the fabric not even read */
	if (fabric_open(&net, p->fabric, p->world) == 0) {
		rc = scratch_open(&s, &net);
		for (; rc == 0 && i < n; i++)
			if (locatable(p, &rows[i], rows[0].algo))
				rc = locate_net(p, &rows[i], &net, &s, L);
		scratch_close(&s);
	}
	fabric_close(&net);
	return rc;
}
