/*
 * aller: MPI_Alltoall concurrently on all subcommunicators of a partition
 * of MPI_COMM_WORLD. See docs/aller.md; exit status 0 ok, 1 verification failed,
 * 2 usage error, 3 system, MPI or CUDA error.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algo.h"
#include "buffers/buffers.h"
#include "fabricfile.h"
#include "format.h"
#include "world/launched.h"
#include "options.h"
#include "output.h"
#include "plan/foresee.h"
#include "plan/plan.h"
#include "reveal/reveal.h"
#include "run.h"
#include "stacks.h"
#include "text.h"

/* Before MPI_Init only the launcher's variables tell which task we are. */
static const char *env(const char *name)
{
	return getenv(name);
}

static int set_env(const char *name, const char *value)
{
	return setenv(name, value, 0);
}

/* The MPI this aller is built with, as stacks.h names it. */
#ifdef OMPI_MAJOR_VERSION
#define STACK_MPI "openmpi"
#else
#define STACK_MPI "mpich"
#endif

/*
 * --stack's (or ALLER_STACK's) variables set before MPI_Init (stacks.h):
 * 0, or -1 with one line, nothing set, where the stack is another MPI's or
 * the environment holds another value. dry: checked only (--check-args),
 * by the same rule as the run.
 */
static int stack_env(struct options *o, int dry, char *err, size_t len)
{
	if (!o->stack)
		return 0;
	if (strcmp(o->stack->mpi, STACK_MPI)) {
		snprintf(err, len, "stack '%s' (%s) is %s's; this aller is built with %s%s", o->stack->name,
			 o->stack_by, o->stack->mpi, STACK_MPI, !strcmp(o->stack->mpi, "mpich") ?
			 " (build it with MPI=mpich)" : "");
		return -1;
	}
	return stack_apply(o->stack, o->reveal != REVEAL_OFF, env, dry ? NULL : set_env, o->stack_set,
			   sizeof(o->stack_set), err, len);
}

/*
 * --check-args=W[,W...]: the verdict of a run of each world, 0 or 2 (one
 * line, naming the world when there are several); with --time-per-size a
 * line "budget: [world W: ]R data set rows, at most T s of timed calls" each.
 */
static int check_worlds(const struct options *o)
{
	char msg[512], note[512];
	int several = strchr(o->check_worlds, ',') != NULL;

	for (const char *w = o->check_worlds; w; w = strchr(w, ',') ? strchr(w, ',') + 1 : NULL) {
		long world = strtol(w, NULL, 10), pairs;
		double s;
		if (plan_check_world(o, world, msg, sizeof(msg), note, sizeof(note)) != 0) {
			if (several)
				text_error(0, "aller: error: world %ld: %s\n", world, msg);
			else
				text_error(0, "aller: error: %s\n", msg);
			return 2;
		}
		if (o->time_per_size <= 0)
			continue;
		s = plan_budget_seconds(o, world, &pairs);
		if (several)
			printf("budget: world %ld: ", world);
		else
			printf("budget: ");
		printf("%ld data set rows, at most %.0f s of timed calls\n", pairs, ceil(s));
	}
	return 0;
}

/*
 * 0, or 3 with why in err when the launcher started other tasks than
 * MPI_COMM_WORLD holds (launched.h; size and var read before MPI_Init, which
 * may set the variables of a singleton).
 */
static int launched_world(long size, const char *var, char *err, size_t len)
{
	int world;

	MPI_Comm_size(MPI_COMM_WORLD, &world);
	return launched_check(world, size, var, err, len) != 0 ? 3 : 0;
}

/* 0 when all that was written to stdout reached it; else 3, one line. */
static int stdout_written(void)
{
	char err[512];

	if (output_check(stdout, "the output (standard output)", err, sizeof(err)) == 0)
		return 0;
	return text_error(3, "aller: error: %s\n", err);
}

/* --check-args: the verdict a run would give its arguments, without MPI. */
static int check_args(struct options *o, int bad, const char *err)
{
	char msg[512] = "";

	if (!bad && o->buffers == BUFFERS_CUDA && !buffers_cuda_ops())
		return text_error(2, "aller: error: %s\n", BUFFERS_NO_CUDA);
	if (!bad && stack_env(o, 1, msg, sizeof(msg)) != 0)
		return text_error(2, "aller: error: %s\n", msg);

	if (!bad && o->fabric) {
		struct fabricfile ff;
		if (fabricfile_load(&ff, o->fabric, msg, sizeof(msg)) != 0)
			return text_error(2, "aller: error: %s\n", msg);
		fabricfile_free(&ff);
	}
	for (int i = 0; i < o->nsplits && !bad; i++)
		if (split_has_file(&o->splits[i]) &&
		    split_matrix_load(&o->splits[i], msg, sizeof(msg)) != 0)
			return text_error(2, "aller: error: %s\n", msg);
	if (bad)
		return text_error(2, "aller: error: %s\n", err);
	if (o->nodes && (o->check_worlds && strchr(o->check_worlds, ',')))
		return text_error(2, "aller: error: --nodes prints the bound of one world: --check-args=WORLD, not '%s'\n",
			o->check_worlds);
	if (!o->nodes)
		return o->check_worlds ? check_worlds(o) : 0;
	if (check_worlds(o) != 0)
		return 2;
	if (foresee_print(o, o->check_args, stdout, msg, sizeof(msg)) != 0)
		return text_error(2, "aller: error: %s\n", msg);
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	char err[512];
	int rank, rc, bad, first;
	const char *var;
	long launched;
	double started;

	options_init(&o);
	bad = options_parse(&o, argc, argv, err, sizeof(err)) != 0 ||
	      options_line_rate_env(&o, getenv("ALLER_LINE_RATE"), err, sizeof(err)) != 0 ||
	      options_stack_env(&o, getenv("ALLER_STACK"), err, sizeof(err)) != 0;
	if (!bad && (o.help || o.version)) {
		if (launched_first(env))
			fputs(o.help ? options_usage() : "aller " ALLER_VERSION "\n", stdout);
		return stdout_written();
	}
	if (o.check_args >= 0)
		return (rc = check_args(&o, bad, err)) != 0 ? rc : stdout_written();

	if (!bad && stack_env(&o, 0, err, sizeof(err)) != 0) {   /* before MPI_Init, which it would fail */
		if (launched_first(env))
			text_error(0, "aller: error: %s\n", err);
		return 2;
	}
	if (!bad)
		reveal_prepare(o.reveal);
	if (!bad && algo_list_has(&o.algos, ALGO_PUT))
		algo_put_prepare();
	first = launched_first(env);
	launched = launched_size(env, &var);
	started = run_clock();
	MPI_Init(&argc, &argv);
	if (!bad && (rc = launched_world(launched, var, err, sizeof(err))) != 0) {
		if (first)
			text_error(0, "aller: error: %s\n", err);
	} else if (bad) {
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		if (rank == 0)
			text_error(0, "aller: error: %s\n", err);
		rc = 2;
	} else {
		rc = run_benchmark(&o, argc, argv, started);
	}
	MPI_Finalize();
	/* a write that failed after the header (a disk that filled up): not a result */
	return rc != 3 && stdout_written() != 0 ? 3 : rc;
}
