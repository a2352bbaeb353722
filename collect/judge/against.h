/*
 * against.h: collect --judge, another tool's all-to-all numbers (osu_alltoall,
 * IMB-MPI1 Alltoall, nccl-tests' alltoall_perf: read/peer.h) held against
 * what a described fabric allows them (common/bound.h, the bound aller's
 * rows are judged by): per row the bound, the fraction of it reached and the
 * link that bounds it, and a verdict per task count.
 */
#ifndef COLLECT_AGAINST_H
#define COLLECT_AGAINST_H

/* collect --judge ARGS: 0 judged, 2 usage or a file refused (one line). */
int against_main(int argc, char **argv);

#endif
