/* qdisc.c: see qdisc.h. */
#include "qdisc.h"

#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* A root queue's counters onto s. */
static void add(struct qdisc_stats *s, int ifindex, const struct gnet_stats_queue *q)
{
	int i = 0;

	while (i < s->n && s->ifindex[i] != ifindex)
		i++;
	if (i == QDISC_MAX)
		return;
	if (i == s->n) {
		s->ifindex[s->n] = ifindex;
		s->name[s->n][0] = '\0';
		s->drops[s->n] = s->overlimits[s->n] = 0;
		s->n++;
	}
	s->drops[i] += q->drops;
	s->overlimits[i] += q->overlimits;
}

/* One RTM_NEWQDISC: its TCA_STATS2's queue counters where it is a root queue. */
static void one(const struct nlmsghdr *h, struct qdisc_stats *s)
{
	const struct tcmsg *t = NLMSG_DATA(h);
	int alen = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*t));

	if (alen < 0 || t->tcm_parent != TC_H_ROOT)
		return;
	for (struct rtattr *a = TCA_RTA(t); RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
		int nlen = (int)RTA_PAYLOAD(a);
		if (a->rta_type != TCA_STATS2)
			continue;
		for (struct rtattr *b = RTA_DATA(a); RTA_OK(b, nlen); b = RTA_NEXT(b, nlen))
			if (b->rta_type == TCA_STATS_QUEUE && RTA_PAYLOAD(b) >= sizeof(struct gnet_stats_queue)) {
				struct gnet_stats_queue q;
				memcpy(&q, RTA_DATA(b), sizeof(q));
				add(s, t->tcm_ifindex, &q);
			}
	}
}

int qdisc_parse(const void *buf, size_t len, struct qdisc_stats *s)
{
	unsigned int left = len > 0x7fffffff ? 0x7fffffff : (unsigned int)len;

	for (const struct nlmsghdr *h = buf; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR)
			return -1;
		if (h->nlmsg_type == RTM_NEWQDISC && h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct tcmsg)))
			one(h, s);
	}
	return 0;
}

void qdisc_read(struct qdisc_stats *s)
{
	struct {
		struct nlmsghdr h;
		struct tcmsg t;
	} req = { { NLMSG_LENGTH(sizeof(struct tcmsg)), RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP, 1, 0 },
		  { .tcm_family = AF_UNSPEC } };
	struct timeval wait = { 1, 0 };   /* a kernel that never answers: none, not a hang */
	static char buf[32768];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), rc = 0;
	ssize_t got;

	memset(s, 0, sizeof(*s));
	if (fd < 0)
		return;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait)) == 0 &&
	    send(fd, &req, req.h.nlmsg_len, 0) == (ssize_t)req.h.nlmsg_len)
		while (rc == 0 && (got = recv(fd, buf, sizeof(buf), 0)) > 0)
			rc = qdisc_parse(buf, (size_t)got, s);
	close(fd);
	if (rc != 1)
		s->n = 0;   /* cut short: nothing, never a part */
	for (int i = 0; i < s->n; i++)
		if (!if_indextoname((unsigned int)s->ifindex[i], s->name[i]))
			s->name[i][0] = '\0';
}
