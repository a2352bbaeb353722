/*
 * world_comm.h: the communicator of the measured world, for MPI code (world.h
 * stays free of MPI, for the pure parts): MPI_COMM_WORLD, or with
 * --congestion the victims' (congest.h). One per process.
 */
#ifndef ALLER_WORLD_COMM_H
#define ALLER_WORLD_COMM_H

#include <mpi.h>

#include "world.h"

/* Collective on comm: the world's nodes and names (world.h). 0, or -1 (out of memory). */
int world_init(struct world *w, MPI_Comm comm);
/* The communicator world_init was given. */
MPI_Comm world_comm(const struct world *w);

#endif
