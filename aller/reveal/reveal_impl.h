/*
 * reveal_impl.h: what the parts of --reveal share (reveal.c: the MPI_T
 * session, the tier and the hooks around each call; reveal_generic.c: the
 * generic tier; reveal_peers.c: per-peer counters, the traffic line and the
 * matrix; reveal_queues.c: the queues pass). Private to them.
 */
#ifndef ALLER_REVEAL_IMPL_H
#define ALLER_REVEAL_IMPL_H

#include <stdint.h>

#include "reveal.h"

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
	/* Per-peer deltas of the tracked ranks: the world when it has at most
	 * REVEAL_MATRIX_MAX ranks, else the level's communicator (member j is
	 * track_base + j x track_step); a call's before value is subtracted, its
	 * after value added, so no copy of the counters is kept. */
	uint64_t *delta;                 /* [nvars][ntrack] */
	long ntrack, track_base, track_step;
	uint64_t total[REVEAL_NVARS];    /* ... and the delta of each counter's sum over the world */
	uint64_t *values, *row;          /* [world]: what MPI_T reads; [2 REVEAL_MATRIX_MAX] */
	uint64_t *mat;                   /* rank 0: gathered rows, bytes then messages */
	long *mat_ranks;
	struct reveal_generic *gen;
	long calls;                      /* timed calls since reveal_count_begin */
	long delay_rank, delay_us;       /* ALLER_TEST_DELAY: a late rank in the queues pass */
	char header[1600];               /* what "# reveal:" says */
	char notes[512];                 /* further lines of the header, or "" */
	char dir[1024];                  /* traffic matrices (rank 0), "" when none */
};

#define REVEAL_QUEUE_UNEXPECTED "pml_ob1_unexpected_msgq_length"
#define REVEAL_QUEUE_POSTED "pml_ob1_posted_recvq_length"

const char *reveal_tier_name(enum reveal_tier t);

/* The generic tier (reveal_generic.c). */
/* Collective-free: the counters that bind here; their count, or -1 (out of memory). */
int reveal_generic_discover(struct reveal *r, unsigned long *hash);
void reveal_generic_free(struct reveal *r);
/* Binds (bind 1) or unbinds the counters bound to a communicator. */
void reveal_generic_level(struct reveal *r, MPI_Comm comm, int bind);
void reveal_generic_clear(struct reveal *r);
void reveal_generic_before(struct reveal *r);
void reveal_generic_after(struct reveal *r);
/* Collective: the "# counters:" line of one count. */
void reveal_generic_end(struct reveal *r, long count, FILE *out);

#endif
