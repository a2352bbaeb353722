/*
 * pairs.c: --pairs, the node-pair bandwidth matrix (the schedule and the
 * slow links: linkmap.h). Each task times, per step, the arrival of its
 * peer's message from the step's barrier: the receiver's time of the link
 * from its sender, so a slow link shows in its own entry only. Collective.
 */
#include "pairs.h"
#include "text.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algo/algo_list.h"
#include "linkmap.h"
#include "output.h"
#include "world/failure.h"
#include "world/faults.h"

#define PAIRS_TAG 4711
#define SLOW_NAMED 64   /* slow links named one per line, at most */

/*
 * One exchange of step k: receive from `from`, send to `to`; the seconds from
 * the barrier to the message's arrival. ALLER_TEST_SLOW_PAIR's sender first
 * takes its own message as it lands, then waits out the delay before it
 * sends: one slow link, the sender's own receive timed as any other.
 */
static double exchange(const struct options *o, struct buffers *b, long to, long from, int me,
		       int *rc)
{
	const struct faults *f = faults();
	MPI_Request r, s;
	double t0, arrived = -1, left;

	/* twice: the second starts from exits of the first, so a task late to the
	 * first (the last step's slow receiver) does not skew this step's start */
	MPI_MUST(MPI_Barrier(MPI_COMM_WORLD));
	MPI_MUST(MPI_Barrier(MPI_COMM_WORLD));
	t0 = MPI_Wtime();
	*rc = MPI_Irecv(b->recv, (int)o->longs, MPI_LONG, (int)from, PAIRS_TAG, MPI_COMM_WORLD, &r);
	if (*rc != MPI_SUCCESS)
		return NAN;
	if (f->pair_src == me && f->pair_dst == to) {
		MPI_MUST(MPI_Wait(&r, MPI_STATUS_IGNORE));
		arrived = MPI_Wtime() - t0;
		if ((left = 1e-6 * (double)f->pair_us - arrived) > 0)
			usleep((useconds_t)(1e6 * left));
	}
	*rc = MPI_Isend(b->send, (int)o->longs, MPI_LONG, (int)to, PAIRS_TAG, MPI_COMM_WORLD, &s);
	if (arrived < 0) {
		MPI_MUST(MPI_Wait(&r, MPI_STATUS_IGNORE));
		arrived = MPI_Wtime() - t0;
	}
	if (*rc == MPI_SUCCESS)
		*rc = MPI_Wait(&s, MPI_STATUS_IGNORE);
	return arrived;
}

/* This task's column: the best and the summed time of each sender's message, and wrong elements. */
static long measure(const struct options *o, const struct world *w, struct buffers *b,
		    double *best, double *sum, struct mismatch *first)
{
	long n = w->size, wrong = 0;
	int rc = MPI_SUCCESS;

	for (long k = 1; k < n; k++) {
		long to, from;
		algo_pairwise_step(w->rank, k, n, &to, &from);
		b->peers = (struct verify_peers){ to, 0 };
		b->ops->fill(b, 0, 1, o->longs, w->rank, VERIFY_REUSED, NULL);
		best[from] = INFINITY;
		for (long it = -o->warmup; it < o->iters; it++) {
			double t;
			if (o->verify != VERIFY_NONE)
				b->ops->poison(b, 0, o->longs);
			t = exchange(o, b, to, from, w->rank, &rc);
			failure_mpi(w, rc, w->rank == 0, "--pairs exchange", 0, o->longs);
			if (o->verify == VERIFY_ALL || (o->verify == VERIFY_WARMUP && it < 0)) {
				struct mismatch m;
				long bad;
				b->peers = (struct verify_peers){ from, 0 };
				bad = b->ops->check(b, 0, 1, o->longs, w->rank, VERIFY_REUSED, 0, &m, NULL);
				if (bad > 0 && wrong == 0)
					*first = m;
				wrong += bad > 0 ? bad : 0;
			}
			if (it < 0)
				continue;
			best[from] = t < best[from] ? t : best[from];
			sum[from] += t;
		}
	}
	return wrong;
}

/* A slow link's line: its ends, its bandwidth against its reference, the nodes it is slow for. */
static void slow_line(FILE *f, const struct world *w, const int *node, const struct slow_link *l)
{
	const char *src = w->names[node[l->src]], *dst = w->names[node[l->dst]];

	fprintf(f, "# %s: %ld (%s) -> %ld (%s): %.4g GB/s, %.3f of the median %.4g GB/s; slow for: "
		"%s%s%s\n", ALLER_KEY_SLOW_LINK, l->src, src, l->dst, dst, l->bw, l->ratio, l->ref,
		l->slow_for & 1 ? src : "", l->slow_for == 3 ? " " : "", l->slow_for & 2 ? dst : "");
}

/* Rank 0: the matrix, each task's medians, the slow links; 0, or -1 (out of memory, said). */
static int write_matrix(FILE *f, const struct options *o, const struct world *w,
			 const int *node, const double *cols)
{
	long n = w->size;
	double *bw = calloc((size_t)(n * n), sizeof(double));
	double *scratch = malloc(sizeof(double) * (size_t)(2 * n * n));
	double *row = malloc(sizeof(double) * (size_t)n), *col = malloc(sizeof(double) * (size_t)n);
	double *ref = malloc(sizeof(double) * (size_t)n);
	struct slow_link slow[SLOW_NAMED];
	double median;
	long nslow;

	if (!bw || !scratch || !row || !col || !ref) {
		text_error(0, "aller: error: out of memory for the %ld x %ld matrix\n", n, n);
		free(bw);
		free(scratch);
		free(row);
		free(col);
		free(ref);
		return -1;
	}
	/* cols: per receiver d, 2n numbers: best times, then summed ones, by sender */
	for (long s = 0; s < n; s++)
		for (long d = 0; d < n; d++)
			bw[s * n + d] = s == d ? NAN : (double)o->pairs / cols[d * 2 * n + s] / 1e9;
	for (long s = 0; s < n; s++) {
		for (long d = 0; d < n; d++) {
			const char *sh = w->names[node[s]], *dh = w->names[node[d]];
			if (s == d)
				fprintf(f, "%ld %ld %s %s NaN NaN NaN\n", s, d, sh, dh);
			else
				fprintf(f, "%ld %ld %s %s %.6g %.6e %.6e\n", s, d, sh, dh, bw[s * n + d],
					cols[d * 2 * n + s], cols[d * 2 * n + n + s] / (double)o->iters);
		}
		fputc('\n', f);
	}
	median = linkmap_links_median(bw, n, scratch);
	linkmap_task_medians(bw, n, row, col, scratch);
	fprintf(f, "\n# %s: %s\n", ALLER_KEY_PAIR_HOSTS, ALLER_PAIR_HOSTS_COLUMNS);
	for (long t = 0; t < n; t++)
		fprintf(f, "%ld %s %.6g %.6g\n", t, w->names[node[t]], row[t], col[t]);
	fputs("\n\n", f);
	/* (out of memory here: the median of all links for each) */
	nslow = linkmap_slow(bw, n, o->slow_below, linkmap_node_refs(bw, n, node, ref, scratch) == 0 ? ref : NULL,
			     median, slow, SLOW_NAMED);
	for (long i = 0; i < nslow && i < SLOW_NAMED; i++)
		slow_line(f, w, node, &slow[i]);
	fprintf(f, "# %s: %ld below %g x the median link %.4g GB/s (of %ld links)%s; each link "
		"against the median of the links that avoid one of its ends' nodes\n",
		ALLER_KEY_SLOW_LINKS, nslow, o->slow_below, median, n * (n - 1),
		nslow > SLOW_NAMED ? "; the slowest named" : "");
	free(bw);
	free(scratch);
	free(row);
	free(col);
	free(ref);
	return 0;
}

int pairs_run(const struct options *o, const struct world *w, struct buffers *b, FILE *out)
{
	long n = w->size, wrong;
	double *mine = calloc((size_t)(2 * n), sizeof(double)), *cols = NULL;
	int *node = NULL, ok;
	struct mismatch first = { 0 };

	if (w->rank == 0) {
		cols = malloc(sizeof(double) * (size_t)(2 * n * n));
		node = malloc(sizeof(int) * (size_t)n);
	}
	ok = mine && (w->rank != 0 || (cols && node));
	if (failure_agree(w, !ok, "out of memory for the pair matrix"))
		return 3;
	wrong = measure(o, w, b, mine, mine + n, &first);
	if (wrong > 0)
		text_error(0, "aller: error: rank %d on %s: %ld wrong elements from rank %ld "
			"(first: element %ld, expected %ld, received %ld)\n", w->rank, world_host(w),
			wrong, first.peer, first.element, first.expected, first.received);
	MPI_MUST(MPI_Gather(mine, (int)(2 * n), MPI_DOUBLE, cols, (int)(2 * n), MPI_DOUBLE, 0, MPI_COMM_WORLD));
	MPI_MUST(MPI_Gather(&w->node, 1, MPI_INT, node, 1, MPI_INT, 0, MPI_COMM_WORLD));
	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
	if (out && write_matrix(out, o, w, node, cols) != 0)
		wrong = -1;   /* no "# Done": the output is not whole */
	else if (out)
		output_done(out);
	free(mine);
	free(cols);
	free(node);
	return wrong < 0 ? 3 : wrong > 0 ? 1 : 0;
}
