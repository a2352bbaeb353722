/*
 * stats.h: per-task timing statistics and their reduction layout.
 *
 * Each task adds one sample per timed iteration: its time t and its
 * in+out GiB (of its own communicator). Over all tasks and iterations:
 *   tmin, tavg, tmax     min, mean and max of t;
 *   tmed, tp99           median and 99th percentile of t (nearest rank), from
 *                        a log-spaced histogram (hist.h), within HIST_REL_ERROR;
 *   bwmin, bwmax         min and max of the per-sample rate gib / t;
 *   bwavg                sum of gib / sum of t (= gib / tavg when every task
 *                        moves the same bytes);
 *   tmed_lo, tmed_hi     the 95% confidence interval of the median from the
 *                        order statistics of the same samples (stats_median_ranks),
 *                        read from the same histogram.
 * They are reduced with two collectives on fixed-size vectors (MPI_MAX,
 * MPI_SUM): O(log P), no sample is gathered.
 */
#ifndef ALLER_STATS_H
#define ALLER_STATS_H

#include "hist.h"

struct stats {
	double tmin, tmax, tsum;
	double bwmin, bwmax, gibsum;
	double n;
	double hist[HIST_BINS];
};

#define STATS_NMAX 4              /* -tmin, tmax, -bwmin, bwmax: reduced with MPI_MAX */
#define STATS_NSUM (3 + HIST_BINS) /* tsum, gibsum, n, histogram: reduced with MPI_SUM */

void stats_init(struct stats *s);
void stats_add(struct stats *s, double seconds, double gib);
void stats_pack(const struct stats *s, double max[STATS_NMAX], double sum[STATS_NSUM]);
void stats_unpack(struct stats *s, const double max[STATS_NMAX], const double sum[STATS_NSUM]);
/* Combines b into a: what the two reductions compute. */
void stats_merge(struct stats *a, const struct stats *b);
double stats_tavg(const struct stats *s);
double stats_tmed(const struct stats *s);
double stats_tp99(const struct stats *s);
double stats_bwavg(const struct stats *s);
/*
 * The ranks (1-based) of the order statistics that bound the median of n
 * samples with 95% confidence: the largest lo with P(B < lo) <= 0.025 for B
 * of binomial(n, 1/2), and hi = n + 1 - lo (exact up to STATS_CI_EXACT
 * samples, the normal approximation above). Fewer than 6 samples have no
 * 95% interval: lo = 1, hi = n (it covers 1 - 2^(1-n)).
 */
#define STATS_CI_EXACT 1000
void stats_median_ranks(double n, double *lo, double *hi);
double stats_tmed_lo(const struct stats *s);
double stats_tmed_hi(const struct stats *s);
/*
 * The interval's half-width over the median: what --ci=REL compares with REL;
 * never below half the histogram's resolution (HIST_REL_ERROR / 2).
 */
double stats_tmed_rel(const struct stats *s);

/* In+out GiB of one task in a communicator of size g at per-peer count. */
double stats_gib(long count, long g);
/*
 * nccl-tests' bus bandwidth of an all-to-all, decimal GB/s: algbw = count x
 * g x 8 bytes / seconds, busbw = algbw x (g - 1) / g.
 */
double stats_busbw(long count, long g, double seconds);

#endif
