/*
 * select.h: which levels and per-peer sizes a run measures, as pure logic.
 *
 * By default every level (communicator sizes world, world/2, ..., 1) and
 * every count of its halving sequence (LONGS/target, ..., 1). --commsizes
 * keeps only the levels whose target size is listed ("world" is the world's
 * size); --min-bytes and --max-bytes keep the counts whose bytes per peer
 * (count x 8) lie between them. The sequences themselves never change: a
 * bound between two of their sizes selects the sizes inside it.
 */
#ifndef ALLER_SELECT_H
#define ALLER_SELECT_H

#include <stddef.h>

#include "bytes.h"

#define SELECT_MAX_COMMSIZES 64
#define SELECT_WORLD 0L          /* "world" in a commsize list */
#define SELECT_MAX_BYTES BYTES_MAX

struct selection {
	long min_bytes, max_bytes;          /* per peer; 0: no bound */
	int ncommsizes;                     /* 0: every level */
	long commsizes[SELECT_MAX_COMMSIZES]; /* targets, or SELECT_WORLD */
};

void selection_init(struct selection *s);

/*
 * "8", "1000", "64K", "4M", "1G", "2T" (also "64k", "64KiB", "64KB", "8B"):
 * powers of 1024, plain bytes otherwise; 1..SELECT_MAX_BYTES. 0 or -1 with a
 * one-line message naming the option and the value.
 */
int select_parse_size(const char *opt, const char *s, long *bytes, char *err, size_t errlen);
/* The same in lo..hi bytes, "PER" naming what they are of ("per peer", "per message"). */
int select_parse_size_in(const char *opt, const char *s, long lo, long hi, const char *per,
			 long *bytes, char *err, size_t errlen);
/* "world", "8,2", "world,1": 0 or -1 with a message. */
int select_parse_commsizes(struct selection *s, const char *list, char *err, size_t errlen);

/*
 * Against the world and LONGS: every listed commsize must be a level, and
 * something must be left to measure. 0, or -1 with a message. A bound that
 * is not one of the sizes of the first selected level's sequence gets a
 * note in `note` (empty otherwise).
 */
int select_check(const struct selection *s, long world, long longs, char *err, size_t errlen,
		 char *note, size_t notelen);
/* Whether the level of this target size is measured. */
int select_level(const struct selection *s, long world, long target);
/* At most this many counts per level: a count halves from at most 2^63. */
#define SELECT_MAX_COUNTS 64
/*
 * The counts measured at a level, largest first (per peer, in longs, from
 * the halving sequence of partition_count): their number, 0 to
 * SELECT_MAX_COUNTS, in counts[].
 */
int select_counts(const struct selection *s, long longs, long target,
		  long counts[SELECT_MAX_COUNTS]);
/* For the header: "commsizes all; bytes per peer 8 B..8 MiB". */
void select_describe(const struct selection *s, char *buf, size_t len);

#endif
