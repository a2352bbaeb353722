/* locate.c: the slow link located from ordinary rows (see locate.h). */
#include "locate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

static size_t hash_name(const char *name)
{
	size_t h = 14695981039346656037u;

	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211u;
	return h;
}

/* Link i's slot (or the empty one its name would take). */
static size_t slot_of(const struct locate *L, const char *name)
{
	size_t h = hash_name(name) & (L->nslot - 1);

	while (L->slot[h] >= 0 && strcmp(L->l[L->slot[h]].name, name))
		h = (h + 1) & (L->nslot - 1);
	return h;
}

/* The hash at twice the links' room at least; 0, or -1 (memory). */
static int rehash(struct locate *L)
{
	size_t n = L->nslot ? 2 * L->nslot : 64;
	long *slot = malloc(n * sizeof(long));

	if (!slot)
		return -1;
	free(L->slot);
	L->slot = slot;
	L->nslot = n;
	for (size_t i = 0; i < n; i++)
		slot[i] = -1;
	for (int i = 0; i < L->n; i++)
		slot[slot_of(L, L->l[i].name)] = i;
	return 0;
}

static struct locate_link *link_of(struct locate *L, const char *name)
{
	struct locate_link *g;
	size_t h;

	if ((size_t)L->n * 2 + 2 > L->nslot && rehash(L) != 0)
		return NULL;
	if (L->slot[h = slot_of(L, name)] >= 0)
		return &L->l[L->slot[h]];
	if (!(g = grow(L->l, &L->cap, (size_t)L->n + 1, sizeof(*L->l), 16)))
		return NULL;
	L->l = g;
	g = memset(&L->l[L->n], 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	L->slot[h] = L->n++;
	return g;
}

int locate_row(struct locate *L, long point, double eff, const char *const *used, int nused,
	       const char *const *clear, int nclear)
{
	struct locate_link *k;
	int slow = eff < LOCATE_SLOW;

	L->rows++;
	for (int i = 0; i < nclear; i++) {
		if (!(k = link_of(L, clear[i])))
			return -1;
		k->cleared = 1;
	}
	for (int i = 0; i < nused; i++) {
		if (!(k = link_of(L, used[i])))
			return -1;
		k->blame++;
	}
	if (!slow)
		return 0;
	if (L->slow_rows == 0 || eff < L->eff_lo)
		L->eff_lo = eff;
	if (L->slow_rows == 0 || eff > L->eff_hi)
		L->eff_hi = eff;
	L->slow_rows++;
	int seen = 0;
	for (int i = 0; i < L->npoints; i++)
		seen |= L->points[i] == point;
	if (!seen && L->npoints < (int)(sizeof(L->points) / sizeof(L->points[0])))
		L->points[L->npoints++] = point;
	for (int i = 0; i < nused; i++) {
		if (!(k = link_of(L, used[i])))
			return -1;
		k->votes++;
	}
	return 0;
}

/* Whether link k is among the suspects: the most votes, uncleared, and the most blame of those within LOCATE_MARGIN. */
static int suspect(const struct locate_link *k, int votes, int blame)
{
	return !k->cleared && k->votes == votes && k->blame > blame - LOCATE_MARGIN;
}

int locate_suspects(const struct locate *L, const char **names, int max)
{
	int best = 0, blame = 0, n = 0;

	if (L->slow_rows < LOCATE_MIN_ROWS)
		return 0;
	for (int i = 0; i < L->n; i++)
		if (!L->l[i].cleared && L->l[i].votes > best)
			best = L->l[i].votes;
	if (best < LOCATE_SHARE * L->slow_rows)
		return 0;
	for (int i = 0; i < L->n; i++)
		if (!L->l[i].cleared && L->l[i].votes == best && L->l[i].blame > blame)
			blame = L->l[i].blame;
	for (int i = 0; i < L->n; i++)
		if (suspect(&L->l[i], best, blame)) {
			if (n == max || n == LOCATE_MAX)
				return 0;   /* too many to name: no few links explain the rows */
			names[n++] = L->l[i].name;
		}
	return n;
}

void locate_release(struct locate *L)
{
	free(L->l);
	free(L->slot);
	memset(L, 0, sizeof(*L));
}
