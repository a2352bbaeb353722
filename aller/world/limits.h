/*
 * limits.h: the line rate of a node's NICs, as sysfs says (pure: files under
 * a root, /sys, or ALLER_TEST_SYSFS in the tests). InfiniBand ports
 * (class/infiniband/DEV/ports/P/rate and state) count when ACTIVE; without
 * one, Slingshot cxi devices (class/cxi/cxiN/device/net/IF/speed, up); without
 * those, Ethernet interfaces (class/net/IF/speed in Mb/s, operstate up; a bond
 * as the sum of its members, which do not count again; lo never): only
 * those named in `only` (comma-separated, Open MPI's btl_tcp_if_include)
 * when given. A NIC without a rate (virtual NICs say -1 or nothing) is
 * named, never guessed.
 */
#ifndef ALLER_LIMITS_H
#define ALLER_LIMITS_H

#include <stddef.h>

/*
 * The node's line rate in decimal GB/s each way (the sum of the NICs that
 * count), or 0 when no NIC has one; desc says which NICs, at what rate,
 * from which file, or why none.
 */
double limits_nic(const char *root, const char *only, char *desc, size_t len);
/* Whether an interface is in a comma-separated list (only; NULL or "": every one). */
int limits_listed(const char *only, const char *name);

#endif
