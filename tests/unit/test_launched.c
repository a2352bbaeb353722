/*
 * Unit tests: the launcher's count of tasks against the world (launched.c),
 * from a fake environment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "world/launched.h"

static const char *const *vars;   /* NAME, VALUE, ..., NULL */

static const char *fake(const char *name)
{
	for (const char *const *v = vars; v && *v; v += 2)
		if (!strcmp(*v, name))
			return v[1];
	return NULL;
}

static long size_of(const char *const *env, const char **var)
{
	vars = env;
	return launched_size(fake, var);
}

static void the_launchers_own_variable_first(void **state)
{
	const char *var;
	(void)state;
	/* mpirun inside an allocation: its size, not the job's or its daemons' step */
	assert_int_equal(size_of((const char *[]){ "SLURM_PROCID", "0", "SLURM_STEP_NUM_TASKS", "2",
						  "OMPI_COMM_WORLD_SIZE", "8", NULL }, &var), 8);
	assert_string_equal(var, "OMPI_COMM_WORLD_SIZE");
	/* MPICH's mpiexec (PMI-1), srun --mpi=pmi2 */
	assert_int_equal(size_of((const char *[]){ "SLURM_PROCID", "1", "SLURM_STEP_NUM_TASKS", "4",
						  "PMI_SIZE", "3", NULL }, &var), 3);
	assert_string_equal(var, "PMI_SIZE");
	/* srun --mpi=pmix: the step's tasks */
	assert_int_equal(size_of((const char *[]){ "SLURM_PROCID", "0", "SLURM_STEP_NUM_TASKS", "4",
						  "SLURM_NTASKS", "8", NULL }, &var), 4);
	assert_string_equal(var, "SLURM_STEP_NUM_TASKS");
	/* a batch script's own shell is no task of a step; nothing said is unknown */
	assert_int_equal(size_of((const char *[]){ "SLURM_STEP_NUM_TASKS", "4", NULL }, &var), 0);
	assert_null(var);
	assert_int_equal(size_of((const char *[]){ NULL }, &var), 0);
	/* a value that is no count says nothing */
	assert_int_equal(size_of((const char *[]){ "PMI_SIZE", "3x", NULL }, &var), 0);
	assert_int_equal(size_of((const char *[]){ "OMPI_COMM_WORLD_SIZE", "0", NULL }, &var), 0);
}

static void a_world_of_one_under_a_launcher_of_four_is_refused(void **state)
{
	char msg[512];
	(void)state;
	assert_int_equal(launched_check(4, 4, "SLURM_STEP_NUM_TASKS", msg, sizeof(msg)), 0);
	assert_int_equal(launched_check(4, 0, NULL, msg, sizeof(msg)), 0);
	assert_int_equal(launched_check(1, 4, "SLURM_STEP_NUM_TASKS", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "MPI_COMM_WORLD has 1 task, but the launcher started 4 "
				    "(SLURM_STEP_NUM_TASKS=4)"));
	assert_non_null(strstr(msg, "each runs alone as a world of one"));
	/* started by hand in a shell of a step of 4 (or a stale variable): how to run it as one task */
	assert_int_equal(launched_check(1, 4, "PMI_SIZE", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "started by hand where PMI_SIZE is not its own (typed in srun -n 4 --pty bash, "
				    "or a stale one), run it as one task: env -u PMI_SIZE aller ..."));
	assert_int_equal(launched_check(2, 4, "PMI_SIZE", msg, sizeof(msg)), -1);
	assert_null(strstr(msg, "world of one"));
}

static void the_first_task_by_the_launchers_rank(void **state)
{
	(void)state;
	vars = (const char *[]){ "PMI_RANK", "2", "SLURM_PROCID", "0", NULL };
	assert_false(launched_first(fake));
	vars = (const char *[]){ "SLURM_PROCID", "0", NULL };
	assert_true(launched_first(fake));
	vars = (const char *[]){ NULL };
	assert_true(launched_first(fake));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_launchers_own_variable_first),
		cmocka_unit_test(a_world_of_one_under_a_launcher_of_four_is_refused),
		cmocka_unit_test(the_first_task_by_the_launchers_rank),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
