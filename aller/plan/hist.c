/* hist.c: see hist.h. */
#include "hist.h"

#include <math.h>

int hist_bin(double seconds)
{
	double x;

	if (!(seconds > 0))
		return 0;
	x = (log2(seconds) - HIST_LOG2_MIN) * HIST_PER_OCTAVE;
	if (x < 0)
		return 0;
	if (x >= HIST_BINS)
		return HIST_BINS - 1;
	return (int)x;
}

void hist_add(double *counts, double seconds)
{
	counts[hist_bin(seconds)] += 1;
}

double hist_quantile(const double *counts, double n, double p, double tmin, double tmax)
{
	double want = ceil(p * n - 1e-9), seen = 0, v;
	int b;

	if (n <= 0)
		return 0;
	if (want < 1)
		want = 1;
	for (b = 0; b < HIST_BINS - 1; b++) {
		seen += counts[b];
		if (seen >= want)
			break;
	}
	v = exp2(HIST_LOG2_MIN + (b + 0.5) / HIST_PER_OCTAVE);
	return v < tmin ? tmin : v > tmax ? tmax : v;
}
