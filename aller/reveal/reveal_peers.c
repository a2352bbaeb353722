/*
 * reveal_peers.c: the per-peer counters of --reveal (pml and coll tiers):
 * the "# traffic:" line of each count and its traffic matrix.
 */
#include "reveal_impl.h"

#include <errno.h>
#include <string.h>

#include "bytes.h"
#include "format.h"
#include "output.h"
#include "traffic.h"
#include "world/failure.h"

/*
 * Gathers the per-peer deltas of the whole world, or of communicator 0, to
 * rank 0; msgs and bytes are the tracked ranks' (reveal_impl.h): the world's
 * when it is small enough for a matrix, else the communicator's.
 */
static int matrix(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		   int level, long count, const uint64_t *msgs, const uint64_t *bytes, FILE *out)
{
	long world = r->w->size, g0 = partition_size(p, 0), n;
	char path[1200], title[256], size[32], why[2600];

	if (world <= REVEAL_MATRIX_MAX) {
		n = world;
		memcpy(r->row, bytes, sizeof(uint64_t) * (size_t)n);
		memcpy(r->row + n, msgs, sizeof(uint64_t) * (size_t)n);
		MPI_MUST(MPI_Gather(r->row, (int)(2 * n), MPI_UINT64_T, r->mat, (int)(2 * n), MPI_UINT64_T, 0,
				    MPI_COMM_WORLD));
		for (long i = 0; out && i < n; i++)
			r->mat_ranks[i] = i;
	} else if (g0 <= REVEAL_MATRIX_MAX) {
		n = g0;
		if (color == 0) {
			for (long j = 0; j < n; j++) {
				r->row[j] = bytes[j];
				r->row[n + j] = msgs[j];
				if (out)
					r->mat_ranks[j] = partition_member(p, 0, j);
			}
			MPI_MUST(MPI_Gather(r->row, (int)(2 * n), MPI_UINT64_T, r->mat, (int)(2 * n),
					    MPI_UINT64_T, 0, comm));
		}
	} else {
		if (out)
			fprintf(out, "# %s: none (communicator 0 has %ld ranks; matrices are written "
				"up to %d)\n", ALLER_KEY_MATRIX, g0, REVEAL_MATRIX_MAX);
		return 0;
	}
	if (!out)
		return 0;
	snprintf(path, sizeof(path), "%s/matrix-L%d-c%ld.dat", r->dir, level, count);
	format_bytes(size, sizeof(size), count * (long)sizeof(long));
	snprintf(title, sizeof(title), "level %d (comms %ld, commsize %ld), count %ld (%s per "
		 "peer), tier %s, %s of world %ld, per timed call", level, p->ncomms,
		 partition_max_size(p), count, size, reveal_tier_name(r->tier), n == world ? "all ranks" : "communicator 0", world);
	/* the path holds --reveal-dir as given: escaped, it cannot forge a line */
	fprintf(out, "# %s: ", ALLER_KEY_MATRIX);
	if (traffic_matrix_write(path, title, n, r->mat_ranks, r->mat, r->calls, why,
				 sizeof(why)) != 0) {
		fputs("not written (", out);
		output_escaped(out, why);
		fputs(")\n", out);
		return -1;
	}
	output_escaped(out, path);
	fputc('\n', out);
	return 0;
}

int reveal_count_end(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		      int level, long count, int coll_counted, FILE *out)
{
	long g = partition_size(p, color), n = r->ntrack;
	const uint64_t *cb = r->delta + (size_t)REVEAL_COLL_BYTES * (size_t)n;
	const uint64_t *m, *b;
	int vb = r->tier == REVEAL_PML ? REVEAL_PML_BYTES : REVEAL_COLL_BYTES;
	double msgs = 0, bytes = 0, logical = 0, cross, calls = r->calls ? (double)r->calls : 1;
	double mine = 0;   /* to the communicator, this task included */
	int written;
	double vmax[TRAFFIC_NMAX], vsum[TRAFFIC_NSUM];
	struct traffic t;

	if (r->tier == REVEAL_GENERIC) {
		reveal_generic_end(r, count, out);
		return 0;
	}
	if (r->nvars == 0)
		return 0;
	m = r->delta + (size_t)(r->tier == REVEAL_PML ? REVEAL_PML_MSGS : REVEAL_COLL_MSGS) * (size_t)n;
	b = r->delta + (size_t)vb * (size_t)n;
	for (long j = 0; j < n; j++) {
		long q = r->track_base + j * r->track_step;
		if (partition_color(p, q) != color)
			continue;
		mine += (double)b[j];
		if (q == r->w->rank)
			continue;   /* to oneself: a copy (pairwise posts it as a message) */
		msgs += (double)m[j];
		bytes += (double)b[j];
		logical += (double)cb[j];
	}
	/* to ranks outside the communicator: the world's sum less the communicator's */
	cross = (double)r->total[vb] - mine;
	if (!coll_counted)   /* the coll counters see no payload, or only a fence's */
		logical = (double)count * (double)sizeof(long) * (double)(g - 1) * calls;
	traffic_init(&t);
	traffic_add(&t, g, msgs / calls, bytes / calls, logical / calls, cross / calls);
	traffic_pack(&t, vmax, vsum);
	MPI_MUST(MPI_Reduce(out ? MPI_IN_PLACE : vmax, vmax, TRAFFIC_NMAX, MPI_DOUBLE, MPI_MAX, 0,
			    MPI_COMM_WORLD));
	MPI_MUST(MPI_Reduce(out ? MPI_IN_PLACE : vsum, vsum, TRAFFIC_NSUM, MPI_DOUBLE, MPI_SUM, 0,
			    MPI_COMM_WORLD));
	if (out) {
		traffic_unpack(&t, vmax, vsum);
		traffic_line(out, &t, count, reveal_tier_name(r->tier), r->tier == REVEAL_PML);
	}
	written = matrix(r, p, color, comm, level, count, m, b, out) == 0;
	/* a matrix asked for and not written is a system error (exit 3), as --json's is */
	return failure_agree(r->w, !written, "cannot write a --reveal traffic matrix (see its "
			     "'# matrix:' line)") ? 3 : 0;
}
