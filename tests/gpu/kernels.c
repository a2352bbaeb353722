/*
 * tests/gpu/kernels.c (make gpu-check): the CUDA back end's fill and check
 * kernels against the host reference (verify.h), on device 0: every element
 * the fill kernel writes equals verify_value; the check kernel passes the
 * host's values, catches one changed element at the right place, and looks
 * at every element, also in a buffer of more than 2^31 elements when the
 * device's memory allows. Prints one line, exits 0 or 1 (2: no device).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "buffers/buffers.h"
#include "buffers/verify.h"

static long failures;

static void expect(int ok, const char *what, long count)
{
	if (!ok) {
		fprintf(stderr, "kernels: %s (count %ld)\n", what, count);
		failures++;
	}
}

/* One count: fill against the host reference, then check, then check a changed element. */
static long one_count(struct buffers *b, const long *peers, long g, long count, long me, long iter,
		      long *host)
{
	const struct buffer_ops *ops = b->ops;
	long n = g * count, wrong, bad = 0;
	struct mismatch m;

	expect(ops->fill(b, 0, g, count, me, iter, NULL) == 0, b->err, count);
	cudaMemcpy(host, b->send, sizeof(long) * (size_t)n, cudaMemcpyDeviceToHost);
	for (long i = 0; i < n; i++)
		bad += host[i] != verify_value(me, peers[i / count], i % count, count, iter);
	expect(bad == 0, "the fill kernel differs from the host reference", count);
	/* what the peers would send to me, written by the host */
	for (long i = 0; i < n; i++)
		host[i] = verify_value(peers[i / count], me, i % count, count, iter);
	cudaMemcpy(b->recv, host, sizeof(long) * (size_t)n, cudaMemcpyHostToDevice);
	wrong = ops->check(b, 0, g, count, me, iter, 0, &m, NULL);
	expect(wrong == 0, "the check kernel rejects the host's values", count);
	expect(ops->corrupt(b, 0, n - 1) == 0, b->err, count);
	wrong = ops->check(b, 0, g, count, me, iter, 0, &m, NULL);
	expect(wrong == 1 && m.peer == peers[g - 1] && m.element == count - 1,
	       "the check kernel misses or misplaces a changed element", count);
	return n;
}

/* Uneven blocks (--split): 0, 5, 2 and 9 elements at their displacements, then the guard. */
static long uneven(struct buffers *b, const long *peers, long me, long *host)
{
	const struct buffer_ops *ops = b->ops;
	long counts[4] = { 0, 5, 2, 9 }, displs[4] = { 0, 0, 5, 7 }, n = 16, count = 4, wrong;
	struct verify_blocks blk = { counts, displs, n };
	struct mismatch m;
	long bad = 0;

	expect(ops->fill(b, 0, 4, count, me, 3, &blk) == 0, b->err, count);
	cudaMemcpy(host, b->send, sizeof(long) * (size_t)n, cudaMemcpyDeviceToHost);
	for (long k = 0; k < 4; k++)
		for (long j = 0; j < counts[k]; j++)
			bad += host[displs[k] + j] != verify_value(me, peers[k], j, count, 3);
	expect(bad == 0, "the fill kernel misplaces uneven blocks", count);
	for (long k = 0; k < 4; k++)
		for (long j = 0; j < counts[k]; j++)
			host[displs[k] + j] = verify_value(peers[k], me, j, count, 3);
	host[n] = VERIFY_POISON;
	cudaMemcpy(b->recv, host, sizeof(long) * (size_t)(n + 1), cudaMemcpyHostToDevice);
	wrong = ops->check(b, 0, 4, count, me, 3, 0, &m, &blk);
	expect(wrong == 0, "the check kernel rejects uneven blocks", count);
	expect(ops->corrupt(b, 0, 6) == 0, b->err, count);   /* block 2, element 1 */
	wrong = ops->check(b, 0, 4, count, me, 3, 0, &m, &blk);
	expect(wrong == 1 && m.peer == peers[2] && m.element == 1,
	       "the check kernel misses or misplaces a wrong element of an uneven block", count);
	return n;
}

int main(void)
{
	struct buffers b = { 0 };
	struct gpu_seen seen;
	char err[512];
	long peers[4] = { 1, 4, 7, 10 }, counts[] = { 1, 3, 1000, 1L << 20 }, compared = 0;
	long big = (1L << 31) + 7, *host;
	size_t free_bytes = 0, total = 0;

	b.ops = buffers_cuda_ops();
	if (b.ops->init(&b, err, sizeof(err)) || b.ops->visible(&b, &seen, err, sizeof(err)) ||
	    b.ops->select(&b, 0, err, sizeof(err))) {
		printf("kernels: no device: %s\n", err);
		return 2;
	}
	cudaMemGetInfo(&free_bytes, &total);
	if ((double)free_bytes < 2.2 * (double)big * sizeof(long))
		big = 0;
	host = malloc(sizeof(long) * (size_t)(big > 4L << 20 ? big : 4L << 20));
	b.peers = (struct verify_peers){ 1, 3 };   /* peers[] as the kernels compute them */
	if (!host || b.ops->alloc(&b, big > 4L << 20 ? big : 4L << 20, err, sizeof(err))) {
		printf("kernels: cannot allocate: %s\n", err);
		return 2;
	}
	compared += uneven(&b, peers, 2, host);
	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		compared += one_count(&b, peers, 4, counts[k], 2, VERIFY_REUSED, host);
		compared += one_count(&b, peers, 4, counts[k], 2, 5, host);
	}
	if (big)
		compared += one_count(&b, peers, 1, big, 2, VERIFY_REUSED, host);
	printf("kernels: %s: %ld elements against the host reference on %s%s\n",
	       failures ? "FAILED" : "ok", compared, b.device_id,
	       big ? ", one buffer of 2^31 + 7 elements" : ", no room for 2^31 elements");
	b.ops->release(&b);
	free(host);
	return failures ? 1 : 0;
}
