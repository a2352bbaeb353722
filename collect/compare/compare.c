/* compare.c: collect --compare (see compare.h). */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

const char *const verdict_names[V_N] = { "same", "noise", "faster", "slower", "spike", "missing" };

int tolerance_parse(struct tolerance *t, const char *spec, char *err, size_t errlen)
{
	char buf[512], *save = NULL, *tok;

	memset(t, 0, sizeof(*t));
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		char *colon = strchr(tok, ':'), *pct = colon ? colon + 1 : tok;
		const char *end;
		long bytes = 0;
		double v;
		if (colon) {
			*colon = '\0';
			if (parse_bytes(tok, &bytes) != 0)
				goto bad;
		}
		if (parse_double(pct, 0, 1000, &v, &end) != 0 || (*end && strcmp(end, "%") != 0))
			goto bad;
		if (t->n == TOL_MAX_BANDS || (t->n > 0 && bytes <= t->bytes[t->n - 1]) || (!colon && t->n > 0))
			goto bad;
		t->bytes[t->n] = bytes;
		t->pct[t->n++] = v;
	}
	if (t->n > 0)
		return 0;
bad:
	snprintf(err, errlen, "invalid tolerance '%s': expected a percentage (5%%) or size bands "
		 "SIZE:PERCENT%% with rising sizes, at most %d (\"8:20%% 64K:5%%\")", spec, TOL_MAX_BANDS);
	return -1;
}

double tolerance_at(const struct tolerance *t, long bytes)
{
	double pct = t->pct[0];

	for (int i = 1; i < t->n && bytes >= t->bytes[i]; i++)
		pct = t->pct[i];
	return pct / 100;
}

enum verdict compare_verdict(double tol, double base_avg, double base_min, double base_max,
			     double new_avg, double new_min, double new_max, double med_ratio, double one_call)
{
	double r = new_avg / base_avg;

	if (!isfinite(r))
		return V_MISSING;
	if (fabs(r - 1) <= tol)
		return V_SAME;
	if (fabs(med_ratio - 1) <= tol && one_call >= fabs(new_avg - base_avg) / 2)
		return V_SPIKE;   /* the medians held, and one slow call moved an average */
	if (isfinite(med_ratio) && (r > 1 ? med_ratio < 1 - tol : med_ratio > 1 + tol))
		return V_NOISE;   /* the averages and the medians disagree */
	if (new_avg >= base_min && new_avg <= base_max && base_avg >= new_min && base_avg <= new_max)
		return V_NOISE;
	return r < 1 ? V_FASTER : V_SLOWER;
}

enum verdict compare_expected(double sim_min, double sim_max, double tmed, double tavg)
{
	double t = isfinite(tmed) ? tmed : tavg;

	return !isfinite(t) ? V_MISSING : t > sim_max ? V_SLOWER : t < sim_min ? V_FASTER : V_SAME;
}
