/* changepoint.c: see changepoint.h. */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "median.h"

/* The median of v[from, to) (a scratch copy in s). */
static double median(const double *v, long from, long to, double *s)
{
	memcpy(s, v + from, sizeof(double) * (size_t)(to - from));
	return median_of(s, to - from);
}

/* The MAD of v[from, to) around m, scaled to a normal's sigma; at least CP_MIN_REL / 4 of |m|. */
static double mad(const double *v, long from, long to, double m, double *s)
{
	double d;

	for (long i = from; i < to; i++)
		s[i - from] = fabs(v[i] - m);
	d = 1.4826 * median_of(s, to - from);
	return fmax(d, CP_MIN_REL / 4 * fabs(m));
}

static void last_test(const double *v, long n, double *s, struct change *c)
{
	double m = median(v, 0, n - 1, s), d = mad(v, 0, n - 1, m, s);
	double z = fabs(v[n - 1] - m) / d, rel = m != 0 ? v[n - 1] / m - 1 : 0;

	if (z > CP_LAST_Z && fabs(rel) > CP_MIN_REL)
		*c = (struct change){ 1, n - 1, m, v[n - 1], rel, z };
}

/* The absolute deviations of v[from, to) from m, summed. */
static double spread(const double *v, long from, long to, double m)
{
	double d = 0;

	for (long i = from; i < to; i++)
		d += fabs(v[i] - m);
	return d;
}

/* Of the splits that pass, the one whose sides lie closest to their medians (L1). */
static void shift_test(const double *v, long n, double *s, struct change *c)
{
	double least = INFINITY;

	for (long k = CP_MIN_SIDE; k <= n - CP_MIN_SIDE; k++) {
		double a = median(v, 0, k, s), b = median(v, k, n, s);
		double da = mad(v, 0, k, a, s), db = mad(v, k, n, b, s);
		double pooled = sqrt((da * da * (double)k + db * db * (double)(n - k)) / (double)n);
		double z = fabs(b - a) / pooled, rel = a != 0 ? b / a - 1 : 0;
		double cost = spread(v, 0, k, a) + spread(v, k, n, b);
		if (z > CP_SHIFT_Z && fabs(rel) > CP_MIN_REL && cost < least) {
			least = cost;
			*c = (struct change){ 2, k, a, b, rel, z };
		}
	}
}

void change_detect(const double *v, long n, struct change *c)
{
	double *s;

	memset(c, 0, sizeof(*c));
	if (n < CP_MIN_N || !(s = malloc(sizeof(double) * (size_t)n)))
		return;
	shift_test(v, n, s, c);   /* a shift three runs back or more explains the last ones too */
	if (!c->found)
		last_test(v, n, s, c);
	free(s);
}
