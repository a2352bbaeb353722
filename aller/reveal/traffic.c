/* traffic.c: see traffic.h. */
#include "traffic.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "replace.h"

long traffic_log2_ceil(long g)
{
	long k = 0;

	while (g > 1 && (1L << k) < g)
		k++;
	return k;
}

enum traffic_shape traffic_shape(long g, double msgs)
{
	if (g <= 1)
		return TRAFFIC_ALONE;
	if (fabs(msgs - (double)(g - 1)) < 0.5)
		return TRAFFIC_PAIRWISE;
	if (fabs(msgs - (double)traffic_log2_ceil(g)) < 0.5)
		return TRAFFIC_BRUCK;
	return TRAFFIC_OTHER;
}

const char *traffic_shape_name(enum traffic_shape s)
{
	static const char *names[TRAFFIC_NSHAPES] = { "alone", "pairwise/linear", "bruck-like",
						      "other" };
	return (unsigned)s < TRAFFIC_NSHAPES ? names[s] : "?";
}

void traffic_init(struct traffic *t)
{
	memset(t, 0, sizeof(*t));
	t->msgs_min = t->bytes_min = INFINITY;
	t->msgs_max = t->bytes_max = -INFINITY;
}

void traffic_add(struct traffic *t, long g, double msgs, double bytes, double logical,
		 double cross)
{
	t->msgs_min = fmin(t->msgs_min, msgs);
	t->msgs_max = fmax(t->msgs_max, msgs);
	t->bytes_min = fmin(t->bytes_min, bytes);
	t->bytes_max = fmax(t->bytes_max, bytes);
	t->msgs_sum += msgs;
	t->bytes_sum += bytes;
	t->logical_sum += logical;
	t->cross_sum += cross;
	t->n += 1;
	t->shapes[traffic_shape(g, msgs)] += 1;
}

void traffic_pack(const struct traffic *t, double max[TRAFFIC_NMAX], double sum[TRAFFIC_NSUM])
{
	max[0] = -t->msgs_min;
	max[1] = t->msgs_max;
	max[2] = -t->bytes_min;
	max[3] = t->bytes_max;
	sum[0] = t->msgs_sum;
	sum[1] = t->bytes_sum;
	sum[2] = t->logical_sum;
	sum[3] = t->cross_sum;
	sum[4] = t->n;
	for (int i = 0; i < TRAFFIC_NSHAPES; i++)
		sum[5 + i] = t->shapes[i];
}

void traffic_unpack(struct traffic *t, const double max[TRAFFIC_NMAX],
		    const double sum[TRAFFIC_NSUM])
{
	t->msgs_min = -max[0];
	t->msgs_max = max[1];
	t->bytes_min = -max[2];
	t->bytes_max = max[3];
	t->msgs_sum = sum[0];
	t->bytes_sum = sum[1];
	t->logical_sum = sum[2];
	t->cross_sum = sum[3];
	t->n = sum[4];
	for (int i = 0; i < TRAFFIC_NSHAPES; i++)
		t->shapes[i] = sum[5 + i];
}

/*
 * The one shape of all ranks that have peers (a rank left alone in an uneven
 * partition says nothing of the algorithm), or "mixed".
 */
static const char *fingerprint(const struct traffic *t)
{
	int seen = -1;

	for (int i = 0; i < TRAFFIC_NSHAPES; i++) {
		if (t->shapes[i] == 0 || (i == TRAFFIC_ALONE && t->n > t->shapes[i]))
			continue;
		if (seen >= 0)
			return "mixed";
		seen = i;
	}
	return seen < 0 ? "?" : traffic_shape_name((enum traffic_shape)seen);
}

void traffic_line(FILE *f, const struct traffic *t, long count, const char *tier, int msgs)
{
	double n = t->n > 0 ? t->n : 1;

	fprintf(f, "# %s: count=%ld tier=%s", ALLER_KEY_TRAFFIC, count, tier);
	if (msgs) {
		fprintf(f, " msgs=%.6g msgs_min=%.6g msgs_max=%.6g", t->msgs_sum / n, t->msgs_min,
			t->msgs_max);
		fprintf(f, " bytes=%.6g bytes_min=%.6g bytes_max=%.6g", t->bytes_sum / n,
			t->bytes_min, t->bytes_max);
	}
	fprintf(f, " logical=%.6g", t->logical_sum / n);
	if (msgs) {
		if (t->logical_sum > 0)
			fprintf(f, " amplification=%.4f", t->bytes_sum / t->logical_sum);
		else
			fprintf(f, " amplification=n/a");
		fprintf(f, " fingerprint=%s", fingerprint(t));
	}
	fprintf(f, " cross_bytes=%.6g\n", t->cross_sum);
}

int traffic_late(long observations, long rounds, long peers)
{
	return rounds > 0 && peers > 0 && 4 * observations >= 3 * rounds * peers;
}

int traffic_matrix_write(const char *path, const char *title, long n, const long *ranks,
			 const uint64_t *rows, long calls, char *err, size_t errlen)
{
	double per = (double)(calls > 0 ? calls : 1);
	char tmp[4200], target[4096];
	FILE *f;

	if (replace_target(path, "# aller traffic matrix", target, sizeof(target), err, errlen) != 0)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.tmp", target);
	if (!(f = replace_create(tmp, "", err, errlen)))
		return -1;
	fprintf(f, "# aller traffic matrix: %s\n# %s: %s\n", title, ALLER_KEY_COLUMNS,
		ALLER_MATRIX_COLUMNS);
	for (long i = 0; i < n; i++) {
		const uint64_t *row = rows + 2 * n * i;
		for (long j = 0; j < n; j++)
			fprintf(f, "%ld %ld %.6g %.6g\n", ranks[i], ranks[j], (double)row[j] / per,
				(double)row[n + j] / per);
		fputc('\n', f);
	}
	return replace_commit(f, tmp, target, "# aller traffic matrix", err, errlen);
}
