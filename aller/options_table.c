/*
 * options_table.c: aller's options, one row each (options_impl.h), their
 * setters, and --help made from the rows. options.c parses by the table.
 */
#include "options_impl.h"
#include "bytes.h"
#include "stacks.h"
#include "text.h"

#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole number in lo..hi for an option; 0 or -1 with a message. */
static int option_long(const char *what, const char *val, long lo, long hi, long *out,
		       char *err, size_t errlen)
{
	long v;

	if (parse_long(val, lo, hi, &v) != 0) {
		snprintf(err, errlen, "invalid %s '%s': expected %s, %ld..%ld", what, val,
			 strcmp(what, "timeout") == 0 ? "whole seconds" : "an integer", lo, hi);
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

/* The value's index in c; -1 with "invalid WHAT 'VAL': allowed are ...". */
static int choose(const struct choice *c, const char *val, char *err, size_t errlen)
{
	int i = val ? -1 : c->bare;

	for (int k = 0; val && k < c->n; k++)
		if (strcmp(val, c->names[k]) == 0)
			i = k;
	if (i < 0)
		snprintf(err, errlen, "invalid %s '%s': allowed are %s", c->what, val ? val : "",
			 c->allowed);
	return i;
}

#define SETTER(fn) static int fn(struct options *o, const char *val, char *err, size_t errlen)
#define UNUSED (void)val, (void)err, (void)errlen

SETTER(set_help) { UNUSED; o->help = 1; return 0; }
SETTER(set_version) { UNUSED; o->version = 1; return 0; }
SETTER(set_no_verify) { UNUSED; o->verify = VERIFY_NONE; return 0; }
SETTER(set_fresh) { UNUSED; o->fresh = 1; return 0; }
SETTER(set_reveal_dir) { UNUSED; o->reveal_dir = val; return 0; }
SETTER(set_samples) { UNUSED; o->samples = val; return 0; }

SETTER(set_verify)
{
	int i = choose(CHOICE("verify mode", "'all', 'warmup' and 'none'", -1, "all", "warmup",
			      "none"), val, err, errlen);
	return i < 0 ? -1 : (o->verify = (enum verify_mode)i, 0);
}

SETTER(set_reveal)
{
	int i = choose(CHOICE("reveal tier", "'auto', 'coll', 'pml', 'generic' and 'queues'", 0,
			      "auto", "coll", "pml", "generic", "queues"), val, err, errlen);
	return i < 0 ? -1 : (o->reveal = (enum reveal_tier)(REVEAL_AUTO + i), 0);
}

SETTER(set_buffers)
{
	int i = choose(CHOICE("buffers", "'host' and 'cuda'", -1, "host", "cuda"), val, err,
		       errlen);
	if (i < 0)
		return -1;
	o->buffers = i == 0 ? BUFFERS_HOST : BUFFERS_CUDA;
	o->buffers_given = 1;
	return 0;
}

SETTER(set_isolate)
{
	int i = choose(CHOICE("isolate", "'--isolate' (communicator 0), '--isolate=all' and "
			      "'--isolate=none'", 1, "none", "0", "all"), val, err, errlen);
	return i < 0 ? -1 : (o->isolate = (enum isolate_mode)i, 0);
}

SETTER(set_cuda_aware)
{
	int i = choose(CHOICE("cuda-aware", "'auto' (ask the MPI library) and 'yes'", -1, "auto",
			      "yes"), val, err, errlen);
	return i < 0 ? -1 : (o->cuda_aware = i, 0);
}

SETTER(set_transport)
{
	int i = choose(CHOICE("transport", "'mpi' and 'nccl'", -1, "mpi", "nccl"), val, err,
		       errlen);
	return i < 0 ? -1 : (o->transport = (enum transport)i, 0);
}

SETTER(set_timing)
{
	int i = choose(CHOICE("timing", "'barrier' (aller's: a world barrier before each call), "
			      "'loop' (IMB's), 'osu' (OSU's) and 'nccl' (nccl-tests': with "
			      "--transport=nccl)", -1, "barrier", "loop", "osu", "nccl"),
		       val, err, errlen);
	return i < 0 ? -1 : (o->timing = (enum timing_mode)i, 0);
}

SETTER(set_warmup)
{
	return option_long("warm-up count", val, 0, OPTIONS_MAX_WARMUP, &o->warmup, err, errlen);
}

SETTER(set_timeout)
{
	return option_long("timeout", val, 0, OPTIONS_MAX_TIMEOUT, &o->timeout, err, errlen);
}

SETTER(set_min_iters)
{
	return option_long("minimum iterations", val, 1, OPTIONS_MAX_ITERS, &o->min_iters, err,
			   errlen);
}

SETTER(set_min_bytes)
{
	return select_parse_size("--min-bytes", val, &o->sel.min_bytes, err, errlen);
}

SETTER(set_max_bytes)
{
	return select_parse_size("--max-bytes", val, &o->sel.max_bytes, err, errlen);
}

SETTER(set_commsizes) { return select_parse_commsizes(&o->sel, val, err, errlen); }

/*
 * --check-args=@FILE: the worlds from FILE (a campaign's list can be longer
 * than an argument may be: 128 KiB), read through the door (text.h), commas,
 * white space and blank lines between; each checked where it is (FILE:LINE);
 * kept for the run as a list, as the command line's are.
 */
static const char *worlds_from(const char *path, char *err, size_t errlen)
{
	static struct strbuf list;
	struct strbuf text;
	long line = 1, v;
	int rc = text_load(path, TEXT_WORLDS, &text, err, errlen);

	strbuf_release(&list);
	for (char *w = text.s; rc == 0 && *w; line += w[-1] == '\n') {
		size_t n = strcspn(w, ", \t\n");
		char one[32];
		snprintf(one, sizeof(one), "%.*s", (int)n, w);
		if (n && option_long("world size", n < sizeof(one) ? one : "(32 characters or more)", 1,
				     1L << 40, &v, err, errlen) != 0)
			rc = text_at(err, errlen, path, line, err);
		else if (n)
			strbuf_addf(&list, "%s%s", list.len ? "," : "", one);
		w += n + (w[n] != '\0');
	}
	if (rc == 0 && (!list.s || list.failed))
		rc = -1, snprintf(err, errlen, "--check-args' file '%s' %s", path, list.failed ? "does not fit "
				  "in memory" : "holds no world size");
	strbuf_release(&text);
	return rc == 0 ? list.s : NULL;
}

/* --check-args[=WORLD[,WORLD...]] or =@FILE: each a world size; check_args the first. */
SETTER(set_check_args)
{
	if (val && val[0] == '@' && !(val = worlds_from(val + 1, err, errlen)))
		return -1;
	o->check_args = 0;
	o->check_worlds = val;
	for (const char *w = val; w; w = strchr(w, ',') ? strchr(w, ',') + 1 : NULL) {
		char one[32];
		snprintf(one, sizeof(one), "%.*s", (int)strcspn(w, ","), strcspn(w, ",") < sizeof(one) ? w : "(32 or more)");
		if (option_long("world size", one, 1, 1L << 40, &o->check_args, err, errlen) != 0)
			return -1;
	}
	return 0;
}

SETTER(set_algo)
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
SETTER(set_cold_cache)
{
	o->cold_cache = 0;
	/* the ring's size in all, not a size per peer */
	return val ? select_parse_size_in("--cold-cache", val, 1, BYTES_MAX, "(the ring's size in all)",
					  &o->cold_cache, err, errlen) : 0;
}

/* --time-per-size=SECONDS: a positive decimal number. */
SETTER(set_budget)
{
	double v;

	if (parse_double(val, 1e-3, OPTIONS_MAX_TIME_PER_SIZE, &v, NULL) != 0) {
		snprintf(err, errlen, "invalid time per size '%s': expected seconds, 0.001..%.0f "
			 "(e.g. --time-per-size=0.5)", val, OPTIONS_MAX_TIME_PER_SIZE);
		return -1;
	}
	o->time_per_size = v;
	return 0;
}

/*
 * --ci=REL[:MAX]: REL a fraction from 0.01 (the median's histogram resolves
 * 1.1%) to 1, MAX whole calls (checked against ITERS later).
 */
SETTER(set_ci)
{
	char rel[64];
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	double v;

	snprintf(rel, sizeof(rel), "%.*s", (int)(n < sizeof(rel) ? n : sizeof(rel) - 1), val);
	if (n >= sizeof(rel) || parse_double(rel, 0.01, 1, &v, NULL) != 0) {
		snprintf(err, errlen, "invalid --ci precision '%s': expected a fraction of the median, "
			 "0.01..1 (e.g. --ci=0.05 or --ci=0.05:200)", val);
		return -1;
	}
	o->ci_rel = v;
	return colon ? option_long("--ci maximum of timed calls", colon + 1, 1, OPTIONS_MAX_ITERS,
				   &o->ci_max, err, errlen) : 0;
}

SETTER(set_min_busbw)
{
	return floor_parse("--min-busbw", &floor_busbw, val, &o->min_busbw, err, errlen);
}

SETTER(set_min_eff)
{
	return floor_parse("--min-eff", &floor_eff, val, &o->min_eff, err, errlen);
}

SETTER(set_json) { UNUSED; o->json = val; return 0; }
SETTER(set_fabric) { UNUSED; o->fabric = val; return 0; }
SETTER(set_nodes) { UNUSED; o->nodes = val; return 0; }

SETTER(set_tasks_per_node)
{
	return option_long("tasks per node", val, 1, 1L << 16, &o->tasks_per_node, err, errlen);
}

/* A line rate declared by `by`: decimal GB/s above 0, at most a petabyte per second. */
static int line_rate(struct options *o, const char *by, const char *val, char *err, size_t errlen)
{
	double v;

	if (parse_double(val, DBL_MIN, 1e6, &v, NULL) != 0) {
		snprintf(err, errlen, "invalid %s '%s': expected each node's NIC rate in "
			 "decimal GB/s each way, above 0 and at most 1000000 (e.g. 25 for 200 Gb/s)",
			 by, val);
		return -1;
	}
	o->line_rate = v;
	o->line_rate_by = by;
	return 0;
}

SETTER(set_line_rate)
{
	return line_rate(o, "--line-rate", val, err, errlen);
}

static int stack(struct options *o, const char *by, const char *val, char *err, size_t errlen)
{
	char names[256];

	if (!(o->stack = stack_named(val))) {
		stack_names(names, sizeof(names));
		snprintf(err, errlen, "invalid %s '%s': expected one of the stacks aller knows: %s (common/stacks.h; "
			 "a site's own: its variables in a campaign's VARIANTS row)", by, val, names);
		return -1;
	}
	o->stack_by = by;
	return 0;
}

SETTER(set_stack)
{
	return stack(o, "--stack", val, err, errlen);
}

int options_stack_env(struct options *o, const char *val, char *err, size_t errlen)
{
	return o->stack || !val || !*val ? 0 : stack(o, "ALLER_STACK", val, err, errlen);
}

int options_line_rate_env(struct options *o, const char *val, char *err, size_t errlen)
{
	if (o->line_rate > 0 || !val || !*val)
		return 0;
	return line_rate(o, "ALLER_LINE_RATE", val, err, errlen);
}

SETTER(set_pairs)
{
	o->pairs = OPTIONS_DEFAULT_PAIRS;
	return val ? select_parse_size_in("--pairs", val, 8, OPTIONS_MAX_PAIRS, "per message",
					  &o->pairs, err, errlen) : 0;
}

/* --slow-below=F: 0 < F < 1. */
SETTER(set_slow_below)
{
	double v;

	if (parse_double(val, 0, 1, &v, NULL) != 0 || !(v > 0 && v < 1)) {
		snprintf(err, errlen, "invalid --slow-below '%s': expected a fraction of the median "
			 "bandwidth, 0 < F < 1 (e.g. --slow-below=0.8)", val);
		return -1;
	}
	o->slow_below = v;
	return 0;
}

/* --congestion=F[:ALGO[:SIZE]]. */
SETTER(set_congestion)
{
	char f[64], algo[64] = "", size[64] = "";
	const char *a = strchr(val, ':');
	struct algo_list l;
	double v;

	snprintf(f, sizeof(f), "%.*s", (int)strcspn(val, ":"), val);
	if (a) {
		snprintf(algo, sizeof(algo), "%.*s", (int)strcspn(a + 1, ":"), a + 1);
		if (strchr(a + 1, ':'))
			snprintf(size, sizeof(size), "%s", strchr(a + 1, ':') + 1);
	}
	if (strlen(val) >= sizeof(f) || parse_double(f, 0, 1, &v, NULL) != 0 || !(v > 0 && v < 1)) {
		snprintf(err, errlen, "invalid --congestion '%s': expected FRACTION[:ALGO[:SIZE]], the "
			 "aggressors' share of the world, 0 < FRACTION < 1 (e.g. --congestion=0.5:"
			 "alltoall:1M)", val);
		return -1;
	}
	o->congestion = v;
	if (algo[0]) {
		if (algo_list_parse(&l, algo, err, errlen) != 0 || l.n != 1 ||
		    !algo_can(l.id[0], ALGO_CAN_CONGEST)) {
			char allowed[256];
			algo_can_list(ALGO_CAN_CONGEST, 0, allowed, sizeof(allowed));
			snprintf(err, errlen, "invalid --congestion algorithm '%s': allowed are %s", algo,
				 allowed);
			return -1;
		}
		o->congest_algo = l.id[0];
	}
	return size[0] ? select_parse_size_in("--congestion", size, 8, OPTIONS_MAX_CONGEST_BYTES,
					      "per peer", &o->congest_bytes, err, errlen) : 0;
}

/* --split=SPEC, once per spec: the first replaces the default uniform. */
SETTER(set_moe) { UNUSED; o->moe = 1; return 0; }

SETTER(set_placement)
{
	return placement_parse(&o->placement, val, err, errlen);
}

SETTER(set_split)
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

/* One line per algorithm of format.h's list: "  name: what it does". */
#define USAGE_ALGO_(ID, name, can, per_peer, what) "                         " #name ": " what "\n"
#define ONCE OPT_COUNT, 0
#define REPEATS OPT_COUNT, 1
#define ALONE_NOT F_COUNT, 0, NULL

const struct option_def options_table[OPT_COUNT] = {
	[OPT_BUFFERS] = { "--buffers", VALUE_MAY, set_buffers, "",
		"  --buffers=host|cuda  where the buffers live (default host; cuda needs a\n"
		"                       build with CUDA=1 and a CUDA-aware MPI)\n", ONCE, ALONE_NOT },
	[OPT_CUDA_AWARE] = { "--cuda-aware", VALUE_NEEDS, set_cuda_aware,
		"a value: --cuda-aware=auto|yes",
		"  --cuda-aware=auto|yes  whether the MPI library takes device pointers: ask\n"
		"                       it (auto, the default: Open MPI's or MPICH's query),\n"
		"                       or take your word for it (yes, recorded in the header)\n",
		ONCE, ALONE_NOT },
	[OPT_VERIFY] = { "--verify", VALUE_NEEDS, set_verify, "a value: --verify=all|warmup|none",
		"  --verify=all|warmup|none\n"
		"                       check the received data of every call (all, the\n"
		"                       default), of the warm-up calls only, or never\n", ONCE,
		ALONE_NOT, .twice = "--no-verify is --verify=none" },
	[OPT_NO_VERIFY] = { "--no-verify", VALUE_NONE, set_no_verify, "",
		"  --no-verify          the same as --verify=none\n", OPT_VERIFY, 0, ALONE_NOT },
	[OPT_FRESH] = { "--fresh-data", VALUE_NONE, set_fresh, "",
		"  --fresh-data         rewrite the send data before every call, with a\n"
		"                       payload that depends on the iteration (default: it\n"
		"                       is written once per level and count)\n", REPEATS, ALONE_NOT },
	[OPT_WARMUP] = { "--warmup", VALUE_NEEDS, set_warmup, "a value: --warmup=N",
		"  --warmup=N           untimed calls before the timed ones (default 1, 0..1000)\n",
		ONCE, ALONE_NOT },
	[OPT_MIN_BYTES] = { "--min-bytes", VALUE_NEEDS, set_min_bytes, "a value: --min-bytes=SIZE",
		"  --min-bytes=SIZE     measure only per-peer sizes of at least SIZE bytes\n", ONCE,
		ALONE_NOT },
	[OPT_MAX_BYTES] = { "--max-bytes", VALUE_NEEDS, set_max_bytes, "a value: --max-bytes=SIZE",
		"  --max-bytes=SIZE     ... and at most SIZE (8, 64K, 4M, 1G: K, M, G, T, P\n"
		"                       are powers of 1024)\n", ONCE, ALONE_NOT },
	[OPT_COMMSIZES] = { "--commsizes", VALUE_NEEDS, set_commsizes, "a value: --commsizes=LIST",
		"  --commsizes=LIST     measure only these communicator sizes, e.g. world or\n"
		"                       8,2 (each one of world, world/2, ..., 1)\n", ONCE, ALONE_NOT },
	[OPT_ALGO] = { "--algo", VALUE_NONEMPTY, set_algo, "a list: --algo=alltoall,pairwise",
		"  --algo=LIST          the algorithms to time, side by side, comma-separated:\n"
		ALLER_MPI_ALGOS(USAGE_ALGO_), ONCE, ALONE_NOT },
	[OPT_SPLIT] = { "--split", VALUE_NONEMPTY, set_split,
		"a spec: --split=zipf:1.2 (see aller --help)",
		"  --split=SPEC         uneven all-to-all, as mixture-of-experts routing makes\n"
		"                       it: how each task's data divides among its peers, the\n"
		"                       count staying the mean; uniform (default), spread:F,\n"
		"                       zipf:S[:SEED], hot:K:F, idle:F, rotate:K:F,\n"
		"                       lognormal:SIGMA[:SEED], nodes:F, matrix:FILE or\n"
		"                       trace:FILE (a matrix per call); again for another\n"
		"                       data set per level;\n"
		"                       with alltoallv (then the default), pairwise or put\n",
		REPEATS, ALONE_NOT },
	[OPT_MOE] = { "--moe", VALUE_NONE, set_moe, "",
		"  --moe                each call a mixture-of-experts step's round trip on\n"
		"                       every communicator: the per-peer counts (MPI_Alltoall\n"
		"                       of one long each), the dispatch of the split's blocks\n"
		"                       and the combine sending each back (alltoallv, the\n"
		"                       default, pairwise, or NCCL's grouped send/recv),\n"
		"                       each verified; columns tcounts_s, tdispatch_s,\n"
		"                       tcombine_s; tavg the trip\n", ONCE,
		F_MOE, FEATURE(F_PAIRS) | FEATURE(F_COLD_CACHE) | FEATURE(F_LOOP) |
		FEATURE(F_MOVING) | FEATURE(F_CONGESTION),
		"times three phases of its own buffers:" },
	[OPT_PLACEMENT] = { "--placement", VALUE_NEEDS, set_placement,
		"a value: --placement=block|cyclic|random[:SEED]",
		"  --placement=block|cyclic|random[:SEED]\n"
		"                       renumber the world before the partitions are made: a\n"
		"                       node's tasks together, one task of each node in turn,\n"
		"                       or shuffled (default: the launcher's order)\n", ONCE,
		F_PLACEMENT, FEATURE(F_PAIRS) | FEATURE(F_REVEAL),
		"renumbers the world (--pairs goes by node, --reveal's counters by MPI_COMM_WORLD's ranks):" },
	[OPT_TRANSPORT] = { "--transport", VALUE_NEEDS, set_transport,
		"a value: --transport=mpi|nccl",
		"  --transport=mpi|nccl who moves the data: MPI (default), or NCCL's\n"
		"                       ncclAlltoAll on device buffers, MPI only\n"
		"                       bootstrapping (a build with CUDA=1 NCCL=1)\n", ONCE, ALONE_NOT },
	[OPT_TIMING] = { "--timing", VALUE_NEEDS, set_timing, "a value: --timing=barrier|loop|osu|nccl",
		"  --timing=barrier|loop|osu|nccl\n"
		"                       how calls are timed: a world barrier before each\n"
		"                       (barrier, the default), ITERS calls back to back\n"
		"                       after one barrier, per call the loop's time / ITERS\n"
		"                       (loop: IMB's), a barrier after each call (osu:\n"
		"                       OSU's), or with --transport=nccl ITERS calls\n"
		"                       enqueued on the stream back to back and one\n"
		"                       synchronise (nccl: nccl-tests')\n", ONCE,
		F_LOOP, FEATURE(F_REVEAL) | FEATURE(F_FRESH) | FEATURE(F_MOVING),
		"times back-to-back calls as one: nothing can happen between them, so" },
	[OPT_COLD_CACHE] = { "--cold-cache", VALUE_MAY, set_cold_cache, "",
		"  --cold-cache[=BYTES] each call its own buffers: a slot of a ring BYTES\n"
		"                       beyond LONGS (default: the last-level cache's size)\n", ONCE,
		F_COLD_CACHE, FEATURE(F_NCCL) | FEATURE(F_CUDA) | FEATURE(F_PERSISTENT),
		"moves each call to other buffers:" },
	[OPT_TIME_PER_SIZE] = { "--time-per-size", VALUE_NEEDS, set_budget,
		"a value: --time-per-size=SECONDS",
		"  --time-per-size=SECONDS\n"
		"                       timed calls per count: as many as fit SECONDS at the\n"
		"                       warm-up's pace, --min-iters=N (1) to ITERS; column iters\n",
		ONCE, ALONE_NOT },
	[OPT_MIN_ITERS] = { "--min-iters", VALUE_NEEDS, set_min_iters, "a value: --min-iters=N",
		NULL, ONCE, ALONE_NOT },
	[OPT_CI] = { "--ci", VALUE_NEEDS, set_ci, "a value: --ci=REL[:MAX]",
		"  --ci=REL[:MAX]       timed calls per count from ITERS, doubling, until the 95%\n"
		"                       interval of tmed (tmed_lo_s..tmed_hi_s) is within REL\n"
		"                       of it, at most MAX (1000); column iters\n", ONCE,
		F_CI, FEATURE(F_LOOP) | FEATURE(F_PAIRS) | FEATURE(F_ISOLATE),
		"needs a time of each call (a sweep's), so" },
	[OPT_MIN_BUSBW] = { "--min-busbw", VALUE_NEEDS, set_min_busbw,
		"a value: --min-busbw=GBPS[@SIZE[+]]",
		"  --min-busbw=GBPS[@SIZE[+]]\n"
		"                       a floor: a row whose busbw_GBs is below GBPS (at SIZE\n"
		"                       per peer, SIZE+ it and larger; every size without)\n"
		"                       fails the run: exit 1 after the sweep, each named\n", ONCE,
		ALONE_NOT },
	[OPT_MIN_EFF] = { "--min-eff", VALUE_NEEDS, set_min_eff, "a value: --min-eff=F[@SIZE[+]]",
		"  --min-eff=F[@SIZE[+]]\n"
		"                       the same floor under eff (the fraction of the node's\n"
		"                       line rate, or copy bandwidth inside a node, reached);\n"
		"                       rows whose limit is unknown are not judged\n", ONCE,
		ALONE_NOT },
	[OPT_LINE_RATE] = { "--line-rate", VALUE_NEEDS, set_line_rate, "a value: --line-rate=GBPS",
		"  --line-rate=GBPS     each node's NIC rate, decimal GB/s each way, where sysfs\n"
		"                       cannot know it (virtual NICs, the emulated fabric;\n"
		"                       ALLER_LINE_RATE without it): '# limit:', column eff\n",
		ONCE, ALONE_NOT },
	[OPT_FABRIC] = { "--fabric", VALUE_NONEMPTY, set_fabric, "a file: --fabric=FILE",
		"  --fabric=FILE        the site's fabric: its switches' uplink rates, their\n"
		"                       nodes, NIC rates (docs/format.md); '# fabric:' lines\n"
		"                       for collect's bound of each row\n", ONCE, ALONE_NOT },
	[OPT_JSON] = { "--json", VALUE_NONEMPTY, set_json, "a file: --json=FILE",
		"  --json=FILE          the run as JSON lines too: the header's facts, each data\n"
		"                       set and row by name (written whole, or not at all)\n", ONCE,
		ALONE_NOT },
	[OPT_SAMPLES] = { "--samples", VALUE_NONEMPTY, set_samples, "a directory: --samples=DIR",
		"  --samples=DIR        every task's time of every call, a file per node in DIR\n"
		"                       ('collect --samples DIR' names the slow calls)\n", ONCE,
		ALONE_NOT },
	[OPT_CONGESTION] = { "--congestion", VALUE_NONEMPTY, set_congestion,
		"a value: --congestion=FRACTION[:ALGO[:SIZE]]",
		"  --congestion=F[:ALGO[:SIZE]]\n"
		"                       F of the tasks are aggressors running ALGO (alltoall)\n"
		"                       of SIZE bytes per peer (64K) back to back through each\n"
		"                       count's second pass; the rest are measured: columns\n"
		"                       tcongested_s, congestion and congestion_p99\n", ONCE,
		F_CONGESTION, FEATURE(F_PAIRS) | FEATURE(F_REVEAL) | FEATURE(F_ISOLATE) |
		FEATURE(F_NCCL) | FEATURE(F_CUDA),
		"runs aggressors beside the measured tasks:" },
	[OPT_PAIRS] = { "--pairs", VALUE_MAY, set_pairs, "",
		"  --pairs[=SIZE]       instead of the sweep, the node-pair matrix (one task per\n"
		"                       node or GPU): every ordered pair's bandwidth for\n"
		"                       messages of SIZE bytes (default 1M), in n - 1 shifted\n"
		"                       exchanges; names the slow links\n", ONCE, F_PAIRS,
		FEATURE(F_ALGO) | FEATURE(F_SPLIT) | FEATURE(F_ISOLATE) | FEATURE(F_REVEAL) |
		FEATURE(F_COLD_CACHE) | FEATURE(F_BUDGET) | FEATURE(F_SAMPLES) | FEATURE(F_NCCL) |
		FEATURE(F_CUDA) | FEATURE(F_STRIDED) | FEATURE(F_TIMING) | FEATURE(F_FRESH) |
		FEATURE(F_LONGS) | FEATURE(F_SELECTION),
		"measures each pair of tasks alone, one message size:" },
	[OPT_SLOW_BELOW] = { "--slow-below", VALUE_NEEDS, set_slow_below,
		"a value: --slow-below=F (0 < F < 1)",
		"  --slow-below=F       --pairs: a link below F x the median of the links that\n"
		"                       avoid one of its ends' nodes is slow (0.8)\n", ONCE,
		ALONE_NOT },
	[OPT_ISOLATE] = { "--isolate", VALUE_MAY, set_isolate, "",
		"  --isolate[=all]      at levels of two or more communicators, also time\n"
		"                       each count with communicator 0 alone (the others\n"
		"                       wait): columns talone_s and interference = its\n"
		"                       concurrent tavg / talone; =all times every\n"
		"                       communicator alone in turn (comms extra passes per\n"
		"                       count) and adds the average and worst factor\n", ONCE,
		ALONE_NOT },
	[OPT_TIMEOUT] = { "--timeout", VALUE_NEEDS, set_timeout, "a value: --timeout=SECONDS",
		"  --timeout=SECONDS    end the job when one call takes longer (1..604800;\n"
		"                       default 600, 0: never)\n", ONCE, ALONE_NOT },
	[OPT_REVEAL] = { "--reveal", VALUE_MAY, set_reveal, "",
		"  --reveal[=TIER]      show what MPI sends inside each call, through MPI_T:\n"
		"                       auto (default), coll, pml, generic or queues; the\n"
		"                       run is marked instrumented (docs/reveal.md)\n", ONCE,
		ALONE_NOT },
	[OPT_REVEAL_DIR] = { "--reveal-dir", VALUE_NONEMPTY, set_reveal_dir,
		"a directory: --reveal-dir=DIR",
		"  --reveal-dir=DIR     where the traffic matrices go (default\n"
		"                       $ALLER_REVEAL_DIR, else aller-reveal-JOB.STEP\n"
		"                       under Slurm, else aller-reveal-PID)\n", ONCE, ALONE_NOT },
	[OPT_CHECK_ARGS] = { "--check-args", VALUE_MAY, set_check_args, "",
		"  --check-args[=WORLD[,WORLD...]]\n"
		"                       check the arguments (against worlds of WORLD ranks)\n"
		"                       and exit: 0 valid, 2 not; no MPI (=@FILE: the\n"
		"                       worlds from FILE, commas or white space between)\n", ONCE, ALONE_NOT },
	[OPT_NODES] = { "--nodes", VALUE_NONEMPTY, set_nodes, "a list: --nodes=n[1-4]",
		"  --nodes=LIST         with --check-args=WORLD and --fabric: the world's\n"
		"                       nodes (names and ranges, n[1-4],gpu7), and instead\n"
		"                       of the check each row's bound and bottleneck on\n"
		"                       that fabric (what a run should see; no MPI)\n", ONCE, ALONE_NOT },
	[OPT_TASKS_PER_NODE] = { "--tasks-per-node", VALUE_NEEDS, set_tasks_per_node,
		"a number: --tasks-per-node=N",
		"  --tasks-per-node=N   ... the tasks each node takes in turn (default\n"
		"                       WORLD / nodes)\n", ONCE, ALONE_NOT },
	[OPT_STACK] = { "--stack", VALUE_NONEMPTY, set_stack, "a name: --stack=ucx",
		"  --stack=NAME         the MPI stack to run on: ob1-tcp, ucx, ofi (Open MPI),\n"
		"                       mpich-ucx (MPICH); its variables set before MPI_Init\n"
		"                       (common/stacks.h; default $ALLER_STACK, else none)\n", ONCE, ALONE_NOT },
	[OPT_VERSION] = { "--version", VALUE_NONE, set_version, "",
		"  --version            print the version and exit\n", REPEATS, ALONE_NOT },
	[OPT_HELP] = { "--help", VALUE_NONE, set_help, "",
		"  --help               print this help and exit\n", REPEATS, ALONE_NOT },
	[OPT_HELP_SHORT] = { "-h", VALUE_NONE, set_help, "", NULL, REPEATS, ALONE_NOT },
};

static const char usage_head[] =
	"usage: aller [OPTIONS] [MODE] [ITERS] [LONGS]\n"
	"\n"
	"Runs MPI_Alltoall concurrently on all subcommunicators of a partition of\n"
	"MPI_COMM_WORLD, for communicator sizes world..1 (halving) and per-peer\n"
	"counts max..1 (halving), and prints gnuplot-ready blocks of statistics.\n"
	"\n"
	"  MODE   's...' or 'S...': strided groups (rank % comms); anything else:\n"
	"         contiguous blocks of ranks (default)\n"
	"  ITERS  timed iterations per count, plus the warm-up; <= 0: 3\n"
	"  LONGS  per-task send (and receive) buffer size in longs; <= 0: 134217728\n"
	"         (1 GiB); at most 2^59\n"
	"\n";

static const char usage_tail[] =
	"\n"
	"Exit status: 0 ok, 1 verification failed, 2 usage error,\n"
	"3 system, MPI or CUDA error.\n";

const char *options_usage(void)
{
	static char text[16384];   /* the text is about 6 KB */

	if (!text[0]) {
		size_t at = (size_t)snprintf(text, sizeof(text), "%s", usage_head);
		for (int i = 0; i < OPT_COUNT; i++)
			if (options_table[i].help && at < sizeof(text))
				at += (size_t)snprintf(text + at, sizeof(text) - at, "%s",
						       options_table[i].help);
		if (at < sizeof(text))
			snprintf(text + at, sizeof(text) - at, "%s", usage_tail);
	}
	return text;
}
