/* locate.c: the slow link located from ordinary rows (see locate.h). */
#include "locate.h"

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

int locate_row_ids(struct locate *L, long point, double eff, double spread, const int *used, int nused,
		   const int *clear, int nclear)
{
	int slow = eff < LOCATE_SLOW || (eff < LOCATE_HALF && spread >= LOCATE_SPREAD), seen = 0;

	L->rows++;
	for (int i = 0; i < nclear; i++)
		L->l[clear[i]].cleared = 1;
	for (int i = 0; i < nused; i++)
		L->l[used[i]].blame++;
	if (!slow)
		return 0;
	L->eff_lo = L->slow_rows == 0 || eff < L->eff_lo ? eff : L->eff_lo;
	L->eff_hi = L->slow_rows == 0 || eff > L->eff_hi ? eff : L->eff_hi;
	L->slow_rows++;
	for (int i = 0; i < L->npoints; i++)
		seen |= L->points[i] == point;
	if (!seen && L->npoints < (int)(sizeof(L->points) / sizeof(L->points[0])))
		L->points[L->npoints++] = point;
	for (int i = 0; i < nused; i++)
		L->l[used[i]].votes++;
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
	for (int i = 0; i < L->n; i++)   /* a NIC in every slow row beside an uplink: the NIC (else the uplink's others too) */
		if (suspect(&L->l[i], best, blame) && !(nic && !strncmp(L->l[i].name, "up:", 3))) {
			if (n == max || n == LOCATE_MAX)
				return 0;   /* too many to name: no few links explain the rows */
			names[n++] = L->l[i].name;
		}
	return n;
}

void locate_release(struct locate *L)
{
	free(L->l);
	namehash_free(&L->names);
	memset(L, 0, sizeof(*L));
}
