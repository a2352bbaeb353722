/*
 * trend.h: collect --trend OUTDIR DIR...: the history of campaigns of one
 * identity, their merged DIRs in date order (plots/trend.sh orders them and
 * checks the identity). Per (mode, nodes, tasks per node, series, commsize,
 * algorithm, split, bytes per peer) the series of busbw_GBs, its slowest
 * call counted as its median (one slow call is no change), one value per campaign, tested for a change (changepoint.h). Writes OUTDIR/trend.csv
 * (one row per series and campaign), trend.dat (each curve at its largest
 * size: what plots/trend.gp draws), OUTDIR/findings.json and findings.tsv
 * (the verdict first, then per curve that changed its largest change), each
 * whole or not at all.
 */
#ifndef COLLECT_TREND_H
#define COLLECT_TREND_H

/* Exit status: 0, 2 (usage), 3 (a table unreadable, a write failed). */
int trend_main(int argc, char **argv);

#endif
