/* linkmap.c: see linkmap.h. */
#include "linkmap.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double linkmap_median(double *v, long n)
{
	long m = 0;

	for (long i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[m++] = v[i];
	if (m == 0)
		return NAN;
	qsort(v, (size_t)m, sizeof(*v), cmp_double);
	return m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}

double linkmap_links_median(const double *bw, long n, double *scratch)
{
	long m = 0;

	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++)
			if (i != j)
				scratch[m++] = bw[i * n + j];
	return linkmap_median(scratch, m);
}

void linkmap_task_medians(const double *bw, long n, double *row, double *col, double *scratch)
{
	for (long t = 0; t < n; t++) {
		long m = 0;
		for (long j = 0; j < n; j++)
			if (j != t)
				scratch[m++] = bw[t * n + j];
		row[t] = linkmap_median(scratch, m);
		m = 0;
		for (long i = 0; i < n; i++)
			if (i != t)
				scratch[m++] = bw[i * n + t];
		col[t] = linkmap_median(scratch, m);
	}
}

static int cmp_slow(const void *a, const void *b)
{
	const struct slow_link *x = a, *y = b;

	if (x->bw != y->bw)
		return x->bw < y->bw ? -1 : 1;
	return x->src != y->src ? (x->src < y->src ? -1 : 1) : (x->dst > y->dst) - (x->dst < y->dst);
}

long linkmap_slow(const double *bw, long n, double frac, double median, struct slow_link *out,
		  long max)
{
	long found = 0;

	if (isnan(median))
		return 0;
	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++) {
			double b = bw[i * n + j];
			struct slow_link l = { i, j, b, b / median };
			if (i == j || isnan(b) || !(b < frac * median))
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
