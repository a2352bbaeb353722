/* pairs.h: aller --pairs, the node-pair bandwidth matrix (pairs.c; linkmap.h). */
#ifndef ALLER_PAIRS_H
#define ALLER_PAIRS_H

#include <stdio.h>

#include "buffers/buffers.h"
#include "options.h"
#include "world/world.h"

/*
 * Collective: every ordered pair of tasks, ITERS times after the warm-ups,
 * its message of o->pairs bytes (o->longs longs) checked; rank 0 writes the
 * matrix, the tasks' medians and the slow links to out (NULL elsewhere) and
 * "# Done". 0, 1 (a wrong element) or 3.
 */
int pairs_run(const struct options *o, const struct world *w, struct buffers *b, FILE *out);

#endif
