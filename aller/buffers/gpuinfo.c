/* gpuinfo.c: a GPU's nearest NIC and its header line (gpuinfo.h). */
#include "gpuinfo.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A device's real path under sysfs, split in its components after "devices/". */
struct pcipath {
	char buf[PATH_MAX];
	char *part[64];
	int n;
};

static int pcipath_of(struct pcipath *p, const char *path)
{
	char *at, *tok, *save = NULL;

	p->n = 0;
	if (!realpath(path, p->buf))
		return -1;
	at = strstr(p->buf, "/devices/");
	if (!at)
		return -1;
	for (tok = strtok_r(at + strlen("/devices/"), "/", &save); tok && p->n < 64;
	     tok = strtok_r(NULL, "/", &save))
		p->part[p->n++] = tok;
	return p->n > 0 ? 0 : -1;
}

static int shared(const struct pcipath *a, const struct pcipath *b)
{
	int k = 0;

	while (k < a->n && k < b->n && strcmp(a->part[k], b->part[k]) == 0)
		k++;
	return k;
}

/* The number in a numa_node file, -1 unknown. */
static int numa_file(const char *path)
{
	FILE *f = fopen(path, "r");
	int numa = -1;

	if (f && fscanf(f, "%d", &numa) != 1)
		numa = -1;
	if (f)
		fclose(f);
	return numa;
}

int gpuinfo_numa(const char *sysfs, const char *pci)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/numa_node", sysfs, pci);
	return numa_file(path);
}

/* The NUMA node of the device at real path p. */
static int numa_at(const struct pcipath *p, const char *sysfs)
{
	char path[PATH_MAX];
	int at = snprintf(path, sizeof(path), "%s/devices", sysfs);

	for (int i = 0; i < p->n && at > 0 && (size_t)at < sizeof(path); i++)
		at += snprintf(path + at, sizeof(path) - (size_t)at, "/%s", p->part[i]);
	if (at <= 0 || (size_t)at + sizeof("/numa_node") > sizeof(path))
		return -1;
	strcat(path, "/numa_node");
	return numa_file(path);
}

/* How far gpu and nic are, in nvidia-smi topo's words. */
static const char *distance(const struct pcipath *gpu, const struct pcipath *nic, int k,
			    const char *sysfs)
{
	if (k == 0) {
		int a = numa_at(gpu, sysfs), b = numa_at(nic, sysfs);
		return a == b ? "NODE" : "SYS";
	}
	if (k == 1)
		return "PHB";   /* only the host bridge in common */
	return gpu->n - k <= 2 && nic->n - k <= 2 ? "PIX" : "PXB";
}

/* The nearest NIC so far: the components it shares with the GPU, its class's rank. */
struct nearest {
	int k, cls;
	char nic[64], how[32];
};

/* The NICs under SYSFS/class/CLS (rank cls: a lower one wins a tie, then the name). */
static void scan_class(const char *sysfs, const char *name, int cls, const struct pcipath *gpu,
		       struct nearest *best)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/%s", sysfs, name);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		struct pcipath p;
		int k;
		int at = snprintf(path, sizeof(path), "%s/%s/device", dir, e->d_name);
		if (e->d_name[0] == '.' || at < 0 || (size_t)at >= sizeof(path))
			continue;
		if (pcipath_of(&p, path) != 0)
			continue;   /* virtual: no device behind it */
		k = shared(gpu, &p);
		if (k > best->k || (k == best->k && cls == best->cls && strcmp(e->d_name, best->nic) < 0)) {
			best->k = k;
			best->cls = cls;
			snprintf(best->nic, sizeof(best->nic), "%.63s", e->d_name);
			snprintf(best->how, sizeof(best->how), "%s", distance(gpu, &p, k, sysfs));
		}
	}
	closedir(d);
}

int gpuinfo_nearest_nic(const char *sysfs, const char *pci, char *nic, size_t niclen,
			char *how, size_t howlen)
{
	struct pcipath gpu;
	struct nearest best = { .k = -1, .cls = -1 };
	char path[PATH_MAX];

	nic[0] = how[0] = '\0';
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", sysfs, pci);
	if (!pci[0] || pcipath_of(&gpu, path) != 0)
		return -1;
	scan_class(sysfs, "infiniband", 0, &gpu, &best);
	scan_class(sysfs, "net", 1, &gpu, &best);
	snprintf(nic, niclen, "%s", best.nic);
	snprintf(how, howlen, "%s", best.how);
	return nic[0] ? 0 : -1;
}

double gpuinfo_nvlink_gbs(int major, int minor, int links)
{
	double per = major == 6 && minor == 0 ? 20 : major == 7 && minor == 0 ? 25 : major == 8 && minor == 0 ? 25
		     : major == 8 && minor == 6 ? 14.0625 : major == 9 ? 25 : major == 10 ? 50 : 0;

	return links > 0 ? per * links : 0;
}

void gpuinfo_describe(const struct gpu_facts *f, char *out, size_t len)
{
	char name[sizeof(f->name)], mem[32] = "unknown", sm[24] = "unknown", mc[24] = "unknown";
	char nic[sizeof(f->nic) + sizeof(f->nic_how) + 4] = "none", link[48];

	snprintf(name, sizeof(name), "%s", f->name[0] ? f->name : "unknown");
	for (char *c = name; *c; c++)
		if (*c == ' ' || *c == '\t' || *c == '=')
			*c = '_';
	if (f->memory > 0)
		snprintf(mem, sizeof(mem), "%.1fGiB", f->memory / (1024.0 * 1024 * 1024));
	if (f->sm_mhz > 0)
		snprintf(sm, sizeof(sm), "%dMHz", f->sm_mhz);
	if (f->mem_mhz > 0)
		snprintf(mc, sizeof(mc), "%dMHz", f->mem_mhz);
	if (f->nic[0])
		snprintf(nic, sizeof(nic), "%s(%s)", f->nic, f->nic_how);
	if (f->nvlinks > 0 && f->nvlink_gbs > 0)
		snprintf(link, sizeof(link), "nvlink:%d link_GBs=%g", f->nvlinks, f->nvlink_gbs);
	else if (f->nvlinks > 0)
		snprintf(link, sizeof(link), "nvlink:%d", f->nvlinks);
	else if (f->nvlinks == 0)
		snprintf(link, sizeof(link), "%s", f->gpus > 1 ? "pcie" : "none(one_gpu)");
	else
		snprintf(link, sizeof(link), "unknown(no_nvml)");
	snprintf(out, len, "name=%s memory=%s sm_clock=%s mem_clock=%s pci=%s numa=%d nic=%s link=%s",
		 name, mem, sm, mc, f->pci[0] ? f->pci : "unknown", f->numa, nic, link);
}
