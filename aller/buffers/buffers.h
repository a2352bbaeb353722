/*
 * buffers.h: send and receive buffers behind one small interface, with a
 * host back end (buffers_host.c) and a CUDA one (buffers_cuda.cu, CUDA=1).
 */
#ifndef ALLER_BUFFERS_H
#define ALLER_BUFFERS_H

#include <stddef.h>

#include "gpu.h"
#include "options.h"
#include "verify.h"

struct buffers {
	const struct buffer_ops *ops;
	long *send, *recv;   /* host or device pointers, each `longs` long */
	long longs;          /* LONGS, and with --cold-cache the ring beyond it */
	char cache[256];     /* "hot ..." or "cold ...", for the header */
	int device;          /* CUDA device, -1 for host */
	char device_id[GPU_ID_MAX]; /* its UUID (or PCI bus id), "" for host */
	char device_desc[GPU_DESC_MAX]; /* its name, memory, clocks, nearest NIC, links (gpuinfo.h) */
	int device_sharers;  /* the node's ranks on that device (itself included) */
	struct verify_peers peers; /* the communicator's members' world ranks, for fill and check */
	void *priv;          /* back end's own state */
	char err[256];       /* what the last failed operation says */
};

struct buffer_ops {
	const char *name;
	/* The back end's own set-up (no device chosen yet); 0 or -1 with err. */
	int (*init)(struct buffers *b, char *err, size_t errlen);
	/* Devices only (NULL for host): the ids of the visible devices, then the
	 * one chosen (an index into them, gpu_assign); 0 or -1 with err. */
	int (*visible)(struct buffers *b, struct gpu_seen *seen, char *err, size_t errlen);
	int (*select)(struct buffers *b, int index, char *err, size_t errlen);
	/*
	 * Bytes the buffers may take and how many ranks share them (its node's
	 * MemAvailable, or its device's free memory and device_sharers);
	 * available < 0: unknown.
	 */
	void (*available)(const struct buffers *b, int local_size, double *available,
			  int *sharers, char *what, size_t whatlen);
	int (*alloc)(struct buffers *b, long longs, char *err, size_t errlen);
	/*
	 * The operations between calls return 0, or -1 with b->err set (a device
	 * error); the caller goes on with the calls and has every rank agree on
	 * failures at the end of the count, so no rank exits alone. Each works on
	 * the buffers from long `at` on (--cold-cache's slot; 0 otherwise), with
	 * equal blocks or --split's uneven ones (blk, verify.h).
	 */
	int (*fill)(struct buffers *b, long at, long npeers, long count, long me, long iter,
		    const struct verify_blocks *blk);
	int (*poison)(struct buffers *b, long at, long n);
	/* The wrong elements, or -1; with repoison, poisons what it checked, for the next call. */
	long (*check)(struct buffers *b, long at, long npeers, long count, long me, long iter,
		      int repoison, struct mismatch *first, const struct verify_blocks *blk);
	/* Test only: damages received element at + i. */
	int (*corrupt)(struct buffers *b, long at, long i);
	void (*release)(struct buffers *b);
	/*
	 * The limits' copy (world/nodelimits.h): seconds of one copy of `bytes`
	 * from the send buffer to the receive buffer, timed on the device; -1 on
	 * an error. NULL: host memory, copied by the caller.
	 */
	double (*copy)(struct buffers *b, long bytes);
	/*
	 * --moe's combine buffer (sweep/moe.h) in the back end's memory. NULL:
	 * host memory, which the caller allocates and reads itself. Otherwise n
	 * longs (NULL with b->err set), their release, and copies of n longs
	 * from that memory to the host and back (0, or -1 with b->err set).
	 */
	long *(*extra_alloc)(struct buffers *b, long n);
	void (*extra_free)(struct buffers *b, long *p);
	int (*to_host)(struct buffers *b, long *host, const long *from, long n);
	int (*to_device)(struct buffers *b, long *to, const long *host, long n);
};

extern const struct buffer_ops buffers_host_ops;
/* NULL in a build without CUDA. */
const struct buffer_ops *buffers_cuda_ops(void);
/* What a build without CUDA says to --buffers=cuda (buffers_cuda_ops() NULL). */
#define BUFFERS_NO_CUDA "'--buffers=cuda' needs a build with 'make CUDA=1'; this aller has host buffers only"

#endif
