/* run.c: everything between MPI_Init and MPI_Finalize (see run.h). */
#include "run.h"

#include <errno.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include "buffers.h"
#include "memcheck.h"
#include "output.h"
#include "reveal.h"
#include "strbuf.h"
#include "sweep.h"
#include "world.h"

extern char **environ;

/* Whether the MPI library takes device pointers, with the reason if not. */
static int mpi_takes_cuda(char *why, size_t len)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT)
	if (MPIX_Query_cuda_support())
		return 1;
	snprintf(why, len, "the MPI library is not CUDA-aware (MPIX_Query_cuda_support() "
		 "answers 0): rebuild with a CUDA-aware MPI, or use --buffers=host");
#elif defined(MPIX_GPU_SUPPORT_CUDA)
	int yes = 0;
	if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &yes) == MPI_SUCCESS && yes)
		return 1;
	snprintf(why, len, "the MPI library is not CUDA-aware (MPIX_GPU_query_support("
		 "MPIX_GPU_SUPPORT_CUDA) answers 0): rebuild with a CUDA-aware MPI, or use "
		 "--buffers=host");
#else
	snprintf(why, len, "cannot tell whether the MPI library is CUDA-aware "
		 "(its mpi-ext.h has no MPIX_CUDA_AWARE_SUPPORT): use --buffers=host");
#endif
	return 0;
}

/* Collective: whether every rank's buffers fit, before any rank allocates; 0 or -1. */
static int fits(const struct options *o, const struct world *w, const struct buffers *b)
{
	char err[512] = "", what[64];
	double available;
	int sharers;

	b->ops->available(b, w->local_size, &available, &sharers, what, sizeof(what));
	return world_agree_failed(w, memcheck(o->longs, sharers, available, what, world_host(w),
					      err, sizeof(err)) != 0, err) ? -1 : 0;
}

/* Picks, initialises and allocates the buffers; 0 or an exit status. */
static int setup_buffers(const struct options *o, const struct world *w, struct buffers *b)
{
	char err[512] = "";
	int failed;

	memset(b, 0, sizeof(*b));
	b->ops = o->buffers == BUFFERS_CUDA ? buffers_cuda_ops() : &buffers_host_ops;
	if (!b->ops) {
		if (w->rank == 0)
			fprintf(stderr, "aller: error: '--buffers=cuda' needs a build with "
				"'make CUDA=1'; this aller has host buffers only\n");
		return 2;
	}
	failed = b->ops->init(b, w->local_rank, err, sizeof(err)) != 0;
	if (world_agree_failed(w, failed, err))
		return 3;
	if (o->buffers == BUFFERS_CUDA) {
		failed = !mpi_takes_cuda(err, sizeof(err));
		if (world_agree_failed(w, failed, err))
			return 3;
	}
	if (fits(o, w, b) != 0)
		return 3;
	failed = b->ops->alloc(b, o->longs, err, sizeof(err)) != 0;
	if (world_agree_failed(w, failed, err))
		return 3;
	return 0;
}

static char *join_args(int argc, char **argv)
{
	struct strbuf b;

	strbuf_init(&b);
	for (int i = 0; i < argc; i++)
		strbuf_addf(&b, i ? " %s" : "%s", argv[i]);
	return strbuf_detach(&b);
}

static void utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A test-only variable naming a world rank, or -1. */
static long test_rank(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return (*end || errno) ? -1 : v;
}

/*
 * ALLER_TEST_DIE=RANK[:N] (tests only): that rank is killed (SIGKILL) before
 * the sweep, when $ALLER_ATTEMPT (set by the job template) is at most N.
 */
static void test_die(const struct world *w)
{
	const char *s = getenv("ALLER_TEST_DIE"), *a = getenv("ALLER_ATTEMPT");
	char *end;
	long rank, upto = 1000000;

	if (!s || !*s)
		return;
	rank = strtol(s, &end, 10);
	if (*end == ':')
		upto = strtol(end + 1, NULL, 10);
	if (rank == w->rank && (a ? strtol(a, NULL, 10) : 1) <= upto)
		raise(SIGKILL);
}

/* Collective: the levels and sizes asked for exist here; 0 or 2 (rank 0 says why). */
static int check_selection(const struct options *o, const struct world *w)
{
	char err[512], note[512];

	if (options_check_world(o, w->size, err, sizeof(err), note, sizeof(note)) != 0) {
		if (w->rank == 0)
			fprintf(stderr, "aller: error: %s\n", err);
		return 2;
	}
	if (note[0] && w->rank == 0)
		fprintf(stderr, "aller: note: %s\n", note);
	return 0;
}

/* Rank 0: everything the header says. */
static void describe_run(struct run_info *info, const struct options *o, const struct world *w,
			 const struct buffers *b, const struct reveal *rv, char *mpi, char *start,
			 char *selection, size_t sellen)
{
	int len;

	MPI_Get_library_version(mpi, &len);
	mpi[strcspn(mpi, "\n")] = '\0';
	for (char *t = mpi; *t; t++)   /* MPICH: "MPICH Version:<TAB>4.0.2" */
		if (*t == '\t')
			*t = ' ';
	utc_now(start, 32);
	select_describe(&o->sel, selection, sellen);
	info->mpi = mpi;
	info->world = w->size;
	info->nodes = w->nnodes;
	info->tpn_min = w->tpn_min;
	info->tpn_max = w->tpn_max;
	info->buffers = b->ops->name;
	info->verify = options_verify_name(o->verify);
	info->fresh = o->fresh;
	info->strided = o->strided;
	info->warmup = o->warmup;
	info->iters = o->iters;
	info->longs = o->longs;
	info->timeout = o->timeout;
	info->selection = selection;
	info->large_counts = sweep_large_counts();
	info->start = start;
	info->slurm_job = getenv("SLURM_JOB_ID");
	info->slurm_nodes = getenv("SLURM_JOB_NODELIST");
	info->wtick = MPI_Wtick();
	info->reveal = o->reveal != REVEAL_OFF ? rv->header : NULL;
	info->reveal_queues = rv->queues ? rv->notes : NULL;
	info->reveal_dir = rv->dir[0] ? rv->dir : NULL;
}

int run_benchmark(const struct options *o, int argc, char **argv)
{
	char mpi[MPI_MAX_LIBRARY_VERSION_STRING], start[32], selection[256];
	char *map = NULL, *devices = NULL, *command = NULL, *envtext = NULL;
	struct strbuf env;
	struct world w;
	struct buffers b = { 0 };
	struct run_info info;
	struct sweep s;
	struct reveal rv;
	double wall;
	int rc, have_buffers = 0, have_reveal = 0;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (world_init(&w) != 0) {
		fprintf(stderr, "aller: error: out of memory for the node table\n");
		return 3;
	}
	rc = check_selection(o, &w);
	if (rc == 0)
		rc = setup_buffers(o, &w, &b);
	have_buffers = b.ops && b.priv;
	if (rc == 0 && world_host_map(&w, b.device, &map,
				      o->buffers == BUFFERS_CUDA ? &devices : NULL)) {
		fprintf(stderr, "aller: error: out of memory for the host map\n");
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	if (rc == 0) {
		rc = reveal_init(&rv, o, &w);
		have_reveal = 1;
	}
	if (rc != 0)
		goto out;

	memset(&info, 0, sizeof(info));
	if (w.rank == 0) {
		describe_run(&info, o, &w, &b, &rv, mpi, start, selection, sizeof(selection));
		command = join_args(argc, argv);
		strbuf_init(&env);
		output_env(&env, environ);
		envtext = strbuf_detach(&env);
		info.env = envtext;
		info.command = command ? command : "?";
		info.host_map = map;
		info.devices = devices;
		setvbuf(stdout, NULL, _IOLBF, 0);
		output_header(stdout, &info);
	}

	memset(&s, 0, sizeof(s));
	s.opt = o;
	s.w = &w;
	s.b = &b;
	s.info = &info;
	s.reveal = &rv;
	s.out = w.rank == 0 ? stdout : NULL;
	s.corrupt_rank = test_rank("ALLER_TEST_CORRUPT");
	s.hang_rank = test_rank("ALLER_TEST_HANG");
	s.stale_rank = test_rank("ALLER_TEST_STALE");
	test_die(&w);
	wall = MPI_Wtime();
	rc = sweep_run(&s);
	wall = MPI_Wtime() - wall;
	if (rc == 0 && w.rank == 0) {
		output_wall(stdout, wall, s.in_calls);
		output_done(stdout);
	}
out:
	if (have_reveal)
		reveal_release(&rv);
	if (have_buffers)
		b.ops->release(&b);
	free(map);
	free(devices);
	free(command);
	free(envtext);
	world_release(&w);
	return rc;
}
