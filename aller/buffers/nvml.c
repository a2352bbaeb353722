/* nvml.c: NVLinks by NVML, loaded at run time (nvml.h). */
#include "nvml.h"

#include <dlfcn.h>
#include <stddef.h>

#define NVML_LINKS_MAX 18          /* NVML_NVLINK_MAX_LINKS */
#define NVML_SUCCESS 0

typedef int (*nvml_init_fn)(void);
typedef int (*nvml_handle_fn)(const char *pci, void **dev);
typedef int (*nvml_state_fn)(void *dev, unsigned link, int *active);

int nvml_nvlinks(const char *pci)
{
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	nvml_init_fn init, shutdown;
	nvml_handle_fn handle;
	nvml_state_fn state;
	void *dev = NULL;
	int n = -1;

	if (!lib)
		return -1;
	init = (nvml_init_fn)dlsym(lib, "nvmlInit_v2");
	shutdown = (nvml_init_fn)dlsym(lib, "nvmlShutdown");
	handle = (nvml_handle_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	state = (nvml_state_fn)dlsym(lib, "nvmlDeviceGetNvLinkState");
	if (init && shutdown && handle && state && init() == NVML_SUCCESS) {
		if (handle(pci, &dev) == NVML_SUCCESS) {
			n = 0;   /* a link NVML does not support is no link */
			for (unsigned l = 0; l < NVML_LINKS_MAX; l++) {
				int active = 0;
				if (state(dev, l, &active) == NVML_SUCCESS && active)
					n++;
			}
		}
		shutdown();
	}
	dlclose(lib);
	return n;
}
