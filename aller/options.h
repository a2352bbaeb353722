/* options.h: aller's command line, parsed without MPI. */
#ifndef ALLER_OPTIONS_H
#define ALLER_OPTIONS_H

#include <stddef.h>

#include "algo/algo_list.h"
#include "plan/floor.h"
#include "plan/select.h"
#include "plan/split.h"
#include "world/placement.h"

#define OPTIONS_DEFAULT_ITERS 3L
#define OPTIONS_DEFAULT_LONGS (128L * 1024 * 1024) /* 1 GiB of longs */
#define OPTIONS_MAX_ITERS 1000000L
#define OPTIONS_MAX_LONGS (1L << 59)
#define OPTIONS_DEFAULT_CONGEST_BYTES (64L << 10)
#define OPTIONS_MAX_CONGEST_BYTES (1L << 30)
#define OPTIONS_DEFAULT_PAIRS (1L << 20)   /* --pairs' bytes per message */
#define OPTIONS_MAX_PAIRS (1L << 33)   /* 2^30 longs: one int count */
#define OPTIONS_MAX_TIMEOUT 604800L /* one week */
#define OPTIONS_DEFAULT_TIMEOUT 600L /* seconds a call may take without --timeout (0: none) */
#define OPTIONS_DEFAULT_WARMUP 1L
#define OPTIONS_MAX_WARMUP 1000L

enum buffer_kind { BUFFERS_HOST, BUFFERS_CUDA };

/* --transport: MPI moves the data, or NCCL (MPI only bootstraps). */
enum transport { TRANSPORT_MPI, TRANSPORT_NCCL };

/* --isolate: nothing, communicator 0 alone, every communicator alone in turn. */
enum isolate_mode { ISOLATE_NONE, ISOLATE_FIRST, ISOLATE_ALL };

/* --timing: a world barrier before each call (aller's), back-to-back calls timed as
 * one loop (IMB's), or each call timed with a barrier after it (OSU's). */
enum timing_mode { TIMING_BARRIER, TIMING_LOOP, TIMING_OSU, TIMING_NCCL };
#define OPTIONS_MAX_TIME_PER_SIZE 86400.0
#define OPTIONS_DEFAULT_CI_MAX 1000L

/* --verify: every call, the warm-up calls only, or none. */
enum verify_mode { VERIFY_ALL, VERIFY_WARMUP, VERIFY_NONE };

/* --reveal tiers (reveal.h); OFF when not asked for. */
enum reveal_tier { REVEAL_OFF, REVEAL_AUTO, REVEAL_COLL, REVEAL_PML, REVEAL_GENERIC,
		   REVEAL_QUEUES };

struct options {
	int strided;          /* MODE begins with 's' or 'S' */
	long iters;           /* timed iterations, > 0 */
	long longs;           /* per-task buffer size in longs, > 0 */
	enum verify_mode verify;
	int fresh;            /* --fresh-data: send data rewritten before every call */
	long warmup;          /* untimed calls before the timed ones, >= 0 */
	struct selection sel; /* --commsizes, --min-bytes, --max-bytes */
	struct algo_list algos; /* --algo, in the order given */
	struct split splits[SPLIT_MAX]; /* --split, in the order given; default uniform alone */
	int nsplits;
	enum transport transport;
	int algos_given, buffers_given, splits_given;
	unsigned long long given; /* the options given, a bit per option (options.c's table) */
	enum isolate_mode isolate;
	long timeout;         /* seconds per call, 0 = none (OPTIONS_DEFAULT_TIMEOUT) */
	enum timing_mode timing;
	long cold_cache;      /* --cold-cache[=BYTES]: -1 off, 0 the last-level cache's size, else BYTES */
	double time_per_size; /* --time-per-size=SECONDS, 0: ITERS timed calls per count */
	long min_iters;       /* --min-iters: the fewest with a budget (ITERS the most) */
	double ci_rel;        /* --ci=REL[:MAX]: tmed's 95% interval within REL of it; 0 off */
	long ci_max;          /* ... at most MAX timed calls (OPTIONS_DEFAULT_CI_MAX, or ITERS) */
	struct floor min_busbw; /* --min-busbw=GBPS[@SIZE[+]]: rows below it fail the run */
	const char *json;     /* --json=FILE: the run as JSON lines too, or NULL */
	struct floor min_eff; /* --min-eff=F[@SIZE[+]]: the same under eff */
	double line_rate;     /* --line-rate=GBPS: each node's NIC rate, declared; 0: sysfs's */
	const char *line_rate_by; /* ... who declared it: "--line-rate" or "ALLER_LINE_RATE" */
	const struct stack *stack;   /* --stack=NAME or ALLER_STACK (common/stacks.h), or NULL */
	const char *stack_by;        /* ... who named it */
	char stack_set[768];         /* ... what it set before MPI_Init, "VAR=value ..." */
	const char *fabric;   /* --fabric=FILE: the site's fabric file (common/fabricfile.h), or NULL */
	const char *samples;  /* --samples=DIR, or NULL */
	long pairs;           /* --pairs[=SIZE]: bytes per message of the node-pair matrix; 0 off */
	double slow_below;    /* --slow-below=F: a link below F x the median is slow (0.8) */
	double congestion;    /* --congestion=F[:ALGO[:SIZE]]: the aggressors' share of the world; 0 off */
	struct placement placement; /* --placement: the world's order before the partitions */
	int moe;              /* --moe: each call a step's round trip: counts, dispatch, combine */
	enum algo_id congest_algo; /* ... what they run back to back (alltoall) */
	long congest_bytes;   /* ... and its bytes per peer (64K) */
	enum buffer_kind buffers;
	int cuda_aware;       /* --cuda-aware=yes: the user's word (GPU_AWARE_YES), else ask */
	enum reveal_tier reveal;
	const char *reveal_dir; /* --reveal-dir, or NULL for the default */
	long check_args;      /* --check-args[=WORLD]: -1 no, 0 without a world, else its size */
	const char *check_worlds; /* --check-args=W,W,...: every one (check_args the first) */
	const char *nodes;    /* --nodes=LIST: with --check-args and --fabric, the world's nodes (plan/foresee.h) */
	long tasks_per_node;  /* --tasks-per-node=N: ... at most N tasks each; 0: WORLD / nodes */
	int help, version;
};

void options_init(struct options *o);

/*
 * Parses argv[1..argc-1]. Returns 0, or -1 with a one-line message (without
 * the program name) in err.
 */
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen);
/*
 * ALLER_LINE_RATE's value (NULL or "": none), the line rate where --line-rate
 * does not declare one (a site's prolog or module sets it): 0, or -1 with a
 * one-line message naming the variable.
 */
int options_line_rate_env(struct options *o, const char *val, char *err, size_t errlen);
/* ALLER_STACK's value (NULL or "": none), the stack where --stack names none: 0, or -1 with one line. */
int options_stack_env(struct options *o, const char *val, char *err, size_t errlen);

/*
 * --congestion: whether world rank r is an aggressor (spread evenly: r is
 * one when floor((r + 1) F) > floor(r F)), and how many of a world are; the
 * victims are the others, in rank order.
 */
int options_aggressor(const struct options *o, long r);
long options_aggressors(const struct options *o, long world);

/* Whether any --split is uneven. */
int options_uneven(const struct options *o);
/* The most timed calls of one count: ITERS, or --ci's MAX when larger. */
long options_calls_max(const struct options *o);

/* "none", "communicator 0", "every communicator". */
const char *options_isolate_name(enum isolate_mode m);

/* "barrier", "loop", "osu". */
const char *options_timing_name(enum timing_mode t);

/* "all", "warmup", "none". */
const char *options_verify_name(enum verify_mode v);

/* Prints the usage text. */
const char *options_usage(void);

#endif
