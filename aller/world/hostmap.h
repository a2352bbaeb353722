/*
 * hostmap.h: the header's host lines (and device lines), as pure logic, bounded for large
 * jobs. Nodes come in index order, each with a name and its sorted ranks.
 * A run of nodes whose names count up (one prefix, numbers +1: Slurm's
 * hostlist "n[001-128]") and whose ranks are the first node's plus i x STEP
 * for the i-th node of the run is one line:
 *
 *   n[001-128] 0-3 +4      (node i of the run: ranks 4i .. 4i + 3)
 *   n[001-128] 0-384:128 +1  (cyclic: node i has i, i + 128, ...)
 *   vm 0-3                 (one node: as before)
 *
 * Ranges are strbuf_add_ranges' ("0-3,8", strides "0-96:32"). A block or
 * cyclic placement over any number of numbered nodes is one line.
 */
#ifndef ALLER_HOSTMAP_H
#define ALLER_HOSTMAP_H

#include <stddef.h>

#include "strbuf.h"

#define GPU_ID_MAX 48   /* a device's id: "GPU-" and a UUID (40), or a PCI bus id (16) */
#define GPU_DESC_MAX 320 /* what the header says of it (buffers/gpuinfo.h) */

/* One rank's device, as gathered: its id and its description ("" none). */
struct hostmap_device {
	char id[GPU_ID_MAX];
	char desc[GPU_DESC_MAX];
};

/*
 * The lines, each ending in "\n" (malloc'd; NULL when out of memory). Node
 * n's name is names + n x name_len (NUL-terminated); its ranks are
 * ranks[at[n] .. at[n + 1]), sorted.
 */
char *hostmap_lines(long nnodes, const char *names, size_t name_len, const long *ranks,
		    const long *at);

/*
 * The header's device lines of one node: "HOST ID RANKS DESCRIPTION" per
 * device used, RANKS as ranges of world ranks ("0,4-5"), devices in the
 * order of their first rank, the description its first rank's. devs[i] is
 * world rank ranks[i]'s device (ranks ascending).
 */
void hostmap_devices(struct strbuf *b, const char *host, long n, const long *ranks,
		     const struct hostmap_device *devs);

#endif
