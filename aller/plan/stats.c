/* stats.c: see stats.h. */
#include "stats.h"

#include <math.h>
#include <string.h>

void stats_init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
	s->tmin = s->bwmin = INFINITY;
	s->tmax = s->bwmax = -INFINITY;
}

void stats_add(struct stats *s, double seconds, double gib)
{
	double bw = gib / seconds;

	s->tmin = fmin(s->tmin, seconds);
	s->tmax = fmax(s->tmax, seconds);
	s->tsum += seconds;
	s->bwmin = fmin(s->bwmin, bw);
	s->bwmax = fmax(s->bwmax, bw);
	s->gibsum += gib;
	s->n += 1;
	hist_add(s->hist, seconds);
}

void stats_pack(const struct stats *s, double max[STATS_NMAX], double sum[STATS_NSUM])
{
	max[0] = -s->tmin;
	max[1] = s->tmax;
	max[2] = -s->bwmin;
	max[3] = s->bwmax;
	sum[0] = s->tsum;
	sum[1] = s->gibsum;
	sum[2] = s->n;
	memcpy(sum + 3, s->hist, sizeof(s->hist));
}

void stats_unpack(struct stats *s, const double max[STATS_NMAX], const double sum[STATS_NSUM])
{
	s->tmin = -max[0];
	s->tmax = max[1];
	s->bwmin = -max[2];
	s->bwmax = max[3];
	s->tsum = sum[0];
	s->gibsum = sum[1];
	s->n = sum[2];
	memcpy(s->hist, sum + 3, sizeof(s->hist));
}

void stats_merge(struct stats *a, const struct stats *b)
{
	double am[STATS_NMAX], as[STATS_NSUM], bm[STATS_NMAX], bs[STATS_NSUM];

	stats_pack(a, am, as);
	stats_pack(b, bm, bs);
	for (int i = 0; i < STATS_NMAX; i++)
		am[i] = fmax(am[i], bm[i]);
	for (int i = 0; i < STATS_NSUM; i++)
		as[i] += bs[i];
	stats_unpack(a, am, as);
}

double stats_tavg(const struct stats *s)
{
	return s->tsum / s->n;
}

double stats_tmed(const struct stats *s)
{
	return hist_quantile(s->hist, s->n, 0.5, s->tmin, s->tmax);
}

double stats_tp99(const struct stats *s)
{
	return hist_quantile(s->hist, s->n, 0.99, s->tmin, s->tmax);
}

void stats_median_ranks(double n, double *lo, double *hi)
{
	double k = 1, below = 0, pmf;

	if (n < 6) {
		*lo = 1;
		*hi = n > 1 ? n : 1;
		return;
	}
	if (n > STATS_CI_EXACT) {
		k = floor(n / 2 - 1.959963984540054 * sqrt(n) / 2);
	} else {
		/* P(B = 0) = 2^-n, then P(B = j + 1) = P(B = j) (n - j) / (j + 1) */
		pmf = exp2(-n);
		while (below + pmf <= 0.025) {
			below += pmf;
			pmf = pmf * (n - (k - 1)) / k;
			k++;
		}
		/* P(B <= k - 2) <= 0.025 < P(B <= k - 1): lo is X_(k-1) */
		k--;
	}
	*lo = k < 1 ? 1 : k;
	*hi = n + 1 - *lo;
}

/* The order statistic of 1-based rank r through the histogram's nearest rank. */
static double order_stat(const struct stats *s, double r)
{
	return hist_quantile(s->hist, s->n, (r - 0.5) / s->n, s->tmin, s->tmax);
}

double stats_tmed_lo(const struct stats *s)
{
	double lo, hi;

	stats_median_ranks(s->n, &lo, &hi);
	return order_stat(s, lo);
}

double stats_tmed_hi(const struct stats *s)
{
	double lo, hi;

	stats_median_ranks(s->n, &lo, &hi);
	return order_stat(s, hi);
}

double stats_tmed_rel(const struct stats *s)
{
	double rel = (stats_tmed_hi(s) - stats_tmed_lo(s)) / 2 / stats_tmed(s);

	/* both bounds in one bin of the histogram: within half its width, not exact */
	return rel > HIST_REL_ERROR / 2 ? rel : HIST_REL_ERROR / 2;
}

double stats_bwavg(const struct stats *s)
{
	return s->gibsum / s->tsum;
}

double stats_gib(long count, long g)
{
	return 2.0 * (double)count * (double)g * (double)sizeof(long) / (1024.0 * 1024.0 * 1024.0);
}

double stats_busbw(long count, long g, double seconds)
{
	double algbw = (double)count * (double)g * (double)sizeof(long) / seconds / 1e9;
	return algbw * (double)(g - 1) / (double)g;
}
