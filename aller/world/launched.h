/*
 * launched.h: what the launcher says of the tasks it started, before and
 * besides MPI (pure: the environment through a getter, unit-tested). An
 * MPI library that does not speak its launcher's process manager interface
 * (an MPICH build under srun --mpi=pmix, an Open MPI build under MPICH's
 * mpiexec) starts every task as a singleton world of one: each measures
 * alone and exits 0. aller compares its world with the launcher's count and
 * refuses such a run (exit 3).
 */
#ifndef ALLER_LAUNCHED_H
#define ALLER_LAUNCHED_H

#include <stddef.h>

/*
 * The number of tasks the launcher started, by the first of its variables
 * that is set: OMPI_COMM_WORLD_SIZE (Open MPI's mpirun), PMI_SIZE (PMI-1 and
 * PMI-2: MPICH's and Intel MPI's mpiexec, srun --mpi=pmi2), then, for a
 * task of srun (SLURM_PROCID), SLURM_STEP_NUM_TASKS; *var names it. 0 when
 * none is set (or a value is not a positive number): unknown.
 */
long launched_size(const char *(*get)(const char *name), const char **var);
/* Whether this is the launcher's first task (rank 0 by its variables; 1 when none says). */
int launched_first(const char *(*get)(const char *name));
/*
 * The refusal of a world of `world` tasks that the launcher started as
 * `size` (launched_size, by var), into msg; 0 when they agree or the
 * launcher does not say, else -1. A world of one is refused too: the
 * mis-launch this catches makes every task one, and each would measure
 * alone and exit 0; started by hand where var is not its own (typed in a
 * shell of srun -n 8 --pty bash, a stale PMI_SIZE), the message says how to
 * run it as one task (env -u VAR aller ...).
 */
int launched_check(long world, long size, const char *var, char *msg, size_t len);

#endif
