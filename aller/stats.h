/*
 * stats.h: per-task timing statistics and their reduction layout.
 *
 * Each task adds one sample per timed iteration: its time t and its
 * bandwidth gib/t, gib being the in+out GiB of its own communicator. The
 * global min/avg/max are over all tasks and iterations; they are reduced with
 * two collectives on fixed-size vectors (MPI_MAX, MPI_SUM): O(log P).
 */
#ifndef ALLER_STATS_H
#define ALLER_STATS_H

struct stats {
	double tmin, tmax, tsum;
	double bwmin, bwmax, bwsum;
	double n;
};

#define STATS_NMAX 4 /* -tmin, tmax, -bwmin, bwmax: reduced with MPI_MAX */
#define STATS_NSUM 3 /* tsum, bwsum, n: reduced with MPI_SUM */

void stats_init(struct stats *s);
void stats_add(struct stats *s, double seconds, double gib);
void stats_pack(const struct stats *s, double max[STATS_NMAX], double sum[STATS_NSUM]);
void stats_unpack(struct stats *s, const double max[STATS_NMAX], const double sum[STATS_NSUM]);
/* Combines b into a: what the two reductions compute. */
void stats_merge(struct stats *a, const struct stats *b);
double stats_tavg(const struct stats *s);
double stats_bwavg(const struct stats *s);

/* In+out GiB of one task in a communicator of size g at per-peer count. */
double stats_gib(long count, long g);

#endif
