/*
 * options_impl.h: the table of aller's options (options_table.c), which
 * options.c's parser reads: one row per option with its name, the value it
 * takes, the setter that reads the value, what a missing value needs, its
 * lines of --help and what it cannot go with. Adding an option is one row
 * and its setter.
 */
#ifndef ALLER_OPTIONS_IMPL_H
#define ALLER_OPTIONS_IMPL_H

#include <stddef.h>

#include "options.h"

/* The options, in the order --help lists them. */
enum option_id { OPT_BUFFERS, OPT_CUDA_AWARE, OPT_VERIFY, OPT_NO_VERIFY, OPT_FRESH, OPT_WARMUP,
		 OPT_MIN_BYTES, OPT_MAX_BYTES, OPT_COMMSIZES, OPT_ALGO, OPT_SPLIT, OPT_MOE, OPT_PLACEMENT, OPT_TRANSPORT,
		 OPT_TIMING, OPT_COLD_CACHE, OPT_TIME_PER_SIZE, OPT_MIN_ITERS, OPT_CI, OPT_MIN_BUSBW, OPT_MIN_EFF, OPT_LINE_RATE, OPT_FABRIC, OPT_JSON, OPT_SAMPLES,
		 OPT_CONGESTION, OPT_PAIRS, OPT_SLOW_BELOW, OPT_ISOLATE, OPT_TIMEOUT, OPT_REVEAL,
		 OPT_REVEAL_DIR, OPT_CHECK_ARGS, OPT_NODES, OPT_TASKS_PER_NODE, OPT_STACK, OPT_VERSION, OPT_HELP, OPT_HELP_SHORT, OPT_COUNT };

/* What follows the name: nothing, "=VALUE", "=VALUE" or nothing, "=VALUE" not empty. */
enum option_value { VALUE_NONE, VALUE_NEEDS, VALUE_MAY, VALUE_NONEMPTY };

/*
 * A setting a conflict names, on or off in the parsed options (options.c's
 * features()); in the order a conflict names the first of several.
 */
/*
 * The settings an option's conflict names, one line each: X(NAME, how the
 * message names it, whether the parsed options o have it on; options.c's
 * features() evaluates it, with longs_given and moving, a --split that may
 * change from call to call).
 */
#define OPTION_FEATURES(X) \
	X(PAIRS, "--pairs", o->pairs > 0) \
	X(ALGO, "--algo", o->algos_given) \
	X(SPLIT, "--split", o->splits_given) \
	X(ISOLATE, "--isolate", o->isolate != ISOLATE_NONE) \
	X(REVEAL, "--reveal", o->reveal != REVEAL_OFF) \
	X(COLD_CACHE, "--cold-cache", o->cold_cache >= 0) \
	X(BUDGET, "--time-per-size", o->time_per_size > 0) \
	X(SAMPLES, "--samples", o->samples != NULL) \
	X(NCCL, "--transport=nccl", o->transport != TRANSPORT_MPI) \
	X(CUDA, "--buffers=cuda", o->buffers == BUFFERS_CUDA) \
	X(STRIDED, "MODE strided", o->strided) \
	X(TIMING, "--timing", o->timing != TIMING_BARRIER) \
	X(FRESH, "--fresh-data", o->fresh) \
	X(LONGS, "a LONGS above 0 (the buffers are SIZE bytes)", longs_given) \
	X(SELECTION, "--commsizes, --min-bytes or --max-bytes", \
	  o->sel.min_bytes || o->sel.max_bytes || o->sel.ncommsizes) \
	X(CONGESTION, "--congestion", o->congestion > 0) \
	X(LOOP, "--timing=loop|nccl", o->timing == TIMING_LOOP || o->timing == TIMING_NCCL) \
	X(MOVING, "a --split that may change from call to call (rotate:, trace:)", moving) \
	X(PERSISTENT, "--algo=persistent, whose request holds one pair of buffers", \
	  algo_list_has(&o->algos, ALGO_PERSISTENT)) \
	X(CI, "--ci", o->ci_rel > 0) \
	X(PLACEMENT, "--placement", o->placement.kind != PLACEMENT_LAUNCHER) \
	X(MOE, "--moe", o->moe)
#define OPTION_FEATURE_ENUM(n, name, on) F_##n,
enum feature { OPTION_FEATURES(OPTION_FEATURE_ENUM) F_COUNT };
#undef OPTION_FEATURE_ENUM
#define FEATURE(f) (1u << (f))

struct option_def {
	const char *name;
	enum option_value value;
	/* reads the value (NULL when none was given); 0, or -1 with a message */
	int (*set)(struct options *o, const char *val, char *err, size_t errlen);
	const char *needs;   /* what "option 'NAME' needs" names when the value is missing */
	const char *help;    /* its lines of --help; NULL: another's lines describe it */
	/* given twice: an error naming the option it counts as (itself when it is
	 * OPT_COUNT), or allowed (repeats) */
	enum option_id as;
	int repeats;
	/* what it cannot go with: when the feature it turns on is on, the features it
	 * excludes, and why (the message: "'FEATURE' ALONE not with EXCLUDED") */
	enum feature is;
	unsigned excludes;
	const char *alone;
	const char *twice;   /* what "given twice" adds: another name it has */
};

extern const struct option_def options_table[OPT_COUNT];

#endif
