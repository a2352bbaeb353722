/*
 * world_comm.h: the communicator of the measured world, for MPI code (world.h
 * stays free of MPI, for the pure parts): MPI_COMM_WORLD, or with
 * --congestion the victims' (congest.h). One per process.
 */
#ifndef ALLER_WORLD_COMM_H
#define ALLER_WORLD_COMM_H

#include <mpi.h>

#include "placement.h"

struct world;   /* world.h */

/* Collective on comm: the world's nodes and names (world.h). 0, or -1 (out of memory). */
int world_init(struct world *w, MPI_Comm comm);
/* The communicator world_init was given. */
MPI_Comm world_comm(const struct world *w);
/*
 * Collective on comm: comm renumbered by --placement (placement.h), in
 * *placed (to free with MPI_Comm_free). 0, or -1 (out of memory).
 */
int world_place(const struct placement *p, MPI_Comm comm, MPI_Comm *placed);
/* Collective: every task's node index by rank, at rank 0 (malloc'd; NULL elsewhere). 0 or -1. */
int world_nodes(const struct world *w, int **node);

#endif
