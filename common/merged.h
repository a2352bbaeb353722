/*
 * merged.h: the one definition of collect's merged format, shared by the
 * collector (which writes it) and, through the files' own header lines, by
 * the plots (which select columns by name, never by number).
 *
 *   bandwidth.dat, concurrency.dat, scaling.dat: a "# columns: ..." line
 *     (the view's table: its x and the measured columns format.h's
 *     ALLER_COLUMN_VIEWS gives it), then data sets separated by two blank
 *     lines, each opened by a "# key: value ..." comment and a title row;
 *   points.csv: a header row (MERGED_CSV), one row per measurement, every
 *     measured column; the point's own facts once, in points-index.csv
 *     (MERGED_POINTS: one row per point), joined by the column `point`;
 *   sets.tsv: the index of the data sets, a header row and one row per data
 *     set, in the order of the files (its columns: collect/merge/setrow.h).
 *
 * A column is a name and where its value comes from; adding one to a table
 * adds it to the file, its header line and, by name, to what the plots can
 * use.
 */
#ifndef COMMON_MERGED_H
#define COMMON_MERGED_H

#include <stddef.h>

#include "tablerow.h"

enum merged_source {
	MSRC_ALLER,          /* aller's column `arg` (enum aller_column), as printed */
	MSRC_NODES,          /* the point's node count */
	MSRC_BYTES,          /* bytes per peer: count x 8 */
	MSRC_WORLD,          /* the point's world size */
	MSRC_LEVEL,          /* the data set's index in its file */
	MSRC_ALGO,           /* the data set's algorithm */
	MSRC_SPLIT,          /* ... and its split ("uniform" without one) */
	MSRC_INSTRUMENTED,   /* "yes" for a --reveal run, else "no" */
	MSRC_STATE,          /* complete, incomplete or failed */
	MSRC_MPI,            /* the MPI library up to its first comma */
	MSRC_POINT,          /* the point's number in points-index.csv */
	MSRC_CAMPAIGN, MSRC_MODE, MSRC_TPN, MSRC_BUFFERS, MSRC_JOB, MSRC_SOURCE, MSRC_SERIES,
	MSRC_VARIANT,        /* the point's keys, as text */
	MSRC_PLACEMENT,      /* its --placement, empty without one (the launcher's order) */
	MSRC_KEY,            /* its key (collect/read/point.h, point_key) */
	MSRC_BASE,           /* its series less its placement (point_base) */
	/* the row against what its point's fabric allows (collect/read/fabric.h; unknown: empty, NaN, "-") */
	MSRC_BOUND,          /* bound_s: the least time its busiest link needs per call */
	MSRC_BOTTLENECK,     /* that link (common/bound.h's name): "nic:NODE", "up:LEAF"; "(partial:LINK)"
			      * after it naming a loaded link without a rate */
	MSRC_EFF_BOUND,      /* bound_s / tmed */
	MSRC_ABOVE_BOUND     /* why a row beat its bound beyond its interval (bound_s > tmed_hi_s):
			      * "spread", "burst" or "rate" (fabric.h's fabric_above); without a
			      * bound, where aller's eff beats 1: "cache" or "rate"; empty when not */
};

struct merged_column {
	const char *name;
	enum merged_source src;
	int arg;
};

/* The merged tables: the three views (in the order of format.h's ALLER_VIEW_* bits), the CSV. */
enum merged_table { MERGED_BANDWIDTH, MERGED_CONCURRENCY, MERGED_SCALING, MERGED_CSV,
		    MERGED_POINTS, MERGED_NTABLES };
#define MERGED_MAX_COLUMNS 64
struct merged_table_def {
	struct merged_column cols[MERGED_MAX_COLUMNS];
	int n;
	char sep;                   /* ' ' in the .dat files, ',' in the CSVs */
};

/*
 * points-index.csv's columns, one line each: X(name, source, type), type
 * LONG (a number) or TEXT: the merge writes them (common/merged.c), the
 * reader of a merged campaign reads them by name into its points
 * (collect/model/campaign.h).
 */
#define MERGED_POINT_COLUMNS(X) \
	X(point, MSRC_POINT, LONG) \
	X(campaign, MSRC_CAMPAIGN, TEXT) \
	X(mode, MSRC_MODE, TEXT) \
	X(nodes, MSRC_NODES, LONG) \
	X(tasks_per_node, MSRC_TPN, TEXT) \
	X(world, MSRC_WORLD, LONG) \
	X(buffers, MSRC_BUFFERS, TEXT) \
	X(instrumented, MSRC_INSTRUMENTED, TEXT) \
	X(state, MSRC_STATE, TEXT) \
	X(job, MSRC_JOB, TEXT) \
	X(source, MSRC_SOURCE, TEXT) \
	X(mpi, MSRC_MPI, TEXT) \
	X(series, MSRC_SERIES, TEXT) \
	X(variant, MSRC_VARIANT, TEXT) \
	X(placement, MSRC_PLACEMENT, TEXT) \
	X(key, MSRC_KEY, TEXT) \
	X(base, MSRC_BASE, TEXT)

/* The tables, built from format.h's lists on first use. */
const struct merged_table_def *merged_table(enum merged_table t);

/* An algorithm's name (format.h's ALLER_ALGO_NAMES), "?" out of range. */
const char *merged_algo_name(int algo);

/* The names of a table joined by sep, into buf; returns buf. */
char *merged_names(const struct merged_column *cols, int n, char sep, char *buf, size_t len);

/* The index of the data sets, one tab-separated row per set. */
#define MERGED_SETS_FILE "sets.tsv"
/*
 * sets.tsv's columns, one line each (collect/merge/setrow.h writes them):
 * X(name, type, field): the column's name, how it is written, the field of
 * struct set_row it is written from. Types: TEXT ("-" when NULL or empty;
 * tabs and newlines become spaces), LONG ("-" below 0), MPI (the library's
 * name and version, up to the first comma), ALGO (format.h's name of the
 * algorithm), SPLIT (the split's name), INDEX (a number: the algorithm's
 * place in format.h's list, which the plots' colours follow).
 */
#define SET_COLUMNS(X) \
	X(file, TEXT, file) \
	X(index, LONG, index) \
	X(kind, TEXT, kind) \
	X(campaign, TEXT, campaign) \
	X(mode, TEXT, mode) \
	X(nodes, LONG, nodes) \
	X(commsize, LONG, commsize) \
	X(comms, LONG, comms) \
	X(bytes_per_peer, LONG, bytes) \
	X(size, TEXT, size) \
	X(tasks_per_node, TEXT, tpn) \
	X(buffers, TEXT, buffers) \
	X(mpi, MPI, mpi) \
	X(series, TEXT, series) \
	X(variant, TEXT, variant) \
	X(algo, ALGO, algo) \
	X(split, SPLIT, split) \
	X(label, TEXT, label) \
	X(rows, LONG, rows) \
	X(point, LONG, point) \
	X(algo_index, INDEX, algo) \
	X(bytes_max, LONG, bytes_max) \
	X(isolated, TEXT, isolated) \
	X(local, TEXT, local)

/*
 * pairs.tsv: each aller --pairs point of the merge, its file (escaped:
 * common/text.h's text_add_tsv), node count, state, row of
 * points-index.csv and its matrix's data set in pairs.dat (-1: empty when
 * it has none) (common/tablerow.h).
 */
#define MERGED_PAIRS_FILE "pairs.tsv"
#define PAIRS_COLUMNS(X) \
	X(file, ESC, file) \
	X(nodes, LONG, nodes) \
	X(state, TEXT, state) \
	X(point, LONG, point) \
	X(index, LONG, index)
TABLE_STRUCT(pairs_row, PAIRS_COLUMNS);
/*
 * pairs.dat: each --pairs point's matrix (pairs.tsv's index: its data set),
 * a row per ordered pair of tasks, a blank line after each sender (gnuplot's
 * image); GB/s NaN on the diagonal; the link's best and average exchange.
 */
#define MERGED_PAIRS_DAT "pairs.dat"
#define MERGED_PAIRS_DAT_COLUMNS "src dst bw_GBs tbest_s tavg_s"

/*
 * facts.tsv: what the judging, the plots and the report read of each
 * point instead of its output (collect/read/point.h's facts): its row of
 * points-index.csv, the fact's key and its value as the output gave it.
 * Its rows are the point's fact lines, written as they are kept (the merge's
 * one writer, collect/merge/merge.c); the header comes from here.
 */
#define MERGED_FACTS_FILE "facts.tsv"
#define MERGED_FACT_SETTING "setting"   /* facts.tsv: a point's setting, "NAME=VALUE" */
/*
 * facts.tsv: an earlier attempt of the point's job (aller.sbatch's retries),
 * "attempt N: STATE: REASON", one line each (collect/read/point.h's
 * point_tell_retry; the findings count them).
 */
#define MERGED_FACT_RETRIED "retried"
#define FACTS_COLUMNS(X) \
	X(point, LONG, point) \
	X(key, TEXT, key) \
	X(value, TEXT, value)

/*
 * findings.tsv, the findings for the report (common/tablerow.h): severity,
 * kind, the sentence, the points it is about (comma-separated), its effect
 * (the largest |ln x| of its ratios, efficiencies or factors; 0 without),
 * its rank in the report (0 the verdict, then 1, 2, ...: collect/judge/
 * findings_rank.c) and how the report shows it: verdict, sentence (the
 * FINDINGS_FIRST that rank first, but a number to look up) or table.
 * Written by the findings (collect/judge) and by a comparison (-o DIR).
 */
#define MERGED_FINDINGS_FILE "findings.tsv"
/*
 * The kinds of finding, one line each (docs/plots.md says when each is
 * emitted): X(name, lookup, act, plot). lookup: as information, a number to
 * look up (the report's table, after every sentence); act: it names
 * something to act on (first among its severity); plot: the plot it leads
 * (collect --plots' kind of plot, "" none). find_emit takes FK_<name>.
 */
#define FINDING_KINDS(X) \
	X(verdict, 0, 0, "") \
	X(peak, 1, 0, "") \
	X(limit, 1, 0, "") \
	X(crossover, 1, 0, "algorithms") \
	X(modes, 0, 0, "concurrency") \
	X(placement, 0, 0, "") \
	X(scaling, 0, 0, "") \
	X(interference, 0, 0, "interference") \
	X(congestion, 0, 0, "") \
	X(floor, 0, 1, "") \
	X(state, 0, 1, "") \
	X(retried, 0, 1, "") \
	X(test_hooks, 0, 0, "") \
	X(slow_link, 0, 1, "pairs") \
	X(suspect, 0, 1, "") \
	X(located, 0, 1, "") \
	X(slowest_host, 0, 1, "") \
	X(change, 0, 0, "") \
	X(regression, 0, 0, "") \
	X(stragglers, 0, 0, "") \
	X(nics, 0, 1, "") \
	X(topology, 0, 1, "")
#define FINDING_KIND_ID_(name, lookup, act, plot) FK_##name,
enum finding_kind { FINDING_KINDS(FINDING_KIND_ID_) FINDING_NKINDS };
struct finding_kind_def {
	const char *name;
	int lookup, act;
	const char *plot;
};
/* A kind's line (FK_*), or by its name (NULL: none such). */
const struct finding_kind_def *finding_kind(enum finding_kind k);
const struct finding_kind_def *finding_kind_named(const char *name);
#define FINDINGS_FIRST 5
#define FINDING_COLUMNS(X) \
	X(severity, TEXT, severity) \
	X(kind, TEXT, kind) \
	X(text, TEXT, text) \
	X(points, TEXT, points) \
	X(effect, F3, effect) \
	X(rank, LONG, rank) \
	X(shown, TEXT, shown)
TABLE_STRUCT(finding_row, FINDING_COLUMNS);

#endif
