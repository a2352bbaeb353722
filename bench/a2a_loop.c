/*
 * a2a_loop: the plainest timed MPI_Alltoall loop, to check aller against.
 * a2a_loop ITERS LONGS [fresh|reused] [ALGO]: for counts LONGS/world .. 1
 * (halving) on MPI_COMM_WORLD, one warm-up and ITERS calls, each after an
 * MPI_Barrier and between two MPI_Wtime; prints "count tavg" with tavg the
 * mean over ranks and iterations, aller's definition. With "fresh", the send
 * data is written anew before each call (untimed), as aller's verification
 * must: the peers then cannot re-read it from their own caches. ALGO is one
 * of aller's --algo names (default alltoall), written here plainly, apart
 * from aller's own code, as the reference it is measured against.
 * a2a_loop ITERS LONGS loop|osu [ALGO]: timed as IMB does (one barrier, the
 * ITERS calls back to back between two MPI_Wtime, the loop's time / ITERS)
 * or as OSU does (MPI_Wtime around each call, a barrier after it).
 * a2a_loop ITERS LONGS reused alltoallv SPEC: MPI_Alltoallv with the counts
 * of aller's --split=SPEC (split.c computes them, here for the whole world);
 * a count whose busiest task would not fit LONGS is left out, as aller does.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/split.h"

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#if MPI_VERSION >= 4
#define INIT MPI_Alltoall_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define INIT MPIX_Alltoall_init
#endif

static const char *algo = "alltoall";
static MPI_Request *reqs, preq;
static int *counts, *displs, *rcounts, *rdispls;
static struct split sp;     /* --split's, or uniform */
static MPI_Win win;

/*
 * The split's counts of call `iter` for this rank (row and column), the
 * plainest way: every entry from split_count. The largest total of any rank.
 */
static long split_counts(int n, int rank, int size, long iter)
{
	struct split_plan p;
	long most = 0;

	if (split_plan_init(&p, &sp, size, n, 0, iter) != 0)
		MPI_Abort(MPI_COMM_WORLD, 3);
	for (int r = 0; r < size; r++) {
		long out = 0, in = 0;
		for (int k = 0; k < size; k++) {
			out += split_count(&p, r, k);
			in += split_count(&p, k, r);
		}
		most = out > most ? out : most;
		most = in > most ? in : most;
	}
	for (int i = 0, at = 0, rat = 0; i < size; i++) {
		counts[i] = (int)split_count(&p, rank, i);
		displs[i] = at;
		at += counts[i];
		rcounts[i] = (int)split_count(&p, i, rank);
		rdispls[i] = rat;
		rat += rcounts[i];
	}
	split_plan_free(&p);
	return most;
}

/* Per count, outside the timing: what the algorithm needs. */
static void prepare(long *send, long *recv, int n, int size)
{
	for (int i = 0; i < size; i++) {
		counts[i] = rcounts[i] = n;
		displs[i] = rdispls[i] = i * n;
	}
#ifdef INIT
	if (strcmp(algo, "persistent") == 0)
		INIT(send, n, MPI_LONG, recv, n, MPI_LONG, MPI_COMM_WORLD, MPI_INFO_NULL, &preq);
#endif
}

/* One exchange by the algorithm. */
static void exchange(long *send, long *recv, int n, int rank, int size)
{
	if (strcmp(algo, "ialltoall") == 0) {
		MPI_Request r;
		MPI_Ialltoall(send, n, MPI_LONG, recv, n, MPI_LONG, MPI_COMM_WORLD, &r);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	} else if (strcmp(algo, "persistent") == 0) {
		MPI_Start(&preq);
		MPI_Wait(&preq, MPI_STATUS_IGNORE);
	} else if (strcmp(algo, "alltoallv") == 0) {
		MPI_Alltoallv(send, counts, displs, MPI_LONG, recv, rcounts, rdispls, MPI_LONG,
			      MPI_COMM_WORLD);
	} else if (strcmp(algo, "pairwise") == 0) {
		for (int k = 0; k < size; k++) {
			int to = (rank + k) % size, from = (rank - k + size) % size;
			MPI_Irecv(recv + (long)from * n, n, MPI_LONG, from, 0, MPI_COMM_WORLD, &reqs[2 * k]);
			MPI_Isend(send + (long)to * n, n, MPI_LONG, to, 0, MPI_COMM_WORLD, &reqs[2 * k + 1]);
		}
		MPI_Waitall(2 * size, reqs, MPI_STATUSES_IGNORE);
	} else if (strcmp(algo, "put") == 0) {
		MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
		for (int k = 0; k < size; k++) {
			int to = (rank + k) % size;
			MPI_Put(send + (long)to * n, n, MPI_LONG, to, (MPI_Aint)rank * n * 8, n, MPI_LONG, win);
		}
		MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
	} else {
		MPI_Alltoall(send, n, MPI_LONG, recv, n, MPI_LONG, MPI_COMM_WORLD);
	}
}

/*
 * This task's time of one count's ITERS timed calls (after one warm-up):
 * how 'l' (loop: back to back after one barrier), 'o' (osu: a barrier after
 * each), 'f' (fresh data before each) or 'r' (reused data).
 */
static double time_count(long *send, long *recv, long count, long iters, int rank, int size,
			 char how)
{
	double sum = 0;

	if (how == 'l') {   /* one warm-up, then the loop */
		double t0;
		exchange(send, recv, (int)count, rank, size);
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (long it = 0; it < iters; it++)
			exchange(send, recv, (int)count, rank, size);
		return MPI_Wtime() - t0;
	}
	for (long it = 0; it <= iters; it++) {
		double t0, t1;
		if (split_varies(&sp))
			split_counts((int)count, rank, size, it);
		for (long j = 0; how == 'f' && j < count * size; j++)
			send[j] = j * 0x9E3779B97F4A7C15L + it;
		if (how != 'o')
			MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		exchange(send, recv, (int)count, rank, size);
		t1 = MPI_Wtime();
		if (how == 'o')
			MPI_Barrier(MPI_COMM_WORLD);
		if (it > 0)
			sum += t1 - t0;
	}
	return sum;
}

/* The send and receive buffers (LONGS each) and the per-peer arrays; aborts out of memory. */
static void buffers_make(long longs, int size, long **send, long **recv)
{
	*send = malloc(sizeof(long) * (size_t)longs);
	*recv = malloc(sizeof(long) * (size_t)longs);
	reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)size);
	counts = malloc(sizeof(int) * (size_t)size);
	displs = malloc(sizeof(int) * (size_t)size);
	rcounts = malloc(sizeof(int) * (size_t)size);
	rdispls = malloc(sizeof(int) * (size_t)size);
	if (!*send || !*recv || !reqs || !counts || !displs || !rcounts || !rdispls)
		MPI_Abort(MPI_COMM_WORLD, 3);
	memset(*send, 1, sizeof(long) * (size_t)longs);
	memset(*recv, 0, sizeof(long) * (size_t)longs);
}

static void buffers_free(long *send, long *recv)
{
	free(send);
	free(recv);
	free(reqs);
	free(counts);
	free(displs);
	free(rcounts);
	free(rdispls);
}

int main(int argc, char **argv)
{
	int rank, size;
	long iters, longs;
	long *send, *recv;
	int fresh, loop, osu;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	fresh = argc >= 4 && strcmp(argv[3], "fresh") == 0;
	loop = argc >= 4 && strcmp(argv[3], "loop") == 0;
	osu = argc >= 4 && strcmp(argv[3], "osu") == 0;
	if (argc >= 5)
		algo = argv[4];
	split_parse(&sp, argc == 6 ? argv[5] : "uniform", NULL, 0);
	if (argc < 3 || argc > 6 || (iters = atol(argv[1])) < 1 || (longs = atol(argv[2])) < size ||
	    (argc == 6 && (strcmp(algo, "alltoallv") != 0 || sp.kind == SPLIT_MATRIX ||
			   split_parse(&sp, argv[5], NULL, 0) != 0))) {
		if (rank == 0)
			fprintf(stderr, "usage: a2a_loop ITERS LONGS [fresh|reused|loop|osu] [ALGO [SPLIT]] "
				"(LONGS >= ranks; SPLIT with alltoallv, not matrix)\n");
		MPI_Finalize();
		return 2;
	}
	buffers_make(longs, size, &send, &recv);
	if (strcmp(algo, "put") == 0)
		MPI_Win_create(recv, (MPI_Aint)longs * 8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	for (long count = longs / size; count >= 1; count /= 2) {
		double sum, total;
		prepare(send, recv, (int)count, size);
		if (split_uneven(&sp) && split_counts((int)count, rank, size, 0) > longs)
			continue;
		sum = time_count(send, recv, count, iters, rank, size, loop ? 'l' : osu ? 'o'
				 : fresh ? 'f' : 'r');
		if (strcmp(algo, "persistent") == 0)
			MPI_Request_free(&preq);
		MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
		if (rank == 0)
			printf("%ld %.6e\n", count, total / (double)(iters * size));
	}
	if (strcmp(algo, "put") == 0)
		MPI_Win_free(&win);
	buffers_free(send, recv);
	MPI_Finalize();
	return 0;
}
