/*
 * reveal.h: --reveal, what MPI really sends inside each all-to-all, read
 * through the MPI tool interface (MPI_T performance variables) around each
 * timed call, outside the MPI_Wtime pair (MPI).
 *
 * Tiers: pml (Open MPI's pml monitoring: the messages the algorithm sent),
 * coll (coll monitoring: the logical pattern), generic (non-zero deltas of
 * whatever integer counters the library exposes), queues (the best counter
 * tier plus a diagnostic pass over ob1's posted and unexpected queues that
 * names late senders and late receivers). auto: pml, else coll, else
 * generic. When nothing is available the run goes on unchanged and the
 * header says "# reveal: unavailable (reason)".
 */
#ifndef ALLER_REVEAL_H
#define ALLER_REVEAL_H

#include <mpi.h>
#include <stdio.h>

#include "options.h"
#include "partition.h"
#include "world/world.h"

struct reveal;

/* Before MPI_Init: turns Open MPI's monitoring on unless the user set it. */
void reveal_prepare(enum reveal_tier asked);

/*
 * Collective, after MPI_Init. Finds the tier all ranks can use. Returns 0
 * (also when unavailable), or 3 when the matrix directory cannot be made.
 */
int reveal_init(struct reveal **r, const struct options *o, const struct world *w);

/* What the header says: "# reveal:" (NULL when not asked), "# reveal_queues:"
 * and "# reveal_dir:" (NULL when none). */
const char *reveal_header(const struct reveal *r);
const char *reveal_queues_note(const struct reveal *r);
const char *reveal_dir(const struct reveal *r);

/*
 * Around a level's counts, with its communicator (the generic tier binds to
 * it) and this task's colour in the partition (the per-peer counters track
 * its members). 0, or -1: no memory for them.
 */
int reveal_level_begin(struct reveal *r, MPI_Comm comm, const struct partition *p, long color);
void reveal_level_end(struct reveal *r);

/* Around each timed call, outside the timed region. */
void reveal_count_begin(struct reveal *r);
void reveal_call_before(struct reveal *r);
void reveal_call_after(struct reveal *r);

/*
 * Collective: the "# traffic:" (or "# counters:") line and the matrix of one
 * count. coll_counted: the coll counters see the algorithm's payload; else
 * (point-to-point, one-sided, persistent) the logical payload is
 * count x 8 x (g - 1) per rank and call.
 */
int reveal_count_end(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		     int level, long count, int coll_counted, FILE *out);

/* Collective: the queues pass of a level, "# late:" lines at rank 0. */
void reveal_queues(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		   int level, FILE *out);

/* Frees handles, session, MPI_T and r; before MPI_Finalize. NULL is fine. */
void reveal_free(struct reveal *r);

#endif
