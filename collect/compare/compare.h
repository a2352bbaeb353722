/*
 * compare.h: collect --compare BASE NEW: the points the two sides share, matched by identity (mode, variant,
 * tasks per node, instrumented, nodes, communicators, commsize, bytes per peer), each with the ratio NEW/BASE
 * of the average time per call (and of the median) and a verdict:
 *   same     the ratio is within the tolerance of its size band;
 *   noise    outside it, but the medians' ratio is outside it the other way
 *            (one slow call moved an average), or each side's average lies
 *            inside the other's [tmin, tmax]: the difference is smaller
 *            than both runs' spread;
 *   spike    outside it, but the medians' ratio within it, and one call (the
 *            higher side's tmax) moved that average by half the difference;
 *   faster   the ratio is below 1 otherwise;
 *   slower   above 1 otherwise;
 *   missing  a side's average is not a number: never faster nor slower.
 * Points of one side only are listed too. Settings that differ between the sides (MPI library, buffers,
 * iterations, variant environment, ...) are named at the top. A simulated BASE (aller-simulate's) with a
 * measured NEW is what the fabric should give against what it gave ("expected (simulated)"): each NEW row
 * needs a BASE row, and its median call is short beyond the simulated calls' slowest (tmax), faster below
 * their fastest, else as expected; a simulated NEW with a measured BASE is refused.
 */
#ifndef COLLECT_COMPARE_H
#define COLLECT_COMPARE_H

#include <stddef.h>

#define TOL_MAX_BANDS 16

/* Tolerances by size band: from bytes[i] per peer on, pct[i] percent. */
struct tolerance {
	int n;
	long bytes[TOL_MAX_BANDS];
	double pct[TOL_MAX_BANDS];
};

/*
 * "5%", or bands "8:20% 64K:5%" (a size with K, M, G... as aller takes them, a colon, a percentage; sizes
 * rising). 0, or -1 with a message.
 */
int tolerance_parse(struct tolerance *t, const char *spec, char *err, size_t errlen);
/* The tolerance (a fraction) at a size: its band's, or the first band's below it. */
double tolerance_at(const struct tolerance *t, long bytes);

enum verdict { V_SAME, V_NOISE, V_FASTER, V_SLOWER, V_SPIKE, V_MISSING, V_N };
extern const char *const verdict_names[V_N];

/* One pair's verdict: each side's tavg, [tmin, tmax]; the medians' ratio; the higher side's (tmax - tmed) / its calls. */
enum verdict compare_verdict(double tol, double base_avg, double base_min, double base_max,
			     double new_avg, double new_min, double new_max, double med_ratio, double one_call);

/* A measured row's expected verdict against the simulated one: V_SLOWER (short), V_FASTER, V_SAME or V_MISSING. */
enum verdict compare_expected(double sim_min, double sim_max, double tmed, double tavg);

/*
 * collect --compare [--tol SPEC] [-o DIR] BASE NEW. Exit status: 0 nothing slower or short, 1 something
 * slower or short, 2 bad input (no such files, no common points, a bad tolerance), 3 cannot write DIR.
 */
int compare_main(int argc, char **argv);

#endif
