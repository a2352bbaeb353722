/*
 * qdisc.h: each interface's traffic-control queue, its counters as the
 * kernel keeps them (rtnetlink's RTM_GETQDISC, what `tc -s qdisc` shows):
 * the root queue's packets dropped (a full queue, a policer, a class that
 * holds nothing) and its overlimits (a shaper holding packets back), in the
 * task's own network namespace. counters.h reads them beside each
 * interface's. The parse is pure (unit-tested); the read is one socket.
 */
#ifndef ALLER_QDISC_H
#define ALLER_QDISC_H

#include <stddef.h>

#define QDISC_MAX 32

struct qdisc_stats {
	int n;
	int ifindex[QDISC_MAX];
	char name[QDISC_MAX][16];   /* the interface's name (qdisc_read's; "" where unknown) */
	unsigned long long drops[QDISC_MAX], overlimits[QDISC_MAX];
};

/*
 * One reply of a dump (len bytes of netlink messages): each root queue's
 * counters added to s by its interface; 1 at the dump's end (NLMSG_DONE),
 * -1 an error message, else 0 (more to come).
 */
int qdisc_parse(const void *buf, size_t len, struct qdisc_stats *s);
/* This network namespace's root queues into s (names from their index); none where rtnetlink cannot be read. */
void qdisc_read(struct qdisc_stats *s);

#endif
