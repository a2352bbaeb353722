/*
 * buffers_cuda.cu: device buffers (CUDA=1). Fill, poison and check run as
 * kernels on the device, computing the same values as the host back end
 * (verify.h). One GPU per task: run.c gathers the node's visible devices
 * (by UUID) and picks one per rank with gpu_assign (gpu.h). Every kernel
 * launch is checked, and the check kernel counts what it examined: a check
 * that did not run cannot pass.
 */
#include <cuda_runtime.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "buffers.h"
#include "gpuinfo.h"
#include "nvml.h"
}

struct cuda_priv {
	long *displs;         /* device copy of uneven blocks' displacements (--split) */
	long dcap;
	unsigned long long *result; /* device: wrong count, first wrong index, examined */
};

#define CUDA_TRY(call, what)                                                   \
	do {                                                                   \
		cudaError_t e_ = (call);                                       \
		if (e_ != cudaSuccess) {                                       \
			snprintf(err, errlen, "%s: %s", what, cudaGetErrorString(e_)); \
			return -1;                                             \
		}                                                              \
	} while (0)

/* A failed operation between calls: b->err says what, the operation returns -1. */
static int fail(struct buffers *b, cudaError_t e, const char *what)
{
	snprintf(b->err, sizeof(b->err), "CUDA device %d: %s: %s", b->device, what,
		 cudaGetErrorString(e));
	return -1;
}

#define CUDA_OK(call, what)                                                    \
	do {                                                                   \
		cudaError_t e_ = (call);                                       \
		if (e_ != cudaSuccess)                                         \
			return fail(b, e_, what);                              \
	} while (0)

/* A kernel launch: its launch error, then its execution's. */
#define KERNEL_OK(what)                                                        \
	do {                                                                   \
		CUDA_OK(cudaGetLastError(), what " (launch)");                 \
		CUDA_OK(cudaDeviceSynchronize(), what);                        \
	} while (0)

static int cuda_init(struct buffers *b, char *err, size_t errlen)
{
	int n = 0;

	CUDA_TRY(cudaGetDeviceCount(&n), "no usable CUDA device");
	if (n < 1) {
		snprintf(err, errlen, "no usable CUDA device: none visible");
		return -1;
	}
	b->priv = calloc(1, sizeof(struct cuda_priv));
	if (!b->priv) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* A device's id: "GPU-" and its UUID, as nvidia-smi -L prints it. */
static void device_id(const cudaDeviceProp *prop, char *id, size_t len)
{
	const unsigned char *u = (const unsigned char *)prop->uuid.bytes;
	size_t at = (size_t)snprintf(id, len, "GPU-");

	for (int i = 0; i < 16 && at < len; i++)
		at += (size_t)snprintf(id + at, len - at, "%s%02x",
				       i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", u[i]);
}

static int cuda_visible(struct buffers *b, struct gpu_seen *seen, char *err, size_t errlen)
{
	int n = 0;

	(void)b;
	CUDA_TRY(cudaGetDeviceCount(&n), "no usable CUDA device");
	seen->n = n < GPU_MAX_VISIBLE ? n : GPU_MAX_VISIBLE;
	for (int i = 0; i < seen->n; i++) {
		cudaDeviceProp prop;
		CUDA_TRY(cudaGetDeviceProperties(&prop, i), "cannot read a CUDA device's properties");
		device_id(&prop, seen->id[i], GPU_ID_MAX);
	}
	return 0;
}

/* What the header says of device dev: name, memory, clocks, PCI, NUMA, NIC, links. */
static void cuda_describe(int dev, const cudaDeviceProp *prop, char *out, size_t len)
{
	struct gpu_facts f;
	int khz = 0;

	memset(&f, 0, sizeof(f));
	snprintf(f.name, sizeof(f.name), "%.95s", prop->name);
	f.memory = (double)prop->totalGlobalMem;
	if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess)
		f.sm_mhz = khz / 1000;
	if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess)
		f.mem_mhz = khz / 1000;
	if (cudaDeviceGetPCIBusId(f.pci, (int)sizeof(f.pci), dev) != cudaSuccess)
		f.pci[0] = '\0';
	for (char *c = f.pci; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	f.numa = f.pci[0] ? gpuinfo_numa("/sys", f.pci) : -1;
	if (f.pci[0])
		gpuinfo_nearest_nic("/sys", f.pci, f.nic, sizeof(f.nic), f.nic_how, sizeof(f.nic_how));
	if (cudaGetDeviceCount(&f.gpus) != cudaSuccess)
		f.gpus = 1;
	f.nvlinks = f.pci[0] ? nvml_nvlinks(f.pci) : -1;
	f.nvlink_gbs = gpuinfo_nvlink_gbs(prop->major, prop->minor, f.nvlinks);
	gpuinfo_describe(&f, out, len);
}

static int cuda_select(struct buffers *b, int index, char *err, size_t errlen)
{
	struct cuda_priv *p = (struct cuda_priv *)b->priv;
	cudaDeviceProp prop;

	b->device = index;
	CUDA_TRY(cudaSetDevice(index), "cannot select CUDA device");
	CUDA_TRY(cudaGetDeviceProperties(&prop, index), "cannot read a CUDA device's properties");
	device_id(&prop, b->device_id, sizeof(b->device_id));
	cuda_describe(index, &prop, b->device_desc, sizeof(b->device_desc));
	CUDA_TRY(cudaMalloc((void **)&p->result, 3 * sizeof(unsigned long long)),
		 "cannot allocate on the CUDA device");
	return 0;
}

/* The device's free memory, shared by the node's ranks on it. */
static void cuda_available(const struct buffers *b, int local_size, double *available,
			   int *sharers, char *what, size_t whatlen)
{
	size_t free_bytes = 0, total = 0;

	(void)local_size;
	*sharers = b->device_sharers > 0 ? b->device_sharers : 1;
	snprintf(what, whatlen, "CUDA device %d (%s)", b->device, b->device_id);
	*available = cudaMemGetInfo(&free_bytes, &total) == cudaSuccess ? (double)free_bytes : -1;
}

static int cuda_alloc(struct buffers *b, long longs, char *err, size_t errlen)
{
	size_t bytes = (size_t)longs * sizeof(long);
	cudaError_t e;

	e = cudaMalloc((void **)&b->send, bytes);
	if (e == cudaSuccess)
		e = cudaMalloc((void **)&b->recv, bytes);
	if (e != cudaSuccess) {
		snprintf(err, errlen, "cannot allocate 2 buffers of %zu bytes (%ld longs) "
			 "on CUDA device %d: %s", bytes, longs, b->device, cudaGetErrorString(e));
		return -1;
	}
	CUDA_TRY(cudaMemset(b->send, 0, bytes), "cudaMemset");
	CUDA_TRY(cudaMemset(b->recv, 0, bytes), "cudaMemset");
	CUDA_TRY(cudaDeviceSynchronize(), "cudaMemset");
	b->longs = longs;
	return 0;
}

/*
 * The block of element i and i's index in it: blocks of `count` each, or
 * (uneven, --split: displs) the last block that starts at or before i (a
 * block of 0 elements starts where the next does).
 */
__host__ __device__ static long block_of(const long *displs, long npeers, long count, long i,
					 long *j)
{
	long lo = 0, hi = npeers - 1;

	if (!displs) {
		*j = i % count;
		return i / count;
	}
	while (lo < hi) {
		long mid = (lo + hi + 1) / 2;
		if (displs[mid] <= i)
			lo = mid;
		else
			hi = mid - 1;
	}
	*j = i - displs[lo];
	return lo;
}

__global__ void fill_kernel(long *send, struct verify_peers peers, const long *displs, long npeers, long n,
			    long count, long me, long iter)
{
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
	     i += (long)gridDim.x * blockDim.x) {
		long j, k = block_of(displs, npeers, count, i, &j);
		send[i] = verify_block_value(verify_seed(me, verify_peer(peers, k), count, iter), j);
	}
}

/* result: wrong elements, the first wrong index, the elements examined. */
__global__ void check_kernel(const long *recv, struct verify_peers peers, const long *displs, long npeers,
			     long n, long count, long me, long iter, unsigned long long *result)
{
	unsigned long long examined = 0;

	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
	     i += (long)gridDim.x * blockDim.x) {
		long j, k = block_of(displs, npeers, count, i, &j);
		examined++;
		if (recv[i] != verify_block_value(verify_seed(verify_peer(peers, k), me, count, iter), j)) {
			atomicAdd(&result[0], 1ULL);
			atomicMin(&result[1], (unsigned long long)i);
		}
	}
	if (examined)
		atomicAdd(&result[2], examined);
}

static unsigned grid_for(long n)
{
	long blocks = (n + 255) / 256;
	return (unsigned)(blocks > 65535 ? 65535 : blocks < 1 ? 1 : blocks);
}

/*
 * Uneven blocks (blk, --split): their displacements to the device; the
 * elements the blocks cover, and the device array (NULL for equal blocks).
 */
static long blocks_to_device(struct buffers *b, const struct verify_blocks *blk, long npeers,
			     long count, const long **displs)
{
	struct cuda_priv *p = (struct cuda_priv *)b->priv;

	*displs = NULL;
	if (!blk)
		return npeers * count;
	if (p->dcap < npeers) {
		cudaFree(p->displs);
		p->dcap = 0;
		if (cudaMalloc((void **)&p->displs, (size_t)npeers * sizeof(long)) != cudaSuccess)
			return -1;
		p->dcap = npeers;
	}
	if (cudaMemcpy(p->displs, blk->displs, (size_t)npeers * sizeof(long),
		       cudaMemcpyHostToDevice) != cudaSuccess)
		return -1;
	*displs = p->displs;
	return blk->displs[npeers - 1] + blk->counts[npeers - 1];
}

static int cuda_fill(struct buffers *b, long at, long npeers, long count, long me, long iter,
		     const struct verify_blocks *blk)
{
	const long *displs;
	long n = blocks_to_device(b, blk, npeers, count, &displs);

	if (n < 0)
		return fail(b, cudaGetLastError(), "the blocks' displacements");
	if (n == 0)
		return 0;
	fill_kernel<<<grid_for(n), 256>>>(b->send + at, b->peers, displs, npeers, n, count, me,
					  iter);
	KERNEL_OK("fill kernel");
	return 0;
}

static int cuda_poison(struct buffers *b, long at, long n)
{
	/* VERIFY_POISON is the byte 0x5a repeated */
	CUDA_OK(cudaMemset(b->recv + at, 0x5a, (size_t)n * sizeof(long)), "cudaMemset");
	CUDA_OK(cudaDeviceSynchronize(), "cudaMemset");
	return 0;
}

static long cuda_check(struct buffers *b, long at, long npeers, long count, long me, long iter,
		       int repoison, struct mismatch *first, const struct verify_blocks *blk)
{
	struct cuda_priv *p = (struct cuda_priv *)b->priv;
	unsigned long long init[3] = { 0, ~0ULL, 0 }, res[3] = { 0, 0, 0 };
	const long *displs;
	long n = blocks_to_device(b, blk, npeers, count, &displs), guard;

	if (n < 0)
		return fail(b, cudaGetLastError(), "the blocks' displacements");
	CUDA_OK(cudaMemcpy(p->result, init, sizeof(init), cudaMemcpyHostToDevice), "cudaMemcpy");
	if (n > 0) {
		check_kernel<<<grid_for(n), 256>>>(b->recv + at, b->peers, displs, npeers, n, count,
						   me, iter, p->result);
		KERNEL_OK("check kernel");
		CUDA_OK(cudaMemcpy(res, p->result, sizeof(res), cudaMemcpyDeviceToHost),
			"cudaMemcpy");
	}
	if (res[2] != (unsigned long long)n) {   /* a check that did not look cannot pass */
		snprintf(b->err, sizeof(b->err), "CUDA device %d: the check kernel examined %llu "
			 "of %ld elements", b->device, res[2], n);
		return -1;
	}
	if (res[0] > 0) {
		long i = (long)res[1], j, k = block_of(blk ? blk->displs : NULL, npeers, count, i, &j),
		     peer = verify_peer(b->peers, k);
		first->peer = peer;
		first->element = j;
		first->expected = verify_value(peer, me, j, count, iter);
		CUDA_OK(cudaMemcpy(&first->received, b->recv + at + i, sizeof(long),
				   cudaMemcpyDeviceToHost), "cudaMemcpy");
	}
	/* uneven blocks: the element after the last must still be poison (verify.h) */
	if (blk && blk->guard >= 0) {
		CUDA_OK(cudaMemcpy(&guard, b->recv + at + blk->guard, sizeof(long),
				   cudaMemcpyDeviceToHost), "cudaMemcpy");
		if (guard != VERIFY_POISON && res[0]++ == 0) {
			first->peer = verify_peer(b->peers, npeers - 1);
			first->element = blk->counts[npeers - 1];
			first->expected = VERIFY_POISON;
			first->received = guard;
		}
	}
	/* device memory is fast enough for a second pass */
	if (repoison && cuda_poison(b, at, n) != 0)
		return -1;
	return (long)res[0];
}

static int cuda_corrupt(struct buffers *b, long at, long i)
{
	long v;

	CUDA_OK(cudaMemcpy(&v, b->recv + at + i, sizeof(v), cudaMemcpyDeviceToHost), "cudaMemcpy");
	v ^= 0x10;
	CUDA_OK(cudaMemcpy(b->recv + at + i, &v, sizeof(v), cudaMemcpyHostToDevice), "cudaMemcpy");
	return 0;
}

static void cuda_release(struct buffers *b)
{
	struct cuda_priv *p = (struct cuda_priv *)b->priv;

	cudaFree(b->send);
	cudaFree(b->recv);
	if (p) {
		cudaFree(p->displs);
		cudaFree(p->result);
	}
	free(p);
	b->send = b->recv = NULL;
	b->priv = NULL;
}

/* One device-to-device copy of `bytes`, timed by events on the device. */
static double cuda_copy(struct buffers *b, long bytes)
{
	cudaEvent_t start, stop;
	float ms = -1;

	if (cudaEventCreate(&start) != cudaSuccess)
		return -1;
	if (cudaEventCreate(&stop) != cudaSuccess) {
		cudaEventDestroy(start);
		return -1;
	}
	if (cudaEventRecord(start) == cudaSuccess &&
	    cudaMemcpy(b->recv, b->send, (size_t)bytes, cudaMemcpyDeviceToDevice) == cudaSuccess &&
	    cudaEventRecord(stop) == cudaSuccess && cudaEventSynchronize(stop) == cudaSuccess &&
	    cudaEventElapsedTime(&ms, start, stop) != cudaSuccess)
		ms = -1;
	cudaEventDestroy(start);
	cudaEventDestroy(stop);
	return ms > 0 ? ms / 1e3 : -1;
}

/* --moe's combine buffer on the device, and its copies to and from the host. */
static long *cuda_extra_alloc(struct buffers *b, long n)
{
	long *p = NULL;
	cudaError_t e = cudaMalloc((void **)&p, (size_t)n * sizeof(long));

	if (e != cudaSuccess) {
		fail(b, e, "cudaMalloc (--moe's combine buffer)");
		return NULL;
	}
	return p;
}

static void cuda_extra_free(struct buffers *b, long *p)
{
	(void)b;
	cudaFree(p);
}

static int cuda_to_host(struct buffers *b, long *host, const long *from, long n)
{
	CUDA_OK(cudaMemcpy(host, from, (size_t)n * sizeof(long), cudaMemcpyDeviceToHost),
		"cudaMemcpy (to the host)");
	return 0;
}

static int cuda_to_device(struct buffers *b, long *to, const long *host, long n)
{
	CUDA_OK(cudaMemcpy(to, host, (size_t)n * sizeof(long), cudaMemcpyHostToDevice),
		"cudaMemcpy (to the device)");
	return 0;
}

static const struct buffer_ops ops = {
	"cuda", cuda_init, cuda_visible, cuda_select, cuda_available, cuda_alloc,
	cuda_fill, cuda_poison, cuda_check, cuda_corrupt, cuda_release, cuda_copy,
	cuda_extra_alloc, cuda_extra_free, cuda_to_host, cuda_to_device,
};

extern "C" const struct buffer_ops *buffers_cuda_ops(void)
{
	return &ops;
}
