/* run.h: one benchmark run after MPI_Init: checks, buffers, header, sweep. */
#ifndef ALLER_RUN_H
#define ALLER_RUN_H

#include "options.h"

/*
 * Collective. Returns the exit status (0, 1, 2 or 3); rank 0 prints. Rank 0
 * reads the matrix files of --split=matrix:FILE into o, every rank gets them.
 * started: run_clock() before MPI_Init, where the run's time begins.
 */
int run_benchmark(struct options *o, int argc, char **argv, double started);

/* Seconds of a monotonic clock (before MPI_Init as after). */
double run_clock(void);

#endif
