/*
 * memcheck.h: whether the buffers fit before any rank allocates them, as
 * pure logic. Host buffers: the ranks of a node share its memory, so their
 * buffers together (2 x LONGS x 8 bytes each) must fit the node's
 * MemAvailable. Device buffers: each rank's must fit its device's free
 * memory divided among the ranks that share the device.
 */
#ifndef ALLER_MEMCHECK_H
#define ALLER_MEMCHECK_H

#include <stddef.h>

/*
 * Bytes that `sharers` ranks with `longs`-long send and receive buffers and
 * `state` bytes each of aller's own (footprint.h; 0 on a device) need.
 */
double memcheck_need(long longs, int sharers, double state);
/*
 * 0 when need <= available, else -1 with a one-line message naming both,
 * the host and what to change. `what` is "the node" or "CUDA device N".
 */
int memcheck(long longs, int sharers, double state, double available, const char *what,
	     const char *host, char *err, size_t errlen);
/* MemAvailable of /proc/meminfo's text, in bytes; -1 when it has none. */
double memcheck_meminfo(const char *text);
/*
 * The last-level cache of a CPU from its sysfs directory (root:
 * /sys/devices/system/cpu/cpu0/cache): the size in bytes of the highest
 * level's data or unified cache (index<i>/level, type, size "32768K"), its
 * level in *level; -1 when there is none.
 */
long memcheck_llc(const char *root, int *level);
/*
 * The same, else what sys (sysconf; another in the unit tests) says of the
 * L3, then the L2 cache (a VM without sysfs cache directories): *level 3 or
 * 2, *from "sysfs" or "sysconf"; -1 when neither knows.
 */
long memcheck_llc_any(const char *root, int *level, long (*sys)(int name), const char **from);

#endif
