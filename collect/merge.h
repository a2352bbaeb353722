/* merge.h: reads aller outputs and writes the merged data sets. */
#ifndef COLLECT_MERGE_H
#define COLLECT_MERGE_H

#include "input.h"

struct merge_options {
	const char *outdir;
	int quiet;          /* no summary on stderr */
};

struct summary {
	long files, points, complete, incomplete, failed, superseded, skipped, rows, warnings;
};

/* Exit status: 0 clean, 1 merged with warnings, 3 cannot write the output. */
int merge_run(const struct merge_options *o, const struct filelist *files, struct summary *s);

#endif
