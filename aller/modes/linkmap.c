/* linkmap.c: see linkmap.h. */
#include "linkmap.h"

#include <math.h>
#include <stdlib.h>

#include "median.h"


double linkmap_links_median(const double *bw, long n, double *scratch)
{
	long m = 0;

	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++)
			if (i != j)
				scratch[m++] = bw[i * n + j];
	return median_of(scratch, m);
}

void linkmap_task_medians(const double *bw, long n, double *row, double *col, double *scratch)
{
	for (long t = 0; t < n; t++) {
		long m = 0;
		for (long j = 0; j < n; j++)
			if (j != t)
				scratch[m++] = bw[t * n + j];
		row[t] = median_of(scratch, m);
		m = 0;
		for (long i = 0; i < n; i++)
			if (i != t)
				scratch[m++] = bw[i * n + t];
		col[t] = median_of(scratch, m);
	}
}

/* How many of sorted v[0..n) are <= x. */
static long upto(const double *v, long n, double x)
{
	long lo = 0, hi = n;

	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The k-th smallest (from 0) of sorted all[0..m) less the sorted subset ex[0..e). */
static double kth_without(const double *all, long m, const double *ex, long e, long k)
{
	long lo = 0, hi = m - 1;

	while (lo < hi) {   /* the first p whose value has more than k of all \ ex at or below it */
		long mid = lo + (hi - lo) / 2;
		if (upto(all, m, all[mid]) - upto(ex, e, all[mid]) > k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return all[lo];
}

/* The links through node N (tasks first[N]..first[N + 1] of order) into ex; how many. */
static long node_links(const double *bw, long n, const int *node, const long *order, long from,
		       long to, double *ex)
{
	long e = 0;

	for (long k = from; k < to; k++) {
		long u = order[k];
		for (long j = 0; j < n; j++) {
			if (j != u && !isnan(bw[u * n + j]))
				ex[e++] = bw[u * n + j];   /* its sends, to its own node's tasks too */
			if (node[j] != node[u] && !isnan(bw[j * n + u]))
				ex[e++] = bw[j * n + u];   /* its receipts from other nodes */
		}
	}
	return e;
}

int linkmap_node_refs(const double *bw, long n, const int *node, double *ref, double *scratch)
{
	double *all = scratch, *ex = scratch + n * n;
	long m = 0, *first = calloc((size_t)n + 2, sizeof(long)), *order = malloc(sizeof(long) * (size_t)(n + 1));

	if (!first || !order) {
		free(first);
		free(order);
		return -1;
	}
	for (long t = 0; t < n; t++)   /* the tasks by node (a counting sort) */
		first[node[t] + 2]++;
	for (long k = 2; k <= n + 1; k++)
		first[k] += first[k - 1];
	for (long t = 0; t < n; t++)
		order[first[node[t] + 1]++] = t;
	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++)
			if (i != j && !isnan(bw[i * n + j]))
				all[m++] = bw[i * n + j];
	qsort(all, (size_t)m, sizeof(*all), median_order);
	for (long v = 0; v < n; v++) {   /* node v: its tasks are order[first[v]..first[v + 1]) */
		long e = node_links(bw, n, node, order, first[v], first[v + 1], ex), left = m - e;
		double r;
		if (first[v] == first[v + 1])
			continue;
		qsort(ex, (size_t)e, sizeof(*ex), median_order);
		r = left == 0 ? NAN : left % 2 ? kth_without(all, m, ex, e, left / 2)
			: (kth_without(all, m, ex, e, left / 2 - 1) + kth_without(all, m, ex, e, left / 2)) / 2;
		for (long k = first[v]; k < first[v + 1]; k++)
			ref[order[k]] = r;
	}
	free(first);
	free(order);
	return 0;
}

static int cmp_slow(const void *a, const void *b)
{
	const struct slow_link *x = a, *y = b;

	if (x->bw != y->bw)
		return x->bw < y->bw ? -1 : 1;
	return x->src != y->src ? (x->src < y->src ? -1 : 1) : (x->dst > y->dst) - (x->dst < y->dst);
}

/* Link i -> j of bandwidth b against its ends' references: which it is slow for (0: none). */
static int slow_for(const double *ref, long i, long j, double b, double frac, double median, double *r)
{
	double a = ref && !isnan(ref[i]) ? ref[i] : median, c = ref && !isnan(ref[j]) ? ref[j] : median;
	int k = (b < frac * a) | (b < frac * c) << 1;

	*r = k == 3 ? fmax(a, c) : k == 1 ? a : c;
	return k;
}

long linkmap_slow(const double *bw, long n, double frac, const double *ref, double median,
		  struct slow_link *out, long max)
{
	long found = 0;

	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++) {
			double b = bw[i * n + j], r = NAN;
			int why = i == j || isnan(b) ? 0 : slow_for(ref, i, j, b, frac, median, &r);
			struct slow_link l = { i, j, b, b / r, r, why };
			if (why == 0)
				continue;
			if (found < max) {
				out[found] = l;
			} else if (max > 0) {   /* keep the slowest max: replace the fastest kept */
				long worst = 0;
				for (long k = 1; k < max; k++)
					if (cmp_slow(&out[k], &out[worst]) > 0)
						worst = k;
				if (cmp_slow(&l, &out[worst]) < 0)
					out[worst] = l;
			}
			found++;
		}
	qsort(out, (size_t)(found < max ? found : max), sizeof(*out), cmp_slow);
	return found;
}
