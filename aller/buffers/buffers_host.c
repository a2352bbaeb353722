/* buffers_host.c: page-aligned host buffers, first touched by the owning task. */
#include "buffers.h"
#include "memcheck.h"
#include "world/faults.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct host_priv {
	long fail_rank;   /* ALLER_TEST_BUFFER_FAIL: this world rank's fills fail */
};

static int host_init(struct buffers *b, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct host_priv *p = calloc(1, sizeof(*p));

	b->device = -1;
	b->priv = p;
	if (!p)
		return -1;
	p->fail_rank = faults()->buffer_fail_rank;
	return 0;
}

/* The node's MemAvailable; ALLER_TEST_MEMAVAIL (bytes, tests only) stands in for it. */
static void host_available(const struct buffers *b, int local_size, double *available,
			   int *sharers, char *what, size_t whatlen)
{
	char text[8192];
	size_t n = 0;
	FILE *f;

	(void)b;
	*sharers = local_size;
	snprintf(what, whatlen, "the node");
	*available = -1;
	if (faults()->memavail >= 0) {
		*available = faults()->memavail;
		return;
	}
	if ((f = fopen("/proc/meminfo", "r"))) {
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = '\0';
		*available = memcheck_meminfo(text);
	}
}

static int host_alloc(struct buffers *b, long longs, char *err, size_t errlen)
{
	size_t bytes = (size_t)longs * sizeof(long);
	void *s = NULL, *r = NULL;
	int rc;

	if ((rc = posix_memalign(&s, 4096, bytes)) != 0 ||
	    (rc = posix_memalign(&r, 4096, bytes)) != 0) {
		free(s);
		snprintf(err, errlen, "cannot allocate 2 buffers of %zu bytes (%ld longs): %s",
			 bytes, longs, strerror(rc));
		return -1;
	}
	/* first touch, so pages land on this task's NUMA node */
	memset(s, 0, bytes);
	memset(r, 0, bytes);
	b->send = s;
	b->recv = r;
	b->longs = longs;
	return 0;
}

static int host_fill(struct buffers *b, long at, long npeers, long count, long me, long iter,
		     const struct verify_blocks *blk)
{
	struct host_priv *p = b->priv;

	if (p->fail_rank == me) {   /* tests only: a device error's path */
		snprintf(b->err, sizeof(b->err), "fill failed (ALLER_TEST_BUFFER_FAIL=%ld)", me);
		return -1;
	}
	verify_fill(b->send + at, b->peers, npeers, count, me, iter, blk);
	return 0;
}

static int host_poison(struct buffers *b, long at, long n)
{
	verify_poison(b->recv + at, n);
	return 0;
}

static long host_check(struct buffers *b, long at, long npeers, long count, long me, long iter,
		       int repoison, struct mismatch *first, const struct verify_blocks *blk)
{
	return verify_check(b->recv + at, b->peers, npeers, count, me, iter, repoison, first, blk);
}

static int host_corrupt(struct buffers *b, long at, long i)
{
	b->recv[at + i] ^= 0x10;
	return 0;
}

static void host_release(struct buffers *b)
{
	struct host_priv *p = b->priv;

	free(b->send);
	free(b->recv);
	free(p);
	b->send = b->recv = NULL;
	b->priv = NULL;
}

const struct buffer_ops buffers_host_ops = {
	.name = "host",
	.init = host_init,
	.available = host_available,
	.alloc = host_alloc,
	.fill = host_fill,
	.poison = host_poison,
	.check = host_check,
	.corrupt = host_corrupt,
	.release = host_release,
};
