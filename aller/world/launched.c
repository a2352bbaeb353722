/* launched.c: see launched.h. */
#include "launched.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

/* The variable's value as a positive count, else 0. */
static long count_of(const char *v)
{
	long n;

	return v && parse_long(v, 1, LONG_MAX, &n) == 0 ? n : 0;
}

long launched_size(const char *(*get)(const char *name), const char **var)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };
	long n;

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (get(vars[i])) {
			*var = vars[i];
			return count_of(get(vars[i]));
		}
	if (get("SLURM_PROCID") && (n = count_of(get("SLURM_STEP_NUM_TASKS"))) > 0) {
		*var = "SLURM_STEP_NUM_TASKS";
		return n;
	}
	*var = NULL;
	return 0;
}

int launched_first(const char *(*get)(const char *name))
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
					    "SLURM_PROCID" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (get(vars[i]))
			return strcmp(get(vars[i]), "0") == 0;
	return 1;
}

int launched_check(long world, long size, const char *var, char *msg, size_t len)
{
	if (size <= 0 || world == size)
		return 0;
	snprintf(msg, len, "MPI_COMM_WORLD has %ld task%s, but the launcher started %ld (%s=%ld): "
		 "this MPI library did not join the launcher's tasks%s; launch it with a process "
		 "manager its library speaks (MPICH under Slurm: srun --mpi=pmi2; Open MPI: srun "
		 "--mpi=pmix or its mpirun)", world, world == 1 ? "" : "s", size, var, size,
		 world == 1 ? " (each runs alone as a world of one)" : "");
	if (world == 1)   /* or a variable not its own: of the step of a shell it was typed in, or stale */
		snprintf(msg + strlen(msg), len - strlen(msg), "; or, started by hand where %s is not its own "
			 "(typed in srun -n %ld --pty bash, or a stale one), run it as one task: env -u %s aller ...",
			 var, size, var);
	return -1;
}
