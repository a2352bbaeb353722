/*
 * row.h: one row of aller's output, as the sweep measured it: format.h's
 * columns are expressions of it (output.c prints them, json.c writes them).
 */
#ifndef ALLER_ROW_H
#define ALLER_ROW_H

#include "plan/stats.h"
#include "world/eff.h"

struct row {
	long comms, commsize, count;
	long iters;               /* its timed calls per task (ITERS, --time-per-size's or --ci's) */
	double gib;
	struct stats s;
	double aggbw;
	long slowest;
	double busbw;             /* decimal GB/s, nccl-tests' definition */
	/* talone_s, interference, interference_avg, interference_max; NAN: "-" */
	double isolate[4];
	double imbalance;         /* the busiest task's in+out bytes / the mean task's */
	double vbusbw;            /* nccl-tests' alltoallv bus bandwidth, decimal GB/s */
	double hottest;           /* world rank receiving the most; NAN ("-"): all alike */
	double congest[3];        /* --congestion: tcongested_s, congestion, congestion_p99; NAN "-" */
	struct eff_row eff;       /* offnode_B, netbw_GBs, eff (NAN "-") */
	double moe[3];            /* --moe: tcounts_s, tdispatch_s, tcombine_s; NAN "-" */
};

#endif
