/*
 * groups.h: aller outputs read as groups of points (points of one identity
 * but their node count: campaign, mode, series, variant, and outside
 * campaigns tasks per node, buffers and MPI library; instrumented runs
 * apart), each with its rows, re-runs resolved: the newest complete job
 * wins. Used by the merge and the comparison.
 */
#ifndef COLLECT_GROUPS_H
#define COLLECT_GROUPS_H

#include "read/input.h"
#include "store.h"

struct summary {
	long files, points, complete, incomplete, failed, superseded, skipped, rows, warnings;
};

struct groups {
	struct summary *s;
	void (*warn)(void *ctx, const char *path, long line, const char *msg);
	void *ctx;
	/* pass 1: every point read, and their order by group */
	struct point *pts;
	struct point **order;
	size_t npts;
	/* pass 2: the group being read */
	struct group g;
	int point;
	int oom;
};

/* Problems go to warn as "path:line: msg" (line 0: the file); counts to s. */
void groups_init(struct groups *gs, struct summary *s,
		 void (*warn)(void *ctx, const char *path, long line, const char *msg), void *ctx);
/* Pass 1: each file's header; unreadable or foreign files are skipped. 0, or -1 (out of memory). */
int groups_read(struct groups *gs, const struct filelist *files);
/* What a data set's legend label names (sets.tsv's label): the campaign when
 * the points have several, the series when they have several, the algorithm
 * when a point timed another than MPI_Alltoall, the split when one has
 * --split, the placement when one has --placement. */
#define LABEL_CAMPAIGN 1
#define LABEL_SERIES 2
#define LABEL_ALGO 4
#define LABEL_SPLIT 8
#define LABEL_PLACEMENT 16
int groups_labels(const struct groups *gs);
/*
 * Pass 2: each group parsed and resolved, then fn(ctx, group), which
 * returns the rows it took, or -1 to stop. 0, or -1 (out of memory or fn).
 */
int groups_each(struct groups *gs, long (*fn)(void *ctx, const struct group *g), void *ctx);
/* The points stay until then: rows and keys may point into them. */
void groups_release(struct groups *gs);

#endif
