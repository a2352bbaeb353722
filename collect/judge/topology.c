/* topology.c: the topology checked against the rows (see topology.h). */
#include "topology.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "grow.h"
#include "read/fabric.h"

/* The campaign's nodes and leaves, while the alternatives are made. */
struct names {
	char (*node)[TOPO_NAME], (*leaf_of)[TOPO_NAME], (*leaf)[TOPO_NAME];
	long nn, nl;
	size_t capn, capl;
};

static long find(char (*names)[TOPO_NAME], long n, const char *name)
{
	for (long i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* A node and its leaf into nm, each once; 0, or -1 (memory). */
static int name_pair(struct names *nm, const char *node, const char *leaf)
{
	if (find(nm->node, nm->nn, node) < 0) {
		void *a = grow(nm->node, &nm->capn, (size_t)nm->nn + 1, TOPO_NAME, 16), *b;
		if (!a)
			return -1;
		nm->node = a;
		if (!(b = realloc(nm->leaf_of, nm->capn * TOPO_NAME)))
			return -1;
		nm->leaf_of = b;
		snprintf(nm->node[nm->nn], TOPO_NAME, "%s", node);
		snprintf(nm->leaf_of[nm->nn++], TOPO_NAME, "%s", leaf);
	}
	if (find(nm->leaf, nm->nl, leaf) < 0) {
		void *a = grow(nm->leaf, &nm->capl, (size_t)nm->nl + 1, TOPO_NAME, 8);
		if (!a)
			return -1;
		nm->leaf = a;
		snprintf(nm->leaf[nm->nl++], TOPO_NAME, "%s", leaf);
	}
	return 0;
}

/*
 * A point's nodes and their leaves from its fabric facts ("node_switch NODE
 * LEAF", "fabric switch NODE LEAF": read/fabric.h's), read as text: no
 * fabric is opened for it; 0, or -1 (memory).
 */
static int names_of(struct names *nm, const char *facts)
{
	for (const char *l = facts; l && *l && nm->nn <= TOPO_NODES; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		char node[TOPO_NAME], leaf[TOPO_NAME];
		if ((!strncmp(l, "node_switch ", 12) || !strncmp(l, "fabric switch ", 14)) &&
		    sscanf(l + (l[0] == 'n' ? 12 : 14), "%63s %63s", node, leaf) == 2 && name_pair(nm, node, leaf) != 0)
			return -1;
	}
	return 0;
}

int topo_open(struct topo *t, const struct fpoint *pts, long np)
{
	struct names nm = { 0 };
	int rc = 0;

	memset(t, 0, sizeof(*t));
	for (long i = 0; i < np && rc == 0 && nm.nn <= TOPO_NODES; i++)
		rc = names_of(&nm, pts[i].fabric);
	t->nodes = nm.nn;
	for (long k = 0; rc == 0 && nm.nn <= TOPO_NODES && k < nm.nn; k++)
		for (long l = 0; rc == 0 && l < nm.nl; l++) {
			struct topo_move *m;
			if (!strcmp(nm.leaf[l], nm.leaf_of[k]))
				continue;
			if (!(m = grow(t->m, &t->cap, (size_t)t->n + 1, sizeof(*t->m), 16))) {
				rc = -1;
				break;
			}
			t->m = m;
			m = memset(&t->m[t->n++], 0, sizeof(*m));
			snprintf(m->node, TOPO_NAME, "%s", nm.node[k]);
			snprintf(m->from, TOPO_NAME, "%s", nm.leaf_of[k]);
			snprintf(m->to, TOPO_NAME, "%s", nm.leaf[l]);
		}
	free(nm.node);
	free(nm.leaf_of);
	free(nm.leaf);
	return rc;
}

/* Whether a row is judged: large, uniform, of the point's first algorithm, its time known. */
static int judged(const struct mrow *r, const char *algo)
{
	return r->bytes >= TOPO_MIN_BYTES && r->TMED > 0 && r->COMMSIZE >= 2 && !strcmp(r->split, "uniform") &&
	       !strcmp(r->algo, algo) && r->level >= 0 && r->level < FABRIC_LEVELS;
}

/* Row r's bound / its median time (eff_bound's) on fabric bf (units: per level, worked out once; done[level]); NAN where none. */
static double ratio(const struct fpoint *p, const struct fabric *f, const struct bound_fabric *bf,
		    const struct mrow *r, struct bound *unit, char *done)
{
	struct partition part;

	if (!done[r->level]) {
		done[r->level] = 1;
		if (fabric_partition(f, p->pt->mode, (int)r->level, &part) != 0 ||
		    bound_row(bf, f->task, &part, 1, &unit[r->level]) != 0)
			unit[r->level].t = 0;
	}
	return unit[r->level].t > 0 && !unit[r->level].partial ? unit[r->level].t * r->bytes / r->TMED : NAN;
}

/* Whether a row's bound / time fits a bound: at most TOPO_HIGH (its noise above), at least TOPO_LOW. */
static int fits(double r)
{
	return r >= TOPO_LOW && r <= TOPO_HIGH;
}

/* Alternative m on the point: each judged row against the declared's (rd). */
static void judge_move(struct topo_move *m, const struct fpoint *p, struct fabric *f, const struct mrow *rows,
		       long n, const double *rd)
{
	long node = -1, to = -1, was;
	struct bound unit[FABRIC_LEVELS];
	char done[FABRIC_LEVELS] = { 0 };

	for (long i = 0; i < f->nnodes && node < 0; i++)
		node = !strcmp(f->node_name[i], m->node) ? i : -1;
	for (long i = 0; i < f->nleaves && to < 0; i++)
		to = !strcmp(f->leaf_name[i], m->to) ? i : -1;
	if (node < 0 || to < 0)
		return;   /* the node is not in the point, or the leaf not in its fabric: as declared */
	was = f->leaf[node];
	f->leaf[node] = to;
	struct bound_fabric bf = fabric_bound(f);
	for (long i = 0; i < n; i++) {
		double rh;
		if (isnan(rd[i]) || isnan(rh = ratio(p, f, &bf, &rows[i], unit, done)) ||
		    fabs(log(rh) - log(rd[i])) < 0.01)
			continue;   /* not judged, or not changed by the move */
		m->wins += fits(rh) && !fits(rd[i]);
		m->losses += !fits(rh) && fits(rd[i]);
		m->bad += !fits(rh);
		m->lo = m->changed == 0 || rh < m->lo ? rh : m->lo;
		m->hi = rh > m->hi ? rh : m->hi;
		m->changed++;
	}
	f->leaf[node] = was;
}

int topo_point(struct topo *t, const struct fpoint *p, const struct mrow *rows, long n)
{
	struct fabric f;
	struct bound unit[FABRIC_LEVELS];
	char done[FABRIC_LEVELS] = { 0 };
	double *rd;
	long k = 0;

	while (k < n && !judged(&rows[k], rows[0].algo))
		k++;
	if (!p->fabric || k == n || t->nodes > TOPO_NODES || p->pt->world > TOPO_WORLD)
		return 0;   /* nothing to judge, or past what is checked */
	if (!(rd = malloc(sizeof(double) * (size_t)n)))
		return -1;
	if (fabric_open(&f, p->fabric, p->pt->world) == 0) {
		struct bound_fabric bf = fabric_bound(&f);
		for (long i = 0; i < n; i++) {
			rd[i] = judged(&rows[i], rows[0].algo) ? ratio(p, &f, &bf, &rows[i], unit, done) : NAN;
			if (isnan(rd[i]))
				continue;
			t->lo = t->rows == 0 || rd[i] < t->lo ? rd[i] : t->lo;
			t->hi = rd[i] > t->hi ? rd[i] : t->hi;
			t->rows++;
		}
		for (long m = 0; m < t->n; m++)
			judge_move(&t->m[m], p, &f, rows, n, rd);
	}
	fabric_close(&f);
	free(rd);
	return 0;
}

/* Whether a fits better than b (both fitting better than the declared). */
static int before(const struct topo_move *a, const struct topo_move *b)
{
	return a->wins != b->wins ? a->wins > b->wins : a->bad < b->bad;
}

int topo_outcome(const struct topo *t, const struct topo_move **best, int max)
{
	int nb = 0;

	if (t->rows == 0 || t->nodes > TOPO_NODES)
		return -1;
	for (long i = 0; i < t->n; i++) {
		const struct topo_move *m = &t->m[i];
		if (m->wins < TOPO_MIN_WINS || m->losses > 0 || m->bad > 0)
			continue;
		if (nb > 0 && before(m, best[0]))
			nb = 0;
		if ((nb == 0 || !before(best[0], m)) && nb < max)
			best[nb++] = m;
	}
	return nb;
}

void topo_release(struct topo *t)
{
	free(t->m);
	memset(t, 0, sizeof(*t));
}
