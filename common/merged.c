/* merged.c: the columns of the merged files (see merged.h). */
#include "merged.h"

#include <string.h>

#include "format.h"

#define ALLER(name, col) { name, MSRC_ALLER, col }
/* What aller measured, from its GiB column on, in both tables (format.h's list). */
#define MEASURED_(ID, name, kind, value) ALLER(#name, ALLER_COL_##ID),
#define MEASURED ALLER_MEASURED_COLUMNS(MEASURED_)

const struct merged_column merged_dat_columns[] = {
	{ "nodes", MSRC_NODES, 0 },
	ALLER("comms", ALLER_COL_COMMS),
	ALLER("commsize", ALLER_COL_COMMSIZE),
	{ "bytes_per_peer", MSRC_BYTES, 0 },
	ALLER("count", ALLER_COL_COUNT),
	MEASURED
	{ "algo", MSRC_ALGO, 0 },
	{ "split", MSRC_SPLIT, 0 },
};
const int merged_dat_ncolumns = sizeof(merged_dat_columns) / sizeof(merged_dat_columns[0]);

const struct merged_column merged_csv_columns[] = {
	{ "campaign", MSRC_CAMPAIGN, 0 },
	{ "mode", MSRC_MODE, 0 },
	{ "nodes", MSRC_NODES, 0 },
	{ "tasks_per_node", MSRC_TPN, 0 },
	{ "world", MSRC_WORLD, 0 },
	{ "buffers", MSRC_BUFFERS, 0 },
	{ "instrumented", MSRC_INSTRUMENTED, 0 },
	{ "level", MSRC_LEVEL, 0 },
	{ "algo", MSRC_ALGO, 0 },
	{ "split", MSRC_SPLIT, 0 },
	ALLER("comms", ALLER_COL_COMMS),
	ALLER("commsize", ALLER_COL_COMMSIZE),
	ALLER("count", ALLER_COL_COUNT),
	{ "bytes_per_peer", MSRC_BYTES, 0 },
	MEASURED
	{ "state", MSRC_STATE, 0 },
	{ "job", MSRC_JOB, 0 },
	{ "source", MSRC_SOURCE, 0 },
	{ "mpi", MSRC_MPI, 0 },
	{ "series", MSRC_SERIES, 0 },
	{ "variant", MSRC_VARIANT, 0 },
};
const int merged_csv_ncolumns = sizeof(merged_csv_columns) / sizeof(merged_csv_columns[0]);

const char *merged_algo_name(int algo)
{
	static const char *const names[ALLER_NALGOS] = ALLER_ALGO_NAMES;

	return algo >= 0 && algo < ALLER_NALGOS ? names[algo] : "?";
}

char *merged_names(const struct merged_column *cols, int n, char sep, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && at + 1 < len; i++) {
		size_t k = strlen(cols[i].name);
		if (i)
			buf[at++] = sep;
		if (at + k >= len)
			k = len - at - 1;
		memcpy(buf + at, cols[i].name, k);
		at += k;
		buf[at] = '\0';
	}
	return buf;
}
