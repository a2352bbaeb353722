/*
 * sweep.c: levels (communicator sizes) x algorithms x counts; one count's
 * calls are sweep_count.c, the algorithms algo_*.c.
 */
#include "sweep.h"

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "partition.h"
#include "plan/plan.h"
#include "strbuf.h"
#include "sweep_state.h"
#include "timeout.h"
#include "world/failure.h"
#include "world/world_comm.h"

int sweep_set_failed(struct sweep *s, const struct level *l, int index, const char *what, int rc,
		     const char *why)
{
	int failed = failure_data_set(s->w, s->out, algo_name(l->op->id), index, l->a.g, what,
				      rc, why);

	s->failed_sets += failed;
	return failed;
}

#define HOSTS_NAMED 8

/*
 * The communicator's distinct host names, at most HOSTS_NAMED of them
 * spelled out: a bitmap of the nodes, OR-reduced over the communicator, then
 * the names of its first nodes, each written by that node's tasks into its
 * slot and MAX-reduced (the same name, or nothing). No task holds every name.
 */
static char *comm_hosts(const struct sweep *s, struct level *l, int index)
{
	int nwords = (s->w->nnodes + 63) / 64, distinct = 0, mine = -1;
	uint64_t *bits = calloc((size_t)nwords, sizeof(uint64_t));
	unsigned char (*names)[WORLD_NAME_MAX] = calloc(HOSTS_NAMED, WORLD_NAME_MAX);
	struct strbuf b;

	if (!bits || !names) {
		free(bits);
		free(names);
		return NULL;
	}
	bits[s->w->node / 64] |= 1ULL << (s->w->node % 64);
	failure_mpi(s->w, MPI_Allreduce(MPI_IN_PLACE, bits, nwords, MPI_UINT64_T, MPI_BOR,
					 l->a.comm), s->w->rank == 0, "MPI_Allreduce (hosts)", index, 0);
	for (int n = 0; n < s->w->nnodes; n++)
		if (bits[n / 64] >> (n % 64) & 1 && distinct++ < HOSTS_NAMED && n == s->w->node)
			mine = distinct - 1;
	if (mine >= 0)
		memcpy(names[mine], s->w->host, WORLD_NAME_MAX);
	failure_mpi(s->w, MPI_Allreduce(MPI_IN_PLACE, names, HOSTS_NAMED * WORLD_NAME_MAX,
					 MPI_UNSIGNED_CHAR, MPI_MAX, l->a.comm),
		    s->w->rank == 0, "MPI_Allreduce (host names)", index, 0);
	strbuf_init(&b);
	for (int i = 0; i < distinct && i < HOSTS_NAMED; i++)
		strbuf_addf(&b, "%s%.*s", i ? "," : "", WORLD_NAME_MAX - 1, (const char *)names[i]);
	if (distinct > HOSTS_NAMED)
		strbuf_addf(&b, ",... (%d hosts)", distinct);
	free(bits);
	free(names);
	return strbuf_detach(&b);
}

/*
 * This task's communicator, made by its members alone from their range
 * (base, base + step, ...: both partitions are affine), not by splitting
 * the world, which would gather every task's colour.
 */
static int comm_create(MPI_Comm from, const struct verify_peers *m, long g, MPI_Comm *comm)
{
	MPI_Group world, mine;
	int range[1][3] = { { (int)m->base, (int)(m->base + (g - 1) * m->step), (int)m->step } };
	int rc;

	MPI_MUST(MPI_Comm_group(from, &world));
	rc = MPI_Group_range_incl(world, 1, range, &mine);
	if (rc == MPI_SUCCESS) {
		rc = MPI_Comm_create_group(from, mine, 0, comm);
		MPI_MUST(MPI_Group_free(&mine));
	}
	MPI_MUST(MPI_Group_free(&world));
	return rc;
}

/*
 * Collective: the node of each of the communicator's tasks (--split=nodes:F)
 * and which are on another node than this one (offnode_B's bytes); 0, or -1
 * when out of memory anywhere (said).
 */
static int level_nodes(const struct sweep *s, struct level *l, int index)
{
	long g = l->a.g;
	int *nodes = malloc(sizeof(int) * (size_t)g);

	l->offnode = malloc((size_t)g);
	if (failure_agree(s->w, !nodes || !l->offnode, "out of memory for the communicator's nodes")) {
		free(nodes);
		MPI_MUST(MPI_Comm_free(&l->a.comm));
		free(l->hosts);
		free(l->offnode);
		return -1;
	}
	failure_mpi(s->w, MPI_Allgather(&s->w->node, 1, MPI_INT, nodes, 1, MPI_INT, l->a.comm),
		    s->w->rank == 0, "MPI_Allgather (nodes)", index, 0);
	for (long j = 0; j < g; j++) {
		const long *leaf = s->limits->leaf;
		long mine = leaf ? leaf[s->w->node] : -1, theirs = leaf ? leaf[nodes[j]] : -1;
		l->offnode[j] = nodes[j] == s->w->node ? 0 : mine >= 0 && theirs >= 0 && mine != theirs ? 2 : 1;
		l->noff += l->offnode[j] > 0;
		l->nofl += l->offnode[j] == 2;
	}
	l->nodes = nodes;
	return 0;
}

static int level_open(const struct sweep *s, int index, long target, struct level *l)
{
	long rank = s->w->rank;
	struct algo_call *a = &l->a;
	struct verify_peers *m = &s->b->peers;

	memset(l, 0, sizeof(*l));
	partition_init(&l->p, s->w->size, target, s->opt->strided);
	a->color = partition_color(&l->p, rank);
	a->rank = partition_key(&l->p, rank);
	a->g = partition_size(&l->p, a->color);
	a->send = s->b->send;
	a->recv = s->b->recv;
	a->longs = s->b->longs;
	a->world = world_comm(s->w);
	m->base = partition_member(&l->p, a->color, 0);
	m->step = partition_member(&l->p, a->color, 1) - m->base;
	failure_mpi(s->w, comm_create(world_comm(s->w), m, a->g, &a->comm), rank == 0, "MPI_Comm_create_group",
		    index, 0);
	if (s->opt->timeout > 0)
		l->hosts = comm_hosts(s, l, index);
	return level_nodes(s, l, index);
}

static void level_close(struct level *l)
{
	MPI_MUST(MPI_Comm_free(&l->a.comm));
	free(l->hosts);
	free(l->offnode);
	free(l->nodes);
}

/* One algorithm and split at one level: its data set, its per-level state, its counts. */
static int run_algo(struct sweep *s, struct level *l, int index, enum algo_id id,
		    const struct split *split, const long *counts, int n)
{
	int rc = MPI_SUCCESS;
	char how[SPLIT_SPEC_MAX + 24];

	l->op = algo_op(id);
	l->split = split;
	l->a.level = NULL;
	l->a.hint = NULL;
	split_describe(split, how, sizeof(how));
	if (s->w->rank == 0)
		output_level(s->out, s->info, index, &l->p, algo_name(id),
			     split_uneven(split) ? how : NULL, s->sets++ == 0);
	/* agreed, not aborted: a task whose set-up failed may have left MPI in any state */
	if (l->op->level_open)
		rc = l->op->level_open(&l->a);
	if (sweep_set_failed(s, l, index, "setting up the level", rc, l->a.hint)) {
		if (rc == MPI_SUCCESS && l->op->level_close)
			l->op->level_close(&l->a);
		return 0;
	}
	rc = 0;
	for (int i = 0; i < n && rc == 0; i++)
		rc = sweep_count(s, l, index, counts[i]);
	if (rc == SWEEP_SET_FAILED)
		rc = 0;
	if (l->op->level_close)
		l->op->level_close(&l->a);
	return rc;
}

/* One level of the plan: its communicators, each algorithm's and split's counts, the queues pass. */
static int run_level(struct sweep *s, const struct plan_level *pl)
{
	int index = pl->index, rc = 0;
	struct level l;

	if (pl->ncounts == 0)
		return 0;
	if (level_open(s, index, pl->target, &l) != 0)
		return 3;
	if (failure_agree(s->w, reveal_level_begin(s->reveal, l.a.comm, &l.p, l.a.color) != 0,
			  "out of memory for --reveal's per-peer counters")) {
		reveal_level_end(s->reveal);
		level_close(&l);
		return 3;
	}
	for (int i = 0; i < s->opt->algos.n && rc == 0; i++)
		for (int k = 0; k < s->opt->nsplits && rc == 0; k++) {
			const struct split *sp = &s->opt->splits[k];
			if (plan_split_fits(sp, pl))
				rc = run_algo(s, &l, index, s->opt->algos.id[i], sp, pl->counts,
					      pl->ncounts);
		}
	if (rc == 0 && s->reveal) {
		struct capture cap;
		reveal_queues(s->reveal, &l.p, l.a.color, l.a.comm, index,
			      output_capture(&cap, s->out));
		output_release(&cap, s->out);
	}
	reveal_level_end(s->reveal);
	level_close(&l);
	return rc;
}

int sweep_run(struct sweep *s)
{
	struct plan_level pl;
	int rc = 0;

	timeout_install();
	for (int i = 0; rc == 0 && plan_level(s->opt, s->w->size, i, &pl) == 0; i = pl.index + 1)
		rc = run_level(s, &pl);
	return rc == 0 && s->failed_sets > 0 ? 3 : rc;
}
