/*
 * copyrate.h: the node's memory copy bandwidth for its '# limit:' line
 * (world/nodelimits.h), a short STREAM-like copy that every task makes at
 * once: in host memory (its share of 64 MiB, at least 1 MiB, from one
 * buffer to another), or with CUDA buffers on its device between them; then
 * at twice that, four times, ... up to the task's own buffers (the sizes
 * the sweep moves), the best of them.
 */
#ifndef ALLER_COPYRATE_H
#define ALLER_COPYRATE_H

struct buffers;
struct world;

/*
 * Collective: this task's rate, decimal GB/s read + written, the best of
 * NODELIMITS_COPY_REPS copies every task starts together; 0 when it cannot
 * (out of memory, a device error). *bytes: what it copied.
 */
double buffers_copy_rate(const struct world *w, struct buffers *b, long *bytes);

#endif
