/*
 * nics.h: what a point's '# nic_counters:' lines (aller/world/counters.h,
 * facts.tsv's nic_counters) say of a node, as pure logic: its NICs' drops,
 * errors and link downs, TCP's retransmitted segments, the bytes its NICs
 * sent against what aller's calls sent off the node. A finding that names a
 * NIC or a host cites them; a node whose counters stand out is a finding of
 * its own (kind nics).
 */
#ifndef COLLECT_NICS_H
#define COLLECT_NICS_H

#include <stddef.h>

struct nic_sums {
	int found;                  /* the node has a line */
	double retrans;             /* tcp retrans_segs */
	double dropped, errors;     /* every IF's {tx,rx}_dropped, {tx,rx}_errors; IB's symbol_error, port_rcv_errors */
	double link_downed, xmit_wait;   /* InfiniBand's */
	double qdrops;              /* every IF's queue's (qdisc_drops: tc's) */
	double tx_bytes;            /* every IF's tx_bytes, IB's port_xmit_data */
	double aller_tx;            /* aller offnode_tx_B: what its calls sent off the node */
	int has_tx;
};

/* The sums of node's line among lines (nic_counters values, '\n'-separated), added to s. */
void nic_sums_add(const char *lines, const char *node, struct nic_sums *s);
/*
 * s in words: "1,234 TCP segments retransmitted, 12 packets dropped, 0
 * errors" (and link downs, xmit waits, packets its NICs' queues dropped
 * where there are any); "" when the node has no counters.
 */
void nic_words(const struct nic_sums *s, char *buf, size_t len);

#define NICS_MIN_BYTES 67108864.0   /* aller's bytes off a node below this: its NICs' are not judged */
#define NICS_BYTES_LO 0.8           /* a NIC that sent less than this share of aller's bytes ... */
#define NICS_BYTES_HI 1.5           /* ... or more than this is named */
#define NICS_RETRANS_MIN 100.0      /* retransmitted segments a node needs, and ... */
#define NICS_RETRANS_FACTOR 2.0     /* ... this many times the next node's, to stand out */
#define NICS_QDROPS_MIN 10.0        /* packets a node's queues dropped, and NICS_RETRANS_FACTOR times the next node's */

#endif
