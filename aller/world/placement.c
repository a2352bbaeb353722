/* placement.c: see placement.h. */
#include "placement.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

int placement_parse(struct placement *p, const char *spec, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->seed = 1;
	if (strcmp(spec, "block") == 0) {
		p->kind = PLACEMENT_BLOCK;
		return 0;
	}
	if (strcmp(spec, "cyclic") == 0) {
		p->kind = PLACEMENT_CYCLIC;
		return 0;
	}
	if (strncmp(spec, "random", 6) == 0 && (spec[6] == '\0' || spec[6] == ':')) {
		long seed = 1;
		p->kind = PLACEMENT_RANDOM;
		if (spec[6] == '\0' || (spec[7] != '+' && parse_long(spec + 7, 0, LONG_MAX, &seed) == 0))
			return (p->seed = (unsigned long)seed), 0;
	}
	snprintf(err, errlen, "invalid placement '%s': allowed are block (a node's tasks together), "
		 "cyclic (one task of each node in turn) and random[:SEED] (SEED a non-negative "
		 "integer)", spec);
	return -1;
}

void placement_describe(const struct placement *p, char *buf, size_t len)
{
	static const char *const names[] = { "launcher", "block", "cyclic", "random" };

	if (p->kind == PLACEMENT_RANDOM)
		snprintf(buf, len, "random:%lu", p->seed);
	else
		snprintf(buf, len, "%s", names[p->kind]);
}

/* splitmix64's finaliser */
static unsigned long long mix(unsigned long long x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

int placement_key(const struct placement *p, int node, int nnodes, int local, int tpn_max,
		  int rank)
{
	switch (p->kind) {
	case PLACEMENT_BLOCK:
		return node * tpn_max + local;
	case PLACEMENT_CYCLIC:
		return local * nnodes + node;
	case PLACEMENT_RANDOM:
		return (int)(mix(p->seed * 0x9e3779b97f4a7c15ULL + (unsigned long long)rank) >> 33);
	default:
		return rank;
	}
}
