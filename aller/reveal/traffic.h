/*
 * traffic.h: what --reveal makes of MPI_T counter deltas, as pure logic:
 * the algorithm fingerprint, per-rank figures and their reduction layout,
 * the "# traffic:" line, the late-rank rule and the traffic-matrix file.
 */
#ifndef ALLER_TRAFFIC_H
#define ALLER_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The shape of one rank's messages per call in a communicator of size g. */
enum traffic_shape {
	TRAFFIC_ALONE,     /* g = 1: nothing to send */
	TRAFFIC_PAIRWISE,  /* g-1 messages: pairwise or linear */
	TRAFFIC_BRUCK,     /* ceil(log2 g) messages: Bruck-like */
	TRAFFIC_OTHER,
	TRAFFIC_NSHAPES
};

long traffic_log2_ceil(long g);
enum traffic_shape traffic_shape(long g, double msgs_per_call);
const char *traffic_shape_name(enum traffic_shape s);

/* Per call, over ranks: min/max/sum of messages and bytes, logical bytes, cross. */
struct traffic {
	double msgs_min, msgs_max, msgs_sum;
	double bytes_min, bytes_max, bytes_sum;
	double logical_sum, cross_sum, n;
	double shapes[TRAFFIC_NSHAPES];
};
#define TRAFFIC_NMAX 4                       /* -msgs_min, msgs_max, -bytes_min, bytes_max */
#define TRAFFIC_NSUM (5 + TRAFFIC_NSHAPES)   /* msgs, bytes, logical, cross, n, shapes */

void traffic_init(struct traffic *t);
/* One rank: its communicator size and per-call messages, bytes, logical bytes, cross bytes. */
void traffic_add(struct traffic *t, long g, double msgs, double bytes, double logical,
		 double cross);
void traffic_pack(const struct traffic *t, double max[TRAFFIC_NMAX], double sum[TRAFFIC_NSUM]);
void traffic_unpack(struct traffic *t, const double max[TRAFFIC_NMAX],
		    const double sum[TRAFFIC_NSUM]);

/*
 * "# traffic: count=C tier=T ..." for one data line. With msgs (pml tier)
 * it has messages, amplification and fingerprint; else the logical pattern.
 */
void traffic_line(FILE *f, const struct traffic *t, long count, const char *tier, int msgs);

/*
 * The late-rank rule of --reveal=queues: a rank is consistently late when
 * at least 3/4 of all (round, peer) observations saw it late.
 */
int traffic_late(long observations, long rounds, long peers);

/*
 * Writes a traffic matrix of n ranks (world ranks ranks[0..n-1]) as
 * "src dst bytes_per_call msgs_per_call" rows, a blank line after each
 * source (gnuplot "with image"), into path via a temporary file and rename.
 * rows holds one row of 2n counts per source, summed over calls: the bytes
 * to each destination, then the messages (the layout aller gathers).
 * Never over what is not a regular file (common/replace.h). Returns 0, or
 * -1 with a one-line reason in err.
 */
int traffic_matrix_write(const char *path, const char *title, long n, const long *ranks,
			 const uint64_t *rows, long calls, char *err, size_t errlen);

#endif
