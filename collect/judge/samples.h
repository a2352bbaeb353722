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
 *               (a host that did in SAMPLES_STRAGGLER_CALLS or more and in
 *               half of the straggling calls or more is a straggling host);
 *   system-wide half the tasks or more were slowed, no one spared;
 *   host        fewer were slowed, all on one host (named);
 *   partial     anything else (how many, on how many hosts).
 */
#ifndef COLLECT_SAMPLES_H
#define COLLECT_SAMPLES_H

#include <stddef.h>

#define SAMPLES_SLOW 3.0
/* A straggling host: it came late in this many straggling calls or more, and in half of them or more. */
#define SAMPLES_STRAGGLER_CALLS 3

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
/* Whether a host that came late in k of total straggling calls is a straggling host. */
int samples_straggling(long k, long total);

/*
 * collect --samples PATH...: the table on stdout; with --finding, instead,
 * one row "SEVERITY<TAB>stragglers<TAB>TEXT" (the slow calls, the host that
 * came late most often: a notice when it is a straggling host); with
 * --suspect DIR CAMPAIGN, each straggling host over all the straggling
 * calls a suspect in DIR/suspects.tsv (its since DIR's earliest start).
 * 0, 1 (warnings), 2 (usage), 3 (cannot write the suspects).
 */
int samples_main(int argc, char **argv);

#endif
