/*
 * stragglers.h: which hosts straggle, from aller --samples' slow calls
 * (read/samples.h: a straggling call is one whose peers waited for one
 * task, or one host's tasks): a host that came late in STRAGGLER_CALLS
 * straggling calls or more, and in half of them or more. The one rule, for
 * the report's item of a point's samples and the campaign's suspects.
 */
#ifndef COLLECT_STRAGGLERS_H
#define COLLECT_STRAGGLERS_H

#define STRAGGLER_CALLS 3

/* Whether a host that came late in k of total straggling calls straggles. */
int straggling(long k, long total);

/*
 * collect --samples [--finding | --suspect DIR CAMPAIGN] PATH...: without an
 * option, read/samples.h's table on stdout; with --finding, instead, one
 * row "SEVERITY<TAB>stragglers<TAB>TEXT" (the slow calls, the host that
 * came late most often: a notice when it straggles); with --suspect, each
 * straggling host over all the calls a suspect in DIR/suspects.tsv (since:
 * DIR's earliest start; none where the samples are of one host, every
 * straggler's). 0, 1 (warnings), 2 (usage, no samples), 3 (cannot write
 * the suspects).
 */
int stragglers_main(int argc, char **argv);

#endif
