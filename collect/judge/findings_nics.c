/*
 * findings_nics.c: the network counters in the findings (nics.h): a node
 * whose counters stand out in a point, and the counters a finding that
 * names a NIC or a host cites.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "findings_impl.h"
#include "nics.h"

/* The next node named by a nic_counters line from *at on (its first word), into name; 0 at the end. */
static int next_node(const char **at, char *name, size_t len)
{
	const char *l = *at;

	while (l && *l && (!strncmp(l, "more nodes", 10) || strcspn(l, " \n") == 0 || isdigit((unsigned char)*l)))
		l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n');
	if (!l || !*l)
		return 0;
	snprintf(name, len, "%.*s", (int)strcspn(l, " \n"), l);
	*at = l + strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n');
	return 1;
}

/* The most of the point's nodes but `node`: retransmitted segments (*retrans), packets their queues dropped (*qdrops). */
static void others_most(const struct fpoint *p, const char *node, double *retrans, double *qdrops)
{
	char name[128];

	*retrans = *qdrops = 0;
	for (const char *at = p->nics; next_node(&at, name, sizeof(name));) {
		struct nic_sums s = { 0 };
		if (!strcmp(name, node))
			continue;
		nic_sums_add(p->nics, name, &s);
		*retrans = s.retrans > *retrans ? s.retrans : *retrans;
		*qdrops = s.qdrops > *qdrops ? s.qdrops : *qdrops;
	}
}

/* Whether a count stands out: min or more, and NICS_RETRANS_FACTOR times the most of the others. */
static int stands_out(double v, double min, double others)
{
	return v >= min && v >= NICS_RETRANS_FACTOR * others;
}

/* One node of a point: a finding where its errors, retransmits or bytes stand out. */
static void nics_node(struct fout *o, const struct fpoint *p, const char *node)
{
	struct nic_sums s = { 0 };
	char where[256], words[256], text[1024], qd[96] = "";
	double others, oq, ratio;

	nic_sums_add(p->nics, node, &s);
	find_where(where, sizeof(where), p);
	nic_words(&s, words, sizeof(words));
	others_most(p, node, &others, &oq);
	ratio = s.aller_tx > 0 ? s.tx_bytes / s.aller_tx : NAN;
	if (s.qdrops > 0)
		snprintf(qd, sizeof(qd), ", %.0f dropped by their queues", oq);
	if (s.errors > 0 || s.link_downed > 0 || stands_out(s.retrans, NICS_RETRANS_MIN, others) ||
	    stands_out(s.qdrops, NICS_QDROPS_MIN, oq)) {
		snprintf(text, sizeof(text), "%s: %s's counters during the point: %s (the other nodes: %.0f "
			 "retransmitted%s at most): a lossy NIC, cable or port.", where, node, words, others, qd);
		find_emit(o, FK_nics, "warning", text, &p->pt->point, 1, "retrans", s.retrans, "dropped", s.dropped,
			  "errors", s.errors, "link_downed", s.link_downed, "others_retrans", others, "queue_dropped",
			  s.qdrops, "others_queue_dropped", oq, NULL);
	}
	if (s.has_tx && s.aller_tx >= NICS_MIN_BYTES && (ratio < NICS_BYTES_LO || ratio > NICS_BYTES_HI)) {
		snprintf(text, sizeof(text), "%s: %s's NICs sent %.2fx the bytes aller's calls sent off the node "
			 "(%.1f MB against %.1f MB): %s.", where, node, ratio, s.tx_bytes / 1e6, s.aller_tx / 1e6,
			 ratio > 1 ? "other traffic shared "
			 "them, or they sent it again" : "aller's traffic left the node another way than the NICs "
			 "counted (another interface, or shared memory across what Slurm calls nodes)");
		find_emit(o, FK_nics, "notice", text, &p->pt->point, 1, "ratio", ratio, "tx_bytes", s.tx_bytes,
			  "aller_tx_bytes", s.aller_tx, NULL);
	}
}

void find_nics(struct fout *o, const struct fpoint *p)
{
	char name[128];

	for (const char *at = p->nics; next_node(&at, name, sizeof(name));)
		nics_node(o, p, name);
}

void find_nic_cite(const struct fpoint *pts, long np, const long *points, int npoints, const char *node,
		   char *buf, size_t len)
{
	struct nic_sums s = { 0 };
	char words[256];

	buf[0] = '\0';
	for (long i = 0; i < np; i++)
		for (int k = 0; k < (points ? npoints : 1); k++)
			if ((!points || pts[i].pt->point == points[k]) && pts[i].nics)
				nic_sums_add(pts[i].nics, node, &s);
	nic_words(&s, words, sizeof(words));
	if (words[0])
		snprintf(buf, len, " %s's counters over %s: %s.", node, !points ? "the campaign" :
			 npoints == 1 ? "that point" : "those points", words);
}
