/*
 * faults.h: the test hooks, ALLER_TEST_* (tests only), parsed once, in one
 * place. Unset, each is a no-op; aller's measurements never read them
 * beyond these functions and fields.
 *
 *   ALLER_TEST_CORRUPT=RANK     that rank damages one received element per call
 *   ALLER_TEST_HANG=RANK        ... sleeps 60 s before its first call
 *   ALLER_TEST_STALE=RANK       ... keeps its first iteration's send data (--fresh-data)
 *   ALLER_TEST_SLOW=RANK[:US[:busy][:together][:iter=I]]
 *                               ... starts each timed call US (1000) late, asleep,
 *                               or spinning (:busy); only in the concurrent pass
 *                               of --isolate (:together); only in timed call I
 *                               (0 the first) of each count (:iter=I)
 *   ALLER_TEST_SLOW_CHECK=RANK[:US]  that rank's every check takes US (100000) more
 *   ALLER_TEST_STALL=I[:US]     every rank sleeps US (1000) inside timed call I of
 *                               each count's concurrent pass: a system-wide hiccup
 *   ALLER_TEST_TRACE=1          every rank prints a line per call on stderr
 *   ALLER_TEST_DIE=RANK[:N]     that rank is killed (SIGKILL) before the sweep
 *                               while $ALLER_ATTEMPT <= N
 *   ALLER_TEST_BUFFER_FAIL=RANK ... its fills fail as a device error would
 *   ALLER_TEST_MEMAVAIL=BYTES   stands in for the node's MemAvailable
 *   ALLER_TEST_DELAY=RANK[:MS]  a late rank (50 ms) in reveal's queues pass
 *   ALLER_TEST_SLOW_PAIR=SRC:DST[:US]  --pairs: SRC sends to DST US (20000) late
 *                               in each exchange, making progress meanwhile: one slow link
 *   ALLER_TEST_NCCL_STUB=1      --transport=nccl without a GPU (algo_list.h); =trace:
 *                               and --timing=nccl's order of calls on stderr
 *   ALLER_TEST_MPI_ERROR=RANK:WHERE  that rank's first MPI call through MPI_MUST
 *                               (must.h) whose "file:line call" text holds WHERE
 *                               ("pairs.c", "MPI_Gather", "world.c:43") returns an error
 *   ALLER_TEST_SYSFS=DIR        the NICs' rates and InfiniBand counters are read under
 *                               DIR, not /sys (limits.h, counters.h)
 *   ALLER_TEST_PROC=DIR         the network counters are read under DIR, not /proc
 *                               (counters.h: DIR/net/dev, DIR/net/snmp)
 *   ALLER_TEST_MOE_CORRUPT=counts|combine  --moe: rank 0 damages one count it
 *                               received, or one element combined back, per call
 */
#ifndef ALLER_FAULTS_H
#define ALLER_FAULTS_H

struct faults {
	long corrupt_rank, hang_rank, stale_rank;   /* -1: none */
	long slow_rank, slow_us;
	int slow_busy, slow_together;
	long slow_iter;                             /* -1: every timed call */
	long stall_iter, stall_us;                  /* -1: none */
	long slow_check_rank, slow_check_us;        /* ALLER_TEST_SLOW_CHECK; -1: none */
	int trace;
	long die_rank, die_upto;
	long buffer_fail_rank;
	double memavail;                            /* < 0: none */
	long delay_rank, delay_us;
	int nccl_stub;
	int nccl_trace;
	long pair_src, pair_dst, pair_us;           /* ALLER_TEST_SLOW_PAIR; -1: none */
	long mpi_error_rank;                        /* ALLER_TEST_MPI_ERROR; -1: none */
	const char *mpi_error_where;
	const char *sysfs;                          /* ALLER_TEST_SYSFS, else "/sys" */
	const char *proc;                           /* ALLER_TEST_PROC, else "/proc" */
	int moe_corrupt;                            /* 1 counts, 2 combine; 0 none */
};

/* The hooks from get (getenv; another for the unit tests), every one parsed. */
void faults_parse(struct faults *f, const char *(*get)(const char *name));
/* This process's, parsed from the environment on first use. */
const struct faults *faults(void);

#endif
