/* verify.c: host fill and check (see verify.h). */
#include "verify.h"

void verify_fill(long *send, struct verify_peers peers, long npeers, long count, long me, long iter,
		 const struct verify_blocks *blk)
{
	for (long k = 0; k < npeers; k++) {
		unsigned long long seed = verify_seed(me, verify_peer(peers, k), count, iter);
		long *block = send + (blk ? blk->displs[k] : k * count);
		long n = blk ? blk->counts[k] : count;
		for (long j = 0; j < n; j++)
			block[j] = verify_block_value(seed, j);
	}
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

long verify_check(long *recv, struct verify_peers peers, long npeers, long count,
		  long me, long iter, int repoison, struct mismatch *first,
		  const struct verify_blocks *blk)
{
	long wrong = 0;

	for (long k = 0; k < npeers; k++) {
		unsigned long long seed = verify_seed(verify_peer(peers, k), me, count, iter);
		long *block = recv + (blk ? blk->displs[k] : k * count);
		long n = blk ? blk->counts[k] : count;
		for (long c = 0; c < n; c += VERIFY_CHUNK) {
			long end = c + VERIFY_CHUNK < n ? c + VERIFY_CHUNK : n, bad = 0;
			for (long j = c; j < end; j++)
				bad |= block[j] ^ verify_block_value(seed, j);
			for (long j = c; bad && j < end; j++) {
				long want = verify_block_value(seed, j);
				if (block[j] == want || wrong++ > 0)
					continue;
				first->peer = verify_peer(peers, k);
				first->element = j;
				first->expected = want;
				first->received = block[j];
			}
			if (repoison)
				verify_poison(block + c, end - c);
		}
	}
	if (blk && blk->guard >= 0 && recv[blk->guard] != VERIFY_POISON && wrong++ == 0) {
		first->peer = verify_peer(peers, npeers - 1);   /* past the last block: one too many */
		first->element = blk->counts[npeers - 1];
		first->expected = VERIFY_POISON;
		first->received = recv[blk->guard];
	}
	return wrong;
}
