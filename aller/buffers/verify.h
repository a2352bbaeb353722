/*
 * verify.h: the data aller sends, and the check of what it receives.
 *
 * Element j of the block that world rank s sends to world rank d at per-peer
 * count c is verify_value(s, d, j, c, i). With reused data (the default) the
 * send buffer is written once per (level, count), and i is VERIFY_REUSED;
 * with fresh data (--fresh-data) it is written before every call, and i is
 * the call's iteration. Data from the wrong group, the wrong peer, the wrong
 * place, another count or (fresh) a stale iteration does not match. The part
 * of the receive buffer a call writes is set to VERIFY_POISON before each
 * checked call, so a missing element is caught too. The value function is
 * inline so the CUDA kernels compute exactly the same numbers.
 */
#ifndef ALLER_VERIFY_H
#define ALLER_VERIFY_H

#ifdef __CUDACC__
#define VERIFY_FN __host__ __device__ static inline
#else
#define VERIFY_FN static inline
#endif

#define VERIFY_POISON ((long)0x5a5a5a5a5a5a5a5aL)
#define VERIFY_REUSED (-1L) /* the iteration of reused data */

/* splitmix64's finaliser */
VERIFY_FN unsigned long long verify_mix(unsigned long long x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* One seed per (sender, receiver, count, iteration) block. */
VERIFY_FN unsigned long long verify_seed(long sender, long receiver, long count, long iter)
{
	return verify_mix(((unsigned long long)sender << 32 ^ (unsigned long long)receiver)
			  + verify_mix((unsigned long long)count * 0xd1b54a32d192ed03ULL
				       + (unsigned long long)iter * 0x9e3779b97f4a7c15ULL));
}

/*
 * Within a block the values step by an odd constant: every element differs
 * from its neighbours and from every other block's (whose seed differs), and
 * the loops vectorise, so checking costs about what copying does.
 */
#define VERIFY_STEP 0x9e3779b97f4a7c15ULL   /* odd */

VERIFY_FN long verify_block_value(unsigned long long seed, long index)
{
	long v = (long)(seed + (unsigned long long)index * VERIFY_STEP);
	return v == VERIFY_POISON ? v ^ 1 : v;
}

VERIFY_FN long verify_value(long sender, long receiver, long index, long count, long iter)
{
	return verify_block_value(verify_seed(sender, receiver, count, iter), index);
}

/*
 * The world ranks of a communicator's members: member k is base + k x step
 * (both partitions are affine, partition.h), computed where needed, so no
 * task holds a list of its communicator's g ranks.
 */
struct verify_peers {
	long base, step;
};

VERIFY_FN long verify_peer(struct verify_peers p, long k)
{
	return p.base + k * p.step;
}

struct mismatch {
	long peer;      /* world rank of the sender */
	long element;   /* index within the block */
	long expected, received;
};

/*
 * Uneven blocks (--split): block k has counts[k] longs at displs[k]; the
 * element at `guard` (one past the last block, or -1 past the buffer) is
 * poisoned with the rest and must still be poison after the call, so a
 * block of 0 elements is checked as empty and nothing lands past the end.
 * NULL: every block `count` longs, block k at k x count. The values of a
 * block stay verify_value(sender, receiver, j, count, iter), count the mean.
 */
struct verify_blocks {
	const long *counts, *displs;
	long guard;
};

/*
 * The one index j of a block of `seed` whose seed + j x VERIFY_STEP is
 * VERIFY_POISON (verify_block_value moves that value off the poison; the
 * fill and the check step by an add and look at that index apart): the step
 * is odd, so it has an inverse mod 2^64 (Newton's iteration).
 */
unsigned long long verify_poison_index(unsigned long long seed);
/*
 * One block of n values of seed: filled (the poison's index moved off it),
 * or checked: wrong plus its wrong elements, the first of them (where wrong
 * was 0) into *first but its peer; poisoned again as checked with repoison.
 */
void verify_fill_block(long *block, long n, unsigned long long seed);
long verify_check_block(long *block, long n, unsigned long long seed, int repoison, long wrong,
			struct mismatch *first);
/* Host versions; verify_peer(peers, k) is the world rank of communicator rank k. */
void verify_fill(long *send, struct verify_peers peers, long npeers, long count, long me, long iter,
		 const struct verify_blocks *blk);
void verify_poison(long *recv, long n);
/*
 * Returns the number of wrong elements; the first one goes to *first. With
 * repoison, each element is poisoned again as it is checked, for the next
 * call: one pass over the buffer instead of two.
 */
long verify_check(long *recv, struct verify_peers peers, long npeers, long count,
		  long me, long iter, int repoison, struct mismatch *first,
		  const struct verify_blocks *blk);

#endif
