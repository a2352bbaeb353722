/* models.c: see models.h. */
#include "models.h"

#include <math.h>

/* The weighted least-squares line through points [from, to). */
static void fit_line(const double *x, const double *t, long from, long to, struct line_fit *f)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, det, mean, res = 0, tot = 0;

	for (long i = from; i < to; i++) {
		double w = 1 / (t[i] * t[i]);
		sw += w;
		sx += w * x[i];
		sy += w * t[i];
		sxx += w * x[i] * x[i];
		sxy += w * x[i] * t[i];
	}
	det = sw * sxx - sx * sx;
	f->slope = det > 0 ? (sw * sxy - sx * sy) / det : 0;
	f->latency = (sy - f->slope * sx) / sw;
	if (f->latency < 0) {   /* through the origin */
		f->latency = 0;
		f->slope = sxx > 0 ? sxy / sxx : 0;
	}
	mean = sy / sw;
	f->worst = 0;
	for (long i = from; i < to; i++) {
		double p = f->latency + f->slope * x[i], w = 1 / (t[i] * t[i]), rel = fabs(p - t[i]) / t[i];
		res += w * (t[i] - p) * (t[i] - p);
		tot += w * (t[i] - mean) * (t[i] - mean);
		if (rel > f->worst)
			f->worst = rel;
	}
	f->r2 = tot > 0 ? 1 - res / tot : 1;
}

/* The weighted squared residuals of a line over [from, to). */
static double cost(const double *x, const double *t, long from, long to, const struct line_fit *f)
{
	double c = 0;

	for (long i = from; i < to; i++) {
		double r = (f->latency + f->slope * x[i] - t[i]) / t[i];
		c += r * r;
	}
	return c;
}

int model_fit(const double *x, const double *t, long n, struct model *m)
{
	double best;

	m->n = n;
	m->two = 0;
	m->break_x = NAN;
	if (n < 2)
		return -1;
	fit_line(x, t, 0, n, &m->all);
	if (m->all.worst <= MODEL_BAD || n < 2 * MODEL_MIN_PIECE)
		return 0;
	best = cost(x, t, 0, n, &m->all);
	for (long k = MODEL_MIN_PIECE; k <= n - MODEL_MIN_PIECE; k++) {
		struct line_fit lo, hi;
		double c;
		fit_line(x, t, 0, k, &lo);
		fit_line(x, t, k, n, &hi);
		c = cost(x, t, 0, k, &lo) + cost(x, t, k, n, &hi);
		if (c < best) {
			best = c;
			m->two = 1;
			m->break_x = x[k];
			m->lo = lo;
			m->hi = hi;
		}
	}
	return 0;
}

double model_bw(const struct line_fit *f)
{
	return f->slope > 0 ? 1 / f->slope : NAN;
}

double model_n_half(const struct line_fit *f)
{
	return f->slope > 0 ? f->latency / f->slope : NAN;
}
