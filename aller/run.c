/* run.c: everything between MPI_Init and MPI_Finalize (see run.h). */
#include "run.h"
#include "text.h"

#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#include "algo/algo.h"
#include "buffers/buffers.h"
#include "buffers/memcheck.h"
#include "buffers/setup.h"
#include "fabricfile.h"
#include "modes/congest.h"
#include "modes/pairs.h"
#include "json.h"
#include "output.h"
#include "plan/bigcount.h"
#include "partition.h"
#include "stacks.h"
#include "plan/plan.h"
#include "reveal/reveal.h"
#include "strbuf.h"
#include "sweep/sweep.h"
#include "world/failure.h"
#include "world/faults.h"
#include "buffers/copyrate.h"
#include "world/fabricmap.h"
#include "world/nodecounters.h"
#include "world/nodelimits.h"
#include "world/world.h"
#include "world/world_comm.h"

extern char **environ;

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

/* ALLER_TEST_DIE (faults.h): this rank is killed before the sweep. */
static void test_die(const struct world *w)
{
	const struct faults *f = faults();
	const char *a = getenv("ALLER_ATTEMPT");

	if (f->die_rank == w->rank && (a ? strtol(a, NULL, 10) : 1) <= f->die_upto)
		raise(SIGKILL);
}

/*
 * Collective: rank 0 reads each --split=matrix:FILE or trace:FILE and
 * broadcasts it (N and the number of matrices, then their running sums); 0,
 * or 2 when a file is bad (rank 0 says why).
 */
static int load_matrices(struct options *o, const struct world *w)
{
	char err[640] = "";

	for (int i = 0; i < o->nsplits; i++) {
		struct split *s = &o->splits[i];
		long n[2] = { 0, 0 }, all;
		if (!split_has_file(s))
			continue;
		if (w->rank == 0 && split_matrix_load(s, err, sizeof(err)) == 0 &&
		    split_weights_check(s, err, sizeof(err)) == 0) {
			n[0] = s->n;
			n[1] = s->nmat;
		} else if (w->rank == 0) {
			n[0] = -1;
		}
		MPI_MUST(MPI_Bcast(n, 2, MPI_LONG, 0, world_comm(w)));
		if (n[0] < 0) {
			if (w->rank == 0)
				text_error(0, "aller: error: %s\n", err);
			return 2;
		}
		all = n[0] * n[0] * n[1];
		if (w->rank != 0 && !(s->cum = malloc(sizeof(double) * (size_t)all)))
			all = 0;
		if (failure_agree(w, all == 0, "out of memory for a --split matrix"))
			return 3;
		s->n = n[0];
		s->nmat = n[1];
		for (long at = 0; at < all; at += 1L << 28) {
			long part = all - at < 1L << 28 ? all - at : 1L << 28;
			MPI_MUST(MPI_Bcast(s->cum + at, (int)part, MPI_DOUBLE, 0, world_comm(w)));
		}
	}
	return 0;
}

/*
 * Collective: the levels and sizes asked for exist here; 0 or 2 (rank 0 says
 * why). Checked as --check-args checks it: of MPI_COMM_WORLD's size, the
 * aggressors of --congestion included (w is the measured world).
 */
static int check_selection(const struct options *o, const struct world *w)
{
	char err[512], note[512];
	int all;

	MPI_MUST(MPI_Comm_size(MPI_COMM_WORLD, &all));
	if (plan_check_world(o, all, err, sizeof(err), note, sizeof(note)) != 0) {
		if (w->rank == 0)
			text_error(0, "aller: error: %s\n", err);
		return 2;
	}
	if (note[0] && w->rank == 0)
		text_error(0, "aller: note: %s\n", note);
	return 0;
}

/* What rank 0's header says, and the texts it points to. */
struct header {
	struct run_info info;
	char mpi[MPI_MAX_LIBRARY_VERSION_STRING], start[32], selection[256], algos[128];
	char splits[SPLIT_MAX * (SPLIT_SPEC_MAX + 24)];
	char cuda_aware[512], samples[4200], congestion[512], limit[1536], placement[64];
	char placed[1536];
	char *command, *env, *hooks, *map, *devices, *fabric;
	struct json *json;        /* --json's writer, rank 0 */
	struct node_limits lim;   /* every node's limits (rank 0) */
	double started, limits_s; /* run_clock() before MPI_Init; the limits' measurement */
};

double run_clock(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/*
 * Collective: with --placement, the header's placement and, at rank 0, the
 * nodes a communicator spans at each level ("commsize 8: 4, 4: 2-4, ...":
 * the fewest-most where they differ); 0, or 3 out of memory.
 */
static int describe_placement(struct header *h, const struct options *o, const struct world *w)
{
	int *node = NULL;
	long *seen, at;

	if (o->placement.kind == PLACEMENT_LAUNCHER)
		return 0;
	placement_describe(&o->placement, h->placement, sizeof(h->placement));
	if (world_nodes(w, &node) != 0)
		return 3;
	if (w->rank != 0)
		return 0;
	seen = malloc(sizeof(long) * (size_t)w->nnodes);
	at = snprintf(h->placed, sizeof(h->placed), "nodes per communicator (%s), by communicator "
		      "size:", o->strided ? "strided" : "contiguous");
	for (int l = 0; seen && l < partition_nlevels(w->size); l++) {
		struct partition p;
		long lo, hi;
		partition_init(&p, w->size, partition_level_target(w->size, l), o->strided);
		partition_nodes(&p, node, seen, w->nnodes, &lo, &hi);
		at += snprintf(h->placed + at, sizeof(h->placed) - (size_t)at, "%s %ld: %ld", l ? "," : "",
			       p.target, lo);
		if (hi > lo)
			at += snprintf(h->placed + at, sizeof(h->placed) - (size_t)at, "-%ld", hi);
		if (at >= (long)sizeof(h->placed))
			break;
	}
	free(node);
	free(seen);
	return 0;
}

/* The header's splits line (uneven splits only), or NULL. */
static const char *describe_splits(struct header *h, const struct options *o)
{
	size_t at = 0;

	if (!options_uneven(o))
		return NULL;
	for (int i = 0; i < o->nsplits; i++) {
		if (i)
			at += (size_t)snprintf(h->splits + at, sizeof(h->splits) - at, " ");
		split_describe(&o->splits[i], h->splits + at, sizeof(h->splits) - at);
		at += strlen(h->splits + at);
	}
	return h->splits;
}

/* The header's congestion line (--congestion only), or NULL. */
static const char *describe_congestion(struct header *h, const struct options *o,
				       const struct world *w)
{
	int all;

	if (o->congestion <= 0)
		return NULL;
	MPI_MUST(MPI_Comm_size(MPI_COMM_WORLD, &all));
	snprintf(h->congestion, sizeof(h->congestion), "%g of the world's tasks are aggressors "
		 "(%ld, world ranks spread evenly; the %d others are the measured world): they "
		 "run %s of %ld bytes per peer back to back through each count's second pass; "
		 "tcongested_s = its tavg, congestion = that / the first pass's tavg (aggressors "
		 "idle), congestion_p99 = the same of tp99", o->congestion,
		 options_aggressors(o, all), w->size, algo_name(o->congest_algo), o->congest_bytes);
	return h->congestion;
}

static const char *env_of(const char *name) { return getenv(name); }

/*
 * The fabric's lines (NULL: none) and a line of the NICs the MPI stack is
 * told to use, "task_nics IF,IF VAR" (common/stacks.h: where a node has
 * rails, collect puts the tasks on them, or stripes each message over
 * them); fabric's own where the environment names none.
 */
static char *with_task_nics(char *fabric)
{
	char nics[256];
	const char *var = stack_nics(env_of, nics, sizeof(nics));
	size_t n = fabric ? strlen(fabric) : 0;
	struct strbuf b;

	if (!var)
		return fabric;
	strbuf_init(&b);
	strbuf_addf(&b, "%s%stask_nics %s %s", n ? fabric : "", n && fabric[n - 1] != '\n' ? "\n" : "", nics, var);
	free(fabric);
	return strbuf_detach(&b);
}

/* Rank 0: everything the header says, beyond the options and the world. */
static void describe_run(struct header *h, const struct options *o, const struct world *w,
			 const struct buffers *b, const struct reveal *rv, int argc, char **argv)
{
	struct run_info *info = &h->info;
	struct strbuf env;
	int len;

	MPI_MUST(MPI_Get_library_version(h->mpi, &len));
	h->mpi[strcspn(h->mpi, "\n")] = '\0';
	for (char *t = h->mpi; *t; t++)   /* MPICH: "MPICH Version:<TAB>4.0.2" */
		if (*t == '\t')
			*t = ' ';
	utc_now(h->start, sizeof(h->start));
	info->limits = h->lim.lines;
	info->fabric = h->fabric = with_task_nics(h->fabric);
	select_describe(&o->sel, h->selection, sizeof(h->selection));
	algo_list_describe(&o->algos, h->algos, sizeof(h->algos));
	h->command = join_args(argc, argv);
	strbuf_init(&env);
	output_env(&env, environ);
	h->env = strbuf_detach(&env);
	strbuf_init(&env);
	output_test_hooks(&env, environ);
	h->hooks = strbuf_detach(&env);
	info->opt = o;
	info->w = w;
	info->mpi = h->mpi;
	info->command = h->command ? h->command : "?";
	info->env = h->env;
	info->test_hooks = h->hooks;
	info->host_map = h->map;
	info->devices = h->devices;
	info->buffers = b->ops->name;
	info->cuda_aware = o->buffers == BUFFERS_CUDA ? h->cuda_aware : NULL;
	info->transport = o->transport == TRANSPORT_NCCL ? algo_nccl_version() : "mpi";
	info->selection = h->selection;
	info->algos = h->algos;
	info->splits = describe_splits(h, o);
	info->osc = algo_list_has(&o->algos, ALGO_PUT) ? algo_put_osc() : NULL;
	info->large_counts = bigcount_describe();
	info->cache = b->cache;
	info->samples = o->samples ? h->samples : NULL;
	info->congestion = describe_congestion(h, o, w);
	info->moe = o->moe ? "each call a mixture-of-experts step's round trip on every "
		"communicator: counts (MPI_Alltoall of one long per peer, how many longs each block "
		"holds), dispatch (the data set's algorithm moving the split's blocks), combine (the "
		"same algorithm sending every received block back to its sender); each phase "
		"verified; columns tcounts_s, tdispatch_s, tcombine_s (the phases' average over "
		"tasks and calls), tavg the whole trip; GiB and the bandwidths count the blocks both "
		"ways" : NULL;
	info->placement = h->placement[0] ? h->placement : NULL;
	info->placed = h->placed;
	info->start = h->start;
	info->slurm_job = getenv("SLURM_JOB_ID");
	info->slurm_nodes = getenv("SLURM_JOB_NODELIST");
	info->wtick = MPI_Wtick();
	info->reveal = reveal_header(rv);
	info->reveal_queues = reveal_queues_note(rv);
	info->reveal_dir = reveal_dir(rv);
}

/*
 * Collective: rank 0 reads --fabric=FILE and keeps the '# fabric:' lines of
 * the run's nodes; every task learns each node's leaf (world/fabricmap.h,
 * also without a file); 0, or 2 when the file is bad (rank 0 says why), 3
 * out of memory.
 */
static int load_fabric(struct header *h, const struct options *o, const struct world *w)
{
	struct fabricfile ff = { 0 };
	char err[640];
	int rc = 0, have = 0;

	if (o->fabric && w->rank == 0 && fabricfile_load(&ff, o->fabric, err, sizeof(err)) != 0) {
		text_error(0, "aller: error: %s\n", err);
		rc = 2;
	} else if (o->fabric && w->rank == 0) {
		const char **names = malloc(sizeof(*names) * (size_t)w->nnodes);
		for (long i = 0; names && i < w->nnodes; i++)
			names[i] = w->names[i];
		h->fabric = names ? fabricfile_lines(&ff, o->fabric, names, w->nnodes) : NULL;
		rc = h->fabric ? 0 : 3;
		have = 1;
		free(names);
	}
	MPI_MUST(MPI_Bcast(&rc, 1, MPI_INT, 0, world_comm(w)));
	if (rc == 3 && w->rank == 0)
		text_error(0, "aller: error: out of memory for the fabric file's lines\n");
	if (rc == 0 && fabric_map(&h->lim.e, have ? &ff : NULL, o->fabric != NULL, w) != 0)
		rc = 3;
	if (have)
		fabricfile_free(&ff);
	return rc;
}

/* Collective: checks, buffers, host map, reveal and samples before the sweep; 0 or an exit status. */
static int prepare(struct options *o, const struct world *w, struct buffers *b,
		   struct header *h, struct reveal **rv, struct samples **sam)
{
	int rc = load_matrices(o, w);

	if (rc == 0)
		rc = check_selection(o, w);
	if (rc == 0)
		rc = buffers_setup(o, w, b, h->cuda_aware, sizeof(h->cuda_aware));
	if (rc == 0 && failure_agree(w, world_host_map(w, b->device_id, b->device_desc, &h->map,
							 o->buffers == BUFFERS_CUDA ? &h->devices
										    : NULL) != 0,
					 "out of memory for the host map"))
		rc = 3;
	if (rc == 0) {
		long bytes;
		int level;
		const char *from;
		char cache[512];
		double t0 = run_clock(), copy = buffers_copy_rate(w, b, &bytes);
		long llc;
		snprintf(cache, sizeof(cache), "%s/devices/system/cpu/cpu0/cache", faults()->sysfs);
		llc = memcheck_llc_any(cache, &level, sysconf, &from);
		if (node_limits_gather(&h->lim, o, w, copy, bytes, llc > 0 ? llc : 0,
				       b->ops->copy != NULL) != 0)
			rc = 3;
		h->limits_s = run_clock() - t0;
	}
	if (rc == 0)
		rc = load_fabric(h, o, w);
	if (rc == 0)
		rc = describe_placement(h, o, w);
	if (rc == 0)
		rc = reveal_init(rv, o, w);
	if (rc == 0)
		rc = samples_open(sam, o, w, h->samples, sizeof(h->samples));
	if (rc == 0 && o->json) {
		char err[512] = "";
		if (w->rank == 0)
			h->json = json_open(o->json, err, sizeof(err));
		if (failure_agree(w, w->rank == 0 && !h->json, err))
			rc = 3;
		output_json(h->json);
	}
	return rc;
}

/*
 * Collective: the run's time by part (rank 0's, from s and h), and the task
 * that spent the most on its buffers (fill, poison, check: what keeps the
 * others waiting in the barriers); the whole at rank 0.
 */
static void wall_parts(const struct sweep *s, const struct header *h, double begin,
		       struct wall_parts *p)
{
	struct { double v; int rank; } out, worst;
	double inside = s->in_calls;

	memset(p, 0, sizeof(*p));
	p->total = run_clock() - h->started;
	p->limits = h->limits_s;
	p->startup = begin - h->started - h->limits_s;
	p->fill = s->part[SWEEP_FILL];
	p->poison = s->part[SWEEP_POISON];
	p->check = s->part[SWEEP_CHECK];
	p->barrier = s->part[SWEEP_BARRIER];
	p->calls = inside;
	p->other = p->total - p->startup - p->limits - p->fill - p->poison - p->check -
		   p->barrier - p->calls;
	out.v = p->fill + p->poison + p->check;   /* its own work: a barrier is others' */
	out.rank = s->w->rank;
	MPI_MUST(MPI_Reduce(&out, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, 0, world_comm(s->w)));
	p->worst_rank = worst.rank;
	p->worst_buffers = worst.v;
}

/* Collective: the sweep between the header and "# Done"; its exit status. */
static int sweep(const struct options *o, const struct world *w, struct buffers *b,
		 const struct header *h, struct reveal *rv, struct samples *sam,
		 const struct congest *congest)
{
	struct json *json = h->json;
	struct sweep s;
	struct wall_parts parts;
	struct counters before;
	double wall, begin;
	char *counters;
	int rc;

	memset(&s, 0, sizeof(s));
	s.opt = o;
	s.w = w;
	s.b = b;
	s.info = &h->info;
	s.limits = &h->lim.e;
	s.reveal = rv;
	s.samples = sam;
	s.congest = congest;
	s.out = w->rank == 0 ? stdout : NULL;
	s.faults = faults();
	test_die(w);
	node_counters_begin(w, &before);
	begin = run_clock();
	wall = MPI_Wtime();
	rc = sweep_run(&s);
	wall = MPI_Wtime() - wall;
	/* the sweep ends in step on every task; samples not written whole are no result */
	if (samples_finish(sam) != 0)
		return 3;
	wall_parts(&s, h, begin, &parts);
	counters = node_counters_end(w, &before, s.off_sent);
	if ((rc == 0 || s.failed_sets > 0) && w->rank == 0) {
		char err[512];
		output_wall(stdout, wall, s.in_calls);
		output_wall_parts(stdout, &parts);
		output_nic_counters(stdout, counters);
		output_done(stdout);
		if (json_finish(json, err, sizeof(err)) != 0)
			rc = text_error(3, "aller: error: %s\n", err);
		if (s.floor_failed > 0) {
			text_error(0, "aller: error: %d row%s below a floor (--min-busbw, --min-eff; each "
				"named in its place by '# %s:')\n", s.floor_failed,
				s.floor_failed > 1 ? "s" : "", ALLER_KEY_FLOOR_FAILED);
			if (rc == 0)
				rc = 1;
		}
		if (s.failed_sets > 0)
			text_error(0, "aller: error: %d data set%s failed to set up (each named in its "
				"place by '# %s:'); the others were measured\n", s.failed_sets,
				s.failed_sets > 1 ? "s" : "", ALLER_KEY_FAILED);
	}
	free(counters);
	return rc;
}

/* Collective: whether rank 0 could not write the header (a full disk, /dev/full); it says why. */
static int header_lost(const struct world *w)
{
	char err[512] = "";

	return failure_agree(w, w->rank == 0 && output_check(stdout, "the output (standard "
							     "output)", err, sizeof(err)) != 0, err);
}

/* Collective: --congestion's world as check_selection judges it, before any split; 0 or 2. */
static int congest_check(const struct options *o)
{
	char err[512], note[512];
	int all, me;

	MPI_MUST(MPI_Comm_size(MPI_COMM_WORLD, &all));
	MPI_MUST(MPI_Comm_rank(MPI_COMM_WORLD, &me));
	if (plan_check_world(o, all, err, sizeof(err), note, sizeof(note)) == 0)
		return 0;
	if (me == 0)
		text_error(0, "aller: error: %s\n", err);
	return 2;
}

/*
 * Collective, with --congestion: the world checked (2 when no task would be
 * an aggressor), then split; the aggressors run until the victims quit. 0:
 * a victim, going on with *side its world and *congest set; else done, with
 * *rc the exit status.
 */
static int congestion_begin(const struct options *o, struct congest *cg, MPI_Comm *side,
			    struct congest **congest, int *rc)
{
	/* before the split: no aggressor to stop, a usage error as --check-args says */
	if ((*rc = congest_check(o)) != 0)
		return -1;
	if (congest_split(cg, o, side) != 0) {
		*rc = 3;
		return -1;
	}
	if (cg->aggressor) {
		*rc = congest_aggress(cg, *side);
		MPI_MUST(MPI_Comm_free(side));
		return -1;
	}
	*congest = cg;
	return 0;
}

/* What a run held: its reveal, samples, JSON, splits, buffers, header and world. */
static void run_release(struct options *o, struct header *h, struct buffers *b, struct world *w,
			struct reveal *rv, struct samples *sam)
{
	reveal_free(rv);
	samples_close(sam);
	output_json(NULL);
	json_close(h->json);
	for (int i = 0; i < o->nsplits; i++)
		split_free(&o->splits[i]);
	if (b->ops && b->priv)
		b->ops->release(b);
	free(h->map);
	free(h->devices);
	free(h->command);
	free(h->env);
	free(h->hooks);
	free(h->fabric);
	fabric_map_free(&h->lim.e);
	node_limits_free(&h->lim);
	world_release(w);
}

int run_benchmark(struct options *o, int argc, char **argv, double started)
{
	struct header h;
	struct world w;
	struct buffers b = { 0 };
	struct reveal *rv = NULL;
	struct samples *sam = NULL;
	struct congest cg, *congest = NULL;
	MPI_Comm side = MPI_COMM_WORLD, comm;   /* the measured world; ... placed (--placement) */
	int rc;

	MPI_MUST(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	if (o->congestion > 0 && congestion_begin(o, &cg, &side, &congest, &rc) != 0)
		return rc;
	comm = side;
	if ((o->placement.kind != PLACEMENT_LAUNCHER && world_place(&o->placement, side, &comm) != 0) ||
	    world_init(&w, comm) != 0) {
		text_error(0, "aller: error: out of memory for the node table\n");
		if (congest)
			congest_quit(congest);
		return 3;
	}
	memset(&h, 0, sizeof(h));
	h.started = started;
	rc = prepare(o, &w, &b, &h, &rv, &sam);
	if (rc == 0 && w.rank == 0) {
		describe_run(&h, o, &w, &b, rv, argc, argv);
		setvbuf(stdout, NULL, _IOLBF, 0);
		output_header(stdout, &h.info);
	}
	if (rc == 0 && header_lost(&w))
		rc = 3;
	if (rc == 0 && o->pairs > 0)
		rc = pairs_run(o, &w, &b, w.rank == 0 ? stdout : NULL);
	else if (rc == 0)
		rc = sweep(o, &w, &b, &h, rv, sam, congest);
	if (comm != side)
		MPI_MUST(MPI_Comm_free(&comm));
	if (congest) {
		congest_quit(congest);
		MPI_MUST(MPI_Comm_free(&side));
	}
	run_release(o, &h, &b, &w, rv, sam);
	return rc;
}
