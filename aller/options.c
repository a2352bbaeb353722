/* options.c: aller's command line: [MODE] [ITERS] [LONGS] and GNU long options. */
#include "options.h"

#include "plan/partition.h"

#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->iters = OPTIONS_DEFAULT_ITERS;
	o->longs = OPTIONS_DEFAULT_LONGS;
	o->verify = VERIFY_ALL;
	o->warmup = OPTIONS_DEFAULT_WARMUP;
	o->buffers = BUFFERS_HOST;
	o->check_args = -1;
	o->cold_cache = -1;
	o->slow_below = 0.8;
	o->congest_algo = ALGO_ALLTOALL;
	o->congest_bytes = OPTIONS_DEFAULT_CONGEST_BYTES;
	o->min_iters = 1;
	o->timeout = OPTIONS_DEFAULT_TIMEOUT;
	selection_init(&o->sel);
	algo_list_default(&o->algos);
	split_parse(&o->splits[0], "uniform", NULL, 0);
	o->nsplits = 1;
}

int options_uneven(const struct options *o)
{
	for (int i = 0; i < o->nsplits; i++)
		if (split_uneven(&o->splits[i]))
			return 1;
	return 0;
}

double options_budget_seconds(const struct options *o, long world, long *pairs)
{
	double passes = 0;
	long counts[SELECT_MAX_COUNTS];

	*pairs = 0;
	for (int i = 0; i < partition_nlevels(world); i++) {
		struct partition p;
		long target = partition_level_target(world, i);
		int sets = 0;
		if (!select_level(&o->sel, world, target))
			continue;
		partition_init(&p, world, target, o->strided);
		for (int k = 0; k < o->nsplits; k++)
			sets += split_fits(&o->splits[k], partition_min_size(&p)) &&
				split_fits(&o->splits[k], partition_max_size(&p));
		sets *= o->algos.n;
		*pairs += (long)sets * select_counts(&o->sel, o->longs, target, counts);
		passes += (double)sets * select_counts(&o->sel, o->longs, target, counts) *
			  (1.0 + (o->isolate == ISOLATE_NONE || p.ncomms < 2 ? 0
				  : o->isolate == ISOLATE_FIRST ? 1 : (double)p.ncomms));
	}
	return o->time_per_size > 0 ? passes * o->time_per_size : 0;
}

/* Whether a level of the selection has communicators of n tasks, all of them. */
static int has_level(const struct options *o, long world, long n)
{
	for (int i = 0; i < partition_nlevels(world); i++) {
		struct partition p;
		long target = partition_level_target(world, i);
		partition_init(&p, world, target, o->strided);
		if (select_level(&o->sel, world, target) && partition_min_size(&p) == n &&
		    partition_max_size(&p) == n)
			return 1;
	}
	return 0;
}

int options_aggressor(const struct options *o, long r)
{
	return o->congestion > 0 &&
	       floor((double)(r + 1) * o->congestion) > floor((double)r * o->congestion);
}

long options_aggressors(const struct options *o, long world)
{
	return o->congestion > 0 ? (long)floor((double)world * o->congestion) : 0;
}

int options_check_world(const struct options *o, long world, char *err, size_t errlen,
			char *note, size_t notelen)
{
	note[0] = '\0';
	if (o->congestion > 0 && options_aggressors(o, world) < 1) {
		snprintf(err, errlen, "--congestion=%g makes no aggressor of a world of %ld: give a "
			 "larger fraction or more tasks (at least %.0f)", o->congestion, world,
			 ceil(1 / o->congestion));
		return -1;
	}
	world -= options_aggressors(o, world);   /* the sweep runs on the victims */
	if (o->pairs > 0 && world < 2) {
		snprintf(err, errlen, "'--pairs' measures pairs of tasks, and a world of %ld has none: "
			 "run two tasks or more (one per node)", world);
		return -1;
	}
	if (o->pairs > 0)
		return 0;
	if (o->longs < world) {
		snprintf(err, errlen, "longs %ld is smaller than the world size %ld: each peer needs "
			 "at least one long (use LONGS >= %ld)", o->longs, world, world);
		return -1;
	}
	for (int i = 0; i < o->nsplits; i++)
		if (o->splits[i].kind == SPLIT_MATRIX && !has_level(o, world, o->splits[i].n)) {
			snprintf(err, errlen, "the matrix of --split=%s is %ld x %ld, and no measured "
				 "level of a world of %ld has communicators of %ld tasks: give a "
				 "matrix of a communicator size (world, world/2, ..., 1)",
				 o->splits[i].spec, o->splits[i].n, o->splits[i].n, world,
				 o->splits[i].n);
			return -1;
		}
	return select_check(&o->sel, world, o->longs, err, errlen, note, notelen);
}

const char *options_isolate_name(enum isolate_mode m)
{
	return m == ISOLATE_NONE ? "none" : m == ISOLATE_FIRST ? "communicator 0"
							       : "every communicator";
}

const char *options_timing_name(enum timing_mode t)
{
	return t == TIMING_BARRIER ? "barrier" : t == TIMING_LOOP ? "loop" : "osu";
}

const char *options_verify_name(enum verify_mode v)
{
	return v == VERIFY_ALL ? "all" : v == VERIFY_WARMUP ? "warmup" : "none";
}

/* Decimal integer, whole string; 0 ok, -1 not a number, -2 out of long's range. */
static int parse_long(const char *s, long *out)
{
	char *end;
	long v;

	if (*s == '\0' || !(*s == '-' || *s == '+' || (*s >= '0' && *s <= '9')))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0')
		return -1;
	if (errno == ERANGE)
		return -2;
	*out = v;
	return 0;
}

/* A positional count: <= 0 means default, else at most max. */
static int parse_count(const char *what, const char *s, long def, long max,
		       long *out, char *err, size_t errlen)
{
	long v;
	int rc = parse_long(s, &v);

	if (rc == -1) {
		snprintf(err, errlen, "cannot parse %s '%s': expected an integer "
			 "(<= 0 for the default %ld, at most %ld)", what, s, def, max);
		return -1;
	}
	if (rc == -2 || v > max) {
		snprintf(err, errlen, "%s '%s' is out of range: allowed are "
			 "1..%ld, or <= 0 for the default %ld", what, s, max, def);
		return -1;
	}
	*out = v <= 0 ? def : v;
	return 0;
}

static int looks_numeric(const char *s)
{
	long v;
	return parse_long(s, &v) != -1;
}

/* One of names[] (n of them), as its index; -1 when none. */
static int pick(const char *val, const char *const *names, int n)
{
	for (int i = 0; val && i < n; i++)
		if (strcmp(val, names[i]) == 0)
			return i;
	return -1;
}

/* A whole number in lo..hi for an option; 0 or -1 with a message. */
static int option_long(const char *opt, const char *what, const char *val, long lo, long hi,
		       long *out, char *err, size_t errlen)
{
	long v;

	if (parse_long(val, &v) != 0 || v < lo || v > hi) {
		snprintf(err, errlen, "invalid %s '%s': expected %s, %ld..%ld", what, val,
			 strcmp(opt, "--timeout") == 0 ? "whole seconds" : "an integer", lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/*
 * An option of a few values: their names (the value is the index), the one
 * it takes without '=' (-1: none), and what its error says they are.
 */
struct choice {
	const char *what, *allowed;
	const char *const *names;
	int n, bare;
};

#define CHOICE(what, allowed, bare, ...) \
	(&(const struct choice){ what, allowed, (const char *const[]){ __VA_ARGS__ }, \
				 (int)(sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)), \
				 bare })

/* The value's index in c, into *out; 0, or -1 with "invalid WHAT 'VAL': allowed are ...". */
static int choose(const struct choice *c, const char *val, int *out, char *err, size_t errlen)
{
	int i = val ? pick(val, c->names, c->n) : c->bare;

	if (i < 0) {
		snprintf(err, errlen, "invalid %s '%s': allowed are %s", c->what, val ? val : "",
			 c->allowed);
		return -1;
	}
	*out = i;
	return 0;
}

/* --transport=nccl: ncclAlltoAll on device buffers, nothing else. */
static int transport_check(struct options *o, char *err, size_t errlen)
{
	const char *why = algo_unavailable(ALGO_NCCL);

	if (o->transport != TRANSPORT_NCCL)
		return 0;
	if (why) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	if (o->algos_given) {
		snprintf(err, errlen, "'--transport=nccl' has one algorithm, ncclAlltoAll: leave "
			 "out --algo");
		return -1;
	}
	if (o->buffers_given && o->buffers != BUFFERS_CUDA) {
		snprintf(err, errlen, "'--transport=nccl' moves device memory: leave out "
			 "--buffers=host");
		return -1;
	}
	o->algos.id[0] = ALGO_NCCL;
	o->algos.n = 1;
	if (!algo_nccl_stubbed())
		o->buffers = BUFFERS_CUDA;
	return 0;
}

static int option_algo(struct options *o, const char *val, char *err, size_t errlen)
{
	o->algos_given = 1;
	if (algo_list_parse(&o->algos, val, err, errlen) != 0)
		return -1;
	for (int i = 0; i < o->algos.n; i++) {
		const char *why = algo_unavailable(o->algos.id[i]);
		if (why) {
			snprintf(err, errlen, "%s", why);
			return -1;
		}
	}
	return 0;
}

/* --cold-cache[=BYTES]: the ring beyond the buffers; without BYTES the last-level cache's. */
static int option_cold_cache(struct options *o, const char *val, char *err, size_t errlen)
{
	o->cold_cache = 0;
	return val ? select_parse_size("--cold-cache", val, &o->cold_cache, err, errlen) : 0;
}

/* --time-per-size=SECONDS: a positive decimal number. */
static int option_budget(struct options *o, const char *val, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (end == val || *end || errno || !(v >= 1e-3 && v <= OPTIONS_MAX_TIME_PER_SIZE)) {
		snprintf(err, errlen, "invalid time per size '%s': expected seconds, 0.001..%.0f "
			 "(e.g. --time-per-size=0.5)", val, OPTIONS_MAX_TIME_PER_SIZE);
		return -1;
	}
	o->time_per_size = v;
	return 0;
}

/* --slow-below=F: 0 < F < 1. */
static int option_slow_below(struct options *o, const char *val, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (end == val || *end || errno || !(v > 0 && v < 1)) {
		snprintf(err, errlen, "invalid --slow-below '%s': expected a fraction of the median "
			 "bandwidth, 0 < F < 1 (e.g. --slow-below=0.8)", val);
		return -1;
	}
	o->slow_below = v;
	return 0;
}

/* --congestion=F[:ALGO[:SIZE]]. */
static int option_congestion(struct options *o, const char *val, char *err, size_t errlen)
{
	char f[64], algo[64] = "", size[64] = "", *end;
	struct algo_list l;
	double v;

	snprintf(f, sizeof(f), "%.*s", (int)strcspn(val, ":"), val);
	if (strchr(val, ':')) {
		const char *a = strchr(val, ':') + 1;
		snprintf(algo, sizeof(algo), "%.*s", (int)strcspn(a, ":"), a);
		if (strchr(a, ':'))
			snprintf(size, sizeof(size), "%s", strchr(a, ':') + 1);
	}
	errno = 0;
	v = strtod(f, &end);
	if (end == f || *end || errno || !(v > 0 && v < 1)) {
		snprintf(err, errlen, "invalid --congestion '%s': expected FRACTION[:ALGO[:SIZE]], the "
			 "aggressors' share of the world, 0 < FRACTION < 1 (e.g. --congestion=0.5:"
			 "alltoall:1M)", val);
		return -1;
	}
	o->congestion = v;
	if (algo[0]) {
		if (algo_list_parse(&l, algo, err, errlen) != 0 || l.n != 1 ||
		    l.id[0] == ALGO_PERSISTENT || l.id[0] == ALGO_PUT) {
			snprintf(err, errlen, "invalid --congestion algorithm '%s': allowed are "
				 "alltoall, ialltoall, alltoallv and pairwise", algo);
			return -1;
		}
		o->congest_algo = l.id[0];
	}
	return size[0] ? select_parse_size_in("--congestion", size, 8, OPTIONS_MAX_CONGEST_BYTES,
					      "per peer", &o->congest_bytes, err, errlen) : 0;
}

/* --split=SPEC, once per spec: the first replaces the default uniform. */
static int option_split(struct options *o, const char *val, char *err, size_t errlen)
{
	struct split s;

	if (split_parse(&s, val, err, errlen) != 0)
		return -1;
	if (!o->splits_given)
		o->nsplits = 0;
	o->splits_given = 1;
	for (int i = 0; i < o->nsplits; i++)
		if (split_same(&o->splits[i], &s)) {
			if (strcmp(o->splits[i].spec, s.spec) == 0)
				snprintf(err, errlen, "--split=%s is given twice", val);
			else
				snprintf(err, errlen, "--split=%s is given twice (as '--split=%s' too: the "
					 "same split)", val, o->splits[i].spec);
			return -1;
		}
	if (o->nsplits == SPLIT_MAX) {
		snprintf(err, errlen, "too many --split options: at most %d", SPLIT_MAX);
		return -1;
	}
	o->splits[o->nsplits++] = s;
	return 0;
}

/*
 * Uneven splits need an algorithm that sends blocks of their own sizes:
 * alltoallv (the default then), pairwise, put, or NCCL's grouped sends.
 */
static int split_check(struct options *o, char *err, size_t errlen)
{
	const char *uneven = NULL;

	for (int i = 0; i < o->nsplits && !uneven; i++)
		if (split_uneven(&o->splits[i]))
			uneven = o->splits[i].spec;
	if (!uneven)
		return 0;
	if (!o->algos_given && o->transport != TRANSPORT_NCCL) {
		o->algos.id[0] = ALGO_ALLTOALLV;
		o->algos.n = 1;
	}
	for (int i = 0; i < o->algos.n; i++)
		if (!algo_takes_split(o->algos.id[i])) {
			snprintf(err, errlen, "--split=%s sends uneven blocks, which %s cannot: allowed "
				 "with it are --algo=alltoallv, pairwise and put, and --transport=nccl",
				 uneven, algo_name(o->algos.id[i]));
			return -1;
		}
	return 0;
}

/* What --timing, --cold-cache and --time-per-size cannot go with; 0 or -1 with a message. */
static int modes_check(const struct options *o, char *err, size_t errlen)
{
	int varies = 0;

	for (int i = 0; i < o->nsplits; i++)
		varies |= split_varies(&o->splits[i]);
	if (o->timing == TIMING_LOOP && (o->fresh || o->reveal != REVEAL_OFF || varies)) {
		snprintf(err, errlen, "'--timing=loop' times back-to-back calls as one: nothing can "
			 "happen between them, so not with %s", o->fresh ? "--fresh-data"
			 : o->reveal != REVEAL_OFF ? "--reveal" : "a moving --split (rotate)");
		return -1;
	}
	if (o->cold_cache >= 0 && (o->buffers == BUFFERS_CUDA || algo_list_has(&o->algos,
									   ALGO_PERSISTENT))) {
		snprintf(err, errlen, "'--cold-cache' moves each call to other buffers: not with %s",
			 o->buffers == BUFFERS_CUDA ? "device buffers (--buffers=cuda, --transport=nccl)"
			 : "--algo=persistent, whose request holds one pair of buffers");
		return -1;
	}
	if (o->time_per_size > 0 && o->warmup == 0) {
		snprintf(err, errlen, "'--time-per-size' chooses the iterations from the warm-up's "
			 "time, and '--warmup=0' leaves none: use --warmup=1 or more");
		return -1;
	}
	if (o->time_per_size > 0 && o->min_iters > o->iters) {
		snprintf(err, errlen, "'--min-iters=%ld' is more than ITERS (%ld), the most a "
			 "budget may run: raise ITERS or lower --min-iters", o->min_iters, o->iters);
		return -1;
	}
	return 0;
}

/* What --congestion cannot go with; 0 or -1 with a message. */
static int congestion_check(const struct options *o, char *err, size_t errlen)
{
	const char *with = o->pairs ? "--pairs" : o->reveal != REVEAL_OFF ? "--reveal"
			 : o->isolate != ISOLATE_NONE ? "--isolate" : o->transport != TRANSPORT_MPI
			 ? "--transport=nccl" : o->buffers == BUFFERS_CUDA ? "--buffers=cuda" : NULL;

	if (o->congestion > 0 && with) {
		snprintf(err, errlen, "'--congestion' runs aggressors beside the measured tasks: not "
			 "with %s", with);
		return -1;
	}
	return 0;
}

/* What --pairs, a run of its own, cannot go with; 0 or -1 with a message. */
static int pairs_check(struct options *o, int longs_given, char *err, size_t errlen)
{
	const char *with = o->algos_given ? "--algo" : o->splits_given ? "--split"
			 : o->isolate != ISOLATE_NONE ? "--isolate" : o->reveal != REVEAL_OFF ? "--reveal"
			 : o->cold_cache >= 0 ? "--cold-cache" : o->time_per_size > 0 ? "--time-per-size"
			 : o->samples ? "--samples" : o->transport != TRANSPORT_MPI ? "--transport"
			 : o->buffers == BUFFERS_CUDA ? "--buffers=cuda" : o->strided ? "MODE strided"
			 : o->timing != TIMING_BARRIER ? "--timing" : o->fresh ? "--fresh-data"
			 : longs_given ? "a LONGS above 0 (the buffers are SIZE bytes)" : o->sel.min_bytes || o->sel.max_bytes || o->sel.ncommsizes
			 ? "--commsizes, --min-bytes or --max-bytes" : NULL;

	if (o->pairs == 0)
		return 0;
	if (with) {
		snprintf(err, errlen, "'--pairs' measures each pair of tasks alone, one message size: "
			 "not with %s", with);
		return -1;
	}
	o->longs = (o->pairs + (long)sizeof(long) - 1) / (long)sizeof(long);
	return 0;
}

enum option_id { OPT_HELP, OPT_HELP_SHORT, OPT_VERSION, OPT_NO_VERIFY, OPT_FRESH, OPT_VERIFY,
		 OPT_WARMUP, OPT_MIN_BYTES, OPT_MAX_BYTES, OPT_COMMSIZES, OPT_TIMEOUT,
		 OPT_REVEAL, OPT_REVEAL_DIR, OPT_BUFFERS, OPT_CHECK_ARGS, OPT_ALGO, OPT_ISOLATE,
		 OPT_CUDA_AWARE, OPT_TRANSPORT, OPT_SPLIT, OPT_TIMING, OPT_COLD_CACHE,
		 OPT_TIME_PER_SIZE, OPT_MIN_ITERS, OPT_SAMPLES, OPT_PAIRS, OPT_SLOW_BELOW,
		 OPT_CONGESTION, OPT_COUNT };

/* value: 0 takes none, 1 needs one, 2 may have one, 3 needs a non-empty one;
 * usage: what it needs and how to give it. */
static const struct { const char *name; int value; const char *usage; } option_table[] = {
	[OPT_HELP] = { "--help", 0, "" },
	[OPT_HELP_SHORT] = { "-h", 0, "" },
	[OPT_VERSION] = { "--version", 0, "" },
	[OPT_NO_VERIFY] = { "--no-verify", 0, "" },
	[OPT_FRESH] = { "--fresh-data", 0, "" },
	[OPT_VERIFY] = { "--verify", 1, "a value: --verify=all|warmup|none" },
	[OPT_WARMUP] = { "--warmup", 1, "a value: --warmup=N" },
	[OPT_MIN_BYTES] = { "--min-bytes", 1, "a value: --min-bytes=SIZE" },
	[OPT_MAX_BYTES] = { "--max-bytes", 1, "a value: --max-bytes=SIZE" },
	[OPT_COMMSIZES] = { "--commsizes", 1, "a value: --commsizes=LIST" },
	[OPT_TIMEOUT] = { "--timeout", 1, "a value: --timeout=SECONDS" },
	[OPT_REVEAL] = { "--reveal", 2, "" },
	[OPT_REVEAL_DIR] = { "--reveal-dir", 3, "a directory: --reveal-dir=DIR" },
	[OPT_BUFFERS] = { "--buffers", 2, "" },
	[OPT_CHECK_ARGS] = { "--check-args", 2, "" },
	[OPT_ALGO] = { "--algo", 3, "a list: --algo=alltoall,pairwise" },
	[OPT_ISOLATE] = { "--isolate", 2, "" },
	[OPT_CUDA_AWARE] = { "--cuda-aware", 1, "a value: --cuda-aware=auto|yes" },
	[OPT_TRANSPORT] = { "--transport", 1, "a value: --transport=mpi|nccl" },
	[OPT_SPLIT] = { "--split", 3, "a spec: --split=zipf:1.2 (see aller --help)" },
	[OPT_TIMING] = { "--timing", 1, "a value: --timing=barrier|loop|osu" },
	[OPT_COLD_CACHE] = { "--cold-cache", 2, "" },
	[OPT_TIME_PER_SIZE] = { "--time-per-size", 1, "a value: --time-per-size=SECONDS" },
	[OPT_MIN_ITERS] = { "--min-iters", 1, "a value: --min-iters=N" },
	[OPT_SAMPLES] = { "--samples", 3, "a directory: --samples=DIR" },
	[OPT_PAIRS] = { "--pairs", 2, "" },
	[OPT_SLOW_BELOW] = { "--slow-below", 1, "a value: --slow-below=F (0 < F < 1)" },
	[OPT_CONGESTION] = { "--congestion", 3, "a value: --congestion=FRACTION[:ALGO[:SIZE]]" },
};

static int apply_option(struct options *o, enum option_id id, const char *val, char *err,
			size_t errlen)
{
	int i;

	switch (id) {
	case OPT_HELP:
	case OPT_HELP_SHORT:
		o->help = 1;
		return 0;
	case OPT_VERSION:
		o->version = 1;
		return 0;
	case OPT_NO_VERIFY:
		o->verify = VERIFY_NONE;
		return 0;
	case OPT_FRESH:
		o->fresh = 1;
		return 0;
	case OPT_VERIFY:
		if (choose(CHOICE("verify mode", "'all', 'warmup' and 'none'", -1, "all", "warmup",
				  "none"), val, &i, err, errlen) != 0)
			return -1;
		o->verify = (enum verify_mode)i;
		return 0;
	case OPT_WARMUP:
		return option_long("--warmup", "warm-up count", val, 0, OPTIONS_MAX_WARMUP,
				   &o->warmup, err, errlen);
	case OPT_MIN_BYTES:
		return select_parse_size("--min-bytes", val, &o->sel.min_bytes, err, errlen);
	case OPT_MAX_BYTES:
		return select_parse_size("--max-bytes", val, &o->sel.max_bytes, err, errlen);
	case OPT_COMMSIZES:
		return select_parse_commsizes(&o->sel, val, err, errlen);
	case OPT_TIMEOUT:
		return option_long("--timeout", "timeout", val, 0, OPTIONS_MAX_TIMEOUT,
				   &o->timeout, err, errlen);
	case OPT_REVEAL:
		if (choose(CHOICE("reveal tier", "'auto', 'coll', 'pml', 'generic' and 'queues'", 0,
				  "auto", "coll", "pml", "generic", "queues"), val, &i, err, errlen) != 0)
			return -1;
		o->reveal = (enum reveal_tier)(REVEAL_AUTO + i);
		return 0;
	case OPT_REVEAL_DIR:
		o->reveal_dir = val;
		return 0;
	case OPT_BUFFERS:
		if (choose(CHOICE("buffers", "'host' and 'cuda'", -1, "host", "cuda"), val, &i, err,
			   errlen) != 0)
			return -1;
		o->buffers = i == 0 ? BUFFERS_HOST : BUFFERS_CUDA;
		o->buffers_given = 1;
		return 0;
	case OPT_CHECK_ARGS:
		o->check_args = 0;
		o->check_worlds = val;
		for (const char *w = val; w; w = strchr(w, ',') ? strchr(w, ',') + 1 : NULL) {
			char one[32];
			snprintf(one, sizeof(one), "%.*s", (int)strcspn(w, ","), w);
			if (option_long("--check-args", "world size", one, 1, 1L << 40, &o->check_args,
					err, errlen) != 0)
				return -1;
		}
		return 0;
	case OPT_ALGO:
		return option_algo(o, val, err, errlen);
	case OPT_ISOLATE:
		if (choose(CHOICE("isolate", "'--isolate' (communicator 0), '--isolate=all' and "
				  "'--isolate=none'", 1, "none", "0", "all"), val, &i, err, errlen) != 0)
			return -1;
		o->isolate = (enum isolate_mode)i;
		return 0;
	case OPT_CUDA_AWARE:
		if (choose(CHOICE("cuda-aware", "'auto' (ask the MPI library) and 'yes'", -1, "auto",
				  "yes"), val, &i, err, errlen) != 0)
			return -1;
		o->cuda_aware = i;
		return 0;
	case OPT_TRANSPORT:
		if (choose(CHOICE("transport", "'mpi' and 'nccl'", -1, "mpi", "nccl"), val, &i, err,
			   errlen) != 0)
			return -1;
		o->transport = (enum transport)i;
		return 0;
	case OPT_SPLIT:
		return option_split(o, val, err, errlen);
	case OPT_TIMING:
		if (choose(CHOICE("timing", "'barrier' (aller's: a world barrier before each call), "
				  "'loop' (IMB's) and 'osu' (OSU's)", -1, "barrier", "loop", "osu"), val, &i,
			   err, errlen) != 0)
			return -1;
		o->timing = (enum timing_mode)i;
		return 0;
	case OPT_COLD_CACHE:
		return option_cold_cache(o, val, err, errlen);
	case OPT_TIME_PER_SIZE:
		return option_budget(o, val, err, errlen);
	case OPT_MIN_ITERS:
		return option_long("--min-iters", "minimum iterations", val, 1, OPTIONS_MAX_ITERS,
				   &o->min_iters, err, errlen);
	case OPT_SAMPLES:
		o->samples = val;
		return 0;
	case OPT_PAIRS:
		o->pairs = OPTIONS_DEFAULT_PAIRS;
		return val ? select_parse_size_in("--pairs", val, 8, OPTIONS_MAX_PAIRS, "per message",
						  &o->pairs, err, errlen) : 0;
	case OPT_SLOW_BELOW:
		return option_slow_below(o, val, err, errlen);
	case OPT_CONGESTION:
		return option_congestion(o, val, err, errlen);
	case OPT_COUNT:
		break;
	}
	return -1;
}

/*
 * An option that sets one thing is given once: a second would silently win
 * (--split adds a split each time; --no-verify is --verify=none).
 */
static int once(struct options *o, enum option_id id, char *err, size_t errlen)
{
	enum option_id as = id == OPT_NO_VERIFY ? OPT_VERIFY : id == OPT_HELP_SHORT ? OPT_HELP : id;
	unsigned long long bit = 1ULL << as;

	if (id == OPT_SPLIT || as == OPT_HELP || id == OPT_VERSION || id == OPT_FRESH)
		return 0;
	if (o->given & bit) {
		snprintf(err, errlen, "option '%s' is given twice: give it once%s",
			 option_table[id].name, as == OPT_VERIFY ? " (--no-verify is --verify=none)"
			 : "");
		return -1;
	}
	o->given |= bit;
	return 0;
}

/* An option that only acts with another (given without it, it would be ignored); 0 or -1. */
static int needs_check(const struct options *o, char *err, size_t errlen)
{
	const struct { enum option_id opt; int acts; const char *needs; } rules[] = {
		{ OPT_SLOW_BELOW, o->pairs > 0, "--pairs, whose links it judges" },
		{ OPT_MIN_ITERS, o->time_per_size > 0, "--time-per-size, whose budget it bounds" },
		{ OPT_CUDA_AWARE, o->buffers == BUFFERS_CUDA && o->transport == TRANSPORT_MPI,
		  "--buffers=cuda, whose device pointers MPI takes" },
		{ OPT_REVEAL_DIR, o->reveal != REVEAL_OFF, "--reveal, whose traffic matrices go there" },
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if ((o->given >> rules[i].opt & 1) && !rules[i].acts) {
			snprintf(err, errlen, "'%s' does nothing here: it acts only with %s",
				 option_table[rules[i].opt].name, rules[i].needs);
			return -1;
		}
	return 0;
}

static int parse_option(struct options *o, const char *arg, char *err, size_t errlen)
{
	const char *val = strchr(arg, '=');
	size_t namelen = val ? (size_t)(val - arg) : strlen(arg);

	if (val)
		val++;
	for (int id = 0; id < OPT_COUNT; id++) {
		const char *name = option_table[id].name;
		if (namelen != strlen(name) || strncmp(arg, name, namelen) != 0)
			continue;
		if (val && option_table[id].value == 0) {
			snprintf(err, errlen, "option '%s' takes no value", name);
			return -1;
		}
		if ((!val && option_table[id].value == 1) ||
		    ((!val || !*val) && option_table[id].value == 3)) {
			snprintf(err, errlen, "option '%s' needs %s", name, option_table[id].usage);
			return -1;
		}
		if (once(o, (enum option_id)id, err, errlen) != 0)
			return -1;
		return apply_option(o, (enum option_id)id, val, err, errlen);
	}
	snprintf(err, errlen, "unknown option '%s' (see 'aller --help')", arg);
	return -1;
}

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	int npos = 0, only_positional = 0, longs_given = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!only_positional && strcmp(a, "--") == 0) {
			only_positional = 1;
			continue;
		}
		/* "-5" is a (non-positive) count, not an option, after MODE. */
		if (!only_positional && a[0] == '-' && !(npos > 0 && looks_numeric(a))) {
			if (parse_option(o, a, err, errlen) != 0)
				return -1;
			continue;
		}
		switch (npos++) {
		case 0:
			if (a[0] == '\0') {
				snprintf(err, errlen, "empty mode '': use 'strided' or 'contiguous'");
				return -1;
			}
			o->strided = (a[0] == 's' || a[0] == 'S');
			break;
		case 1:
			if (parse_count("iterations", a, OPTIONS_DEFAULT_ITERS,
					OPTIONS_MAX_ITERS, &o->iters, err, errlen) != 0)
				return -1;
			break;
		case 2:
			if (parse_count("longs", a, OPTIONS_DEFAULT_LONGS,
					OPTIONS_MAX_LONGS, &o->longs, err, errlen) != 0)
				return -1;
			longs_given = strtol(a, NULL, 10) > 0;
			break;
		default:
			snprintf(err, errlen, "unexpected argument '%s': at most MODE ITERS LONGS", a);
			return -1;
		}
	}
	if (transport_check(o, err, errlen) != 0 || split_check(o, err, errlen) != 0 ||
	    modes_check(o, err, errlen) != 0 || pairs_check(o, longs_given, err, errlen) != 0 ||
	    congestion_check(o, err, errlen) != 0 || needs_check(o, err, errlen) != 0)
		return -1;
	if (o->verify == VERIFY_WARMUP && o->warmup == 0) {
		snprintf(err, errlen, "'--verify=warmup' checks the warm-up calls, and '--warmup=0' "
			 "leaves none: use --warmup=1 or more, or --verify=none");
		return -1;
	}
	return 0;
}
