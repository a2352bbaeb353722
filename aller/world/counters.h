/*
 * counters.h: a node's network counters, read before and after a run and
 * told as their difference (pure: files under a sysfs root, /sys or
 * ALLER_TEST_SYSFS, and a procfs root, /proc or ALLER_TEST_PROC in the tests):
 *
 *   each interface of the task's network namespace, lo never (only those
 *   named in `only`, Open MPI's btl_tcp_if_include, when given), from
 *   procfs' net/dev (sysfs may be another namespace's):
 *     {tx,rx}_{bytes,packets,dropped,errors}
 *   and its queue's, from the kernel's traffic control (qdisc.h: only where
 *   procfs is the real /proc): qdisc_drops, qdisc_overlimits
 *   each InfiniBand port that is ACTIVE, as DEV:PORT:
 *     class/infiniband/DEV/ports/P/counters/{port_xmit_data,port_rcv_data
 *     (4-byte words: given as bytes), port_xmit_wait, symbol_error,
 *     port_rcv_errors, link_downed}
 *   TCP's retransmitted segments (net/snmp's Tcp RetransSegs): a lossy link
 *   shows there on a TCP fabric, where no NIC counts the loss
 *
 * A counter that cannot be read is left out, never guessed.
 */
#ifndef ALLER_COUNTERS_H
#define ALLER_COUNTERS_H

#include <stddef.h>

#define COUNTERS_MAX 64        /* counters a node, at most */
#define COUNTERS_NAME 48

struct counters {
	int n;
	char name[COUNTERS_MAX][COUNTERS_NAME];   /* "eth0 tx_bytes", "mlx5_0:1 symbol_error", "tcp retrans_segs" */
	unsigned long long v[COUNTERS_MAX];
};

/* The node's counters now, into c. */
void counters_read(const char *sysroot, const char *proc, const char *only, struct counters *c);
/*
 * after - before, as one line: "eth0 tx_bytes=N rx_bytes=N ...; tcp
 * retrans_segs=N" (a counter's interface once, then its counters; one that
 * went down, a reset, as "-"); "" with none.
 */
void counters_line(const struct counters *before, const struct counters *after, char *buf, size_t len);

#endif
