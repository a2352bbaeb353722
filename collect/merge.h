/* merge.h: reads aller outputs and writes the merged data sets. */
#ifndef COLLECT_MERGE_H
#define COLLECT_MERGE_H

#include "groups.h"
#include "input.h"

struct merge_options {
	const char *outdir;
	int quiet;          /* no summary on stderr */
};

/* Exit status: 0 clean, 1 merged with warnings, 3 cannot write the output. */
int merge_run(const struct merge_options *o, const struct filelist *files, struct summary *s);

#endif
