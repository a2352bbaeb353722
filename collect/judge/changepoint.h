/*
 * changepoint.h: has a series of measurements (one per campaign, in date
 * order) changed? Two robust tests, as pure logic, each with its
 * false-alarm rate measured on synthetic series (tests/unit/test_changepoint.c):
 *
 *   shift: one level shift anywhere: for each split with CP_MIN_SIDE values
 *         or more on each side, the difference of the two sides' medians
 *         over their pooled MAD; the largest above CP_SHIFT_Z, and the
 *         relative change above CP_MIN_REL;
 *   last: (without a shift) the newest value against the history before it:
 *         its distance from the history's median in MADs (scaled to a
 *         normal's sigma) above CP_LAST_Z, the relative change above
 *         CP_MIN_REL.
 *
 * Measured on 10,000 synthetic series each (5% normal noise, this machine's
 * run-to-run spread at large sizes): false alarms in 0.9% of steady 10-run
 * series and 0.14% of 30-run ones; a 30% fall in the last of 10 runs found
 * in 84% (99.7% at 3% noise), 4 runs before the end of 12 in 96%.
 *
 * A series of fewer than CP_MIN_N values is never judged. A MAD of 0 (a
 * flat history) counts as CP_MIN_REL / 4 of the median, so that rounding
 * never alarms.
 */
#ifndef COLLECT_CHANGEPOINT_H
#define COLLECT_CHANGEPOINT_H

#define CP_MIN_N 5
#define CP_MIN_SIDE 3
#define CP_LAST_Z 4.5
#define CP_SHIFT_Z 4.5
#define CP_MIN_REL 0.10

struct change {
	int found;        /* 0: none; 1: the last value; 2: a shift */
	long at;          /* the first value after the change */
	double before, after;   /* the medians on each side (last: history, the last value) */
	double rel;       /* after / before - 1 */
	double z;         /* the statistic */
};

/* v[0..n): the series, oldest first. */
void change_detect(const double *v, long n, struct change *c);

#endif
