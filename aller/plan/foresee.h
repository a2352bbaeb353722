/*
 * foresee.h: the bound before anything runs (aller --check-args=WORLD
 * --fabric=FILE --nodes=LIST [--tasks-per-node=N]): each row of the plan
 * (level, count) with what the described fabric allows it (common/bound.h:
 * the least time the busiest link needs per call, uniform blocks) and the
 * link that bounds it, so a site knows what it should see before it spends
 * node hours. Pure: no MPI.
 *
 * The world's tasks fill the nodes N at a time in the order given (the
 * launcher's block order; N: WORLD / nodes when not given), then
 * --placement renumbers them as a run would, then MODE's partitions are cut.
 */
#ifndef ALLER_FORESEE_H
#define ALLER_FORESEE_H

#include <stddef.h>
#include <stdio.h>

#include "options.h"

/* Prints the rows of a world of `world` tasks to out; 0, or -1 with one line in err. */
int foresee_print(const struct options *o, long world, FILE *out, char *err, size_t errlen);

#endif
