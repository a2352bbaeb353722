/*
 * locate.h: the slow link of a campaign located from its ordinary rows
 * (tomography), as pure logic. Each row of a point on a known fabric says
 * two things about the links (named "nic:NODE", "up:LEAF"; with rails "nic:NODE:IF" and its node's, all of them):
 *
 *  - a row clears every link whose own least time for it (its bytes / its rate) is LOCATE_SLOW of the row's
 *    time (its slowest task's) or more: at a quarter of its rate it would have made the row slower (a loaded
 *    cluster's healthy rows at 0.3-0.5 of their bound clear no link at half its rate: tests/data/slowup-*);
 *  - a row below LOCATE_SLOW of its bound is slow, or below LOCATE_HALF with its slowest task at LOCATE_SPREAD
 *    x the median's (the others at their bound): the links its slowest task's communicator used get a vote;
 *  - in every row, slow or not, the links of the slowest task's communicator get the blame: the others were faster.
 *
 * The suspects are the links with the most votes, in at least LOCATE_SHARE of the slow rows and cleared by
 * none; of those, the ones whose blame is within LOCATE_MARGIN of the most (a strided row that is not slow
 * against its uplink still says which of its pairs was slower). Contiguous and strided points cross different
 * links, so a campaign with both can single out a NIC; one whose rows never separate two links names both.
 * Judged at half (L->half) a row below LOCATE_HALF is slow and one clears the links at LOCATE_HALF of its time:
 * so a campaign is judged whose rows name nothing at a quarter and are tight: the median tasks' efficiency of
 * its rows where it is from LOCATE_TIGHT_FROM to 1 (a median above its bound is a lighter communicator's, one
 * below it a fault's; LOCATE_TIGHT_ROWS at least) within LOCATE_TIGHT x, 10th to 90th percentile (simulated
 * 1.05-1.2; the local cluster's healthy campaigns 1.35-1.6, where a half named NICs: tests/data/loaded-healthy).
 */
#ifndef COLLECT_LOCATE_H
#define COLLECT_LOCATE_H

#include <stddef.h>

#include "namehash.h"

#define LOCATE_SLOW 0.25       /* a row at 1/4 of its bound is slow (a healthy row reads 0.3-0.9 of it on this VM) */
#define LOCATE_HALF 0.5        /* the target: a link at half its rate or worse found */
#define LOCATE_TIGHT 1.3      /* the median tasks' spread in a tight campaign, 10th to 90th percentile */
#define LOCATE_TIGHT_FROM 0.6  /* ... of rows whose median task reached this (a link at half: 0.55 at most) */
#define LOCATE_TIGHT_ROWS 10   /* ... of so many rows at least */
#define LOCATE_BINS 200        /* ... counted in steps of 1/100 of the bound */
#define LOCATE_SPREAD 2.0      /* a healthy row's slowest over its median: 1.0-1.3 simulated, 1.5-2 loaded here */
#define LOCATE_SHARE 0.75      /* a suspect is in this share of the slow rows at least */
#define LOCATE_MIN_ROWS 3      /* slow rows needed to name anything */
#define LOCATE_MIN_BYTES 65536 /* rows of fewer bytes per peer are latency's, not the links' */
#define LOCATE_MAX 3           /* more suspects than this: no one link explains the rows */
#define LOCATE_MARGIN 2        /* rows of blame that separate two suspects */
#define LOCATE_NAME 72

struct locate_link {
	char name[LOCATE_NAME];
	int cleared, votes, blame, row;   /* row: the last row that voted (a rail's node once a row) */
};

struct locate {
	struct locate_link *l;
	int n;
	size_t cap;
	struct namehash names;   /* the links by name */
	int slow_rows, rows;
	int effmed[LOCATE_BINS];      /* rows by their median task's efficiency, in hundredths (the last: more) */
	int half;                     /* judged at half (set before the rows) */
	double eff_lo, eff_hi;   /* the slow rows' range of efficiency */
	long points[32];         /* the first points with a slow row */
	int npoints;
};

/* A link's index in L->l by its name, added where new; -1 (memory). */
int locate_link(struct locate *L, const char *name);
/*
 * One row of point `point`: its efficiency against its bound (its slowest task's time), that time over the median's
 * (spread), the links its slowest task's communicator used, those it clears, by index (locate_link's); 0, or -1.
 */
int locate_row_ids(struct locate *L, long point, double eff, double spread, const int *used, int nused,
		   const int *clear, int nclear);
/*
 * The suspects (at most LOCATE_MAX, into names[max]): how many; 0 when
 * there are fewer than LOCATE_MIN_ROWS slow rows or no few links explain them.
 */
int locate_suspects(const struct locate *L, const char **names, int max);
/* Of a campaign judged at a quarter and at half (L[0], L[1]): the second where the first names none and it is tight. */
const struct locate *locate_pick(const struct locate L[2]);
void locate_release(struct locate *L);

#endif
