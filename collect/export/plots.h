/*
 * plots.h: collect --plots DIR: the plot list of a merged DIR, what plots/plot.sh draws, worked out from the
 * merge's index of data sets (sets.tsv), pairs.tsv and facts.tsv (never an aller output): DIR/plots.tsv, one
 * row a plot (PLOTS_COLUMNS: its gnuplot script, data file, file name, title, subtitle and the script's own
 * arguments), and each plot's data sets as a small table of DIR/plotsets/ (a header naming the columns the
 * script reads, common.gp's sets_col, then a row of sets.tsv's values a data set), which an argument names
 * relative to DIR ("plotsets/NAME.tsv"). The plots: bandwidth and time per call versus message size per
 * (mode, nodes, algorithm, split); the algorithms side by side; the splits; the MoE round trip's phases;
 * bandwidth versus concurrency at three sizes; interference; scaling over node counts; a heatmap per --pairs
 * point. plot.sh only runs the rows. A plot the findings cite leads (lead 1, the report shows it first; at
 * most PLOTS_LEAD of them, in order): each bandwidth and scaling plot, the algorithms where a crossover is
 * found, interference where it is, the node pairs where a link is slow, and per node count the largest size's
 * concurrency where the modes differ (findings.tsv's kinds).
 */
#ifndef COLLECT_PLOTS_H
#define COLLECT_PLOTS_H

#include "tablerow.h"

#define PLOTS_FILE "plots.tsv"
#define PLOTS_LISTS "plotsets"
#define PLOTS_LEAD 12

#define PLOTS_COLUMNS(X) \
	X(script, TEXT, script) \
	X(data, TEXT, data) \
	X(out, TEXT, out) \
	X(title, TEXT, title) \
	X(subtitle, TEXT, subtitle) \
	X(arg6, TEXT, a6) \
	X(arg7, TEXT, a7) \
	X(arg8, TEXT, a8) \
	X(arg9, TEXT, a9) \
	X(lead, LONG, lead)
TABLE_STRUCT(plot_row, PLOTS_COLUMNS);

/* collect --plots DIR. Exit status: 0, 2 (usage), 3 (a table unreadable, a write failed). */
int plots_main(int argc, char **argv);
/*
 * A comparison's plot list (collect --compare -o DIR): the ratio NEW/BASE of compare.dat per (mode, nodes), a
 * curve per level, titled TITLE: ...; with EXPECTED (a simulated BASE) each one's bandwidth too, NEW beside
 * BASE's dashed "expected (simulated)" (expected.gp); 0, or 3 with the message said.
 */
int plots_compare(const char *dir, const char *title, const char *subtitle, int expected);

#endif
