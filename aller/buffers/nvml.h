/*
 * nvml.h: what NVML says of a GPU's links, asked through dlopen (CUDA=1
 * builds; a node without the driver's libnvidia-ml.so.1 answers unknown).
 */
#ifndef ALLER_NVML_H
#define ALLER_NVML_H

/* The active NVLinks of the device at PCI address pci: >= 0, or -1 unknown. */
int nvml_nvlinks(const char *pci);

#endif
