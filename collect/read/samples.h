/*
 * samples.h: collect --samples: aller --samples' files (every task's time
 * of every timed call) read back, and each slow call classified.
 *
 * Per (level, algorithm, split, count), with t[r][k] task r's time of call
 * k: the first call against the rest (median over tasks of t[r][0] / median
 * over tasks of each task's median of the others), and the slow calls: those
 * whose slowest task took more than SAMPLES_SLOW x the median call's
 * slowest. A task is slowed in call k when t[r][k] is above SAMPLES_SLOW x
 * its own median and above 1 / SAMPLES_SLOW of the call's slowest (a late
 * task's own call is short: its peers waited, it did not). Of a slow call:
 *   straggler   in the communicators with slowed tasks, the tasks that were
 *               not slowed are one task, or the tasks of one host: it came
 *               late (its peers waited for it in the call), and is named
 *               (judge/stragglers.h: which hosts straggle);
 *   system-wide half the tasks or more were slowed, no one spared;
 *   host        fewer were slowed, all on one host (named);
 *   partial     anything else (how many, on how many hosts).
 */
#ifndef COLLECT_SAMPLES_H
#define COLLECT_SAMPLES_H

#include <stddef.h>
#include <stdio.h>

#define SAMPLES_SLOW 3.0

enum slow_kind { SLOW_STRAGGLER, SLOW_SYSTEM, SLOW_HOST, SLOW_PARTIAL };

/* One data set's count: n tasks of iters calls each. */
struct sample_set {
	long n, iters;
	const double *t;          /* n x iters, task by task */
	const long *comm, *rank;  /* each task's communicator and world rank */
	const int *host;          /* each task's host, an index into hosts */
	const char *const *hosts;
};

/* What one slow call was. */
struct slow_call {
	long call;                /* 0: the first timed call */
	enum slow_kind kind;
	long slowed;              /* tasks slowed */
	long who;                 /* straggler: its world rank, or -1 for a host's tasks */
	int host;                 /* straggler and host: the host */
	double factor;            /* the call's slowest / the median call's slowest */
	double waited;            /* straggler: the median slowed task's time - the late one's */
};

/* The first call over the rest (NAN when there is no rest). */
double samples_first_ratio(const struct sample_set *s);
/* The slow calls, in order, into out (at most max); their number. */
long samples_slow_calls(const struct sample_set *s, struct slow_call *out, long max);
const char *samples_kind_name(enum slow_kind k);

/* What the slow calls of a reading of samples were. */
struct samples_tally {
	long counts, slow;        /* the counts (data sets) read, their slow calls */
	long late_total;          /* the straggling calls */
	long *late;               /* per host, the straggling calls it came late in */
	char **hosts;             /* the hosts' names ("?": a file that names none) */
	int nhosts;
	int hosts_seen;           /* the hosts with samples */
};

/*
 * The samples of argc PATHs (files, or directories of them) read and
 * classified: the table on `table` (NULL: none), the tallies into *t (NULL:
 * none; samples_tally_release frees them). 0, 1 (warnings) or 2 (no
 * samples file, a bad path; said).
 */
int samples_read(int argc, char **argv, FILE *table, struct samples_tally *t);
void samples_tally_release(struct samples_tally *t);

#endif
