/*
 * suspects.h: what to take out of service, from a campaign's evidence, as
 * merged/suspects.tsv (written with the findings): each slow link of its
 * --pairs outputs (kind link, name SRC->DST by host), and each host that is
 * an end of slow links to or from SUSPECT_HOST_PEERS other hosts or more
 * (kind host, its evidence's "(--pairs; SIDE: ...)": rx the links into it slow,
 * tx out of it, both: a slow NIC slows every link through it), and each host that
 * holds the slowest task of most of a point's rows (findings, find_recurring;
 * kind host), and a link located from the rows against their bounds (kind
 * link, "nic:NODE" or "up:LEAF"; locate.h) with, for a NIC, its node (kind
 * host). Columns: kind, name,
 * evidence, since (the output's '# start:'), campaign, points
 * (SUSPECTS_COLUMNS). collect alone writes the table: the scripts that name
 * suspects of their own (a campaign's stragglers, aller-isolate's culprits)
 * add them with `collect --suspect` (suspects_main).
 */
#ifndef COLLECT_SUSPECTS_H
#define COLLECT_SUSPECTS_H

#include <stddef.h>

#include "tablerow.h"

#define SUSPECT_HOST_PEERS 2
/* suspects.tsv (common/tablerow.h): a row per suspect host or link. */
#define SUSPECTS_COLUMNS(X) \
	X(kind, TEXT, kind) \
	X(name, TEXT, name) \
	X(evidence, TEXT, evidence) \
	X(since, TEXT, since) \
	X(campaign, TEXT, campaign) \
	X(points, LONG, point)
TABLE_STRUCT(suspect_row, SUSPECTS_COLUMNS);
#define SUSPECT_NAME 64

struct suspect_link {
	char src[SUSPECT_NAME], dst[SUSPECT_NAME];
	char text[512], since[32], campaign[128];
	long point;
	double share;   /* its share of the median's rate (0: unknown) */
};

/* A host or link named by other evidence (the slowest task of most rows, the rows' bounds). */
struct suspect_host {
	char kind[8];   /* "host", or "link" (a located link: "nic:NODE", "up:LEAF") */
	char name[SUSPECT_NAME], evidence[256], campaign[128];
	long point;
};

struct suspects {
	struct suspect_link *l;
	int n;
	size_t cap;
	struct suspect_host *h;
	int nh;
	size_t caph;
};

/* A '# slow_link:' line's text ("3 (n4) -> 0 (n1): ...") and its share; 0, or -1 when it names no hosts. */
int suspects_link(struct suspects *s, const char *text, double share, const char *since, const char *campaign, long point);
/*
 * A suspect of kind "host" (one node's name: checked) or "link" named by
 * other evidence than --pairs (a host that holds the slowest task in most of
 * a point's rows; a link located from the rows' bounds); 0 or -1 (out of memory).
 */
int suspects_add(struct suspects *s, const char *kind, const char *name, const char *evidence,
		 const char *campaign, long point);
/*
 * The next suspect host from end *i on (each end of slow links with
 * SUSPECT_HOST_PEERS others or more, once): its name, its peers (in
 * peers[len]) and how many (*n), since, its side in words; NULL when there is none.
 */
const char *suspects_next_host(const struct suspects *s, int *i, char *peers, size_t len, int *n,
			       const char **since, const char **side);
/* The suspects of the points test[point] marks (a test's, not a measurement's) left out. */
void suspects_drop(struct suspects *s, const char *test, long np);
/* DIR/suspects.tsv, whole or not at all: 0, or -1 with a message. */
int suspects_write(const struct suspects *s, const char *dir, char *err, size_t errlen);
void suspects_release(struct suspects *s);
/*
 * collect --suspect DIR [KIND NAME EVIDENCE [SINCE [CAMPAIGN]]]: DIR/suspects.tsv
 * with one more row (none: the table, created empty where missing), whole or
 * not at all; a row it holds already is not added twice. 0, 2 usage (one
 * line), 3 cannot write.
 */
int suspects_main(int argc, char **argv);

#endif
