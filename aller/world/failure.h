/*
 * failure.h: aller's one failure policy (MPI), in one place.
 *
 *  - A failure that every task can still report is agreed, never aborted:
 *    each task says whether it failed, the lowest failed rank prints one line
 *    ("aller: error: rank R on HOST: ..."), and all return the same verdict
 *    (set-up, memory, buffers, devices, verification).
 *  - A data set whose set-up failed (an algorithm's per-level or per-count
 *    preparation) is agreed the same way, named in its place ("# failed:"),
 *    and the sweep goes on with the next; the run ends with exit 3.
 *  - Only an MPI error of a collective over the world (barrier, reductions,
 *    splits) or of the timed call ends the run with MPI_Abort: a task that
 *    failed there may have left the others inside it, where no agreement can
 *    reach them.
 *  - Every MPI call whose code is not handled in its place goes through
 *    MPI_MUST: an error there is the second kind (one line naming the call
 *    and where it is, MPI_Abort, exit 3). Nothing discards an MPI error.
 */
#ifndef ALLER_FAILURE_H
#define ALLER_FAILURE_H

#include <stddef.h>
#include <stdio.h>

#include "must.h"
#include "world.h"

/* Collective: whether any task failed (msg: this task's, printed by the lowest failed rank). */
int failure_agree(const struct world *w, int failed, const char *msg);
/*
 * Collective: as failure_agree, and then every task's msg (of len bytes)
 * holds "rank R on HOST: " and the lowest failed rank's message.
 */
int failure_agree_text(const struct world *w, int failed, char *msg, size_t len);
/*
 * Collective: a data set's failed set-up (rc, an MPI error code, on this
 * task; why: the algorithm's own reason, else MPI's error string), agreed:
 * rank 0 writes "# failed: ..." on out (NULL elsewhere). Whether it failed.
 */
int failure_data_set(const struct world *w, FILE *out, const char *algo, int index, long g,
		     const char *what, int rc, const char *why);
/* An MPI error where no agreement is possible: one line (the lowest rank concerned first), exit 3. */
void failure_mpi(const struct world *w, int rc, int lowest, const char *what, int index,
		 long count);

/* An MPI call whose error ends the run (see above); test hook ALLER_TEST_MPI_ERROR (faults.h). */
#define MPI_MUST(call) failure_must((call), #call, __FILE__, __LINE__)
void failure_must(int rc, const char *call, const char *file, int line);

#endif
