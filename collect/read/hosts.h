/*
 * hosts.h: which host a world rank ran on, from an output's '# host:' lines
 * as aller writes them (aller/world/hostmap.h) and facts.tsv keeps them:
 * "NAME RANKS" for one node, or "PREFIX[LO-HI] RANKS +STEP" for a run of
 * nodes whose names count up (zero-padded as LO is) and whose ranks are the
 * first node's plus i x STEP for the i-th; RANKS is "A", "A-B", "A-B:S",
 * comma-separated. Pure logic.
 */
#ifndef COLLECT_HOSTS_H
#define COLLECT_HOSTS_H

#include <stddef.h>

/*
 * The host of `rank` by the host lines (separated by '\n') into name; 0, or
 * -1 when no line holds it (or a line is not of that form).
 */
int hosts_of_rank(const char *lines, long rank, char *name, size_t len);
/*
 * Every (host, rank) the host lines hold, in their order, to each(name,
 * rank, ctx): one pass however many nodes (hosts_of_rank per rank reads
 * every line each time). 0, -1 when a line is not of that form, or the
 * first nonzero that each returned.
 */
typedef int hosts_each_fn(const char *name, long rank, void *ctx);
int hosts_each(const char *lines, hosts_each_fn *each, void *ctx);
/*
 * Whether name is one node's name that anything may act on (drain, isolate):
 * 1..255 of letters, digits, '.', '_' and '-', the first a letter or digit.
 * A Slurm host list ("n[1-4]", "n7,n8") or a name with quotes or spaces is
 * not: Slurm would expand it to other nodes.
 */
int hosts_name_ok(const char *name);

#endif
