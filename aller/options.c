/*
 * options.c: aller's command line: [MODE] [ITERS] [LONGS] and GNU long
 * options, parsed by the table of options_table.c.
 */
#include "options_impl.h"
#include "bytes.h"

#include <limits.h>
#include <math.h>
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

long options_calls_max(const struct options *o)
{
	return o->ci_rel > 0 && o->ci_max > o->iters ? o->ci_max : o->iters;
}

int options_uneven(const struct options *o)
{
	for (int i = 0; i < o->nsplits; i++)
		if (split_uneven(&o->splits[i]))
			return 1;
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

const char *options_isolate_name(enum isolate_mode m)
{
	return m == ISOLATE_NONE ? "none" : m == ISOLATE_FIRST ? "communicator 0"
							       : "every communicator";
}

const char *options_timing_name(enum timing_mode t)
{
	return t == TIMING_BARRIER ? "barrier" : t == TIMING_LOOP ? "loop" : t == TIMING_OSU ? "osu"
											  : "nccl";
}

const char *options_verify_name(enum verify_mode v)
{
	return v == VERIFY_ALL ? "all" : v == VERIFY_WARMUP ? "warmup" : "none";
}

/* A positional count: <= 0 means default, else at most max. */
static int parse_count(const char *what, const char *s, long def, long max,
		       long *out, char *err, size_t errlen)
{
	long v;
	int rc = parse_long(s, LONG_MIN, LONG_MAX, &v);

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
	return parse_long(s, LONG_MIN, LONG_MAX, &v) != -1;
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

/*
 * Uneven splits need an algorithm that sends blocks of their own sizes:
 * alltoallv (the default then), pairwise, put, or NCCL's grouped sends.
 */
static int split_check(struct options *o, char *err, size_t errlen)
{
	const char *uneven = NULL;
	char allowed[256];

	for (int i = 0; i < o->nsplits && !uneven; i++)
		if (split_uneven(&o->splits[i]))
			uneven = o->splits[i].spec;
	if (!uneven && o->moe)
		uneven = "uniform --moe";
	if (!uneven)
		return 0;
	if (!o->algos_given && o->transport != TRANSPORT_NCCL) {
		o->algos.id[0] = ALGO_ALLTOALLV;
		o->algos.n = 1;
	}
	for (int i = 0; i < o->algos.n; i++)
		if (o->moe && !algo_can(o->algos.id[i], ALGO_CAN_MOE)) {
			algo_can_list(ALGO_CAN_MOE, 1, allowed, sizeof(allowed));
			snprintf(err, errlen, "--moe's dispatch and combine cannot run as %s: allowed "
				 "with it are %s", algo_name(o->algos.id[i]), allowed);
			return -1;
		} else if (!algo_can(o->algos.id[i], ALGO_CAN_SPLIT)) {
			algo_can_list(ALGO_CAN_SPLIT, 1, allowed, sizeof(allowed));
			snprintf(err, errlen, "--split=%s sends uneven blocks, which %s cannot: allowed "
				 "with it are %s", uneven, algo_name(o->algos.id[i]), allowed);
			return -1;
		}
	return 0;
}

/*
 * What --time-per-size needs of --warmup and --min-iters, and --ci of ITERS;
 * 0 or -1 with a message.
 */
static int modes_check(struct options *o, char *err, size_t errlen)
{
	if (o->ci_rel > 0 && o->ci_max == 0)   /* the default MAX: never fewer than ITERS */
		o->ci_max = o->iters > OPTIONS_DEFAULT_CI_MAX ? o->iters : OPTIONS_DEFAULT_CI_MAX;
	if (o->ci_rel > 0 && o->ci_max < o->iters) {
		snprintf(err, errlen, "'--ci=%g:%ld': MAX is less than ITERS (%ld), the fewest "
			 "timed calls: raise MAX or lower ITERS", o->ci_rel, o->ci_max, o->iters);
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

/* The settings a conflict names (options_impl.h's OPTION_FEATURES), by name. */
#define FEATURE_NAME(n, name, on) [F_##n] = name,
static const char *const feature_names[F_COUNT] = { OPTION_FEATURES(FEATURE_NAME) };
#undef FEATURE_NAME

/* Which of them the parsed options have on, a bit each. */
static unsigned features(const struct options *o, int longs_given)
{
	unsigned f = 0;
	int moving = 0;

	for (int i = 0; i < o->nsplits; i++)
		moving |= split_varies(&o->splits[i]);
#define FEATURE_ON(n, name, on) f |= (on) ? FEATURE(F_##n) : 0;
	OPTION_FEATURES(FEATURE_ON)
#undef FEATURE_ON
	return f;
}

/*
 * What an option cannot go with (--pairs and --congestion, runs of their
 * own; --timing=loop; --cold-cache): one loop over the table, naming the
 * first such setting; 0, or -1 with a message.
 */
static int conflicts_check(const struct options *o, int longs_given, char *err, size_t errlen)
{
	unsigned f = features(o, longs_given);

	for (int id = 0; id < OPT_COUNT; id++) {
		const struct option_def *d = &options_table[id];
		unsigned clash = d->excludes & f;
		if (!d->alone || !(f & FEATURE(d->is)) || !clash)
			continue;
		for (int i = 0; i < F_COUNT; i++)
			if (clash & FEATURE(i)) {
				snprintf(err, errlen, "'%s' %s not with %s", feature_names[d->is],
					 d->alone, feature_names[i]);
				return -1;
			}
	}
	return 0;
}

/*
 * An option that sets one thing is given once: a second would silently win
 * (--split adds a split each time; --no-verify is --verify=none).
 */
static int once(struct options *o, enum option_id id, char *err, size_t errlen)
{
	enum option_id as = options_table[id].as == OPT_COUNT ? id : options_table[id].as;
	unsigned long long bit = 1ULL << as;

	if (options_table[id].repeats)
		return 0;
	if (o->given & bit) {
		const char *twice = options_table[as].twice;
		snprintf(err, errlen, "option '%s' is given twice: give it once%s%s%s",
			 options_table[as].name, twice ? " (" : "", twice ? twice : "",
			 twice ? ")" : "");
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
		{ OPT_MIN_BUSBW, o->pairs == 0, "a sweep, whose rows it judges (not --pairs)" },
		{ OPT_MIN_EFF, o->pairs == 0, "a sweep, whose rows it judges (not --pairs)" },
		{ OPT_JSON, o->pairs == 0, "a sweep, whose rows it writes (not --pairs)" },
		{ OPT_MIN_ITERS, o->time_per_size > 0, "--time-per-size, whose budget it bounds" },
		{ OPT_CUDA_AWARE, o->buffers == BUFFERS_CUDA && o->transport == TRANSPORT_MPI,
		  "--buffers=cuda, whose device pointers MPI takes" },
		{ OPT_REVEAL_DIR, o->reveal != REVEAL_OFF, "--reveal, whose traffic matrices go there" },
		{ OPT_TIMING, o->timing != TIMING_NCCL || o->transport == TRANSPORT_NCCL,
		  "--transport=nccl, whose stream --timing=nccl times" },
		{ OPT_NODES, o->check_args > 0 && o->fabric, "--check-args=WORLD and --fabric=FILE, whose "
		  "world's bound it prints" },
		{ OPT_TASKS_PER_NODE, o->nodes != NULL, "--nodes, whose tasks it counts" },
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if ((o->given >> rules[i].opt & 1) && !rules[i].acts) {
			snprintf(err, errlen, "'%s' does nothing here: it acts only with %s",
				 options_table[rules[i].opt].name, rules[i].needs);
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
		const char *name = options_table[id].name;
		if (namelen != strlen(name) || strncmp(arg, name, namelen) != 0)
			continue;
		if (val && options_table[id].value == VALUE_NONE) {
			snprintf(err, errlen, "option '%s' takes no value", name);
			return -1;
		}
		if ((!val && options_table[id].value == VALUE_NEEDS) ||
		    ((!val || !*val) && options_table[id].value == VALUE_NONEMPTY)) {
			snprintf(err, errlen, "option '%s' needs %s", name, options_table[id].needs);
			return -1;
		}
		if (once(o, (enum option_id)id, err, errlen) != 0)
			return -1;
		return options_table[id].set(o, val, err, errlen);
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
	    modes_check(o, err, errlen) != 0 || conflicts_check(o, longs_given, err, errlen) != 0 ||
	    needs_check(o, err, errlen) != 0)
		return -1;
	if (o->pairs > 0)   /* its buffers: one message */
		o->longs = (o->pairs + (long)sizeof(long) - 1) / (long)sizeof(long);
	if (o->verify == VERIFY_WARMUP && o->warmup == 0) {
		snprintf(err, errlen, "'--verify=warmup' checks the warm-up calls, and '--warmup=0' "
			 "leaves none: use --warmup=1 or more, or --verify=none");
		return -1;
	}
	return 0;
}
