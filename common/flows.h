/*
 * flows.h: the flows of one exchange on a tree fabric (bound.h's struct), as
 * pure logic: where a --pairs step sends every task's message at once, how
 * fast each can go when the flows share their links.
 *
 * A flow from node s to node d crosses s's NIC out, d's NIC in, and the
 * uplink of every switch below their lowest common switch, up on s's side
 * and down on d's (bound.h's tree). Each link's rate each way is shared
 * max-min fairly among the flows it carries (water filling: the link that
 * leaves the least to each of its flows fixes their rate; its share taken
 * off their other links; then the next, until every flow has a rate). A
 * flow that ends first gives its share to the others in the network, not
 * here: each time is the most a flow needs while all run, exact for the
 * flows a link shares alike (the exchange's slowest), a little long for a
 * flow beside a slower one.
 */
#ifndef ALLER_FLOWS_H
#define ALLER_FLOWS_H

#include "bound.h"

/*
 * Flow i from node src[i] to node dst[i] (0..f->nnodes-1), `bytes` each,
 * all at once: t[i], its time in seconds; 0 on one node (no link), NAN
 * where a link it crosses has no known rate (a NIC, an uplink, a leaf).
 * by (NULL: not wanted): per flow, the link that gave it its rate (its
 * bottleneck), a number the flows that share it have alike; -1 none. 0, or
 * -1 where f is not a tree (rails, dragonfly groups), a node is out of
 * range, or memory.
 */
int bound_flows(const struct bound_fabric *f, const long *src, const long *dst, long n, double bytes, double *t,
		long *by);

#endif
