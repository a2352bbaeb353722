/* point.h: one aller output file (a campaign point) and its rows. */
#ifndef COLLECT_POINT_H
#define COLLECT_POINT_H

#include <stddef.h>
#include <stdint.h>

#include "fabric.h"
#include "format.h"

/* A data row: the line's text is kept, so numbers are copied, never rewritten. */
struct crow {
	long comms, commsize, count;
	long text;                   /* offset of the line in the group's arena */
	uint16_t off[ALLER_NCOLS];   /* each column's offset in the line */
	uint16_t len[ALLER_NCOLS];
	uint8_t ncols;               /* one of format.h's ALLER_FORMAT_COLUMNS */
	uint8_t algo;                /* the data set's algorithm (ALLER_ALGO_NAMES) */
	uint8_t split;               /* ... and its split (splits.h; 0 uniform) */
	int level;                   /* index of the data set in the file */
	int point;                   /* index of its point */
};

enum point_state { POINT_COMPLETE, POINT_INCOMPLETE, POINT_FAILED };

/*
 * The header keys collect reads, one line each: X(KEY, how, field, fact),
 * KEY common/format.h's ALLER_KEY_<KEY>; how it sets the point
 * (collect/read/parse.c): STR a text field, LONG a number field (the first
 * occurrence wins; -1 when not a number), HEADER aller's own header begins
 * (and a setting), PROVENANCE the job template's lines begin (and a text
 * field), REVEAL a text field unless reveal was unavailable, EXIT aller's
 * exit status, INCOMPLETE the job marked it (and a text field), SETTING a
 * setting that shapes a measurement (setting[PS_<KEY>], for comparisons and
 * facts.tsv's setting lines, in this order), FAILED and FLOOR counted (and a
 * text field), NONE nothing; fact 1: every line of it also a fact of the
 * point (merged/facts.tsv).
 */
#define POINT_KEYS(X) \
	X(ALLER, HEADER, -, 0) \
	X(CAMPAIGN, PROVENANCE, campaign, 1) \
	X(MODE, STR, mode, 0) \
	X(POINT_MODE, STR, mode, 0) \
	X(TPN, STR, tpn, 0) \
	X(BUFFERS, STR, buffers, 0) \
	X(MPI, STR, mpi, 1) \
	X(JOB, STR, job, 0) \
	X(SLURM_JOB, STR, job, 0) \
	X(START, STR, start, 1) \
	X(REVEAL, REVEAL, reveal, 0) \
	X(NODES, LONG, nodes, 0) \
	X(POINT_NODES, LONG, nodes, 0) \
	X(WORLD, LONG, world, 0) \
	X(RESTART, LONG, restart, 0) \
	X(ATTEMPT, LONG, attempt, 0) \
	X(EXIT, EXIT, exit_code, 0) \
	X(INCOMPLETE, INCOMPLETE, incomplete, 0) \
	X(FAILED, FAILED, failed, 0) \
	X(FLOOR_FAILED, FLOOR, floor, 1) \
	X(POINT_SERIES, STR, series, 0) \
	X(POINT_BASE, STR, base, 0) \
	X(POINT, STR, key, 0) \
	X(VARIANT, STR, variant, 0) \
	X(ITERS, SETTING, -, 0) \
	X(WARMUP, SETTING, -, 0) \
	X(LONGS, SETTING, -, 0) \
	X(VERIFY, SETTING, -, 0) \
	X(DATA, SETTING, -, 0) \
	X(SELECTION, SETTING, -, 0) \
	X(VARIANT_ENV, SETTING, -, 0) \
	X(LAUNCHER, SETTING, -, 0) \
	X(ALGOS, SETTING, -, 0) \
	X(ISOLATE, SETTING, -, 0) \
	X(TRANSPORT, SETTING, -, 0) \
	X(SPLITS, SETTING, -, 0) \
	X(TIMING, SETTING, -, 0) \
	X(CACHE, SETTING, -, 0) \
	X(BUDGET, SETTING, -, 0) \
	X(MODULES, SETTING, -, 0) \
	X(CONGESTION, SETTING, -, 0) \
	X(PLACEMENT, SETTING, -, 0) \
	X(STACK, SETTING, -, 0) \
	X(JOB_ERROR, STR, job_error, 0) \
	X(PAIRS, STR, pairs, 1) \
	X(FORMAT, STR, format, 0) \
	X(HOST, NONE, -, 1) \
	X(NODE_SWITCH, NONE, -, 1) \
	X(SLOW_LINK, NONE, -, 1) \
	X(SLOW_LINKS, NONE, -, 1) \
	X(PLACED, NONE, -, 1) \
	X(MOE, NONE, -, 1) \
	X(FABRIC, NONE, -, 1) \
	X(LIMIT, NONE, -, 1) \
	X(DEVICE, NONE, -, 1) \
	X(REVEAL_DIR, NONE, -, 1) \
	X(TEST_HOOKS, NONE, -, 1) \
	X(SIMULATED, NONE, -, 1) \
	X(NIC_COUNTERS, NONE, -, 1)

/* The settings: POINT_KEYS' HEADER and SETTING lines, in order (POINT_IF_SETTING(how, x): x, or nothing). */
#define POINT_IF_SETTING(how, x) POINT_IF_SETTING_##how(x)
#define POINT_IF_SETTING_HEADER(x) x,
#define POINT_IF_SETTING_SETTING(x) x,
#define POINT_IF_SETTING_STR(x)
#define POINT_IF_SETTING_LONG(x)
#define POINT_IF_SETTING_PROVENANCE(x)
#define POINT_IF_SETTING_REVEAL(x)
#define POINT_IF_SETTING_EXIT(x)
#define POINT_IF_SETTING_INCOMPLETE(x)
#define POINT_IF_SETTING_FAILED(x)
#define POINT_IF_SETTING_FLOOR(x)
#define POINT_IF_SETTING_NONE(x)
#define POINT_PS_(k, how, field, fact) POINT_IF_SETTING(how, PS_##k)
enum point_setting { POINT_KEYS(POINT_PS_) PS_NSETTINGS };
extern const char *const point_setting_names[PS_NSETTINGS];

struct point {
	char *path;
	/* keys, from the header comments (NULL when absent) */
	char *campaign, *mode, *tpn, *buffers, *mpi, *job, *start, *reveal;
	char *series, *variant;      /* a campaign point's identity, but nodes and mode */
	char *key, *base;            /* its key; its series less its placement (the manifest's) */
	char *incomplete;            /* the job's '# incomplete:' text */
	char *failed;                /* the first '# failed:' text (a data set's set-up) */
	char *floor;                 /* the first '# floor_failed:' text (a row below --min-busbw) */
	char *pairs;                 /* '# pairs:': an aller --pairs matrix, no data sets */
	char *job_error;             /* '# job_error:': the job failed before aller (module load) */
	char *format;                /* '# format:' as written (absent: format 1) */
	/* what the plots and the report read of it (merged/facts.tsv): "key\tvalue\n" lines
	 * in file order (mpi, host, node_switch, pair_host, slow_link, slow_links) */
	char *facts;
	size_t nfacts, facts_cap;    /* its length, its room (grow.h) */
	int facts_cut;               /* facts dropped past POINT_FACTS_MAX */
	/* an aller --pairs matrix: "SRC DST GBS\n" lines, a blank line after each sender
	 * (gnuplot's image; merged/pairs.dat) */
	char *matrix;
	size_t nmatrix, matrix_cap;
	long matrix_src;             /* the last line's sender */
	long failed_sets;            /* data sets that say '# failed:' */
	long floor_failed;           /* rows below the run's floor ('# floor_failed:') */
	char *setting[PS_NSETTINGS]; /* NULL when absent */
	long nodes, world, restart, attempt, exit_code; /* -1 when absent */
	/* aller's own header beside the job's provenance lines (nodes and mode above: the job's
	 * where it wrote them): how many headers, its mode and node count; the job's tasks */
	long headers, own_nodes, tasks;
	char *own_mode;
	int has_header, has_provenance, done, marked_incomplete;
	long nrows, first_row;       /* its rows in the group, after parsing */
	long id;                     /* its row of points-index.csv, once written (-1 before) */
	const struct fabric *fabric; /* its fabric from its facts, on first use (point_fabric; fabric_shared's) */
	int fabric_read;             /* whether point_fabric has tried */
	double llc, llc_tasks;       /* point_llc's, once read */
	int llc_read;
	int superseded;
};

/* Its fabric (fabric.h), read from its facts on the first call; NULL when they do not say it. */
const struct fabric *point_fabric(struct point *p);
/*
 * The smallest last-level cache of its nodes ('# limit: cache NODE: N bytes'),
 * times its most tasks on a node (tasks_per_node "N" or "MIN-MAX") in *tasks;
 * 0 where its output does not say.
 */
double point_llc(struct point *p, double *tasks);
/* Its fabric let go (a merge holds a group's at a time); point_fabric reads it again if asked. */
void point_fabric_release(struct point *p);
/* Empty, with the numbers absent (-1). */
void point_init(struct point *p);
void point_release(struct point *p);
/*
 * The one definition of a point's state (the campaign scripts ask it
 * through 'collect --state'):
 *   incomplete  the job marked it ('# incomplete: ...', its time limit), or
 *               aller was ended by SIGTERM, SIGUSR1, SIGINT, SIGHUP or SIGKILL
 *               (time limit, scancel, preemption), or it has no '# Done';
 *   failed      aller exited non-zero otherwise, or never started (the job's
 *               provenance lines and nothing after them), or a data set's
 *               set-up failed ('# failed: ...'; the other data sets' rows count),
 *               or its '# format:' is not one this collect reads (point_format_ok),
 *               or the file holds more than one aller header (separate worlds of
 *               a launcher its MPI did not speak), or aller's header contradicts
 *               the job's provenance (its mode, node count, or a world other than
 *               the job's tasks: point_mismatch);
 *   complete    '# Done' and exit 0 (or no exit line: a plain aller output).
 */
enum point_state point_state(const struct point *p);
/* Where aller's header contradicts the job's provenance lines, in a few words into buf; 0 when it does not. */
int point_mismatch(const struct point *p, char *buf, size_t len);
/* Why a point is not complete, in a few words ("" when it is). */
void point_reason(const struct point *p, char *buf, size_t len);
const char *point_state_name(enum point_state s);
/* Whether its '# format:' is one this collect reads: absent (1), or 1..ALLER_FORMAT_VERSION. */
int point_format_ok(const struct point *p);
/* strcmp with NULL as "". */
int point_strcmp(const char *a, const char *b);
/*
 * Its key: the job's '# point:' (the manifest's), else "n<nodes>-<mode>"
 * (outside a campaign). Into out.
 */
void point_key(const struct point *p, char *out, size_t len);
/*
 * Its series less its placement (a campaign's points of one series across
 * placements): the job's '# point_base:' (the manifest's point_parse), else
 * its series. Into out. (Outputs of the toolkit before it wrote the line:
 * point_series_base.)
 */
void point_base(const struct point *p, char *out, size_t len);
/*
 * Outputs written before the job wrote '# point_base:' (round four): a
 * point of another placement has it at the end of its series
 * ("t2-L0-default-s1-cyclic"; random:7 as "-random7"): the series less that
 * suffix into out, the series itself otherwise ("" for NULL).
 */
void point_series_base(const char *series, const char *placement, char *out, size_t len);
/*
 * Groups: points of one identity but their node count, so a re-run can
 * supersede only a point of the same identity. A campaign's points say it
 * in their provenance (point_series: tasks per node, LONGS, variant, series
 * of settings, the MPI library among them; also for failed points, which
 * have no aller header); older campaigns fixed tasks per node and buffers;
 * outside campaigns, aller's header tells them (and the library). Points
 * whose job wrote their base (point_base) are grouped by campaign, mode,
 * series and variant alone: the series is every identity setting.
 * Instrumented runs, other transports, other lists of algorithms or
 * splits, other timings (--timing), cold caches and budgets stay apart. 0 when a and b are of one group.
 */
int point_cmp_group(const struct point *a, const struct point *b);
/* Newest complete job wins: >0 when a should replace b (same point). */
int point_newer(const struct point *a, const struct point *b);
/* Two attempts of one job (its id and restart: aller.sbatch's retries), not of two jobs. */
int point_same_job(const struct point *a, const struct point *b);

/*
 * Appends "key\tvalue\n" to the point's facts (merged/facts.tsv), tabs in
 * the value as spaces; at most POINT_FACTS_MAX bytes in all (a doctored
 * file cannot grow them: a fabric of 10^5 NICs takes 6 MB), the rest dropped
 * and counted (facts_cut). 0, or -1 dropped (past the room, or memory).
 */
#define POINT_FACTS_MAX (1L << 26)
#define POINT_FACTS_TEXT "64 MiB"
int point_add_fact(struct point *pt, const char *key, const char *val, size_t vlen);
/*
 * An earlier attempt of the winner's job in the winner's facts (merged.h's
 * MERGED_FACT_RETRIED lines): the loser's own such lines, then how it ended.
 */
void point_tell_retry(struct point *winner, const struct point *loser);

#endif
