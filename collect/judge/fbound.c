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
		rc = 0;
	}
	fabric_close(&net);
	return rc;
}

/*
 * A row's time per call: its slowest task's, which ends the call for all its
 * communicators (from aggbw, the mean over calls of all tasks' bytes / that
 * time); tmed where aggbw is unknown. tmed alone is the typical task's: a
 * fast communicator beside a slow one hides the slow one there.
 */
static double row_time(const struct fpoint *p, const struct frow *r)
{
	double gib = r->bytes * (double)r->commsize * (double)p->world / 1073741824.0;

	return r->aggbw > 0 ? gib / r->aggbw : r->tmed;
}

/* The row's links onto L: those its slowest task's communicator used, those it clears. */
static int locate_links(const struct fabric *net, const struct partition *part, const struct frow *r,
			double row_t, double bound_t, const double *t, char *used, struct locate *L)
{
	struct bound_fabric f = fabric_bound(net);
	long nl = net->nnodes + net->nleaves;
	char (*names)[LOCATE_NAME] = malloc((size_t)nl * LOCATE_NAME);
	const char **u = malloc((size_t)nl * sizeof(char *)), **c = malloc((size_t)nl * sizeof(char *));
	int nu = 0, nc = 0, rc = -1;

	if (names && u && c) {
		bound_comm_links(&f, net->task, part, partition_color(part, r->slowest), used,
				 used + net->nnodes);
		for (long i = 0; i < nl; i++) {
			fabric_link_name(net, i, names[i], LOCATE_NAME);
			if (used[i])
				u[nu++] = names[i];
			if (t[i] >= LOCATE_SLOW * row_t)
				c[nc++] = names[i];
		}
		rc = locate_row(L, r->point, bound_t / row_t, u, nu, c, nc);
	}
	free(names);
	free(u);
	free(c);
	return rc;
}

/* The row on the point's fabric onto L; 0, or -1 out of memory. */
static int locate_net(const struct fpoint *p, const struct frow *r, const struct fabric *net,
		      struct locate *L)
{
	struct bound_fabric f = fabric_bound(net);
	long nl = net->nnodes + net->nleaves;
	double *t = calloc((size_t)nl + 1, sizeof(double));
	char *used = calloc((size_t)nl + 1, 1);
	struct partition part;
	struct bound bd;
	int rc = t && used ? 0 : -1;

	if (rc == 0 && fabric_partition(net, p->mode, (int)r->level, &part) == 0 && bound_row(&f, net->task, &part, r->bytes, &bd) == 0 && bd.t > 0 && !bd.partial &&
	    bound_times(&f, net->task, &part, r->bytes, t, t + net->nnodes) == 0)
		rc = locate_links(net, &part, r, row_time(p, r), bd.t, t, used, L);
	free(t);
	free(used);
	return rc;
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
	long i = 0;
	int rc = 0;

	while (i < n && !locatable(p, &rows[i], rows[0].algo))
		i++;
	if (i == n)
		return 0;   /* no row to judge: the fabric not even read */
	if (fabric_open(&net, p->fabric, p->world) == 0)
		for (; rc == 0 && i < n; i++)
			if (locatable(p, &rows[i], rows[0].algo))
				rc = locate_net(p, &rows[i], &net, L);
	fabric_close(&net);
	return rc;
}
