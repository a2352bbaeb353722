/* partition.c: the partition arithmetic (see partition.h). */
#include "partition.h"

#include <limits.h>

void partition_init(struct partition *p, long world, long target, int strided)
{
	p->world = world;
	p->target = target;
	p->ncomms = (world + target - 1) / target;
	p->strided = strided;
}

long partition_color(const struct partition *p, long rank)
{
	return p->strided ? rank % p->ncomms : rank / p->target;
}

long partition_key(const struct partition *p, long rank)
{
	return p->strided ? rank / p->ncomms : rank % p->target;
}

long partition_size(const struct partition *p, long color)
{
	if (p->strided)
		return (p->world - color + p->ncomms - 1) / p->ncomms;
	long left = p->world - color * p->target;
	return left < p->target ? left : p->target;
}

long partition_member(const struct partition *p, long color, long i)
{
	return p->strided ? color + i * p->ncomms : color * p->target + i;
}

long partition_max_size(const struct partition *p)
{
	return partition_size(p, 0);
}

long partition_min_size(const struct partition *p)
{
	return partition_size(p, p->ncomms - 1);
}

double partition_sum_sizes(const struct partition *p)
{
	double sum = 0;
	for (long c = 0; c < p->ncomms; c++) {
		double s = (double)partition_size(p, c);
		sum += s * s;
	}
	return sum;
}

void partition_nodes(const struct partition *p, const int *node, long *seen, long nnodes,
		     long *min, long *max)
{
	*min = -1;
	*max = 0;
	for (long k = 0; k < nnodes; k++)
		seen[k] = -1;
	for (long c = 0; c < p->ncomms; c++) {
		long n = 0, size = partition_size(p, c);
		for (long i = 0; i < size; i++) {
			int at = node[partition_member(p, c, i)];
			n += seen[at] != c;
			seen[at] = c;
		}
		*min = *min < 0 || n < *min ? n : *min;
		*max = n > *max ? n : *max;
	}
}

int partition_nlevels(long world)
{
	int n = 0;
	for (long t = world; t >= 1; t /= 2)
		n++;
	return n;
}

long partition_level_target(long world, int level)
{
	return world >> level;
}

int partition_ncounts(long longs, long target)
{
	int n = 0;
	for (long c = longs / target; c >= 1; c /= 2)
		n++;
	return n;
}

long partition_count(long longs, long target, int i)
{
	return (longs / target) >> i;
}

int partition_bigcount(long count, long *q, long *r)
{
	if (count <= INT_MAX)
		return 0;
	*q = count / PARTITION_CHUNK;
	*r = count % PARTITION_CHUNK;
	return 1;
}
