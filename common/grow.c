/* grow.c: the growable array (grow.h). */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

void *grow(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t c = *cap ? *cap : (first ? first : 1);
	void *q;

	if (need <= *cap)
		return p;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return NULL;
		c *= 2;
	}
	if (size && c > SIZE_MAX / size)
		return NULL;
	q = realloc(p, c * size);
	if (q)
		*cap = c;
	return q;
}
