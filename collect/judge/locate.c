/* locate.c: the slow link located from ordinary rows (see locate.h). */
#include "locate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

int locate_link(struct locate *L, const char *name)
{
	struct locate_link *g;
	long i = namehash_find(&L->names, name, L->n ? L->l[0].name : "", sizeof(*L->l));

	if (i >= 0)
		return (int)i;
	if (!(g = grow(L->l, &L->cap, (size_t)L->n + 1, sizeof(*L->l), 16)))
		return -1;
	L->l = g;
	g = memset(&L->l[L->n], 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	return namehash_add(&L->names, (size_t)L->n, L->l[0].name, sizeof(*g)) == 0 ? L->n++ : -1;
}

/* A rail's NIC "nic:NODE:IF": its node's, all its NICs ("nic:NODE", added where new), else itself; -1 (memory). */
static int node_of(struct locate *L, int k)
{
	char id[LOCATE_NAME];
	size_t len = strcspn(L->l[k].name + 4, ":") + 4;

	return strncmp(L->l[k].name, "nic:", 4) || L->l[k].name[len] != ':' ? k
	       : (snprintf(id, sizeof(id), "%.*s", (int)len, L->l[k].name), locate_link(L, id));
}

int locate_row_ids(struct locate *L, long point, double eff, double spread, const int *used, int nused,
		   const int *clear, int nclear)
{
	int slow = L->half ? eff < LOCATE_HALF : eff < LOCATE_SLOW || (eff < LOCATE_HALF && spread >= LOCATE_SPREAD);
	int seen = 0, k;

	L->rows++, L->effmed[(int)fmax(0, fmin(LOCATE_BINS - 1, 100 * eff * spread))]++;
	for (int i = 0; i < nclear; i++)   /* a rail's NIC clears its node's (all of them at half their rate) */
		if ((L->l[clear[i]].cleared = 1) && (k = node_of(L, clear[i])) >= 0)
			L->l[k].cleared = 1;
	for (int i = 0; i < nused; i++)   /* a rail's NIC votes for its node's once a row */
		for (int j = 0, at = used[i]; j < 2 && at >= 0; j++, at = node_of(L, used[i]))
			if (L->l[at].row != L->rows && (L->l[at].row = L->rows))
				L->l[at].blame++, L->l[at].votes += slow;
	if (!slow)
		return 0;
	L->eff_lo = L->slow_rows == 0 || eff < L->eff_lo ? eff : L->eff_lo;
	L->eff_hi = L->slow_rows == 0 || eff > L->eff_hi ? eff : L->eff_hi;
	L->slow_rows++;
	for (int i = 0; i < L->npoints; i++)
		seen |= L->points[i] == point;
	if (!seen && L->npoints < (int)(sizeof(L->points) / sizeof(L->points[0])))
		L->points[L->npoints++] = point;
	return 0;
}

/* Whether link k is among the suspects: the most votes, uncleared, and the most blame of those within LOCATE_MARGIN. */
static int suspect(const struct locate_link *k, int votes, int blame)
{
	return !k->cleared && k->votes == votes && k->blame > blame - LOCATE_MARGIN;
}

int locate_suspects(const struct locate *L, const char **names, int max)
{
	int best = 0, blame = 0, n = 0, nic = 0;
	char id[LOCATE_NAME];

	if (L->slow_rows < LOCATE_MIN_ROWS)
		return 0;
	for (int i = 0; i < L->n; i++)
		best = !L->l[i].cleared && L->l[i].votes > best ? L->l[i].votes : best;
	if (best < LOCATE_SHARE * L->slow_rows)
		return 0;
	for (int i = 0; i < L->n; i++) {
		blame = !L->l[i].cleared && L->l[i].votes == best && L->l[i].blame > blame ? L->l[i].blame : blame;
		nic |= suspect(&L->l[i], best, 0) && !strncmp(L->l[i].name, "nic:", 4);
	}
	for (int i = 0, drop = -1; i < L->n; i++)   /* a NIC in every slow row beside an uplink, or beside its node's */
		if (suspect(&L->l[i], best, blame) && !(nic && !strncmp(L->l[i].name, "up:", 3)) && i != drop) {
			if (n == max || n == LOCATE_MAX)   /* (all its NICs): the NIC, else the others there were too */
				return 0;   /* too many to name: no few links explain the rows */
			snprintf(id, sizeof(id), "%.*s", (int)strcspn(L->l[i].name + 4, ":") + 4, names[n++] = L->l[i].name);
			drop = (int)namehash_find(&L->names, id, L->l[0].name, sizeof(*L->l));
		}
	return n;
}

/* Whether L's rows are tight (locate.h). */
static int tight(const struct locate *L)
{
	int n = 0, seen = 0, lo = -1, hi = -1;

	for (int b = 100 * LOCATE_TIGHT_FROM; b <= 100; b++)
		n += L->effmed[b];
	for (int b = 100 * LOCATE_TIGHT_FROM; b <= 100 && hi < 0; b++) {
		seen += L->effmed[b];
		lo = lo < 0 && 10 * seen >= n ? b : lo;
		hi = 10 * seen >= 9 * n ? b : -1;
	}
	return n >= LOCATE_TIGHT_ROWS && hi <= LOCATE_TIGHT * lo;
}

const struct locate *locate_pick(const struct locate L[2])
{
	const char *names[LOCATE_MAX];

	return locate_suspects(&L[0], names, LOCATE_MAX) > 0 || !tight(&L[1]) ? &L[0] : &L[1];
}

void locate_release(struct locate *L)
{
	free(L->l);
	namehash_free(&L->names);
	memset(L, 0, sizeof(*L));
}
