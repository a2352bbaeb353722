/* Unit tests: aller's command line (options.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "algo/osc.h"
#include "options.h"
#include "options_impl.h"
#include "stacks.h"
#include "world/faults.h"

static int parse(struct options *o, char *err, const char *a1, const char *a2, const char *a3,
		 const char *a4)
{
	char *argv[6] = { "aller", (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL };
	int argc = 1;

	while (argc < 5 && argv[argc])
		argc++;
	options_init(o);
	return options_parse(o, argc, argv, err, 512);
}

static void defaults(void **state)
{
	struct options o;
	char err[512];
	(void)state;
	assert_int_equal(parse(&o, err, NULL, NULL, NULL, NULL), 0);
	assert_false(o.strided);
	assert_int_equal(o.iters, 3);
	assert_int_equal(o.longs, 128L * 1024 * 1024);
	assert_int_equal(o.verify, VERIFY_ALL);
	assert_false(o.fresh);
	assert_int_equal(o.warmup, 1);
	assert_int_equal(o.sel.ncommsizes, 0);
	assert_int_equal(o.sel.min_bytes, 0);
	assert_int_equal(o.sel.max_bytes, 0);
	assert_int_equal(o.timeout, OPTIONS_DEFAULT_TIMEOUT);
	assert_int_equal(o.buffers, BUFFERS_HOST);
	assert_int_equal(o.reveal, REVEAL_OFF);
	assert_null(o.reveal_dir);
}

static void positional_as_in_the_spec(void **state)
{
	struct options o;
	char err[512];
	(void)state;
	assert_int_equal(parse(&o, err, "strided", "7", "128", NULL), 0);
	assert_true(o.strided);
	assert_int_equal(o.iters, 7);
	assert_int_equal(o.longs, 128);
	assert_int_equal(parse(&o, err, "S", NULL, NULL, NULL), 0);
	assert_true(o.strided);
	assert_int_equal(parse(&o, err, "0", "0", "128", NULL), 0);
	assert_false(o.strided);
	assert_int_equal(o.iters, 3);
	assert_int_equal(o.longs, 128);
	assert_int_equal(parse(&o, err, "contiguous", "-4", "-1", NULL), 0);
	assert_false(o.strided);
	assert_int_equal(o.iters, 3);
	assert_int_equal(o.longs, 128L * 1024 * 1024);
	assert_int_equal(parse(&o, err, "x", "+5", "576460752303423488", NULL), 0);
	assert_int_equal(o.iters, 5);
	assert_int_equal(o.longs, 1L << 59);
}

static void long_options(void **state)
{
	struct options o;
	char err[512];
	(void)state;
	assert_int_equal(parse(&o, err, "--no-verify", "--timeout=30", "--buffers=cuda", "s"), 0);
	assert_int_equal(o.verify, VERIFY_NONE);
	assert_int_equal(o.timeout, 30);
	assert_int_equal(o.buffers, BUFFERS_CUDA);
	assert_true(o.strided);
	assert_int_equal(parse(&o, err, "--help", NULL, NULL, NULL), 0);
	assert_true(o.help);
	assert_int_equal(parse(&o, err, "--version", NULL, NULL, NULL), 0);
	assert_true(o.version);
	assert_int_equal(parse(&o, err, "--", "-x", "2", NULL), 0);
	assert_false(o.strided);
	assert_int_equal(o.iters, 2);
}

static void measurement_options(void **state)
{
	struct options o;
	char err[512];
	(void)state;
	assert_int_equal(parse(&o, err, "--verify=warmup", "--fresh-data", "--warmup=3", NULL), 0);
	assert_int_equal(o.verify, VERIFY_WARMUP);
	assert_true(o.fresh);
	assert_int_equal(o.warmup, 3);
	assert_int_equal(parse(&o, err, "--verify=none", "--warmup=0", NULL, NULL), 0);
	assert_int_equal(o.verify, VERIFY_NONE);
	assert_int_equal(o.warmup, 0);
	assert_int_equal(parse(&o, err, "--verify=all", NULL, NULL, NULL), 0);
	assert_int_equal(o.verify, VERIFY_ALL);
	assert_string_equal(options_verify_name(VERIFY_WARMUP), "warmup");
	assert_int_equal(parse(&o, err, "--min-bytes=1K", "--max-bytes=4M", "--commsizes=world,2",
			       NULL), 0);
	assert_int_equal(o.sel.min_bytes, 1024);
	assert_int_equal(o.sel.max_bytes, 4L << 20);
	assert_int_equal(o.sel.ncommsizes, 2);
	assert_int_equal(o.sel.commsizes[0], SELECT_WORLD);
	assert_int_equal(o.sel.commsizes[1], 2);
}

static void reveal_options(void **state)
{
	static const struct { const char *arg; enum reveal_tier tier; } tiers[] = {
		{ "--reveal", REVEAL_AUTO }, { "--reveal=auto", REVEAL_AUTO },
		{ "--reveal=coll", REVEAL_COLL }, { "--reveal=pml", REVEAL_PML },
		{ "--reveal=generic", REVEAL_GENERIC }, { "--reveal=queues", REVEAL_QUEUES },
	};
	struct options o;
	char err[512];
	(void)state;
	for (size_t i = 0; i < sizeof(tiers) / sizeof(tiers[0]); i++) {
		assert_int_equal(parse(&o, err, tiers[i].arg, "s", NULL, NULL), 0);
		assert_int_equal(o.reveal, tiers[i].tier);
		assert_true(o.strided);
	}
	assert_int_equal(parse(&o, err, "--reveal-dir=out/rv", "--reveal", NULL, NULL), 0);
	assert_string_equal(o.reveal_dir, "out/rv");
}

/* Every bad form: the message names the argument and what is allowed. */
static const struct bad {
	const char *a[4];
	const char *says;
} bads[] = {
	{ { "c", "12x" }, "cannot parse iterations '12x'" },
	{ { "c", "1e3" }, "cannot parse iterations '1e3'" },
	{ { "c", "" }, "cannot parse iterations ''" },
	{ { "c", " 3" }, "cannot parse iterations ' 3'" },
	{ { "c", "3 " }, "cannot parse iterations '3 '" },
	{ { "c", "0x10" }, "cannot parse iterations '0x10'" },
	{ { "c", "3.0" }, "cannot parse iterations '3.0'" },
	{ { "c", "--5" }, "unknown option '--5'" },
	{ { "c", "+" }, "cannot parse iterations '+'" },
	{ { "c", "99999999999999999999" }, "iterations '99999999999999999999' is out of range" },
	{ { "c", "1000001" }, "iterations '1000001' is out of range: allowed are 1..1000000" },
	{ { "c", "3", "12x" }, "cannot parse longs '12x'" },
	{ { "c", "3", "1e9" }, "cannot parse longs '1e9'" },
	{ { "c", "3", "1152921504606846977" }, "longs '1152921504606846977' is out of range" },
	{ { "c", "3", "576460752303423489" }, "longs '576460752303423489' is out of range: "
					      "allowed are 1..576460752303423488" },
	{ { "c", "3", "-99999999999999999999" }, "longs '-99999999999999999999' is out of range" },
	{ { "c", "3", "64k" }, "cannot parse longs '64k'" },
	{ { "c", "3", "64", "9" }, "unexpected argument '9'" },
	{ { "-" }, "unknown option '-'" },
	{ { "-x" }, "unknown option '-x'" },
	{ { "--bogus" }, "unknown option '--bogus'" },
	{ { "" }, "empty mode ''" },
	{ { "--timeout" }, "option '--timeout' needs a value" },
	{ { "--timeout=-1" }, "invalid timeout '-1': expected whole seconds, 0..604800" },
	{ { "--timeout=-3" }, "invalid timeout '-3'" },
	{ { "--timeout=5s" }, "invalid timeout '5s'" },
	{ { "--timeout=604801" }, "invalid timeout '604801'" },
	{ { "--timeout=" }, "invalid timeout ''" },
	{ { "--buffers=gpu" }, "invalid buffers 'gpu': allowed are 'host' and 'cuda'" },
	{ { "--buffers" }, "invalid buffers ''" },
	{ { "--help=yes" }, "option '--help' takes no value" },
	{ { "--no-verify=1" }, "option '--no-verify' takes no value" },
	{ { "--version=2" }, "option '--version' takes no value" },
	{ { "--reveal=all" }, "invalid reveal tier 'all': allowed are 'auto', 'coll', 'pml', "
			      "'generic' and 'queues'" },
	{ { "--reveal=" }, "invalid reveal tier ''" },
	{ { "--reveal-dir" }, "option '--reveal-dir' needs a directory" },
	{ { "--reveal-dir=" }, "option '--reveal-dir' needs a directory" },
	{ { "--verify" }, "option '--verify' needs a value: --verify=all|warmup|none" },
	{ { "--verify=some" }, "invalid verify mode 'some': allowed are 'all', 'warmup' and 'none'" },
	{ { "--fresh-data=1" }, "option '--fresh-data' takes no value" },
	{ { "--warmup=-1" }, "invalid warm-up count '-1': expected an integer, 0..1000" },
	{ { "--warmup=1001" }, "invalid warm-up count '1001'" },
	{ { "--warmup=x" }, "invalid warm-up count 'x'" },
	{ { "--verify=warmup", "--warmup=0" }, "'--verify=warmup' checks the warm-up calls, and "
					       "'--warmup=0' leaves none" },
	{ { "--min-bytes=0" }, "size '0' for --min-bytes is out of range: allowed are 1 B..4 EiB" },
	{ { "--max-bytes=4Q" }, "invalid size '4Q' for --max-bytes" },
	{ { "--max-bytes" }, "option '--max-bytes' needs a value: --max-bytes=SIZE" },
	{ { "--commsizes=" }, "invalid commsizes '': an empty item" },
	{ { "--commsizes=8,,2" }, "invalid commsizes '8,,2': an empty item" },
	{ { "--commsizes=8,x" }, "invalid commsize 'x' in '8,x'" },
	{ { "--commsizes=0" }, "invalid commsize '0' in '0'" },
	{ { "--commsizes=4,4" }, "commsize '4' is listed twice in '4,4'" },
	{ { "--commsizes=world,world" }, "commsize 'world' is listed twice" },
	{ { "--algo=" }, "option '--algo' needs a list: --algo=alltoall,pairwise" },
	{ { "--algo" }, "option '--algo' needs a list" },
	{ { "--algo=bruck" }, "unknown algorithm 'bruck' in '--algo=bruck': allowed are alltoall, "
			      "ialltoall, persistent, alltoallv, pairwise, put" },
	{ { "--algo=alltoall,Put" }, "unknown algorithm 'Put'" },
	{ { "--algo=put,alltoall,put" }, "algorithm 'put' is given twice in "
					 "'--algo=put,alltoall,put': name each once" },
	{ { "--algo=alltoall,,put" }, "invalid algorithm list 'alltoall,,put': an empty name" },
	{ { "--algo=alltoall," }, "an empty name" },
	{ { "--algo=,put" }, "an empty name" },
	{ { "--isolate=some" }, "invalid isolate 'some': allowed are '--isolate' (communicator "
				"0), '--isolate=all' and '--isolate=none'" },
	{ { "--isolate=" }, "invalid isolate ''" },
	{ { "--cuda-aware=maybe" }, "invalid cuda-aware 'maybe': allowed are 'auto' (ask the MPI "
				    "library) and 'yes'" },
	{ { "--cuda-aware" }, "option '--cuda-aware' needs a value: --cuda-aware=auto|yes" },
	/* an option given twice would silently win: refused, each kind of option */
	{ { "--algo=alltoall", "--algo=pairwise" }, "option '--algo' is given twice: give it once" },
	{ { "--timing=loop", "--timing=osu" }, "option '--timing' is given twice" },
	{ { "--samples=a", "--samples=b" }, "option '--samples' is given twice" },
	{ { "--warmup=1", "--warmup=2" }, "option '--warmup' is given twice" },
	{ { "--timeout=5", "--timeout=5" }, "option '--timeout' is given twice" },
	{ { "--isolate", "--isolate=all" }, "option '--isolate' is given twice" },
	{ { "--no-verify", "--verify=all" }, "option '--verify' is given twice: give it once "
					    "(--no-verify is --verify=none)" },
	{ { "--split=zipf:1.2", "--split=zipf:1.2:1" }, "--split=zipf:1.2:1 is given twice (as "
							 "'--split=zipf:1.2' too: the same split)" },
	{ { "--split=hot:1:0.5", "--split=hot:01:0.50" }, "the same split" },
	/* an option that acts only with another */
	{ { "--slow-below=0.5" }, "'--slow-below' does nothing here: it acts only with --pairs" },
	{ { "--min-iters=2" }, "'--min-iters' does nothing here: it acts only with --time-per-size" },
	{ { "--cuda-aware=yes" }, "'--cuda-aware' does nothing here: it acts only with "
				  "--buffers=cuda" },
	{ { "--reveal-dir=rv" }, "'--reveal-dir' does nothing here: it acts only with --reveal" },
	/* one range per option, named by the option that has it */
	{ { "--pairs=0" }, "size '0' for --pairs is out of range: allowed are 8 B..8 GiB per message" },
	{ { "--pairs=7" }, "size '7' for --pairs is out of range: allowed are 8 B..8 GiB per message" },
	{ { "--pairs=16G" }, "allowed are 8 B..8 GiB per message" },
	{ { "--congestion=0.5:alltoall:2G" }, "size '2G' for --congestion is out of range: allowed "
					      "are 8 B..1 GiB per peer" },
	{ { "--congestion=0.5:bogus" }, "invalid --congestion algorithm 'bogus': allowed are "
					"alltoall, ialltoall, alltoallv and pairwise" },
};

static void algorithms_and_isolation(void **state)
{
	struct options o;
	char err[512];
	(void)state;
	assert_int_equal(parse(&o, err, NULL, NULL, NULL, NULL), 0);
	assert_int_equal(o.algos.n, 1);
	assert_int_equal(o.algos.id[0], ALGO_ALLTOALL);
	assert_int_equal(o.isolate, ISOLATE_NONE);
	assert_int_equal(parse(&o, err, "--algo=put,alltoall,pairwise", "--isolate", NULL, NULL), 0);
	assert_int_equal(o.algos.n, 3);
	assert_int_equal(o.algos.id[0], ALGO_PUT);
	assert_int_equal(o.algos.id[1], ALGO_ALLTOALL);
	assert_int_equal(o.algos.id[2], ALGO_PAIRWISE);
	assert_int_equal(o.isolate, ISOLATE_FIRST);
	assert_int_equal(parse(&o, err, "--algo=alltoall,ialltoall,persistent,alltoallv,pairwise,put",
			       "--isolate=all", NULL, NULL), 0);
	assert_int_equal(o.algos.n, ALGO_MPI_N);
	for (int i = 0; i < ALGO_MPI_N; i++)
		assert_int_equal(o.algos.id[i], i);
	assert_int_equal(o.isolate, ISOLATE_ALL);
	assert_string_equal(options_isolate_name(o.isolate), "every communicator");
	assert_int_equal(parse(&o, err, "--isolate=0", NULL, NULL, NULL), 0);
	assert_int_equal(o.isolate, ISOLATE_FIRST);
	assert_int_equal(parse(&o, err, "--isolate=none", NULL, NULL, NULL), 0);
	assert_int_equal(o.isolate, ISOLATE_NONE);
	assert_int_equal(o.cuda_aware, 0);
	assert_int_equal(parse(&o, err, "--buffers=cuda", "--cuda-aware=yes", NULL, NULL), 0);
	assert_int_equal(o.cuda_aware, 1);
}

/* --split: the default uniform, a list, the algorithms that take it. */
static void splits(void **state)
{
	struct options o;
	char err[512];
	(void)state;
	assert_int_equal(parse(&o, err, NULL, NULL, NULL, NULL), 0);
	assert_int_equal(o.nsplits, 1);
	assert_int_equal(o.splits[0].kind, SPLIT_UNIFORM);
	assert_false(options_uneven(&o));
	/* uneven without --algo: alltoallv */
	assert_int_equal(parse(&o, err, "--split=zipf:1.2", "--split=uniform", NULL, NULL), 0);
	assert_int_equal(o.nsplits, 2);
	assert_int_equal(o.splits[0].kind, SPLIT_ZIPF);
	assert_int_equal(o.splits[1].kind, SPLIT_UNIFORM);
	assert_true(options_uneven(&o));
	assert_int_equal(o.algos.n, 1);
	assert_int_equal(o.algos.id[0], ALGO_ALLTOALLV);
	assert_int_equal(parse(&o, err, "--algo=pairwise,put,alltoallv", "--split=hot:1:0.5", NULL,
			       NULL), 0);
	assert_int_equal(o.algos.n, 3);
	/* uniform goes with every algorithm */
	assert_int_equal(parse(&o, err, "--algo=alltoall", "--split=uniform", NULL, NULL), 0);
	assert_int_equal(parse(&o, err, "--algo=alltoall,pairwise", "--split=idle:0.5", NULL, NULL),
			 -1);
	assert_string_equal(err, "--split=idle:0.5 sends uneven blocks, which alltoall cannot: "
				 "allowed with it are --algo=alltoallv, pairwise and put, and "
				 "--transport=nccl");
	/* device buffers take uneven blocks too (their kernels find each element's block) */
	assert_int_equal(parse(&o, err, "--split=hot:1:0.5", "--buffers=cuda", NULL, NULL), 0);
	assert_int_equal(o.algos.id[0], ALGO_ALLTOALLV);
	assert_int_equal(parse(&o, err, "--split=zipf:1", "--split=zipf:1", NULL, NULL), -1);
	assert_string_equal(err, "--split=zipf:1 is given twice");
	assert_int_equal(parse(&o, err, "--split=zipf", NULL, NULL, NULL), -1);
	assert_non_null(strstr(err, "invalid split 'zipf': zipf takes an exponent"));
	assert_int_equal(parse(&o, err, "--split", NULL, NULL, NULL), -1);
	assert_string_equal(err, "option '--split' needs a spec: --split=zipf:1.2 (see aller --help)");
}

/* --timing, --cold-cache, --time-per-size, --min-iters, --samples, and what they cannot go with. */
static void measurement_modes(void **state)
{
	struct options o;
	char err[512];
	(void)state;
	assert_int_equal(parse(&o, err, NULL, NULL, NULL, NULL), 0);
	assert_int_equal(o.timing, TIMING_BARRIER);
	assert_int_equal(o.cold_cache, -1);
	assert_true(o.time_per_size == 0);
	assert_null(o.samples);
	assert_int_equal(parse(&o, err, "--timing=loop", "--cold-cache", "--samples=d", NULL), 0);
	assert_int_equal(o.timing, TIMING_LOOP);
	assert_string_equal(options_timing_name(o.timing), "loop");
	assert_int_equal(o.cold_cache, 0);   /* the last-level cache's size */
	assert_string_equal(o.samples, "d");
	assert_int_equal(parse(&o, err, "--timing=osu", "--cold-cache=64M", NULL, NULL), 0);
	assert_int_equal(o.cold_cache, 64L << 20);
	assert_int_equal(parse(&o, err, "--time-per-size=0.25", "--min-iters=2", "c", "100"), 0);
	assert_true(o.time_per_size == 0.25);
	assert_int_equal(o.min_iters, 2);
	assert_int_equal(parse(&o, err, "--timing=imb", NULL, NULL, NULL), -1);
	assert_string_equal(err, "invalid timing 'imb': allowed are 'barrier' (aller's: a world "
				 "barrier before each call), 'loop' (IMB's), 'osu' (OSU's) and 'nccl' "
				 "(nccl-tests': with --transport=nccl)");
	assert_int_equal(parse(&o, err, "--timing=loop", "--fresh-data", NULL, NULL), -1);
	assert_string_equal(err, "'--timing=loop|nccl' times back-to-back calls as one: nothing "
				 "can happen between them, so not with --fresh-data");
	/* nccl-tests' loop times NCCL's stream: not an MPI transport's */
	assert_int_equal(parse(&o, err, "--timing=nccl", NULL, NULL, NULL), -1);
	assert_string_equal(err, "'--timing' does nothing here: it acts only with "
				 "--transport=nccl, whose stream --timing=nccl times");
	assert_int_equal(parse(&o, err, "--timing=loop", "--split=rotate:1:0.5", NULL, NULL), -1);
	assert_non_null(strstr(err, "so not with a --split that may change from call to call (rotate:, trace:)"));
	assert_int_equal(parse(&o, err, "--cold-cache", "--algo=persistent", NULL, NULL), -1);
	assert_non_null(strstr(err, "'--cold-cache' moves each call to other buffers: not with "
				    "--algo=persistent"));
	assert_int_equal(parse(&o, err, "--cold-cache=0", NULL, NULL, NULL), -1);
	assert_non_null(strstr(err, "size '0' for --cold-cache is out of range"));
	assert_int_equal(parse(&o, err, "--time-per-size=0", NULL, NULL, NULL), -1);
	assert_non_null(strstr(err, "invalid time per size '0': expected seconds, 0.001..86400"));
	assert_int_equal(parse(&o, err, "--time-per-size=1", "--warmup=0", NULL, NULL), -1);
	assert_non_null(strstr(err, "'--warmup=0' leaves none"));
	assert_int_equal(parse(&o, err, "--time-per-size=1", "--min-iters=5", "c", "4"), -1);
	assert_string_equal(err, "'--min-iters=5' is more than ITERS (4), the most a budget may run: "
				 "raise ITERS or lower --min-iters");
	assert_int_equal(parse(&o, err, "--samples=", NULL, NULL, NULL), -1);
	assert_string_equal(err, "option '--samples' needs a directory: --samples=DIR");
}

/* Each option alone is refused with a message that has its text. */
static void refused(const char *const bad[][2], size_t n)
{
	struct options o;
	char err[512];

	for (size_t i = 0; i < n; i++) {
		assert_int_equal(parse(&o, err, bad[i][0], NULL, NULL, NULL), -1);
		if (!strstr(err, bad[i][1]))
			fail_msg("%s: '%s'", bad[i][0], err);
	}
}

/* --min-busbw=GBPS[@SIZE[+]]: where the floor holds, what fails it, every bad value. */
static void min_busbw_floor(void **state)
{
	struct options o;
	char err[512], desc[FLOOR_DESC_MAX];
	(void)state;
	assert_int_equal(parse(&o, err, "--min-busbw=2.5", NULL, NULL, NULL), 0);
	assert_true(o.min_busbw.min == 2.5 && o.min_busbw.bytes == 0);
	assert_true(floor_fails(&o.min_busbw, 8, 2.4) && !floor_fails(&o.min_busbw, 8, 2.5));
	floor_describe(&o.min_busbw, desc, sizeof(desc));
	assert_string_equal(desc, "busbw >= 2.5 GB/s at every size");
	assert_int_equal(parse(&o, err, "--min-busbw=2.5@1M", NULL, NULL, NULL), 0);
	assert_true(floor_fails(&o.min_busbw, 1 << 20, 1) && !floor_fails(&o.min_busbw, 2 << 20, 1));
	assert_true(!floor_fails(&o.min_busbw, 512 << 10, 1));
	floor_describe(&o.min_busbw, desc, sizeof(desc));
	assert_string_equal(desc, "busbw >= 2.5 GB/s at 1 MiB per peer");
	assert_int_equal(parse(&o, err, "--min-busbw=2.5@1M+", NULL, NULL, NULL), 0);
	assert_true(floor_fails(&o.min_busbw, 1 << 20, 1) && floor_fails(&o.min_busbw, 2 << 20, 1));
	assert_true(!floor_fails(&o.min_busbw, 512 << 10, 1));
	assert_true(floor_fails(&o.min_busbw, 4 << 20, NAN));   /* not a number is not above */
	floor_describe(&o.min_busbw, desc, sizeof(desc));
	assert_string_equal(desc, "busbw >= 2.5 GB/s at 1 MiB per peer and above");
	const char *const bad[][2] = {
		{ "--min-busbw=abc", "invalid --min-busbw 'abc': expected decimal GB/s above 0, at most "
				     "1000000, optionally @SIZE (that per-peer size) or @SIZE+ (it and "
				     "larger), e.g. --min-busbw=2.5@1M+" },
		{ "--min-busbw=0", "invalid --min-busbw '0'" },
		{ "--min-busbw=-1", "invalid --min-busbw '-1'" },
		{ "--min-busbw=@1M", "invalid --min-busbw '@1M'" },
		{ "--min-busbw=1@", "for --min-busbw" },
		{ "--min-busbw=1@zz", "invalid size 'zz' for --min-busbw" },
		{ "--min-busbw=1@1M++", "invalid size '1M+' for --min-busbw" },
		{ "--line-rate=-1", "invalid --line-rate '-1': expected each node's NIC rate in decimal "
				    "GB/s each way, above 0 and at most 1000000 (e.g. 25 for 200 Gb/s)" },
		{ "--line-rate=0", "invalid --line-rate '0'" },
		{ "--line-rate=fast", "invalid --line-rate 'fast'" },
		{ "--line-rate", "option '--line-rate' needs a value: --line-rate=GBPS" },
	};
	refused(bad, sizeof(bad) / sizeof(bad[0]));
	assert_int_equal(parse(&o, err, "--min-busbw=1", "--pairs", NULL, NULL), -1);
	assert_string_equal(err, "'--min-busbw' does nothing here: it acts only with a sweep, whose "
				 "rows it judges (not --pairs)");
}

/* --min-eff=F[@SIZE[+]] and ALLER_LINE_RATE: the floor under eff, the declared rate. */
static void min_eff_floor_and_line_rate_env(void **state)
{
	struct options o;
	char err[512], desc[FLOOR_DESC_MAX];
	(void)state;
	assert_int_equal(parse(&o, err, "--min-eff=0.5@64K+", NULL, NULL, NULL), 0);
	assert_true(floor_fails(&o.min_eff, 1 << 20, 0.4) && !floor_fails(&o.min_eff, 1 << 20, 0.5));
	assert_true(!floor_fails(&o.min_eff, 8, 0.1));
	floor_describe(&o.min_eff, desc, sizeof(desc));
	assert_string_equal(desc, "eff >= 0.5 at 64 KiB per peer and above");
	const char *const bad[][2] = {
		{ "--min-eff=1.5", "invalid --min-eff '1.5': expected a fraction of the limit above 0, "
				   "at most 1, optionally @SIZE (that per-peer size) or @SIZE+ (it "
				   "and larger), e.g. --min-eff=0.5@1M+" },
		{ "--min-eff=x", "invalid --min-eff 'x'" },
		{ "--min-eff=0", "invalid --min-eff '0'" },
		{ "--min-eff", "option '--min-eff' needs a value: --min-eff=F[@SIZE[+]]" },
	};
	refused(bad, sizeof(bad) / sizeof(bad[0]));
	assert_int_equal(parse(&o, err, "--min-eff=0.5", "--pairs", NULL, NULL), -1);
	assert_string_equal(err, "'--min-eff' does nothing here: it acts only with a sweep, whose "
				 "rows it judges (not --pairs)");
	/* the variable declares the rate where --line-rate does not */
	assert_int_equal(parse(&o, err, NULL, NULL, NULL, NULL), 0);
	assert_int_equal(options_line_rate_env(&o, "0.125", err, sizeof(err)), 0);
	assert_true(o.line_rate == 0.125);
	assert_string_equal(o.line_rate_by, "ALLER_LINE_RATE");
	assert_int_equal(parse(&o, err, "--line-rate=3", NULL, NULL, NULL), 0);
	assert_int_equal(options_line_rate_env(&o, "0.125", err, sizeof(err)), 0);
	assert_true(o.line_rate == 3);
	assert_string_equal(o.line_rate_by, "--line-rate");
	assert_int_equal(parse(&o, err, NULL, NULL, NULL, NULL), 0);
	assert_int_equal(options_line_rate_env(&o, "", err, sizeof(err)), 0);
	assert_true(o.line_rate == 0);
	assert_int_equal(options_line_rate_env(&o, "1gbit", err, sizeof(err)), -1);
	assert_string_equal(err, "invalid ALLER_LINE_RATE '1gbit': expected each node's NIC rate in "
				 "decimal GB/s each way, above 0 and at most 1000000 (e.g. 25 for 200 "
				 "Gb/s)");
}

/* --ci=REL[:MAX]: the precision asked of the median, the most calls, and every bad value. */
static void ci_option(void **state)
{
	struct options o;
	char err[512];
	(void)state;
	assert_int_equal(parse(&o, err, NULL, NULL, NULL, NULL), 0);
	assert_true(o.ci_rel == 0);
	assert_int_equal(options_calls_max(&o), o.iters);
	assert_int_equal(parse(&o, err, "--ci=0.05", "c", "10", NULL), 0);
	assert_true(o.ci_rel == 0.05);
	assert_int_equal(o.ci_max, 1000);   /* the default MAX */
	assert_int_equal(options_calls_max(&o), 1000);
	assert_int_equal(parse(&o, err, "--ci=0.1:64", "c", "4", NULL), 0);
	assert_int_equal(o.ci_max, 64);
	assert_int_equal(parse(&o, err, "--ci=0.1", "c", "5000", NULL), 0);
	assert_int_equal(o.ci_max, 5000);   /* never fewer than ITERS */
	const char *const bad[][2] = {
		{ "--ci=0", "invalid --ci precision '0': expected a fraction of the median, 0.01..1 "
			    "(e.g. --ci=0.05 or --ci=0.05:200)" },
		{ "--ci=0.001", "invalid --ci precision '0.001'" },
		{ "--ci=x", "invalid --ci precision 'x': expected a fraction" },
		{ "--ci=1.5", "invalid --ci precision '1.5'" },
		{ "--ci=-0.1", "invalid --ci precision '-0.1'" },
		{ "--ci=0.1:", "invalid --ci maximum of timed calls '': expected an integer, 1..1000000" },
		{ "--ci=0.1:0", "invalid --ci maximum of timed calls '0'" },
		{ "--ci=0.1:many", "invalid --ci maximum of timed calls 'many'" },
		{ "--ci", "option '--ci' needs a value: --ci=REL[:MAX]" },
	};
	refused(bad, sizeof(bad) / sizeof(bad[0]));
	assert_int_equal(parse(&o, err, "--ci=0.1:8", "c", "16", NULL), -1);
	assert_string_equal(err, "'--ci=0.1:8': MAX is less than ITERS (16), the fewest timed calls: "
				 "raise MAX or lower ITERS");
	assert_int_equal(parse(&o, err, "--ci=0.1", "--timing=loop", NULL, NULL), -1);
	assert_string_equal(err, "'--ci' needs a time of each call (a sweep's), so not with "
				 "--timing=loop|nccl");
	assert_int_equal(parse(&o, err, "--ci=0.1", "--isolate", NULL, NULL), -1);
	assert_non_null(strstr(err, "not with --isolate"));
	assert_int_equal(parse(&o, err, "--ci=0.1", "--pairs", NULL, NULL), -1);
	assert_non_null(strstr(err, "not with --pairs"));
	assert_int_equal(parse(&o, err, "--ci=0.1", "--ci=0.2", NULL, NULL), -1);
	assert_non_null(strstr(err, "option '--ci' is given twice"));
}

/* Every ordered pair exactly once per call, each rank sending and receiving once a step. */
static void pairwise_schedule(void **state)
{
	(void)state;
	for (long g = 1; g <= 64; g++) {
		static char met[64][64];
		memset(met, 0, sizeof(met));
		for (long k = 0; k < g; k++) {
			char sends[64] = { 0 }, recvs[64] = { 0 };
			for (long r = 0; r < g; r++) {
				long to, from, back, unused;
				algo_pairwise_step(r, k, g, &to, &from);
				assert_in_range(to, 0, g - 1);
				assert_in_range(from, 0, g - 1);
				/* what r sends at step k, `to` receives at step k */
				algo_pairwise_step(to, k, g, &unused, &back);
				assert_int_equal(back, r);
				assert_int_equal(k == 0, to == r);
				met[r][to]++;
				sends[to]++;
				recvs[from]++;
			}
			for (long r = 0; r < g; r++) {
				assert_int_equal(sends[r], 1);
				assert_int_equal(recvs[r], 1);
			}
		}
		for (long a = 0; a < g; a++)
			for (long b = 0; b < g; b++)
				assert_int_equal(met[a][b], 1);
	}
}

static void algorithm_names(void **state)
{
	static const char *const names[] = ALLER_ALGO_NAMES;
	char buf[128];
	struct algo_list l;
	(void)state;
	for (int i = 0; i < ALGO_N; i++)
		assert_string_equal(algo_name((enum algo_id)i), names[i]);
	assert_int_equal(algo_list_parse(&l, "pairwise,alltoallv", buf, sizeof(buf)), 0);
	algo_list_describe(&l, buf, sizeof(buf));
	assert_string_equal(buf, "pairwise,alltoallv");
	/* this build (Open MPI 4.1 with pcollreq, or MPI-4) has a persistent all-to-all */
	assert_null(algo_unavailable(ALGO_PERSISTENT));
}

/* --transport=nccl: ncclAlltoAll on device buffers, in a NCCL=1 build only. */
static void transport(void **state)
{
	struct options o;
	char err[512];
	(void)state;
	assert_int_equal(parse(&o, err, NULL, NULL, NULL, NULL), 0);
	assert_int_equal(o.transport, TRANSPORT_MPI);
	assert_int_equal(parse(&o, err, "--transport=mpi", NULL, NULL, NULL), 0);
	assert_int_equal(parse(&o, err, "--transport=nccl", NULL, NULL, NULL), -1);
#ifdef ALLER_NCCL
	fail_msg("the unit tests are built without NCCL");
#endif
	assert_string_equal(err, "'--transport=nccl' needs a build with 'make CUDA=1 NCCL=1'; this "
				 "aller moves data with MPI only");
	assert_int_equal(parse(&o, err, "--transport=gloo", NULL, NULL, NULL), -1);
	assert_string_equal(err, "invalid transport 'gloo': allowed are 'mpi' and 'nccl'");
	assert_int_equal(parse(&o, err, "--algo=nccl", NULL, NULL, NULL), -1);
	assert_string_equal(err, "'nccl' is a transport, not an MPI algorithm: use --transport=nccl");
}

static void bad_arguments(void **state)
{
	(void)state;
	assert_true(sizeof(bads) / sizeof(bads[0]) >= 25);
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct options o;
		char err[512] = "";
		int rc = parse(&o, err, bads[i].a[0], bads[i].a[1], bads[i].a[2], bads[i].a[3]);
		if (rc != -1 || !strstr(err, bads[i].says))
			fail_msg("case %zu: rc %d, message '%s', wanted '%s'", i, rc, err, bads[i].says);
	}
}

/* --algo=put's one-sided component under Open MPI (osc.c). */
static void put_osc(void **state)
{
	(void)state;
	assert_string_equal(osc_choice(NULL, 4), "pt2pt");
	assert_string_equal(osc_choice("", 4), "pt2pt");
	assert_string_equal(osc_choice(NULL, 3), "pt2pt");
	assert_null(osc_choice("rdma", 4));      /* the user's own is respected */
	assert_null(osc_choice("ucx", 4));
	assert_null(osc_choice(NULL, 5));        /* no pt2pt in Open MPI 5 */
	assert_null(osc_choice(NULL, 0));        /* not Open MPI */
	assert_true(osc_rdma_possible("rdma", 4));
	assert_true(osc_rdma_possible("pt2pt,rdma", 4));
	assert_true(osc_rdma_possible("^pt2pt", 4));
	assert_true(osc_rdma_possible(NULL, 4));
	assert_false(osc_rdma_possible("pt2pt", 4));
	assert_false(osc_rdma_possible("^rdma", 4));
	assert_false(osc_rdma_possible("^pt2pt,rdma", 4));
	assert_false(osc_rdma_possible("rdmax,xrdma", 4));
	assert_false(osc_rdma_possible("rdma", 5));
	assert_false(osc_rdma_possible("rdma", 0));
}

/* The test hooks, parsed once (faults.c), from a table instead of the environment. */
static const char *const *fake_env;
static const char *fake_get(const char *name)
{
	for (const char *const *e = fake_env; *e; e += 2)
		if (strcmp(e[0], name) == 0)
			return e[1];
	return NULL;
}

static void test_hooks(void **state)
{
	static const char *const none[] = { NULL };
	static const char *const all[] = {
		"ALLER_TEST_CORRUPT", "3", "ALLER_TEST_HANG", "1", "ALLER_TEST_STALE", "x",
		"ALLER_TEST_SLOW", "5:3000:busy:together:iter=4", "ALLER_TEST_TRACE", "1",
		"ALLER_TEST_STALL", "2:500",
		"ALLER_TEST_DIE", "2:1", "ALLER_TEST_BUFFER_FAIL", "0",
		"ALLER_TEST_MEMAVAIL", "1e9", "ALLER_TEST_DELAY", "2:7",
		"ALLER_TEST_NCCL_STUB", "0", NULL
	};
	struct faults f;
	(void)state;
	fake_env = none;
	faults_parse(&f, fake_get);
	assert_int_equal(f.corrupt_rank, -1);
	assert_int_equal(f.slow_rank, -1);
	assert_int_equal(f.slow_iter, -1);
	assert_int_equal(f.stall_iter, -1);
	assert_int_equal(f.die_rank, -1);
	assert_int_equal(f.buffer_fail_rank, -1);
	assert_int_equal(f.delay_rank, -1);
	assert_true(f.memavail < 0);
	assert_false(f.trace || f.nccl_stub || f.slow_busy || f.slow_together);
	fake_env = all;
	faults_parse(&f, fake_get);
	assert_int_equal(f.corrupt_rank, 3);
	assert_int_equal(f.hang_rank, 1);
	assert_int_equal(f.stale_rank, -1);   /* not a rank */
	assert_int_equal(f.slow_rank, 5);
	assert_int_equal(f.slow_us, 3000);
	assert_true(f.slow_busy && f.slow_together && f.trace);
	assert_int_equal(f.slow_iter, 4);
	assert_int_equal(f.stall_iter, 2);
	assert_int_equal(f.stall_us, 500);
	assert_int_equal(f.die_rank, 2);
	assert_int_equal(f.die_upto, 1);
	assert_int_equal(f.buffer_fail_rank, 0);
	assert_true(f.memavail == 1e9);
	assert_int_equal(f.delay_rank, 2);
	assert_int_equal(f.delay_us, 7000);
	assert_false(f.nccl_stub);   /* "0" is off */
}

/* The table is the options: each row parses by its name, --help is its rows' lines in order,
 * and an exclusion's message comes from the row that declares it. */
static void one_table(void **state)
{
	const char *usage = options_usage(), *at = usage;
	struct options o;
	char err[512];
	(void)state;

	for (int id = 0; id < OPT_COUNT; id++) {
		const struct option_def *d = &options_table[id];
		char arg[64];
		snprintf(arg, sizeof(arg), "%s%s", d->name, d->value == VALUE_NONE ? "" : "=x");
		err[0] = '\0';
		parse(&o, err, arg, NULL, NULL, NULL);
		assert_null(strstr(err, "unknown option"));
		if (d->help) {   /* in --help, after the row before it */
			const char *h = strstr(at, d->help);
			assert_non_null(h);
			at = h + strlen(d->help);
		}
	}
	/* --pairs' row says what it cannot go with: each of them refused, named */
	assert_int_equal(parse(&o, err, "--pairs", "--samples=d", NULL, NULL), -1);
	assert_string_equal(err, "'--pairs' measures each pair of tasks alone, one message size: "
				 "not with --samples");
	assert_true(options_table[OPT_PAIRS].excludes & FEATURE(F_SAMPLES));
	assert_int_equal(parse(&o, err, "--congestion=0.5", "--isolate", NULL, NULL), -1);
	assert_string_equal(err, "'--congestion' runs aggressors beside the measured tasks: not "
				 "with --isolate");
}

/* A fake environment for stack_apply: names and values, set or not. */
static char stack_names_[16][64], stack_values_[16][256];
static int nstackenv;

static const char *env_get(const char *name)
{
	for (int i = 0; i < nstackenv; i++)
		if (!strcmp(stack_names_[i], name))
			return stack_values_[i];
	return NULL;
}

static int env_set(const char *name, const char *value)
{
	snprintf(stack_names_[nstackenv], sizeof(stack_names_[0]), "%s", name);
	snprintf(stack_values_[nstackenv++], sizeof(stack_values_[0]), "%s", value);
	return 0;
}

/* --stack and ALLER_STACK: a row of the table, its variables set where unset, a disagreement refused. */
static void stacks_set_their_environment(void **state)
{
	struct options o;
	char err[512], desc[768];

	(void)state;
	assert_int_equal(parse(&o, err, "--stack=ucx", "c", NULL, NULL), 0);
	assert_string_equal(o.stack->name, "ucx");
	assert_int_equal(options_stack_env(&o, "ofi", err, sizeof(err)), 0);   /* --stack wins */
	assert_string_equal(o.stack->name, "ucx");
	assert_int_equal(parse(&o, err, "--stack=psm2", "c", NULL, NULL), -1);
	assert_string_equal(err, "invalid --stack 'psm2': expected one of the stacks aller knows: ob1-tcp, ucx, ofi, "
			    "mpich-ucx (common/stacks.h; a site's own: its variables in a campaign's VARIANTS row)");
	options_init(&o);
	assert_int_equal(options_stack_env(&o, "bogus", err, sizeof(err)), -1);
	assert_true(strncmp(err, "invalid ALLER_STACK 'bogus': ", 29) == 0);
	/* ucx over the NICs MPI is told to use; with --reveal, the monitoring PML */
	nstackenv = 0;
	env_set("OMPI_MCA_btl_tcp_if_include", "eth0,eth1");
	assert_int_equal(stack_apply(stack_named("ucx"), 1, env_get, env_set, desc, sizeof(desc), err, sizeof(err)), 0);
	assert_string_equal(desc, "OMPI_MCA_pml=ucx,monitoring OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any "
			    "UCX_TLS=tcp,self,sm UCX_NET_DEVICES=eth0,eth1");
	assert_string_equal(env_get("UCX_TLS"), "tcp,self,sm");
	/* ofi: one interface for libfabric's tcp provider */
	nstackenv = 0;
	env_set("OMPI_MCA_btl_tcp_if_include", "eth0,eth1");
	assert_int_equal(stack_apply(stack_named("ofi"), 0, env_get, env_set, desc, sizeof(desc), err, sizeof(err)), 0);
	assert_string_equal(env_get("FI_TCP_IFACE"), "eth0");
	assert_string_equal(env_get("OMPI_MCA_mtl_ofi_provider_include"), "tcp;ofi_rxm");
	/* the environment says otherwise: refused, never guessed */
	nstackenv = 0;
	env_set("OMPI_MCA_pml", "ob1");
	assert_int_equal(stack_apply(stack_named("ucx"), 0, env_get, env_set, desc, sizeof(desc), err, sizeof(err)), -1);
	assert_string_equal(err, "stack 'ucx' sets OMPI_MCA_pml=ucx, but the environment has OMPI_MCA_pml=ob1: unset it, "
			    "or run without the stack");
	/* a conflict after the first assignment (UCX_TLS, the fourth): nothing of the stack set */
	nstackenv = 0;
	env_set("UCX_TLS", "rc");
	assert_int_equal(stack_apply(stack_named("ucx"), 0, env_get, env_set, desc, sizeof(desc), err, sizeof(err)), -1);
	assert_int_equal(nstackenv, 1);
	assert_string_equal(err, "stack 'ucx' sets UCX_TLS=tcp,self,sm, but the environment has UCX_TLS=rc: unset it, "
			    "or run without the stack");
	/* no setter: checked only (--check-args), by the same rule */
	nstackenv = 0;
	assert_int_equal(stack_apply(stack_named("ucx"), 0, env_get, NULL, desc, sizeof(desc), err, sizeof(err)), 0);
	assert_int_equal(nstackenv, 0);
	env_set("OMPI_MCA_pml", "ob1");
	assert_int_equal(stack_apply(stack_named("ucx"), 0, env_get, NULL, desc, sizeof(desc), err, sizeof(err)), -1);
	/* ... and alike: nothing to set */
	nstackenv = 0;
	env_set("OMPI_MCA_pml", "ob1");
	assert_int_equal(stack_apply(stack_named("ob1-tcp"), 0, env_get, env_set, desc, sizeof(desc), err, sizeof(err)), 0);
	assert_int_equal(nstackenv, 2);
}

/* The NICs each stack is told to use, by the variable it reads. */
static void stacks_say_their_nics(void **state)
{
	char nics[64];

	(void)state;
	nstackenv = 0;
	assert_null(stack_nics(env_get, nics, sizeof(nics)));
	assert_string_equal(nics, "");
	env_set("OMPI_MCA_btl_tcp_if_include", "eth0,eth1");
	env_set("UCX_NET_DEVICES", "mlx5_0:1,mlx5_1:1");
	env_set("FI_TCP_IFACE", "hsn0");
	assert_string_equal(stack_nics(env_get, nics, sizeof(nics)), "OMPI_MCA_btl_tcp_if_include");
	assert_string_equal(nics, "eth0,eth1");
	env_set("OMPI_MCA_pml", "^ucx");   /* all but UCX: still the TCP BTL's */
	assert_string_equal(stack_nics(env_get, nics, sizeof(nics)), "OMPI_MCA_btl_tcp_if_include");
	snprintf(stack_values_[nstackenv - 1], sizeof(stack_values_[0]), "ucx");
	assert_string_equal(stack_nics(env_get, nics, sizeof(nics)), "UCX_NET_DEVICES");
	assert_string_equal(nics, "mlx5_0,mlx5_1");   /* DEVICE:PORT as its device */
	snprintf(stack_values_[nstackenv - 1], sizeof(stack_values_[0]), "cm");
	env_set("OMPI_MCA_mtl", "ofi");
	assert_string_equal(stack_nics(env_get, nics, sizeof(nics)), "FI_TCP_IFACE");
	assert_string_equal(nics, "hsn0");
	/* MPICH over UCX: no OMPI_MCA_pml, UCX_TLS set */
	nstackenv = 0;
	env_set("UCX_TLS", "tcp,self,sm");
	env_set("UCX_NET_DEVICES", "eth1");
	assert_string_equal(stack_nics(env_get, nics, sizeof(nics)), "UCX_NET_DEVICES");
	assert_string_equal(nics, "eth1");
	/* too long for the room: none said, never a list cut short */
	snprintf(stack_values_[nstackenv - 1], sizeof(stack_values_[0]), "eth0,eth1");
	assert_null(stack_nics(env_get, nics, 6));
	/* a list's words, whole */
	assert_true(stack_listed("eth0,eth1", "eth1") && stack_listed("eth0", "eth0"));
	assert_false(stack_listed("eth0,eth10", "eth1") || stack_listed("eth01", "eth0") || stack_listed("", "eth0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(stacks_set_their_environment),
		cmocka_unit_test(stacks_say_their_nics),
		cmocka_unit_test(positional_as_in_the_spec),
		cmocka_unit_test(long_options),
		cmocka_unit_test(measurement_options),
		cmocka_unit_test(reveal_options),
		cmocka_unit_test(bad_arguments),
		cmocka_unit_test(algorithms_and_isolation),
		cmocka_unit_test(splits),
		cmocka_unit_test(measurement_modes),
		cmocka_unit_test(ci_option),
		cmocka_unit_test(min_busbw_floor),
		cmocka_unit_test(min_eff_floor_and_line_rate_env),
		cmocka_unit_test(pairwise_schedule),
		cmocka_unit_test(algorithm_names),
		cmocka_unit_test(transport),
		cmocka_unit_test(put_osc),
		cmocka_unit_test(test_hooks),
		cmocka_unit_test(one_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
