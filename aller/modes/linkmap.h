/*
 * linkmap.h: the node-pair matrix of --pairs, as pure logic. n tasks (one
 * per node or GPU) meet in n - 1 steps: at step k = 1..n-1 task r sends to
 * (r + k) mod n and receives from (r - k) mod n at once (mpiGraph's shifted
 * exchange: algo_pairwise_step), so every ordered pair meets exactly once.
 * bw is the n x n matrix of bandwidths, row the sender, column the receiver,
 * the diagonal NAN. A link is slow when its bandwidth is below a fraction of
 * the median of all links.
 */
#ifndef ALLER_LINKMAP_H
#define ALLER_LINKMAP_H

struct slow_link {
	long src, dst;
	double bw, ratio;   /* its bandwidth, and that over the median */
};

/* The median of v's numbers (NAN skipped; NAN when none); v is reordered. */
double linkmap_median(double *v, long n);
/* The median of the links: every off-diagonal entry; scratch holds n x n doubles. */
double linkmap_links_median(const double *bw, long n, double *scratch);
/* Each task's median as a sender (its row) and as a receiver (its column); scratch: n doubles. */
void linkmap_task_medians(const double *bw, long n, double *row, double *col, double *scratch);
/*
 * The links below frac x median, slowest first, the first `max` of them in
 * out; returns how many there are.
 */
long linkmap_slow(const double *bw, long n, double frac, double median, struct slow_link *out,
		  long max);

#endif
