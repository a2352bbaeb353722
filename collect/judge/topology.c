/* topology.c: the topology checked against the rows (see topology.h). */
#include "topology.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "flows.h"
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
		rc = pts[i].pt->nodes <= TOPO_NODES ? names_of(&nm, pts[i].fabric) : (t->past = 1, 0);
	t->nodes = nm.nn;
	for (long k = 0; rc == 0 && nm.nn <= TOPO_NODES && k < nm.nn; k++)
		for (long l = 0; rc == 0 && l < nm.nl; l++) {
			struct topo_move *m;
			if (!strcmp(nm.leaf[l], nm.leaf_of[k]))
				continue;
			if ((rc = (m = grow(t->m, &t->cap, (size_t)t->n + 1, sizeof(*t->m), 16)) ? 0 : -1) != 0)
				break;
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

/* Row r's bound / its median time (eff_bound's) on fabric bf (units: per level, worked out once; done[level]);
 * NAN where none. */
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

/* Whether a row's bound / time fits a bound: at most high (its noise above: TOPO_HIGH, TOPO_PAIRS_HIGH), at least TOPO_LOW. */
static int fits(double r, double high)
{
	return r >= TOPO_LOW && r <= high;
}

/* Alternative m's tally: each ratio under it (rh) against the declared's (rd), n of each (NAN: not judged),
 * fitting up to high. */
static void tally(struct topo_move *m, const double *rd, const double *rh, long n, double high)
{
	for (long i = 0; i < n; i++) {
		if (isnan(rd[i]) || isnan(rh[i]) || fabs(log(rh[i]) - log(rd[i])) < 0.01)
			continue;   /* not judged, or not changed by the move */
		int gain = fits(rh[i], high) && fits(rd[i], high) && rh[i] >= TOPO_GAIN * rd[i];
		m->wins += fits(rh[i], high) && !fits(rd[i], high);
		m->ghi = gain && rd[i] > m->ghi ? rd[i] : m->ghi, m->gains += gain;
		m->losses += !fits(rh[i], high) && fits(rd[i], high);
		m->bad += !fits(rh[i], high);
		m->lo = m->changed == 0 || rh[i] < m->lo ? rh[i] : m->lo;
		m->hi = rh[i] > m->hi ? rh[i] : m->hi;
		m->changed++;
	}
}

/* The declared topology's ratios (rd, n; NAN not judged) into t's range; how many were judged. */
static long declared(struct topo *t, const double *rd, long n)
{
	long judged = 0;

	for (long i = 0; i < n; i++)
		if (!isnan(rd[i])) {
			t->lo = t->rows + t->pairs + judged == 0 || rd[i] < t->lo ? rd[i] : t->lo;
			t->hi = rd[i] > t->hi ? rd[i] : t->hi;
			judged++;
		}
	return judged;
}

/* Move m made on f: its node's leaf set to m's; the node (its old leaf in *was), or -1 where f lacks the node or the leaf. */
static long move_made(const struct topo_move *m, struct fabric *f, long *was)
{
	long node = -1, to = -1;

	for (long i = 0; i < f->nnodes && node < 0; i++)
		node = !strcmp(f->node_name[i], m->node) ? i : -1;
	for (long i = 0; i < f->nleaves && to < 0; i++)
		to = !strcmp(f->leaf_name[i], m->to) ? i : -1;
	if (node < 0 || to < 0)
		return -1;   /* the node is not in the point, or the leaf not in its fabric: as declared */
	*was = f->leaf[node];
	f->leaf[node] = to;
	return node;
}

/* Each judged row's ratio on fabric f (as it stands) into r, NAN where not judged. */
static void row_ratios(const struct fpoint *p, const struct fabric *f, const struct mrow *rows, long n, double *r)
{
	struct bound unit[FABRIC_LEVELS];
	char done[FABRIC_LEVELS] = { 0 };
	struct bound_fabric bf = fabric_bound(f);

	for (long i = 0; i < n; i++)
		r[i] = judged(&rows[i], rows[0].algo) ? ratio(p, f, &bf, &rows[i], unit, done) : NAN;
}

int topo_point(struct topo *t, const struct fpoint *p, const struct mrow *rows, long n)
{
	struct fabric f = { 0 };
	double *rd, *rh;
	long k = 0, was;

	while (k < n && !judged(&rows[k], rows[0].algo))
		k++;
	if (!p->fabric || k == n || t->nodes > TOPO_NODES || p->pt->nodes > TOPO_NODES || p->pt->world > TOPO_WORLD)
		return 0;   /* nothing to judge, or past what is checked */
	rh = (rd = malloc(sizeof(double) * (size_t)n * 2)) ? rd + n : NULL;   /* the declared's ratios, an alternative's */
	if (rd && fabric_open(&f, p->fabric, p->pt->world) == 0) {
		row_ratios(p, &f, rows, n, rd);
		t->rows += declared(t, rd, n);
		for (long m = 0; m < t->n; m++) {
			long node = move_made(&t->m[m], &f, &was);
			if (node < 0)
				continue;
			row_ratios(p, &f, rows, n, rh);
			tally(&t->m[m], rd, rh, n, TOPO_HIGH);
			f.leaf[node] = was;
		}
	}
	fabric_close(&f);
	free(rd);
	return rd ? 0 : -1;
}

/* Per link (bound_flows' by): the measured and the allowed rates of the flows it is the bottleneck of, their
 * lowest own ratio. */
struct shares {
	double *meas, *pred, *low;
};

/*
 * Step k's ratios into r (n of them): each link's flow with those that share
 * its bottleneck (by, from bound_flows: tp their least times). Alone on its
 * bottleneck a link's ratio is its least time / its measured one. Beside
 * others, TCP shares a link unevenly and only their sum is bound: their
 * measured rates together / the rates the fabric leaves them together, but
 * never above the lowest of them alone (each link's rate is its best
 * exchange, and a link's best may be one where the flow beside it started
 * late: their sum may then pass the link, which no sharing as declared
 * allows, while the slowest of them kept to its share). A link below
 * TOPO_LOW of its own share is that alone (a slow link's partner takes up
 * the slack: their sum would hide it). e (NULL: not wanted): how much of
 * what the fabric allows each link got, alone or with those beside it,
 * whichever is more (topo_link's).
 */
static void step_ratios(const double *bw, long n, long k, double bytes, const double *tp, const long *by,
			const struct shares *sh, double *r, double *e)
{
	for (long i = 0; i < n; i++)
		if (by[i] >= 0) {
			sh->meas[by[i]] = sh->pred[by[i]] = 0;
			sh->low[by[i]] = INFINITY;
		}
	for (long i = 0; i < n; i++) {
		double b = bw[i * n + (i + k) % n], own = tp[i] * b * 1e9 / bytes;
		if (by[i] >= 0 && tp[i] > 0 && b > 0) {
			sh->meas[by[i]] += b * 1e9;
			sh->pred[by[i]] += bytes / tp[i];
			sh->low[by[i]] = own < sh->low[by[i]] ? own : sh->low[by[i]];
		}
	}
	for (long i = 0; i < n; i++) {
		double b = bw[i * n + (i + k) % n], own = tp[i] * b * 1e9 / bytes, all;
		int known = by[i] >= 0 && tp[i] > 0 && b > 0;
		all = known ? sh->meas[by[i]] / sh->pred[by[i]] : NAN;
		r[i] = !known ? NAN : own < TOPO_LOW ? own : all < sh->low[by[i]] ? all : sh->low[by[i]];
		if (e)
			e[i] = !known ? NAN : own < TOPO_LOW ? own : own > all ? own : all;
	}
}

/*
 * Each link's ratio of a --pairs matrix (bw, n tasks, `bytes` a message) on
 * fabric f as it stands: at step k every task i sends to i + k (mod n) at
 * once (aller --pairs), the step's flows sharing the fabric's links
 * (flows.h); step_ratios' into r[(k - 1) x n + i] (and e), NAN where unknown
 * or on one node. 0, or -1 (not a tree, memory).
 */
static int pair_ratios(const struct fabric *f, const double *bw, long n, double bytes, double *r, double *e)
{
	struct bound_fabric bf = fabric_bound(f);
	long nl = 2 * (bf.nnodes + bf.nleaves);
	long *src = malloc(sizeof(long) * (size_t)n * 3), *dst = src ? src + n : NULL, *by = src ? src + 2 * n : NULL;
	double *tp = malloc(sizeof(double) * (size_t)(n + 3 * nl));
	struct shares sh = { tp ? tp + n : NULL, tp ? tp + n + nl : NULL, tp ? tp + n + 2 * nl : NULL };
	int rc = src && tp ? 0 : -1;

	for (long k = 1; rc == 0 && k < n; k++) {
		for (long i = 0; i < n; i++) {
			src[i] = f->task[i];
			dst[i] = f->task[(i + k) % n];
		}
		rc = bound_flows(&bf, src, dst, n, bytes, tp, by);
		if (rc == 0)
			step_ratios(bw, n, k, bytes, tp, by, &sh, &r[(k - 1) * n], e ? &e[(k - 1) * n] : NULL);
	}
	free(src);
	free(tp);
	return rc;
}

int topo_pairs(struct topo *t, const struct fpoint *p, const double *bw, long n, double bytes)
{
	struct fabric f = { 0 };
	long np = n * (n - 1), was;
	double *rd, *rh;
	int rc = 0, kept = 0;

	if (!p->fabric || n < 2 || n > TOPO_PAIRS || bytes < TOPO_MIN_BYTES || t->nodes > TOPO_NODES || p->pt->nodes > TOPO_NODES)
		return 0;   /* nothing to judge, or past what is checked */
	rd = malloc(sizeof(double) * (size_t)np * 3);   /* the ratios, what each link got (topo_link's), an alternative's */
	rh = rd ? rd + 2 * np : NULL;
	if (!rd)
		rc = -1;
	else if (fabric_open(&f, p->fabric, n) == 0 && pair_ratios(&f, bw, n, bytes, rd, rd + np) == 0) {
		struct topo_links *l = grow(t->links, &t->links_cap, (size_t)t->nlinks + 1, sizeof(*l), 4);
		if ((kept = l != NULL)) {   /* the declared's kept for topo_link (out of memory: not kept) */
			t->links = l;
			t->links[t->nlinks++] = (struct topo_links){ p->pt->point, n, rd };
		}
		t->pairs += declared(t, rd, np);
		for (long m = 0; m < t->n; m++) {
			long node = move_made(&t->m[m], &f, &was);
			if (node < 0)
				continue;
			if (pair_ratios(&f, bw, n, bytes, rh, NULL) == 0)
				tally(&t->m[m], rd, rh, np, TOPO_PAIRS_HIGH);
			f.leaf[node] = was;
		}
	}
	fabric_close(&f);
	if (!kept)
		free(rd);
	return rc;
}

double topo_link(const struct topo *t, long point, long src, long dst)
{
	const struct topo_move *best;

	if (topo_outcome(t, &best, 1) > 0)
		return NAN;   /* a move fits better: the declared's shares are not the fabric's */
	for (long i = 0; i < t->nlinks; i++) {
		const struct topo_links *l = &t->links[i];
		long k = (dst - src + l->n) % l->n;
		if (l->point == point && src >= 0 && src < l->n && dst >= 0 && dst < l->n && k > 0)
			return l->r[l->n * (l->n - 1) + (k - 1) * l->n + src];
	}
	return NAN;
}

long topo_won(const struct topo *t, const struct topo_move *m)
{
	return m->wins + (m->ghi * TOPO_GAIN <= t->hi ? m->gains : 0);
}

/* Whether a fits better than b (both fitting better than the declared). */
static int before(const struct topo *t, const struct topo_move *a, const struct topo_move *b)
{
	return topo_won(t, a) != topo_won(t, b) ? topo_won(t, a) > topo_won(t, b) : a->bad < b->bad;
}

int topo_outcome(const struct topo *t, const struct topo_move **best, int max)
{
	int nb = 0;

	if (t->rows + t->pairs == 0 || t->nodes > TOPO_NODES)
		return -1;
	for (long i = 0; i < t->n; i++) {
		const struct topo_move *m = &t->m[i];
		if (topo_won(t, m) < TOPO_MIN_WINS || m->bad * TOPO_OUTVOTE > topo_won(t, m))
			continue;   /* too few won, or outvoted by those that do not fit it */
		if (nb > 0 && before(t, m, best[0]))
			nb = 0;
		if ((nb == 0 || !before(t, best[0], m)) && nb < max)
			best[nb++] = m;
	}
	return nb;
}

void topo_release(struct topo *t)
{
	for (long i = 0; i < t->nlinks; i++)
		free(t->links[i].r);
	free(t->links);
	free(t->m);
	memset(t, 0, sizeof(*t));
}
