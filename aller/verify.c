/* verify.c: host fill and check (see verify.h). */
#include "verify.h"

void verify_fill(long *send, const long *peers, long npeers, long count, long me, long iter)
{
	for (long k = 0; k < npeers; k++) {
		unsigned long long seed = verify_seed(me, peers[k], count, iter);
		long *block = send + k * count;
		for (long j = 0; j < count; j++)
			block[j] = verify_block_value(seed, j);
	}
}

void verify_poison(long *recv, long n)
{
	for (long i = 0; i < n; i++)
		recv[i] = VERIFY_POISON;
}

long verify_check(const long *recv, const long *peers, long npeers, long count,
		  long me, long iter, struct mismatch *first)
{
	long wrong = 0;

	for (long k = 0; k < npeers; k++) {
		unsigned long long seed = verify_seed(peers[k], me, count, iter);
		const long *block = recv + k * count;
		for (long j = 0; j < count; j++) {
			long want = verify_block_value(seed, j);
			if (block[j] == want)
				continue;
			if (wrong++ == 0) {
				first->peer = peers[k];
				first->element = j;
				first->expected = want;
				first->received = block[j];
			}
		}
	}
	return wrong;
}
