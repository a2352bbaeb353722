/* samples.c: see samples.h. */
#include "samples.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dirs.h"
#include "format.h"
#include "replace.h"
#include "world/failure.h"
#include "world/world_comm.h"

struct samples {
	MPI_Comm node;
	int leader, size;          /* the node's first task; the node's tasks */
	FILE *f;                   /* the leader's file, written as DIR/.samples-<host>.txt.part */
	char path[4096], part[4200]; /* its final name, and the name it is written under */
	long lines;
	const struct world *w;
	double *all;               /* the leader's: size x iters times */
	long *ranks;               /* ... and each task's communicator and world rank */
	long cap;                  /* doubles in all */
};

int samples_open(struct samples **sp, const struct options *o, const struct world *w,
		 char *pattern, size_t len)
{
	struct samples *s;
	char err[4400] = "", name[4096];
	int failed;

	*sp = NULL;
	if (!o->samples)
		return 0;
	failed = w->rank == 0 && dirs_make(o->samples) != 0;
	if (failed)
		snprintf(err, sizeof(err), "cannot create the samples directory '%s': %s", o->samples,
			 strerror(errno));
	if (failure_agree(w, failed, err))
		return 3;
	snprintf(pattern, len, "%s/samples-<host>.txt: every task's time of every timed call, a "
		 "line per (level, algorithm, split, count, task)", o->samples);
	s = calloc(1, sizeof(*s));
	failed = !s;
	if (s) {
		s->w = w;
		s->node = MPI_COMM_NULL;
		MPI_MUST(MPI_Comm_split_type(world_comm(w), MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL,
					     &s->node));
		MPI_MUST(MPI_Comm_size(s->node, &s->size));
		MPI_MUST(MPI_Comm_rank(s->node, &s->leader));
		s->leader = s->leader == 0;
		if (s->leader && !(s->ranks = malloc(sizeof(long) * 2 * (size_t)s->size)))
			failed = 1;
		snprintf(name, sizeof(name), "%s/samples-%s.txt", o->samples, world_host(w));
		if (s->leader && replace_target(name, "# aller samples", s->path, sizeof(s->path), err,
						 sizeof(err))) {
			failed = 1;
		} else if (s->leader) {   /* beside it as a dot-file, which collect --samples names */
			const char *base = strrchr(s->path, '/');
			int dir = base ? (int)(base - s->path) + 1 : 0;
			snprintf(s->part, sizeof(s->part), "%.*s.%s.part", dir, s->path,
				 base ? base + 1 : s->path);
		}
		if (s->leader && !failed && !(s->f = replace_create(s->part, "the samples file ", err, sizeof(err))))
			failed = 1;
		if (s->f)
			fprintf(s->f, "# aller samples: every task's time of every timed call (concurrent "
				"pass), seconds, host %s\n# columns: level algo split count comm rank "
				"t_s...\n", world_host(w));
	}
	if (failure_agree(w, failed, err[0] ? err : "out of memory for the samples")) {
		samples_close(s);
		return 3;
	}
	*sp = s;
	return 0;
}

void samples_count(struct samples *sp, int level, const char *algo, const char *split,
		   long count, long comm, long iters, const double *times)
{
	long mine[2] = { comm, sp ? sp->w->rank : 0 };
	int ok = 1;

	if (!sp)
		return;
	if (sp->leader && (long)sp->size * iters > sp->cap) {
		free(sp->all);
		sp->cap = (long)sp->size * iters;
		sp->all = malloc(sizeof(double) * (size_t)sp->cap);
		if (!sp->all)
			sp->cap = 0;
	}
	if (sp->leader)
		ok = sp->all && sp->ranks;
	/* the node agrees: a leader out of memory loses this count's lines, nothing else */
	MPI_MUST(MPI_Bcast(&ok, 1, MPI_INT, 0, sp->node));
	if (!ok)
		return;
	MPI_MUST(MPI_Gather(mine, 2, MPI_LONG, sp->ranks, 2, MPI_LONG, 0, sp->node));
	MPI_MUST(MPI_Gather(times, (int)iters, MPI_DOUBLE, sp->all, (int)iters, MPI_DOUBLE, 0, sp->node));
	if (!sp->leader || !sp->f)
		return;
	for (int r = 0; r < sp->size; r++, sp->lines++) {
		fprintf(sp->f, "%d %s %s %ld %ld %ld", level, algo, split, count, sp->ranks[2 * r],
			sp->ranks[2 * r + 1]);
		for (long i = 0; i < iters; i++)
			fprintf(sp->f, " %.6e", sp->all[(long)r * iters + i]);
		fputc('\n', sp->f);
	}
}

int samples_finish(struct samples *sp)
{
	char err[8500] = "";
	int failed = 0;

	if (!sp)
		return 0;
	if (sp->f) {
		fprintf(sp->f, "%s %ld lines\n", ALLER_SAMPLES_END, sp->lines);
		failed = replace_commit(sp->f, sp->part, sp->path, "# aller samples", err, sizeof(err));
		sp->f = NULL;
	}
	return failure_agree(sp->w, failed, err) ? 3 : 0;
}

void samples_close(struct samples *sp)
{
	if (!sp)
		return;
	if (sp->f)   /* not finished: the run failed; the partial file keeps its .part name */
		fclose(sp->f);
	if (sp->node != MPI_COMM_NULL)
		MPI_MUST(MPI_Comm_free(&sp->node));
	free(sp->all);
	free(sp->ranks);
	free(sp);
}
