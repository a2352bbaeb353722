/*
 * gpuinfo.h: what the header says of a rank's GPU, as pure logic over a
 * sysfs tree (a directory the unit tests make): the NIC nearest the GPU by
 * the PCIe path they share (nvidia-smi topo's words: PIX, PXB, PHB, NODE,
 * SYS) and one line of facts. buffers_cuda.cu fills the facts from CUDA and
 * NVML; nothing here needs either.
 */
#ifndef ALLER_GPUINFO_H
#define ALLER_GPUINFO_H

#include <stddef.h>

struct gpu_facts {
	char name[96];        /* "NVIDIA H200" */
	double memory;        /* bytes; <= 0 unknown */
	int sm_mhz, mem_mhz;  /* peak clocks; <= 0 unknown */
	char pci[32];         /* "0000:19:00.0", lower case; "" unknown */
	int numa;             /* its NUMA node; -1 unknown */
	char nic[64];         /* nearest NIC, "" none found */
	char nic_how[32];     /* "PXB", "PHB", "NODE", "SYS" */
	int nvlinks;          /* active NVLinks; -1 unknown (no NVML) */
	double nvlink_gbs;    /* ... together, decimal GB/s each way (gpuinfo_nvlink_gbs); 0 unknown */
	int gpus;             /* devices the rank sees */
};

/*
 * The NIC nearest the device at PCI address pci under sysfs (normally
 * "/sys"): of the devices behind SYSFS/class/infiniband/ * /device and
 * SYSFS/class/net/ * /device (an InfiniBand device first on a tie), the one
 * whose real path shares the most with the GPU's. nic and how get its name
 * and the kind of path (PIX: one PCIe switch between them; PXB: several; PHB:
 * the same host bridge; NODE: the same NUMA node; SYS: across nodes); 0, or
 * -1 when there is no GPU path or no NIC (nic "").
 */
int gpuinfo_nearest_nic(const char *sysfs, const char *pci, char *nic, size_t niclen,
			char *how, size_t howlen);

/* The NUMA node of the device at pci (sysfs's numa_node), -1 unknown. */
int gpuinfo_numa(const char *sysfs, const char *pci);

/*
 * A GPU's NVLinks together, decimal GB/s each way: links x the per-link
 * rate of its architecture (CUDA's compute capability major.minor): 20 on
 * Pascal (6.0, NVLink 1), 25 on Volta, A100 and Hopper (7.0, 8.0, 9.0:
 * NVLink 2-4), 14.0625 on GA10x (8.6, the bridge), 50 on Blackwell (10.x,
 * NVLink 5); 0 where the architecture has none aller knows.
 */
double gpuinfo_nvlink_gbs(int major, int minor, int links);

/* The facts as one line of "key=value" words (spaces in the name as '_'; link_GBs with NVLinks' rate). */
void gpuinfo_describe(const struct gpu_facts *f, char *out, size_t len);

#endif
