/* pairs.c: see pairs.h. */
#include "pairs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flows.h"
#include "format.h"
#include "linkmap.h"
#include "text.h"

#define SLOW_NAMED 64   /* as aller's: slow links named one per line, at most */

/* bw, best and avg (n x n, row the sender) of every ordered pair; 0, or -1 (not a tree, or memory). */
static int matrix(const struct sim *s, long n, long tpn, long bytes, long iters, double *bw, double *best,
		  double *avg)
{
	long *src = malloc(sizeof(long) * (size_t)n), *dst = malloc(sizeof(long) * (size_t)n);
	long *ends = calloc(2 * (size_t)s->nnodes + 1, sizeof(long));   /* per node: its flows in, out */
	double *t = malloc(sizeof(double) * (size_t)n), *nic = malloc(sizeof(double) * (size_t)(s->nnic + 1));
	struct bound_fabric f = s->real.f;
	int rc = -1;

	if (!src || !dst || !t || !ends || !nic)
		goto out;
	for (long j = 0; j < s->nnic; j++)   /* a NIC slowed one way (slow-rx, slow-tx) at its rate the other */
		nic[j] = s->way[0][j] > 0 || s->way[1][j] > 0 ? s->declared.nic[j] : s->real.nic[j];
	f.nic = nic;
	for (long k = 1; k < n; k++) {
		memset(ends, 0, sizeof(long) * 2 * (size_t)s->nnodes);
		for (long i = 0; i < n; i++) {
			src[i] = i / tpn, dst[i] = (i + k) % n / tpn;
			if (src[i] != dst[i])
				ends[2 * dst[i]]++, ends[2 * src[i] + 1]++;
		}
		if (bound_flows(&f, src, dst, n, (double)bytes, t, NULL) != 0)
			goto out;
		for (long i = 0; i < n; i++) {
			long d = (i + k) % n, e[2] = { dst[i], src[i] };
			for (int w = 0; w < 2 && src[i] != dst[i]; w++)   /* the slow way's flows share its rate */
				if (s->way[w][e[w]] > 0)
					t[i] = fmax(t[i], (double)bytes * (double)ends[2 * e[w] + w] / (s->way[w][e[w]] * 1e9));
			double slow = s->slow[src[i]] > s->slow[dst[i]] ? s->slow[src[i]] : s->slow[dst[i]];
			double one = (t[i] > 0 ? t[i] : (double)bytes / (s->copy * 1e9)) * slow + SIM_PEER_S * slow;
			double lo = INFINITY, sum = 0;
			for (long it = 0; it < iters; it++) {
				double u = sim_uniform(s->seed, (uint64_t)k, (uint64_t)i, (uint64_t)it);
				double v = one / (SIM_EFF_LO + (SIM_EFF_HI - SIM_EFF_LO) * u);
				lo = v < lo ? v : lo;
				sum += v;
			}
			best[i * n + d] = lo;
			avg[i * n + d] = sum / (double)iters;
			bw[i * n + d] = (double)bytes / lo / 1e9;
		}
	}
	for (long i = 0; i < n; i++)
		bw[i * n + i] = NAN;
	rc = 0;
out:
	free(src);
	free(dst);
	free(t);
	free(ends);
	free(nic);
	return rc;
}

int sim_pairs(FILE *f, const struct sim *s, long nodes, long tpn, long bytes, long iters, double slow_below)
{
	long n = nodes * tpn, nslow;
	double *bw = malloc(sizeof(double) * (size_t)(n * n + 1)), *best = malloc(sizeof(double) * (size_t)(n * n + 1));
	double *avg = malloc(sizeof(double) * (size_t)(n * n + 1));
	double *scratch = malloc(sizeof(double) * (size_t)(2 * n * n + 1));
	double *row = malloc(sizeof(double) * (size_t)(n + 1)), *col = malloc(sizeof(double) * (size_t)(n + 1));
	double *ref = malloc(sizeof(double) * (size_t)(n + 1)), median;
	int *node = malloc(sizeof(int) * (size_t)(n + 1)), rc = 3;
	struct slow_link slow[SLOW_NAMED];

	if (!bw || !best || !avg || !scratch || !row || !col || !ref || !node) {
		text_error(3, "simulate: error: out of memory for the %ld x %ld matrix\n", n, n);
		goto out;
	}
	if (s->rails || s->ff->ngroup > 0 || matrix(s, n, tpn, bytes, iters, bw, best, avg) != 0) {
		rc = text_error(2, "simulate: error: --pairs is simulated on a tree only (no rails, no dragonfly "
				"groups): its flows are common/flows.h's\n");
		goto out;
	}
	fprintf(f, "# %s: %ld bytes per message; %ld tasks; at step k = 1..%ld each sends to (rank + k) mod %ld "
		"and receives from (rank - k) mod %ld at once, simulated; %ld timed exchanges per step (0 warm-up); "
		"bw_GBs = bytes / the best time, in 1e9 B/s; tavg_s the average; a link below %g x the median "
		"link is slow\n# %s: %s\n", ALLER_KEY_PAIRS, bytes, n, n - 1, n, n, iters, slow_below,
		ALLER_KEY_COLUMNS, ALLER_PAIRS_COLUMN_HEADER);
	for (long t = 0; t < n; t++)
		node[t] = (int)(t / tpn);
	for (long a = 0; a < n; a++) {
		for (long d = 0; d < n; d++)
			if (a == d)
				fprintf(f, "%ld %ld %s %s NaN NaN NaN\n", a, d, s->names[node[a]], s->names[node[d]]);
			else
				fprintf(f, "%ld %ld %s %s %.6g %.6e %.6e\n", a, d, s->names[node[a]], s->names[node[d]],
					bw[a * n + d], best[a * n + d], avg[a * n + d]);
		fputc('\n', f);
	}
	median = linkmap_links_median(bw, n, scratch);
	linkmap_task_medians(bw, n, row, col, scratch);
	fprintf(f, "\n# %s: %s\n", ALLER_KEY_PAIR_HOSTS, ALLER_PAIR_HOSTS_COLUMNS);
	for (long t = 0; t < n; t++)
		fprintf(f, "%ld %s %.6g %.6g\n", t, s->names[node[t]], row[t], col[t]);
	fputs("\n\n", f);
	nslow = linkmap_slow(bw, n, slow_below, linkmap_node_refs(bw, n, node, ref, scratch) == 0 ? ref : NULL,
			     median, slow, SLOW_NAMED);
	for (long i = 0; i < nslow && i < SLOW_NAMED; i++) {
		const char *a = s->names[node[slow[i].src]], *b = s->names[node[slow[i].dst]];
		fprintf(f, "# %s: %ld (%s) -> %ld (%s): %.4g GB/s, %.3f of the median %.4g GB/s; slow for: %s%s%s\n",
			ALLER_KEY_SLOW_LINK, slow[i].src, a, slow[i].dst, b, slow[i].bw, slow[i].ratio, slow[i].ref,
			slow[i].slow_for & 1 ? a : "", slow[i].slow_for == 3 ? " " : "", slow[i].slow_for & 2 ? b : "");
	}
	fprintf(f, "# %s: %ld below %g x the median link %.4g GB/s (of %ld links)%s; each link against the median "
		"of the links that avoid one of its ends' nodes\n%s\n# %s: 0\n", ALLER_KEY_SLOW_LINKS, nslow,
		slow_below, median, n * (n - 1), nslow > SLOW_NAMED ? "; the slowest named" : "", ALLER_DONE,
		ALLER_KEY_EXIT);
	rc = 0;
out:
	free(bw);
	free(best);
	free(avg);
	free(scratch);
	free(row);
	free(col);
	free(ref);
	free(node);
	return rc;
}
