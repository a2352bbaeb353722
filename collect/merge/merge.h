/* merge.h: reads aller outputs and writes the merged data sets. */
#ifndef COLLECT_MERGE_H
#define COLLECT_MERGE_H

#include "groups.h"
#include "read/input.h"

struct merge_options {
	const char *outdir;
	int quiet;          /* no summary on stderr */
	int side;           /* a side of a comparison: its warnings and nothing to merge not said */
	/*
	 * Run on the tables just written, the merge's lock still held (the
	 * findings: judge/findings.h); 0, or -1 with a message in err
	 * ("findings: ..."). NULL: none.
	 */
	int (*then)(const char *outdir, char *err, size_t errlen);
};

/* Exit status: 0 clean, 1 merged with warnings, 3 cannot write the output (or then failed). */
int merge_run(const struct merge_options *o, const struct filelist *files, struct summary *s);

/*
 * One side of a comparison (collect --compare): ARG's aller outputs (a file,
 * a directory, or a campaign directory's raw/) merged quietly into OUTDIR,
 * which the comparison then reads as it reads any merge; *files: how many
 * files ARG holds. 0, 1 (no aller output among them), -1 with a message in
 * err (ARG unreadable: input_add's "cannot read ..."), or -2 (OUTDIR
 * unwritable, its message in err).
 */
int merge_side(const char *arg, const char *outdir, long *files, char *err, size_t errlen);

#endif
