/*
 * namehash.h: names to their indexes, as a hash over the caller's own
 * names (name i at base + i x stride: an array of char[N], or a field of an
 * array of structs): FNV-1a, open addressing, linear probing, at most half
 * full. Pure.
 */
#ifndef COMMON_NAMEHASH_H
#define COMMON_NAMEHASH_H

#include <stddef.h>

struct namehash {
	long *slot;   /* n of them, a power of two: a name's index, -1 empty */
	size_t n;
};

/* Room for `names` names; 0, or -1 out of memory. */
int namehash_init(struct namehash *h, size_t names);
/*
 * Room for one more beside the n names at base (stride apart) the hash
 * holds: when it would be over half full, a table twice as large with
 * them in it. 0, or -1 out of memory (the hash as it was).
 */
int namehash_room(struct namehash *h, size_t n, const char *base, size_t stride);
/* The slot that holds name, or the empty one it would take. */
size_t namehash_slot(const struct namehash *h, const char *name, const char *base, size_t stride);
/* The index of name among the names at base the hash holds, or -1. */
long namehash_find(const struct namehash *h, const char *name, const char *base, size_t stride);
/* Hashes name n, the last of n + 1 at base; 0, or -1 out of memory. */
int namehash_add(struct namehash *h, size_t n, const char *base, size_t stride);
void namehash_free(struct namehash *h);

#endif
