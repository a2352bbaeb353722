/*
 * format.h: the one definition of aller's output format, shared by aller
 * (which writes it) and collect (which reads it).
 *
 * A run is a text file that gnuplot reads as it stands:
 *   - header comments "# key: value" (ALLER_KEY_*), ending with ALLER_KEY_COLUMNS;
 *   - one data set per outer-loop level, separated by two blank lines, each
 *     opened by "# level: ..." comments and the column header;
 *   - data lines whose first ALLER_SPEC_COLUMNS columns are the specification's
 *     ten, followed by the extra columns (new ones only ever at the end);
 *   - ALLER_DONE as the last line of a complete run.
 * Job templates may put further "# key: value" provenance lines in front.
 */
#ifndef ALLER_FORMAT_H
#define ALLER_FORMAT_H

#define ALLER_VERSION "1.1.0"
#define ALLER_FORMAT_VERSION 9

/* Header keys: "# <key>: <value>". */
#define ALLER_KEY_ALLER "aller"         /* aller version */
#define ALLER_KEY_FORMAT "format"       /* ALLER_FORMAT_VERSION */
#define ALLER_KEY_COMMAND "command"     /* the command line */
#define ALLER_KEY_MPI "mpi"             /* first line of MPI_Get_library_version */
#define ALLER_KEY_STACK "stack"         /* --stack: "NAME: what it is (set by WHO: VAR=value ...)" */
#define ALLER_KEY_WORLD "world"         /* MPI_COMM_WORLD size */
#define ALLER_KEY_NODES "nodes"         /* number of shared-memory nodes */
#define ALLER_KEY_TPN "tasks_per_node"  /* "N" or "MIN-MAX" when uneven */
#define ALLER_KEY_HOST "host"           /* "<name> <rank ranges>", one per host */
#define ALLER_KEY_BUFFERS "buffers"     /* "host" or "cuda ..." */
#define ALLER_KEY_DEVICE "device"       /* "<host> <GPU id> <ranks>" per device (cuda) */
#define ALLER_KEY_CUDA_AWARE "cuda_aware" /* cuda: "yes (how it was decided)" */
#define ALLER_KEY_ENV "env"             /* "NAME=value" that shapes the run, one per line */
#define ALLER_KEY_TEST_HOOKS "test_hooks" /* the ALLER_TEST_* hooks set, "NAME=value ...": a test,
					   * not a measurement (collect judges, drains and exports
					   * nothing of it) */
#define ALLER_KEY_VERIFY "verify"       /* "all", "warmup" or "none" ("on"/"off" in format 1) */
#define ALLER_KEY_DATA "data"           /* "reused" or "fresh" */
#define ALLER_KEY_WARMUP "warmup"       /* untimed calls per count */
#define ALLER_KEY_SELECTION "selection" /* levels and sizes measured */
#define ALLER_KEY_MODE "mode"           /* ALLER_MODE_* */
#define ALLER_KEY_ITERS "iters"         /* timed iterations */
#define ALLER_KEY_LONGS "longs"         /* per-task buffer size in longs */
#define ALLER_KEY_START "start"         /* ISO-8601 UTC */
#define ALLER_KEY_SLURM_JOB "slurm_job"
#define ALLER_KEY_SLURM_NODES "slurm_nodes"
#define ALLER_KEY_TIMER "timer"
#define ALLER_KEY_LARGE_COUNTS "large_counts" /* how counts above INT_MAX are sent */
#define ALLER_KEY_STATISTICS "statistics"
#define ALLER_KEY_REVEAL "reveal"       /* "<tier> (...)" or ALLER_REVEAL_UNAVAILABLE */
#define ALLER_KEY_REVEAL_QUEUES "reveal_queues" /* how the queues pass decides */
#define ALLER_KEY_REVEAL_DIR "reveal_dir" /* where the traffic matrices are */
#define ALLER_KEY_ALGOS "algos"       /* the algorithms timed, comma-separated, in order */
#define ALLER_KEY_SPLITS "splits"       /* the --split list (split_describe), space-separated;
					 * absent: uniform alone */
#define ALLER_KEY_ISOLATE "isolate"     /* "none", "communicator 0" or "every communicator" */
#define ALLER_KEY_TRANSPORT "transport" /* "mpi", or "nccl <version>" */
#define ALLER_KEY_OSC "osc"             /* put under Open MPI: its osc component, who chose it */
#define ALLER_KEY_TIMING "timing"       /* "barrier", "loop", "osu" or "nccl" (--timing), and how */
#define ALLER_KEY_CACHE "cache"         /* "hot ..." or "cold ..." (--cold-cache) */
#define ALLER_KEY_BUDGET "budget"       /* --time-per-size: seconds per (level, count), the range */
#define ALLER_KEY_CI "ci"               /* --ci: the precision asked of tmed, the calls' range */
#define ALLER_KEY_FLOOR "floor"         /* --min-busbw, --min-eff: "busbw >= G GB/s at ..." */
#define ALLER_KEY_LIMIT "limit"         /* per node "nic HOST: ..." (the line rate, whence, or
					 * unknown), "copy HOST: ..." (its copy bandwidth) and
					 * "cache HOST: N bytes, ..." (its last-level cache) */
#define ALLER_KEY_FABRIC "fabric"       /* the fabric under the run's nodes, "KEY VALUE..." a
					 * line (--fabric=FILE, or the job's ALLER_FABRIC_INFO) */
#define ALLER_KEY_SIMULATED "simulated" /* aller-simulate: its model, seed and faults: no measurement */
#define ALLER_KEY_SAMPLES "samples"     /* --samples: where every task's time of every call goes */
#define ALLER_KEY_COLUMNS "columns"
/*
 * aller --pairs (its own run, no sweep): "# pairs: ..." in the header, its
 * columns, one row per ordered pair (a blank line after each sender: gnuplot
 * "with image"), then "# pair_hosts:" and a row per task, then a
 * "# slow_link:" line per slow link and one "# slow_links:" line.
 */
#define ALLER_KEY_CONGESTION "congestion" /* --congestion: the aggressors and what they run */
#define ALLER_KEY_MOE "moe"               /* --moe: the round trip's phases */
#define ALLER_KEY_PLACEMENT "placement"   /* --placement: block, cyclic or random:SEED */
#define ALLER_KEY_PLACED "placed"         /* ... the nodes a communicator spans, per level */
#define ALLER_KEY_PAIRS "pairs"
#define ALLER_PAIRS_COLUMN_HEADER "src dst src_host dst_host bw_GBs tbest_s tavg_s"
#define ALLER_KEY_PAIR_HOSTS "pair_hosts"
#define ALLER_PAIR_HOSTS_COLUMNS "rank host send_median_GBs recv_median_GBs"
#define ALLER_KEY_SLOW_LINK "slow_link"
#define ALLER_KEY_SLOW_LINKS "slow_links"
#define ALLER_KEY_WALL "wall"          /* at the end: sweep time, share in calls */
#define ALLER_KEY_WALL_PARTS "wall_parts" /* ... and the run's time by part: "total=S startup=S ..." */
#define ALLER_KEY_NIC_COUNTERS "nic_counters" /* ... and per node its network counters over the run:
					 * "NODE aller offnode_tx_B=N; IF tx_bytes=N ...; tcp retrans_segs=N"
					 * (aller/world/counters.h) */
/* Per data set. */
#define ALLER_KEY_LEVEL "level"         /* "<index> target <size>" */
#define ALLER_KEY_SIZES "sizes"         /* communicator sizes when uneven, "3x2 1" */
#define ALLER_KEY_ALGO "algo"           /* the data set's algorithm (ALLER_ALGO_NAMES) */
#define ALLER_KEY_SPLIT "split"         /* the data set's --split, one word (split_describe);
					 * absent: uniform */
#define ALLER_KEY_SKIPPED "skipped"     /* "count N: why": a count of uneven blocks that
					 * did not fit the buffers (no row; the run goes on) */
#define ALLER_KEY_FLOOR_FAILED "floor_failed" /* after a row below the floor: "level L
					 * (commsize G, ALGO), SIZE per peer: busbw V GB/s, below the
					 * floor of F"; the run exits 1 */
#define ALLER_KEY_FAILED "failed"       /* "ALGO: what failed at level N (commsize G): why":
					 * the data set has no rows, the run goes on, exit 3 */
/* After a data line of a --timing=nccl run: the row's time on the stream. */
#define ALLER_KEY_STREAM_TIME "stream_time" /* "count=N stream_s=S host_s=H": per call, the
					 * slowest task's, by CUDA events ("-": none) and by
					 * the host's loop (launch and synchronise included) */
/* After a data line of a --reveal run (see docs/reveal.md). */
#define ALLER_KEY_TRAFFIC "traffic"     /* "count=N tier=T key=value ..." */
#define ALLER_KEY_COUNTERS "counters"   /* generic tier: "count=N name=delta ..." */
#define ALLER_KEY_MATRIX "matrix"       /* the traffic-matrix file of this count */
#define ALLER_KEY_LATE "late"           /* --reveal=queues, after a level's lines */
#define ALLER_REVEAL_UNAVAILABLE "unavailable"
#define ALLER_MATRIX_COLUMNS "src dst bytes_per_call msgs_per_call"

/* Written by job templates (jobs/aller.sbatch) before aller's own header. */
#define ALLER_KEY_CAMPAIGN "campaign"
#define ALLER_KEY_POINT "point"           /* the point's key (campaigns/manifest.sh) */
#define ALLER_KEY_POINT_NODES "point_nodes"
#define ALLER_KEY_POINT_MODE "point_mode"
#define ALLER_KEY_POINT_SERIES "point_series" /* the point's identity but nodes and mode */
#define ALLER_KEY_POINT_BASE "point_base" /* point_series less its placement's suffix */
#define ALLER_KEY_VARIANT "variant"       /* the campaign variant's name */
#define ALLER_KEY_VARIANT_ENV "variant_env" /* its environment, VAR=value[,VAR=value] */
#define ALLER_KEY_LAUNCHER "launcher"     /* how MPI was started */
#define ALLER_KEY_ATTEMPT "attempt"       /* 1, 2, ...: retries inside the job */
#define ALLER_KEY_JOB "job"
#define ALLER_KEY_RESTART "restart"
#define ALLER_KEY_INCOMPLETE "incomplete" /* the job was stopped (time limit) */
#define ALLER_KEY_EXIT "exit"             /* aller's exit status */
#define ALLER_KEY_JOB_ERROR "job_error"   /* what the job could not do before aller (module load) */
#define ALLER_KEY_TASKS "tasks"           /* the job's tasks, "N (M per node)" */
#define ALLER_KEY_MODULES "modules"       /* the environment modules loaded (module list), as asked */
#define ALLER_KEY_NODE_SWITCH "node_switch" /* "NODE SWITCH": the leaf switch of each node (topology) */
/*
 * ALLER_KEY_FABRIC's lines come from jobs too: the fabric under the job's
 * nodes, where the site says how to ask (ALLER_FABRIC_INFO): "nic_rate NODE
 * RATE", "switch NODE LEAF", "uplink_rate LEAF RATE" (RATE as
 * common/bound.h's bound_rate reads it), "nic ...", "fault ..."; collect
 * bounds rows by them. aller adds "task_nics IF,IF VAR": the NICs the MPI
 * stack is told to use (common/stacks.h's stack_nics).
 */

#define ALLER_MODE_CONTIGUOUS "contiguous"
#define ALLER_MODE_STRIDED "strided"

#define ALLER_DONE "# Done"
/* The last line of a whole --samples file (aller/samples.h): "# end: N lines". */
#define ALLER_SAMPLES_END "# end:"

/*
 * Algorithms, one line each: X(ID, name, can, per_peer, what it does). An
 * algorithm is this line and its file, aller/algo/algo_<name>.c, defining
 * algo_<name>; the enum (ALGO_<ID>), the names, --help, the allowed lists,
 * the operations' table, what it can be asked for and the collector's names
 * all come from here. `can` is what it does beside MPI_Alltoall's equal
 * blocks (ALGO_CAN_*: blocks of their own sizes, --split and a --moe
 * dispatch; --moe's dispatch and combine; --congestion's aggressors'
 * algorithm), `per_peer` the bytes it keeps per peer beside the buffers (the
 * memory check's). The order is the enum's: a data set without
 * ALLER_KEY_ALGO (older files) is the first; a new MPI algorithm goes at the
 * end of ALLER_MPI_ALGOS (its text fits --help's 80 columns). "nccl" is
 * ncclAlltoAll, the one algorithm of --transport=nccl, and the last.
 */
#define ALGO_CAN_SPLIT 1
#define ALGO_CAN_MOE 2
#define ALGO_CAN_CONGEST 4
#define ALLER_MPI_ALGOS(X) \
	X(ALLTOALL, alltoall, ALGO_CAN_CONGEST, 0, "MPI_Alltoall, the default") \
	X(IALLTOALL, ialltoall, ALGO_CAN_CONGEST, 0, "MPI_Ialltoall + MPI_Wait") \
	X(PERSISTENT, persistent, 0, 0, "MPI_(X)Alltoall_init, MPI_Start + MPI_Wait") \
	X(ALLTOALLV, alltoallv, ALGO_CAN_SPLIT | ALGO_CAN_MOE | ALGO_CAN_CONGEST, 4 * sizeof(int), \
	  "MPI_Alltoallv, equal counts") \
	X(PAIRWISE, pairwise, ALGO_CAN_SPLIT | ALGO_CAN_MOE | ALGO_CAN_CONGEST, 0, \
	  "MPI_Irecv + MPI_Isend per peer, MPI_Waitall") \
	X(PUT, put, ALGO_CAN_SPLIT, sizeof(long), "MPI_Put per peer between two MPI_Win_fence")
#define ALLER_ALGOS(X) ALLER_MPI_ALGOS(X) \
	X(NCCL, nccl, ALGO_CAN_SPLIT | ALGO_CAN_MOE, 0, "ncclAlltoAll (--transport=nccl)")
#define ALLER_ALGO_NAME_(ID, name, can, per_peer, what) #name,
#define ALLER_ALGO_ONE_(ID, name, can, per_peer, what) +1
#define ALLER_ALGO_NAMES { ALLER_ALGOS(ALLER_ALGO_NAME_) }
#define ALLER_NALGOS (0 ALLER_ALGOS(ALLER_ALGO_ONE_))

/* An isolation column where nothing was isolated (gnuplot: missing). */
#define ALLER_MISSING "-"

/*
 * Data columns, one line each: X(ID, name, kind, value, meaning). The first
 * ten are the specification's contract; a new one goes at the end (with a
 * new ALLER_FORMAT_VERSION; the collector keeps reading the older counts).
 * From this list come enum aller_column (ALLER_COL_<ID>), the names, the
 * header, aller's row (value: an expression of `w`, aller's struct row;
 * output.c), the `# statistics:` line (meaning: what the column is, one
 * plain sentence without '|' or ';'; docs/format.md's column table holds the
 * same, tests/unit/test_output.c compares them), the collector's check of
 * each column (kind) and the measured columns of the merged tables
 * (common/merged.c); the last row is one line (tests/mpi/aller.bats adds one
 * after it). Kinds: COUNT a positive integer, RANK a non-negative
 * one, REAL a number (%.6e), OPT a number or "-" where not measured, ORANK
 * a RANK or "-", TEXT a word (no space). A sample is one task's time of one timed call and its own
 * in + out GiB. The identity columns come first (Y for the first, X the
 * rest: the header joins names with spaces).
 */
#define ALLER_IDENTITY_COLUMNS(Y, X) \
	Y(COMMS, comms, COUNT, w->comms, "concurrent communicators") \
	X(COMMSIZE, commsize, COUNT, w->commsize, "tasks in the largest communicator") \
	X(COUNT, count, COUNT, w->count, "MPI_Alltoall count per peer, in longs")
#define ALLER_MEASURED_COLUMNS(X) \
	X(GIB, GiB, REAL, w->gib, "in + out GiB per task of the largest communicator: " \
	  "2 x count x commsize x 8 / 2^30 (with --split: of the mean task)") \
	X(TMIN, tmin_s, REAL, w->s.tmin, "the shortest sample, seconds per call") \
	X(TAVG, tavg_s, REAL, stats_tavg(&w->s), "the mean of the samples, seconds per call") \
	X(TMAX, tmax_s, REAL, w->s.tmax, "the longest sample, seconds per call") \
	X(BWMIN, bwmin_GiBs, REAL, w->s.bwmin, "the lowest of the samples' own GiB / own time, " \
	  "GiB/s per task") \
	X(BWAVG, bwavg_GiBs, REAL, stats_bwavg(&w->s), "the sum of the samples' GiB / the sum " \
	  "of their times, GiB/s per task") \
	X(BWMAX, bwmax_GiBs, REAL, w->s.bwmax, "the highest of the samples' own GiB / own time") \
	X(AGGBW, aggbw_GiBs, REAL, w->aggbw, "all tasks together: the mean over iterations of " \
	  "every task's GiB / the slowest task's time") \
	X(SLOWEST, slowest_rank, RANK, w->slowest, "the world rank of the slowest sample") \
	X(TMED, tmed_s, REAL, stats_tmed(&w->s), "the nearest-rank median of the samples, " \
	  "from a log histogram (within 1.1%)") \
	X(TP99, tp99_s, REAL, stats_tp99(&w->s), "the nearest-rank 99th percentile, " \
	  "from the same histogram") \
	X(BUSBW, busbw_GBs, REAL, w->busbw, "nccl-tests' bus bandwidth: count x commsize x 8 / " \
	  "tavg / 1e9 x (commsize - 1) / commsize, decimal GB/s") \
	X(TALONE, talone_s, OPT, w->isolate[0], "--isolate: communicator 0's tavg run alone " \
	  "(the others wait at the barrier), else \"-\"") \
	X(INTERF, interference, OPT, w->isolate[1], "--isolate: communicator 0's tavg in the " \
	  "concurrent run / talone_s, else \"-\"") \
	X(INTERF_AVG, interference_avg, OPT, w->isolate[2], "--isolate=all: the average of " \
	  "that factor over all communicators, each run alone in turn, else \"-\"") \
	X(INTERF_MAX, interference_max, OPT, w->isolate[3], "--isolate=all: the largest of " \
	  "that factor, else \"-\"") \
	X(IMBALANCE, imbalance, REAL, w->imbalance, "the busiest task's in + out bytes / the " \
	  "mean task's (1: even)") \
	X(VBUSBW, busbw_v_GBs, REAL, w->vbusbw, "nccl-tests' alltoallv bus bandwidth: the " \
	  "busiest task's larger of sent and received bytes per call / tavg / 1e9 x " \
	  "(commsize - 1) / commsize") \
	X(HOTTEST, hottest_rank, ORANK, w->hottest, "the world rank that received the most, " \
	  "\"-\" when every task received alike") \
	X(ITERS, iters, COUNT, w->iters, "timed calls per task: ITERS, or what --time-per-size " \
	  "or --ci chose") \
	X(TCONGESTED, tcongested_s, OPT, w->congest[0], "--congestion: tavg of the count's " \
	  "second pass, the aggressors busy, else \"-\"") \
	X(CONGESTION, congestion, OPT, w->congest[1], "--congestion: tcongested_s / tavg (the " \
	  "first pass, aggressors idle), GPCNeT's congestion impact, else \"-\"") \
	X(CONGESTION_P99, congestion_p99, OPT, w->congest[2], "--congestion: the same of tp99, " \
	  "else \"-\"") \
	X(TMED_LO, tmed_lo_s, REAL, stats_tmed_lo(&w->s), "the low end of tmed_s's 95% " \
	  "confidence interval: the order statistic of binomial(n, 1/2) ranks, from the same " \
	  "histogram (below 6 samples: tmin)") \
	X(TMED_HI, tmed_hi_s, REAL, stats_tmed_hi(&w->s), "its high end (below 6 samples: tmax)") \
	X(OFFNODE, offnode_B, REAL, w->eff.offnode_B, "the busiest node's bytes per call to or " \
	  "from tasks on other nodes, the larger direction (0 when every communicator stays " \
	  "inside a node)") \
	X(NETBW, netbw_GBs, REAL, w->eff.netbw_GBs, "offnode_B / tavg, decimal GB/s") \
	X(EFF, eff, OPT, w->eff.eff, "of every node, the largest of its off-node bytes / tavg " \
	  "over its NICs' line rate, or with no off-node bytes its tasks' in + out bytes / tavg " \
	  "over its copy bandwidth (as '# limit:' says), \"-\" where a limit is unknown " \
	  "(aller/world/eff.h)") \
	X(TCOUNTS, tcounts_s, OPT, w->moe[0], "--moe: the counts' MPI_Alltoall, seconds per " \
	  "call averaged over tasks and timed calls (tavg_s: the whole round trip), else \"-\"") \
	X(TDISPATCH, tdispatch_s, OPT, w->moe[1], "--moe: the dispatch of the blocks, likewise") \
	X(TCOMBINE, tcombine_s, OPT, w->moe[2], "--moe: the combine, sending them back, likewise") \
	X(BOUND, bound_s, OPT, w->eff.bound_s, "the least time a call can take on what aller knows " \
	  "of the fabric: of every link the row's measured bytes cross (each node's NIC and memory, " \
	  "each leaf's uplink with --fabric), the largest bytes / rate (common/bound.h), \"-\" " \
	  "where no link with a known rate carries bytes") \
	X(BOTTLENECK, bottleneck, TEXT, w->eff.bottleneck, "the link that sets bound_s: nic:NODE, up:LEAF or copy:NODE, \"(partial)\" after it where a loaded link has no known rate, else \"-\"")
#define ALLER_COLUMNS(Y, X) ALLER_IDENTITY_COLUMNS(Y, X) ALLER_MEASURED_COLUMNS(X)

/*
 * The collector's views of the measured columns, one line each: X(ID, views).
 * bandwidth.dat, concurrency.dat and scaling.dat carry what their plots read
 * (besides their x: bytes per peer, communicators, nodes), points.csv every
 * column; a column not named here is in the CSV only. A new column's plot
 * names its view here (common/merged.c builds the views from this list).
 */
#define ALLER_VIEW_BANDWIDTH 1
#define ALLER_VIEW_CONCURRENCY 2
#define ALLER_VIEW_SCALING 4
#define ALLER_COLUMN_VIEWS(X) \
	X(TMIN, ALLER_VIEW_BANDWIDTH)                 /* latency, splits: bars */ \
	X(TAVG, ALLER_VIEW_BANDWIDTH)                 /* latency, splits */ \
	X(TMAX, ALLER_VIEW_BANDWIDTH) \
	X(BWMIN, ALLER_VIEW_BANDWIDTH)                /* bandwidth, algorithms: bars */ \
	X(BWAVG, ALLER_VIEW_BANDWIDTH | ALLER_VIEW_CONCURRENCY | ALLER_VIEW_SCALING) \
	X(BWMAX, ALLER_VIEW_BANDWIDTH) \
	X(AGGBW, ALLER_VIEW_CONCURRENCY)              /* concurrency: aggregate */ \
	X(TMED, ALLER_VIEW_BANDWIDTH)                 /* bandwidth: the median, its 95% interval */ \
	X(TMED_LO, ALLER_VIEW_BANDWIDTH) \
	X(TMED_HI, ALLER_VIEW_BANDWIDTH) \
	X(INTERF, ALLER_VIEW_CONCURRENCY)             /* interference */ \
	X(IMBALANCE, ALLER_VIEW_BANDWIDTH)            /* splits */ \
	X(TCOUNTS, ALLER_VIEW_BANDWIDTH)              /* phases (--moe) */ \
	X(TDISPATCH, ALLER_VIEW_BANDWIDTH) \
	X(TCOMBINE, ALLER_VIEW_BANDWIDTH)

#define ALLER_COL_ID_(ID, name, kind, value, meaning) ALLER_COL_##ID,
enum aller_column { ALLER_COLUMNS(ALLER_COL_ID_, ALLER_COL_ID_) ALLER_NCOLS };
/*
 * How many columns each format wrote, by its version (the specification's
 * ten at 0; ALLER_FORMAT_VERSION's, the last, all of them): a row of any of
 * these widths is read, the columns it lacks missing.
 */
#define ALLER_FORMAT_COLUMNS { 10, 12, 15, 19, 23, 26, 28, 31, 34, ALLER_NCOLS }
#define ALLER_SPEC_COLUMNS 10

#define ALLER_COL_NAME_(ID, name, kind, value, meaning) #name,
/* Column names, in enum order. */
#define ALLER_COLUMN_NAMES { ALLER_COLUMNS(ALLER_COL_NAME_, ALLER_COL_NAME_) }
#define ALLER_COL_FIRST_(ID, name, kind, value, meaning) #name
#define ALLER_COL_NEXT_(ID, name, kind, value, meaning) " " #name
/* Column header, as printed after "# " and ALLER_KEY_COLUMNS (a string literal). */
#define ALLER_COLUMN_HEADER ALLER_COLUMNS(ALLER_COL_FIRST_, ALLER_COL_NEXT_)
#define ALLER_COL_MEANING_(ID, name, kind, value, meaning) "; " #name ": " meaning
/* "; name: meaning" for every column, in order (a string literal, `# statistics:`'s end). */
#define ALLER_COLUMN_MEANINGS ALLER_COLUMNS(ALLER_COL_MEANING_, ALLER_COL_MEANING_)

#endif
