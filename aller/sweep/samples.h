/*
 * samples.h: --samples=DIR: every task's time of every timed call, kept.
 * Each node writes its own file, DIR/samples-<host>.txt: its first task
 * gathers its node's times of a count (MPI_Gather on the node: ranks per
 * node x ITERS numbers, never the world's) and appends one line per task:
 *
 *   # columns: level algo split count comm rank t_s...
 *   0 alltoall uniform 1024 0 3 1.2e-05 1.1e-05 ...
 *
 * (comm: the task's communicator in the level's partition; the times in
 * call order, the concurrent pass's), and last "# end: N lines". The file is
 * written as DIR/.samples-<host>.txt.part and renamed when whole: a run cut
 * short leaves only the .part file. `collect --samples` reads them back.
 */
#ifndef ALLER_SAMPLES_H
#define ALLER_SAMPLES_H

#include <stddef.h>

#include "options.h"
#include "world/world.h"

struct samples;

/*
 * Collective: DIR made (by rank 0), the node's file opened by its first
 * task; *sp NULL without --samples. 0, or 3 with one message (agreed).
 * pattern: "DIR/samples-<host>.txt", for the header.
 */
int samples_open(struct samples **sp, const struct options *o, const struct world *w,
		 char *pattern, size_t len);
/* Collective: one count's times of this task (iters of them) into its node's file. */
void samples_count(struct samples *sp, int level, const char *algo, const char *split,
		   long count, long comm, long iters, const double *times);
/*
 * Collective: each node's file ended ("# end: N lines"), checked (every
 * write reached the disk) and renamed to its name; 0, or 3 with one
 * message (agreed). Then samples_close.
 */
int samples_finish(struct samples *sp);
/* Frees; a file not finished keeps its .part name. */
void samples_close(struct samples *sp);

#endif
