/* namehash.c: see namehash.h. */
#include "namehash.h"

#include <stdlib.h>
#include <string.h>

int namehash_init(struct namehash *h, size_t names)
{
	size_t n = 16;

	while (n < 2 * (names + 1))
		n *= 2;
	h->n = 0;
	if (!(h->slot = malloc(n * sizeof(long))))
		return -1;
	h->n = n;
	for (size_t i = 0; i < n; i++)
		h->slot[i] = -1;
	return 0;
}

int namehash_room(struct namehash *h, size_t n, const char *base, size_t stride)
{
	struct namehash g;

	if (n * 2 + 2 <= h->n)
		return 0;
	if (namehash_init(&g, h->n > 16 ? h->n : 16) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		g.slot[namehash_slot(&g, base + i * stride, base, stride)] = (long)i;
	namehash_free(h);
	*h = g;
	return 0;
}

size_t namehash_slot(const struct namehash *h, const char *name, const char *base, size_t stride)
{
	size_t k = 14695981039346656037u;

	for (const char *c = name; *c; c++)
		k = (k ^ (unsigned char)*c) * 1099511628211u;
	for (k &= h->n - 1; h->slot[k] >= 0 && strcmp(base + (size_t)h->slot[k] * stride, name);
	     k = (k + 1) & (h->n - 1))
		;
	return k;
}

long namehash_find(const struct namehash *h, const char *name, const char *base, size_t stride)
{
	return h->n ? h->slot[namehash_slot(h, name, base, stride)] : -1;
}

int namehash_add(struct namehash *h, size_t n, const char *base, size_t stride)
{
	if (namehash_room(h, n, base, stride) != 0)
		return -1;
	h->slot[namehash_slot(h, base + n * stride, base, stride)] = (long)n;
	return 0;
}

void namehash_free(struct namehash *h)
{
	free(h->slot);
	h->slot = NULL;
	h->n = 0;
}
