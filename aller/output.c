/* output.c: writes what format.h defines. */
#include "output.h"
#include "stacks.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "json.h"
#include "text.h"
#include "options.h"
#include "world/world.h"

void output_escaped(FILE *f, const char *s)
{
	text_escape(f, s, strlen(s));
}

/* --json's writer (json.h), fed the same facts and rows as the text; NULL without it. */
static struct json *json_sink;

void output_json(struct json *j)
{
	json_sink = j;
}

/* "# key: value\n", the value escaped (common/text.h); the same to --json. */
static void __attribute__((format(printf, 3, 4))) key_line(FILE *f, const char *key, const char *fmt, ...)
{
	char small[2048], *text = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(small) && (text = malloc((size_t)n + 1)) != NULL) {
		va_start(ap, fmt);
		vsnprintf(text, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	fprintf(f, "# %s: ", key);
	text_escape(f, text ? text : small, n < 0 ? 0 : text ? (size_t)n : sizeof(small) - 1);
	fputc('\n', f);
	json_fact(json_sink, key, text ? text : small);
	if (text != small)
		free(text);
}

FILE *output_capture(struct capture *c, FILE *f)
{
	c->buf = NULL;
	c->len = 0;
	c->mem = f ? open_memstream(&c->buf, &c->len) : NULL;
	return c->mem ? c->mem : f;
}

void output_release(struct capture *c, FILE *f)
{
	char *line, *next;

	if (!c->mem)
		return;
	fclose(c->mem);
	for (line = c->buf; line && *line; line = next) {
		char *colon;
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		colon = strstr(line, ": ");
		if (strncmp(line, "# ", 2) == 0 && colon) {
			*colon = '\0';
			key_line(f, line + 2, "%s", colon + 2);
		} else {
			fprintf(f, "%s\n", line);
		}
	}
	free(c->buf);
	c->mem = NULL;
}

static const char *mode_name(int strided)
{
	return strided ? ALLER_MODE_STRIDED : ALLER_MODE_CONTIGUOUS;
}

/* One "# key: line" per line of a multi-line text. */
static void key_lines(FILE *f, const char *key, const char *text)
{
	while (text && *text) {
		size_t n = strcspn(text, "\n");
		char *line = json_sink ? strndup(text, n) : NULL;
		fprintf(f, "# %s: ", key);
		text_escape(f, text, n);
		fputc('\n', f);
		if (line)
			json_fact(json_sink, key, line);
		free(line);
		text += n + (text[n] == '\n');
	}
}

/*
 * The variables that shape a measurement: the MPI library's, the fabric's,
 * NCCL's, the visible GPUs; not those the launcher sets in each process for
 * its own plumbing (ranks, URIs, session directories).
 */
static int shapes_measurement(const char *e)
{
	static const char *const keep[] = { "OMPI_MCA_", "PMIX_MCA_", "UCX_", "MPICH_", "MPIR_CVAR_",
					    "I_MPI_", "FI_", "NCCL_", "CUDA_VISIBLE_DEVICES=",
					    "SLURM_CPU_BIND=", "SLURM_DISTRIBUTION=" };
	static const char *const drop[] = { "OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix=",
					    "OMPI_MCA_initial_wdir=", "OMPI_MCA_shmem_RUNTIME_QUERY_hint=",
					    "MPIR_CVAR_CH3_INTERFACE_HOSTNAME=" };
	int k = 0;

	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		k |= strncmp(e, keep[i], strlen(keep[i])) == 0;
	for (size_t i = 0; k && i < sizeof(drop) / sizeof(drop[0]); i++)
		k &= strncmp(e, drop[i], strlen(drop[i])) != 0;
	return k && strchr(e, '=');
}

static int cmp_env(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void output_env(struct strbuf *b, char *const *env)
{
	size_t n = 0, k = 0;
	const char **v;

	while (env && env[n])
		n++;
	v = malloc(sizeof(*v) * (n ? n : 1));
	if (!v) {
		b->failed = 1;
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (shapes_measurement(env[i]) && !strchr(env[i], '\n'))
			v[k++] = env[i];
	qsort(v, k, sizeof(*v), cmp_env);
	for (size_t i = 0; i < k; i++)
		strbuf_addf(b, "%.*s\n", (int)text_utf8_cut(v[i], 240), v[i]);
	free(v);
}

void output_test_hooks(struct strbuf *b, char *const *env)
{
	size_t n = 0, k = 0;
	const char **v;

	while (env && env[n])
		n++;
	if (!(v = malloc(sizeof(*v) * (n ? n : 1)))) {
		b->failed = 1;
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (strncmp(env[i], "ALLER_TEST_", 11) == 0 && strchr(env[i], '='))
			v[k++] = env[i];
	qsort(v, k, sizeof(*v), cmp_env);
	for (size_t i = 0; i < k; i++)
		strbuf_addf(b, "%s%.*s", i ? " " : "", (int)text_utf8_cut(v[i], 120), v[i]);
	free(v);
}

/* What each --timing does, for the timer line. */
static const char *const timing_how[] = {
	[TIMING_BARRIER] = "after an MPI_Barrier on MPI_COMM_WORLD",
	[TIMING_LOOP] = "around ITERS back-to-back calls after one MPI_Barrier on MPI_COMM_WORLD, "
			"per call the loop's time / ITERS (IMB's)",
	[TIMING_OSU] = "each call followed by an MPI_Barrier on MPI_COMM_WORLD once it is checked "
		       "and the next call prepared, as OSU's (after the first, the barrier style's order)",
	[TIMING_NCCL] = "around ITERS calls enqueued back to back on the NCCL stream after one "
			"MPI_Barrier on MPI_COMM_WORLD and a synchronise of the stream, one synchronise "
			"after the last, per call the loop's time / ITERS (nccl-tests'); the check "
			"after the timing; the stream's own time per call by CUDA events in '# "
			"stream_time:' lines",
};

/* The header's first part: the program, the library, the world and where it ran. */
static void header_world(FILE *f, const struct run_info *r)
{
	key_line(f, ALLER_KEY_ALLER, "%s", ALLER_VERSION);
	key_line(f, ALLER_KEY_FORMAT, "%d", ALLER_FORMAT_VERSION);
	key_line(f, ALLER_KEY_COMMAND, "%s", r->command);
	key_line(f, ALLER_KEY_MPI, "%s", r->mpi);
	if (r->opt->stack)
		key_line(f, ALLER_KEY_STACK, "%s: %s (%s set: %s)", r->opt->stack->name, r->opt->stack->what,
			 r->opt->stack_by, r->opt->stack_set);
	key_line(f, ALLER_KEY_WORLD, "%d", r->w->size);
	key_line(f, ALLER_KEY_NODES, "%d", r->w->nnodes);
	if (r->w->tpn_min == r->w->tpn_max)
		key_line(f, ALLER_KEY_TPN, "%d", r->w->tpn_min);
	else
		key_line(f, ALLER_KEY_TPN, "%d-%d", r->w->tpn_min, r->w->tpn_max);
	key_lines(f, ALLER_KEY_HOST, r->host_map);
	key_line(f, ALLER_KEY_BUFFERS, "%s", r->buffers);
	key_lines(f, ALLER_KEY_DEVICE, r->devices);
	if (r->cuda_aware)
		key_line(f, ALLER_KEY_CUDA_AWARE, "%s", r->cuda_aware);
	key_lines(f, ALLER_KEY_ENV, r->env);
	if (r->test_hooks && r->test_hooks[0])
		key_line(f, ALLER_KEY_TEST_HOOKS, "%s", r->test_hooks);
}

/* What the run does: its settings, when it started, its job. */
static void header_run(FILE *f, const struct run_info *r)
{
	key_line(f, ALLER_KEY_VERIFY, "%s", options_verify_name(r->opt->verify));
	key_line(f, ALLER_KEY_DATA, "%s", r->opt->fresh ? "fresh" : "reused");
	key_line(f, ALLER_KEY_MODE, "%s", mode_name(r->opt->strided));
	key_line(f, ALLER_KEY_ITERS, "%ld", r->opt->iters);
	key_line(f, ALLER_KEY_WARMUP, "%ld", r->opt->warmup);
	key_line(f, ALLER_KEY_LONGS, "%ld", r->opt->longs);
	key_line(f, ALLER_KEY_SELECTION, "%s", r->selection);
	key_line(f, ALLER_KEY_TRANSPORT, "%s", r->transport ? r->transport : "mpi");
	key_line(f, ALLER_KEY_ALGOS, "%s", r->algos);
	if (r->splits)
		key_line(f, ALLER_KEY_SPLITS, "%s", r->splits);
	key_line(f, ALLER_KEY_ISOLATE, "%s", options_isolate_name(r->opt->isolate));
	if (r->osc)
		key_line(f, ALLER_KEY_OSC, "%s", r->osc);
	key_line(f, ALLER_KEY_START, "%s", r->start);
	if (r->slurm_job)
		key_line(f, ALLER_KEY_SLURM_JOB, "%s", r->slurm_job);
	if (r->slurm_nodes)
		key_line(f, ALLER_KEY_SLURM_NODES, "%s", r->slurm_nodes);
}

/* --pairs: what the matrix is, and its columns. */
static void header_pairs(FILE *f, const struct run_info *r)
{
	key_line(f, ALLER_KEY_PAIRS, "%ld bytes per message; %d tasks; at step k = 1..%d each "
	    "sends to (rank + k) mod %d and receives from (rank - k) mod %d at once, after "
	    "two barriers on MPI_COMM_WORLD; %ld timed exchanges per step (%ld warm-up); "
	    "bw_GBs = bytes / the best time from the barrier to the message's arrival at "
	    "its receiver, in 1e9 B/s; tavg_s the average; a link below %g x the median "
	    "link is slow", r->opt->pairs, r->w->size, r->w->size - 1, r->w->size,
	    r->w->size, r->opt->iters, r->opt->warmup, r->opt->slow_below);
	key_line(f, ALLER_KEY_COLUMNS, "%s", ALLER_PAIRS_COLUMN_HEADER);
}

/* The sweep: how calls are timed, what each statistic is, what else the run holds. */
/* How the calls are timed: the timer, the style, the cache, --time-per-size, --ci. */
static void header_timing(FILE *f, const struct run_info *r)
{
	key_line(f, ALLER_KEY_TIMER, "MPI_Wtime around each all-to-all call only (the data set's algorithm: "
	    "from its first MPI call to its completion), resolution %.3g s, %s; timeout %ld s%s",
	    r->wtick, timing_how[r->opt->timing], r->opt->timeout,
	    r->opt->timeout == OPTIONS_DEFAULT_TIMEOUT ? " (the default)" : r->opt->timeout == 0
	    ? " (none: --timeout=0)" : "");
	key_line(f, ALLER_KEY_TIMING, "%s", options_timing_name(r->opt->timing));
	key_line(f, ALLER_KEY_CACHE, "%s", r->cache ? r->cache : "hot");
	if (r->opt->time_per_size > 0)
		key_line(f, ALLER_KEY_BUDGET, "%g s of timed calls per (level, count): as many as fit at the "
		    "longest warm-up iteration of any task, %ld..%ld (column iters)",
		    r->opt->time_per_size, r->opt->min_iters, r->opt->iters);
	if (r->opt->ci_rel > 0)
		key_line(f, ALLER_KEY_CI, "timed calls per (level, count) from %s, doubling, until "
		    "the 95%% interval of tmed (tmed_lo_s..tmed_hi_s) is within %g of tmed, at most "
		    "%ld, every task agreeing (column iters)",
		    r->opt->time_per_size > 0 ? "the budget's" : "ITERS", r->opt->ci_rel,
		    r->opt->ci_max);
}

/* What each statistic is, over which samples. */
static void header_statistics(FILE *f, const struct run_info *r)
{
	key_line(f, ALLER_KEY_STATISTICS, "over all tasks x %ld timed iterations (%ld warm-up "
	    "excluded), a sample one task's time of one call and its own in + out GiB (with "
	    "--split: the bytes it sent and received)%s", r->opt->iters, r->opt->warmup,
	    ALLER_COLUMN_MEANINGS);
}

/* The sweep's header lines after the run's: timing, limits, floors, modes, statistics. */
static void header_sweep(FILE *f, const struct run_info *r)
{
	header_timing(f, r);
	key_lines(f, ALLER_KEY_LIMIT, r->limits);
	key_lines(f, ALLER_KEY_FABRIC, r->fabric);
	for (int i = 0; i < 2; i++) {
		const struct floor *fl = i ? &r->opt->min_eff : &r->opt->min_busbw;
		char floor[FLOOR_DESC_MAX];
		if (!(fl->min > 0))
			continue;
		floor_describe(fl, floor, sizeof(floor));
		key_line(f, ALLER_KEY_FLOOR, "%s: a row below it fails the run (exit 1; '# %s:' "
		    "after it)", floor, ALLER_KEY_FLOOR_FAILED);
	}
	if (r->samples)
		key_line(f, ALLER_KEY_SAMPLES, "%s", r->samples);
	if (r->congestion)
		key_line(f, ALLER_KEY_CONGESTION, "%s", r->congestion);
	if (r->moe)
		key_line(f, ALLER_KEY_MOE, "%s", r->moe);
	if (r->placement) {
		key_line(f, ALLER_KEY_PLACEMENT, "%s", r->placement);
		key_line(f, ALLER_KEY_PLACED, "%s", r->placed);
	}
	header_statistics(f, r);
	if (r->large_counts)
		key_line(f, ALLER_KEY_LARGE_COUNTS, "%s", r->large_counts);
	if (r->reveal)
		key_line(f, ALLER_KEY_REVEAL, "%s", r->reveal);
	if (r->reveal_queues)
		key_line(f, ALLER_KEY_REVEAL_QUEUES, "%s", r->reveal_queues);
	if (r->reveal_dir)
		key_line(f, ALLER_KEY_REVEAL_DIR, "%s", r->reveal_dir);
	key_line(f, ALLER_KEY_COLUMNS, "%s", ALLER_COLUMN_HEADER);
}

void output_header(FILE *f, const struct run_info *r)
{
	header_world(f, r);
	header_run(f, r);
	if (r->opt->pairs > 0)
		header_pairs(f, r);
	else
		header_sweep(f, r);
}

void output_sizes(struct strbuf *b, const struct partition *p)
{
	for (long c = 0; c < p->ncomms;) {
		long size = partition_size(p, c), run = 1;
		while (c + run < p->ncomms && partition_size(p, c + run) == size)
			run++;
		strbuf_addf(b, run > 1 ? "%s%ldx%ld" : "%s%ld", c ? " " : "", size, run);
		c += run;
	}
}

void output_failed(FILE *f, const char *msg)
{
	key_line(f, ALLER_KEY_FAILED, "%s", msg);
}

void output_skipped(FILE *f, long count, const char *why)
{
	key_line(f, ALLER_KEY_SKIPPED, "count %ld: %s", count, why);
}

void output_level(FILE *f, const struct run_info *r, int level, const struct partition *p,
		  const char *algo, const char *split, int first)
{
	long max = partition_max_size(p), min = partition_min_size(p);

	json_set(json_sink, level, p->target, p->ncomms, max, algo, split);
	if (!first)
		fputs("\n\n", f);
	key_line(f, ALLER_KEY_LEVEL, "%d target %ld comms %ld commsize %ld", level, p->target,
	    p->ncomms, max);
	if (min != max) {
		struct strbuf b;
		char *s;
		strbuf_init(&b);
		output_sizes(&b, p);
		s = strbuf_detach(&b);
		key_line(f, ALLER_KEY_SIZES, "%s (uneven)", s ? s : "?");
		free(s);
	}
	key_line(f, ALLER_KEY_ALGO, "%s", algo);
	if (split)
		key_line(f, ALLER_KEY_SPLIT, "%s", split);
	fprintf(f, "# %s world %d iters %ld\n", mode_name(r->opt->strided), r->w->size,
		r->opt->iters);
	fprintf(f, "# %s\n", ALLER_COLUMN_HEADER);
}

/* A measured value, or ALLER_MISSING (NAN: not measured). */
/* One column of a row, by its kind (format.h), after a space but the first. */
static void col_COUNT(FILE *f, int first, long v)
{
	fprintf(f, first ? "%ld" : " %ld", v);
}

static void col_RANK(FILE *f, int first, long v)
{
	col_COUNT(f, first, v);
}

static void col_REAL(FILE *f, int first, double v)
{
	fprintf(f, first ? "%.6e" : " %.6e", v);
}

static void col_ORANK(FILE *f, int first, double v)
{
	if (isnan(v))
		fprintf(f, first ? "%s" : " %s", ALLER_MISSING);
	else
		col_COUNT(f, first, (long)v);
}

static void col_OPT(FILE *f, int first, double v)
{
	if (isnan(v))
		fprintf(f, first ? "%s" : " %s", ALLER_MISSING);
	else
		col_REAL(f, first, v);
}

static void col_TEXT(FILE *f, int first, const char *v)
{
	fprintf(f, first ? "%s" : " %s", v[0] ? v : ALLER_MISSING);
}

void output_row(FILE *f, const struct row *w)
{
#define FIRST_(ID, name, kind, value, meaning) col_##kind(f, 1, value);
#define NEXT_(ID, name, kind, value, meaning) col_##kind(f, 0, value);
	ALLER_COLUMNS(FIRST_, NEXT_)
#undef FIRST_
#undef NEXT_
	fputc('\n', f);
	json_row(json_sink, w);
}

void output_stream_time(FILE *f, long count, double stream_s, double host_s)
{
	char stream[32] = "-";

	if (isfinite(stream_s))
		snprintf(stream, sizeof(stream), "%.6e", stream_s);
	key_line(f, ALLER_KEY_STREAM_TIME, "count=%ld stream_s=%s host_s=%.6e", count, stream, host_s);
}

void output_floor_failed(FILE *f, const char *text)
{
	key_line(f, ALLER_KEY_FLOOR_FAILED, "%s", text);
}

void output_nic_counters(FILE *f, const char *lines)
{
	key_lines(f, ALLER_KEY_NIC_COUNTERS, lines);
}

void output_wall(FILE *f, double wall, double in_calls)
{
	key_line(f, ALLER_KEY_WALL, "%.3f s in the sweep (the whole run: wall_parts' total), of which %.3f s "
	    "inside the all-to-all calls (%.1f%%, warm-ups included; rank 0)", wall, in_calls, wall > 0 ? 100 * in_calls / wall : 0);
}

void output_wall_parts(FILE *f, const struct wall_parts *p)
{
	key_line(f, ALLER_KEY_WALL_PARTS, "total=%.4f startup=%.4f limits=%.4f fill=%.4f poison=%.4f "
	    "check=%.4f barrier=%.4f calls=%.4f other=%.4f (seconds of rank 0: startup MPI_Init "
	    "to the sweep but the limits' measurement; fill, poison and check (with the re-poison) "
	    "of the buffers; the world barriers; the calls, warm-ups included; other the rest: "
	    "agreements, rows, each level's and count's set-up); most on its buffers: rank %d "
	    "(%.4f s)", p->total, p->startup, p->limits, p->fill, p->poison, p->check, p->barrier,
	    p->calls, p->other, p->worst_rank, p->worst_buffers);
}

void output_done(FILE *f)
{
	fprintf(f, "%s\n", ALLER_DONE);
	fflush(f);
}

int output_check(FILE *f, const char *name, char *err, size_t errlen)
{
	int flushed = fflush(f), e = errno;

	if (flushed == 0 && !ferror(f))
		return 0;
	snprintf(err, errlen, "cannot write %s: %s", name,
		 flushed != 0 && e ? strerror(e) : "a write failed");
	return -1;
}
