/*
 * partition.h: how aller splits MPI_COMM_WORLD, as pure arithmetic.
 *
 * At each level the target communicator size is world, world/2, ..., 1 and
 * there are ceil(world/target) communicators. Contiguous groups are blocks of
 * consecutive ranks (7 ranks, target 3: {0,1,2} {3,4,5} {6}); strided groups
 * are rank % comms ({0,3,6} {1,4} {2,5}).
 */
#ifndef ALLER_PARTITION_H
#define ALLER_PARTITION_H

struct partition {
	long world, target, ncomms;
	int strided;
};

void partition_init(struct partition *p, long world, long target, int strided);
long partition_color(const struct partition *p, long rank);  /* its communicator */
long partition_key(const struct partition *p, long rank);    /* its rank in it */
long partition_size(const struct partition *p, long color);
long partition_member(const struct partition *p, long color, long i);
long partition_max_size(const struct partition *p);
long partition_min_size(const struct partition *p);
/* Sum over all tasks of their communicator's size: sum of size^2. */
double partition_sum_sizes(const struct partition *p);

/*
 * Of the communicators of p, the fewest and the most nodes one spans
 * (node[r]: rank r's node, 0..nnodes-1; seen: nnodes longs of scratch).
 */
void partition_nodes(const struct partition *p, const int *node, long *seen, long nnodes,
		     long *min, long *max);

/* Number of levels for a world: targets world, world/2, ..., 1. */
int partition_nlevels(long world);
long partition_level_target(long world, int level);

/* Per-peer counts at a level: longs/target, halving, down to 1. */
int partition_ncounts(long longs, long target);
long partition_count(long longs, long target, int i);

/*
 * A count above INT_MAX is sent as one element of a derived datatype made of
 * q chunks of `chunk` longs and r more longs. Returns 0 when count fits an int.
 */
#define PARTITION_CHUNK (1L << 30)
int partition_bigcount(long count, long *q, long *r);

#endif
