/*
 * grow.h: the one growable array: an array of n elements made room for by
 * doubling its capacity, the same for every list aller and collect build
 * (rows, hosts, matrix cells, file names, text).
 */
#ifndef COMMON_GROW_H
#define COMMON_GROW_H

#include <stddef.h>

/*
 * Room for `need` elements of `size` bytes in p, whose capacity is *cap
 * elements: p itself when it has it, else p reallocated to the first of
 * first, 2 x first, 4 x first, ... at least need (and *cap set to it).
 * NULL, with p and *cap untouched, when out of memory or when the bytes
 * would not fit a size_t.
 */
void *grow(void *p, size_t *cap, size_t need, size_t size, size_t first);

#endif
