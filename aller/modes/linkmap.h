/*
 * linkmap.h: the node-pair matrix of --pairs, as pure logic. n tasks (one
 * per node or GPU) meet in n - 1 steps: at step k = 1..n-1 task r sends to
 * (r + k) mod n and receives from (r - k) mod n at once (mpiGraph's shifted
 * exchange: algo_pairwise_step), so every ordered pair meets exactly once.
 * bw is the n x n matrix of bandwidths, row the sender, column the receiver,
 * the diagonal NAN.
 *
 * The one rule of a slow link, which aller-undrain and aller-isolate take
 * from here too: each end's node N has a reference, the median of the
 * links that avoid N (the median of all links where none does); a link is
 * slow for N when its bandwidth is below a fraction (--slow-below) of N's
 * reference, and slow when it is so for either end. A slow NIC slows every
 * link through its node, so on few nodes the median of all links can be a
 * slow one, and a healthy peer's links to it look slow against the median
 * of all; against the links that avoid each node, only the slow node's are.
 */
#ifndef ALLER_LINKMAP_H
#define ALLER_LINKMAP_H

struct slow_link {
	long src, dst;
	double bw, ratio, ref;   /* its bandwidth, that over its reference, the reference */
	int slow_for;            /* 1: slow for the sender's node, 2: the receiver's, 3: both */
};

/* The median of the links: every off-diagonal entry; scratch holds n x n doubles. */
double linkmap_links_median(const double *bw, long n, double *scratch);
/* Each task's median as a sender (its row) and as a receiver (its column); scratch: n doubles. */
void linkmap_task_medians(const double *bw, long n, double *row, double *col, double *scratch);
/*
 * ref[t]: the median of the links neither end of which is on task t's node
 * (node[t], 0 <= node[t] < n), NAN where none; scratch holds 2 x n x n
 * doubles. 0, or -1 out of memory.
 */
int linkmap_node_refs(const double *bw, long n, const int *node, double *ref, double *scratch);
/*
 * The slow links (the rule above: ref as linkmap_node_refs gives it, NULL:
 * none; median that of all links), slowest first, the first `max` of them in
 * out, each against the larger reference it is slow for; returns how many
 * there are.
 */
long linkmap_slow(const double *bw, long n, double frac, const double *ref, double median,
		  struct slow_link *out, long max);

#endif
