/*
 * hist.h: percentiles of per-sample times from a fixed log-spaced histogram.
 *
 * Bin b holds the times in [2^(HIST_LOG2_MIN + b/HIST_PER_OCTAVE),
 * 2^(HIST_LOG2_MIN + (b+1)/HIST_PER_OCTAVE)); times below or above the range
 * go to the first or the last bin. Every task counts its own samples; the
 * counts of all tasks are summed with one MPI_Reduce, so no sample is
 * gathered. A percentile is the geometric middle of the bin that holds the
 * nearest-rank sample, clamped to the exact [tmin, tmax]: its relative
 * error is at most HIST_REL_ERROR (2^(1/64) - 1, under 1.1%) for times in
 * the range, which holds every time aller measures (at least MPI_Wtick,
 * at most --timeout); outside it, a value in [tmin, tmax].
 */
#ifndef ALLER_HIST_H
#define ALLER_HIST_H

#define HIST_PER_OCTAVE 32
#define HIST_LOG2_MIN (-32)   /* 2^-32 s, 0.23 ns: below any timer's resolution */
#define HIST_LOG2_MAX 20      /* 2^20 s, 12 days: above the longest --timeout */
#define HIST_BINS ((HIST_LOG2_MAX - HIST_LOG2_MIN) * HIST_PER_OCTAVE)
#define HIST_REL_ERROR 0.010889286051700461 /* 2^(1/64) - 1 */

/* The bin of a time in seconds. */
int hist_bin(double seconds);
/* Adds one sample to counts[HIST_BINS] (doubles, so they reduce with the sums). */
void hist_add(double *counts, double seconds);
/*
 * The p-quantile (0 < p <= 1) of the n samples counted, by nearest rank (the
 * ceil(p n)-th smallest), within HIST_REL_ERROR; tmin and tmax are the exact
 * extremes. 0 when n is 0.
 */
double hist_quantile(const double *counts, double n, double p, double tmin, double tmax);

#endif
