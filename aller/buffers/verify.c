/* verify.c: host fill and check (see verify.h). */
#include "verify.h"

unsigned long long verify_poison_index(unsigned long long seed)
{
	unsigned long long inv = VERIFY_STEP;

	for (int i = 0; i < 6; i++)
		inv *= 2 - VERIFY_STEP * inv;
	return ((unsigned long long)VERIFY_POISON - seed) * inv;
}

void verify_fill_block(long *block, long n, unsigned long long seed)
{
	unsigned long long v = seed, at_poison = verify_poison_index(seed);

	for (long j = 0; j < n; j++, v += VERIFY_STEP)   /* an add a value: it vectorises */
		block[j] = (long)v;
	if (at_poison < (unsigned long long)n)
		block[at_poison] = verify_block_value(seed, (long)at_poison);
}

void verify_fill(long *send, struct verify_peers peers, long npeers, long count, long me, long iter,
		 const struct verify_blocks *blk)
{
	for (long k = 0; k < npeers; k++)
		verify_fill_block(send + (blk ? blk->displs[k] : k * count), blk ? blk->counts[k] : count,
				  verify_seed(me, verify_peer(peers, k), count, iter));
}

void verify_poison(long *recv, long n)
{
	for (long i = 0; i < n; i++)
		recv[i] = VERIFY_POISON;
}

/*
 * In chunks that stay in the L1 cache: an OR of the differences (which
 * vectorises), a second look only at a chunk that has a wrong element, and
 * the poison for the next call while the chunk is still in the cache.
 */
#define VERIFY_CHUNK 512

long verify_check_block(long *block, long n, unsigned long long seed, int repoison, long wrong, struct mismatch *first)
{
	unsigned long long v = seed, at_poison = verify_poison_index(seed);

	for (long c = 0; c < n; c += VERIFY_CHUNK) {
		long end = c + VERIFY_CHUNK < n ? c + VERIFY_CHUNK : n;
		/* the values step by an add (no multiply: it vectorises); the chunk with the
		 * poison's index is looked at element by element, as a wrong one */
		unsigned long long bad = at_poison >= (unsigned long long)c && at_poison < (unsigned long long)end;
		for (long j = c; j < end; j++, v += VERIFY_STEP)
			bad |= (unsigned long long)block[j] ^ v;
		for (long j = c; bad && j < end; j++) {
			long want = verify_block_value(seed, j);
			if (block[j] == want || wrong++ > 0)
				continue;
			first->element = j;
			first->expected = want;
			first->received = block[j];
		}
		if (repoison)
			verify_poison(block + c, end - c);
	}
	return wrong;
}

long verify_check(long *recv, struct verify_peers peers, long npeers, long count,
		  long me, long iter, int repoison, struct mismatch *first,
		  const struct verify_blocks *blk)
{
	long wrong = 0;

	for (long k = 0; k < npeers; k++) {
		long before = wrong;
		wrong = verify_check_block(recv + (blk ? blk->displs[k] : k * count), blk ? blk->counts[k] : count,
					   verify_seed(verify_peer(peers, k), me, count, iter), repoison, wrong, first);
		if (before == 0 && wrong > 0)
			first->peer = verify_peer(peers, k);
	}
	if (blk && blk->guard >= 0 && recv[blk->guard] != VERIFY_POISON && wrong++ == 0) {
		first->peer = verify_peer(peers, npeers - 1);   /* past the last block: one too many */
		first->element = blk->counts[npeers - 1];
		first->expected = VERIFY_POISON;
		first->received = recv[blk->guard];
	}
	return wrong;
}
