/*
 * floor.h: --min-busbw=GBPS[@SIZE[+]] and --min-eff=F[@SIZE[+]]: a floor
 * under a column of the rows (busbw_GBs, eff), as pure logic. Without @SIZE it holds at every per-peer size; @SIZE at that
 * size alone; @SIZE+ at that size and every larger one. A row below a floor
 * that holds at its size fails the run (exit 1, after the sweep), named in
 * its place by '# floor_failed:' and on stderr; rows of one-task
 * communicators (no bus, busbw 0) are not judged by a busbw floor; a row
 * whose eff is unknown ("-") is not judged by an eff floor.
 */
#ifndef ALLER_FLOOR_H
#define ALLER_FLOOR_H

#include <stddef.h>

#define FLOOR_DESC_MAX 96

/* What a floor is under: its column's word, unit and largest sensible value. */
struct floor_kind {
	const char *what;   /* "busbw", "eff" */
	const char *unit;   /* " GB/s", "" */
	double max;
	const char *expect; /* what a value is, for the message */
};
extern const struct floor_kind floor_busbw, floor_eff;

struct floor {
	const struct floor_kind *kind;
	double min;      /* in the kind's unit; 0: no floor */
	long bytes;      /* per-peer size it holds at; 0: every size */
	int from_up;     /* @SIZE+: that size and larger */
};

/* "VALUE[@SIZE[+]]" for OPT: 0, or -1 with a message naming OPT and what is allowed. */
int floor_parse(const char *opt, const struct floor_kind *k, const char *val, struct floor *f,
		char *err, size_t errlen);
/* Whether the floor holds at a row of this many bytes per peer. */
int floor_holds_at(const struct floor *f, long bytes_per_peer);
/* Whether a row of that size and value is below it (NAN: not above). */
int floor_fails(const struct floor *f, long bytes_per_peer, double value);
/* "busbw >= 2.5 GB/s at 1 MiB per peer and above" (the header's words). */
void floor_describe(const struct floor *f, char *buf, size_t len);

#endif
