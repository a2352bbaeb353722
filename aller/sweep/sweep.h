/* sweep.h: the three nested loops of the benchmark (MPI). */
#ifndef ALLER_SWEEP_H
#define ALLER_SWEEP_H

#include <stdio.h>

#include "buffers/buffers.h"
#include "modes/congest.h"
#include "options.h"
#include "output.h"
#include "reveal/reveal.h"
#include "samples.h"
#include "world/faults.h"
#include "world/world.h"

/* Where a task's sweep time goes outside the calls (the '# wall_parts:' line). */
enum sweep_part { SWEEP_FILL, SWEEP_POISON, SWEEP_CHECK, SWEEP_BARRIER, SWEEP_PARTS };

struct sweep {
	const struct options *opt;
	const struct world *w;
	struct buffers *b;
	const struct run_info *info;
	struct reveal *reveal;
	struct samples *samples; /* --samples, or NULL */
	const struct congest *congest; /* --congestion: the victims' side, or NULL */
	FILE *out;             /* rank 0's data stream, NULL elsewhere */
	const struct faults *faults; /* the test hooks (faults.h), no-ops unless set */
	const struct eff_limits *limits; /* rank 0: every node's, for the rows' eff */
	long calls;            /* calls made so far, warm-ups too */
	int sets;              /* data sets written so far (rank 0) */
	int failed_sets;       /* data sets whose set-up failed (the run goes on, then exit 3) */
	int floor_failed;      /* rank 0: rows below --min-busbw or --min-eff (the run goes on, then exit 1) */
	double in_calls;       /* this task's seconds inside the all-to-all calls, warm-ups too */
	double off_sent;       /* ... and its bytes to tasks on other nodes in them, about */
	double part[SWEEP_PARTS]; /* ... filling, poisoning, checking (with the re-poison), in barriers */
};

/* Collective. Returns the exit status: 0, 1 (verification failed; a row below a
 * floor makes rank 0's 1 too) or 3 (also when a data set's set-up failed: the others are
 * measured). */
int sweep_run(struct sweep *s);

#endif
