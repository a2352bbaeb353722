/*
 * peer.h: another tool's all-to-all output, read strictly so that collect
 * --judge can hold it against aller's bound (pure logic): the OSU
 * micro-benchmarks' osu_alltoall, IMB-MPI1's Alltoall tables and
 * nccl-tests' alltoall_perf, as each prints them on its standard output.
 *
 *   osu_alltoall   "# OSU MPI... All-to-All Personalized Exchange Latency
 *                  Test", then "# Size  Avg Latency(us) [Min Latency(us)
 *                  Max Latency(us) Iterations ...]" and a row per size:
 *                  bytes per peer; the time per call is Max Latency (the
 *                  slowest task's) where printed (-f), else Avg Latency
 *   IMB-MPI1       each "# Benchmarking Alltoall" table of "# #processes =
 *                  P" (the first P ranks; the others wait in a barrier):
 *                  #bytes per peer, t_max[usec]; other benchmarks' tables
 *                  are read (strictly) and left out
 *   alltoall_perf  "#  Rank R Group G Pid P on HOST device ..." lines (which
 *                  host each rank ran on) and the table under "# size count
 *                  type redop root time ...": size is each rank's whole
 *                  buffer (bytes per peer x ranks), time the out-of-place one
 *
 * A line that is none of its format's is refused with FILE:LINE, never
 * guessed at; so is a row whose data its tool found wrong (nccl-tests'
 * #wrong, OSU's Validation).
 */
#ifndef COLLECT_PEER_H
#define COLLECT_PEER_H

#include <stddef.h>

enum peer_format { PEER_NONE, PEER_OSU, PEER_IMB, PEER_NCCL };
#define PEER_HOST 64   /* a host name's bytes and its end (the fabric model's): longer is refused, never cut */

struct peer_row {
	double bytes;   /* per peer, each task to each other task */
	long tasks;     /* in the call: IMB's #processes; the others, the whole run (0: not said) */
	double t;       /* seconds per call */
	long line;      /* in the file */
};

struct peer {
	enum peer_format format;
	char title[160];         /* the tool's own first line, as it names itself */
	char timecol[40];        /* which column the time is */
	struct peer_row *row;
	long nrows;
	size_t caprows;
	char (*host)[PEER_HOST]; /* alltoall_perf: each rank's host (nhosts ranks); else none */
	long nhosts;
	size_t caphosts;
};

/* The format's name as a user types it (--format=): "osu", "imb", "nccl-tests". */
const char *peer_format_name(enum peer_format f);
/* The format of a name (PEER_NONE: not one). */
enum peer_format peer_format_named(const char *name);

/*
 * Parses text (a file's whole contents; `file` names it in messages) as
 * format `want` (PEER_NONE: told by its lines) into p: 0, or -1 with one
 * line in err ("FILE:LINE: what", or "FILE: what"), p then empty.
 */
int peer_parse(struct peer *p, const char *text, const char *file, enum peer_format want, char *err,
	       size_t errlen);
void peer_free(struct peer *p);

#endif
