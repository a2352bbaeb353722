/*
 * pairs.h: aller --pairs simulated (docs/aller.md, "The slow link"): the n x
 * n matrix of a shifted exchange, n - 1 steps, at step k every task sending
 * to (rank + k) mod n at once. Each flow's time is common/flows.h's on the
 * faulted fabric (the links shared max-min fairly among the step's flows;
 * a flow inside a node its bytes / SIM_COPY_GBS), a slow node's flows FACTOR
 * times slower, plus SIM_PEER_S; each timed exchange divided by an
 * efficiency drawn from SIM_EFF_LO..SIM_EFF_HI, as the sweep's calls are.
 * The slow links by aller's one rule (aller/modes/linkmap.c). Trees only
 * (no dragonfly groups, no rails): as flows.h.
 */
#ifndef SIMULATE_PAIRS_H
#define SIMULATE_PAIRS_H

#include <stdio.h>

#include "model.h"

/*
 * The matrix of the first `nodes` nodes x tpn tasks, `bytes` a message,
 * iters timed exchanges a step, into f after its header's '# pairs:' and
 * '# columns:' (written here), to '# Done'. 0, 2 (not a tree, said) or 3
 * (out of memory, said).
 */
int sim_pairs(FILE *f, const struct sim *s, long nodes, long tpn, long bytes, long iters, double slow_below);

#endif
