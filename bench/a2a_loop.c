/*
 * a2a_loop: the plainest timed MPI_Alltoall loop, to check aller against.
 * a2a_loop ITERS LONGS [fresh]: for counts LONGS/world .. 1 (halving) on
 * MPI_COMM_WORLD, one warm-up and ITERS calls, each after an MPI_Barrier and
 * between two MPI_Wtime; prints "count tavg" with tavg the mean over ranks
 * and iterations, aller's definition. With "fresh", the send data is written
 * anew before each call (untimed), as aller's verification must: the peers
 * then cannot re-read it from their own caches.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, size;
	long iters, longs;
	long *send, *recv;
	int fresh;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	fresh = argc == 4 && strcmp(argv[3], "fresh") == 0;
	if ((argc != 3 && !fresh) || (iters = atol(argv[1])) < 1 || (longs = atol(argv[2])) < size) {
		if (rank == 0)
			fprintf(stderr, "usage: a2a_loop ITERS LONGS [fresh] (LONGS >= ranks)\n");
		MPI_Finalize();
		return 2;
	}
	send = malloc(sizeof(long) * (size_t)longs);
	recv = malloc(sizeof(long) * (size_t)longs);
	if (!send || !recv)
		MPI_Abort(MPI_COMM_WORLD, 3);
	memset(send, 1, sizeof(long) * (size_t)longs);
	memset(recv, 0, sizeof(long) * (size_t)longs);
	for (long count = longs / size; count >= 1; count /= 2) {
		double sum = 0, total;
		for (long it = 0; it <= iters; it++) {
			double t0, t1;
			for (long j = 0; fresh && j < count * size; j++)
				send[j] = j * 0x9E3779B97F4A7C15L + it;
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
			MPI_Alltoall(send, (int)count, MPI_LONG, recv, (int)count, MPI_LONG, MPI_COMM_WORLD);
			t1 = MPI_Wtime();
			if (it > 0)
				sum += t1 - t0;
		}
		MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
		if (rank == 0)
			printf("%ld %.6e\n", count, total / (double)(iters * size));
	}
	free(send);
	free(recv);
	MPI_Finalize();
	return 0;
}
