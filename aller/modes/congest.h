/*
 * congest.h: --congestion, victims and aggressors (GPCNeT's congestion
 * impact). The world splits (options_aggressor): the victims run the sweep as
 * their world; the aggressors run one algorithm back to back through each
 * count's second pass, started and stopped by the victims' leader, and
 * otherwise wait. Messages between the two leaders go on MPI_COMM_WORLD.
 */
#ifndef ALLER_CONGEST_H
#define ALLER_CONGEST_H

#include <mpi.h>

#include "options.h"

struct congest {
	const struct options *o;
	int aggressor;                        /* this task is one */
	int leader;                           /* ... and its side's first */
	int victims_leader, aggressors_leader; /* world ranks */
};

/* Collective on MPI_COMM_WORLD: this task's side, as a communicator in *side. 0 or -1. */
int congest_split(struct congest *c, const struct options *o, MPI_Comm *side);
/* The aggressors, collective on their side: wait, run, until the victims quit; 0 (a set-up that fails aborts the job, exit 3). */
int congest_aggress(struct congest *c, MPI_Comm side);
/* The victims, collective on theirs: the aggressors run (once started, before it returns). */
void congest_start(const struct congest *c, MPI_Comm victims);
/* The victims: the aggressors stop after their call at hand. */
void congest_stop(const struct congest *c);
/* The victims' leader, once at the end: the aggressors end. */
void congest_quit(const struct congest *c);

#endif
