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
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "partition.h"
#include "world.h"

#define REVEAL_MATRIX_MAX 256       /* largest matrix written, in ranks */
#define REVEAL_QUEUE_ROUNDS 8       /* exchanges of the queues pass, per level */
#define REVEAL_QUEUE_WINDOW 0.005   /* seconds a receive may take before its sender is late */

enum reveal_var { REVEAL_COLL_MSGS, REVEAL_COLL_BYTES, REVEAL_PML_MSGS, REVEAL_PML_BYTES,
		  REVEAL_NVARS };

struct reveal_generic;

struct reveal {
	enum reveal_tier asked, tier;    /* tier: what runs; REVEAL_OFF when unavailable */
	int queues;                      /* the queues pass runs */
	const struct world *w;
	int mpit, session;               /* MPI_T initialised, session created */
	MPI_T_pvar_session ses;
	MPI_T_pvar_handle h[REVEAL_NVARS];
	int nvars;                       /* handles in use: 2 (coll) or 4 (pml) */
	uint64_t *before, *delta;        /* [nvars][world] */
	uint64_t *after, *row;           /* [world], [2 world] */
	uint64_t *mat;                   /* rank 0: gathered rows, bytes then messages */
	long *mat_ranks;
	struct reveal_generic *gen;
	long calls;                      /* timed calls since reveal_count_begin */
	long delay_rank, delay_us;       /* ALLER_TEST_DELAY: a late rank in the queues pass */
	char header[1600];               /* what "# reveal:" says */
	char notes[512];                 /* further lines of the header, or "" */
	char dir[1024];                  /* traffic matrices (rank 0), "" when none */
};

/* Before MPI_Init: turns Open MPI's monitoring on unless the user set it. */
void reveal_prepare(enum reveal_tier asked);

/*
 * Collective, after MPI_Init. Finds the tier all ranks can use. Returns 0
 * (also when unavailable), or 3 when the matrix directory cannot be made.
 */
int reveal_init(struct reveal *r, const struct options *o, const struct world *w);

/* Around a level's counts, with its communicator (the generic tier binds to it). */
void reveal_level_begin(struct reveal *r, MPI_Comm comm);
void reveal_level_end(struct reveal *r);

/* Around each timed call, outside the timed region. */
void reveal_count_begin(struct reveal *r);
void reveal_call_before(struct reveal *r);
void reveal_call_after(struct reveal *r);

/* Collective: the "# traffic:" (or "# counters:") line and the matrix of one count. */
void reveal_count_end(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		      int level, long count, FILE *out);

/* Collective: the queues pass of a level, "# late:" lines at rank 0. */
void reveal_queues(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		   int level, FILE *out);

/* Frees handles, session and MPI_T; before MPI_Finalize. */
void reveal_release(struct reveal *r);

#endif
