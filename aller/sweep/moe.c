/* moe.c: see moe.h. */
#include "moe.h"
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "world/world_comm.h"

#define MOE_POISON 0x5a5a5a5a5a5a5a5aL

int moe_open(struct buffers *b, const struct level *l, struct count_run *c)
{
	struct moe_run *m = calloc(1, sizeof(*m));
	long g = c->a.g, n = c->v.stotal + 1;
	int device = b->ops->extra_alloc != NULL;

	c->moe = m;
	if (!m || !(m->scnt = malloc(sizeof(long) * 2 * (size_t)g)))
		return MPI_ERR_NO_MEM;
	m->b = b;
	m->back = device ? b->ops->extra_alloc(b, n) : malloc(sizeof(long) * (size_t)n);
	if (!m->back || (device && !(m->host = malloc(sizeof(long) * 2 * (size_t)n))))
		return MPI_ERR_NO_MEM;
	m->rcnt = m->scnt + g;
	memcpy(m->scnt, c->v.scounts, sizeof(long) * (size_t)g);
	m->rev = (struct split_layout){ g, c->v.rcounts, c->v.rdispls, c->v.scounts, c->v.sdispls,
					c->v.rtotal, c->v.stotal };
	m->ra = c->a;
	m->ra.send = c->a.recv;
	m->ra.recv = m->back;
	m->ra.v = &m->rev;
	m->ra.state = NULL;
	if (l->op->count_open) {
		int rc = l->op->count_open(&m->ra);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	m->ra_open = 1;
	return MPI_SUCCESS;
}

void moe_close(const struct level *l, struct count_run *c)
{
	struct moe_run *m = c->moe;

	if (!m)
		return;
	memcpy(c->moe_sum, m->sum, sizeof(m->sum));
	c->moe_on = 1;
	if (m->ra_open && l->op->count_close)
		l->op->count_close(&m->ra);
	free(m->scnt);
	if (m->b && m->b->ops->extra_free)
		m->b->ops->extra_free(m->b, m->back);
	else
		free(m->back);
	free(m->host);
	free(m);
	c->moe = NULL;
}

int moe_call(const struct level *l, struct count_run *c)
{
	struct moe_run *m = c->moe;
	double t0 = MPI_Wtime(), t1, t2;
	int rc = MPI_Alltoall(m->scnt, 1, MPI_LONG, m->rcnt, 1, MPI_LONG, c->a.comm);

	t1 = MPI_Wtime();
	if (rc == MPI_SUCCESS)
		rc = l->op->call(&c->a);
	t2 = MPI_Wtime();
	if (rc == MPI_SUCCESS)
		rc = l->op->call(&m->ra);
	m->last[0] = t1 - t0;
	m->last[1] = t2 - t1;
	m->last[2] = MPI_Wtime() - t2;
	return rc;
}

int moe_poison(struct count_run *c)
{
	struct moe_run *m = c->moe;
	long n = c->v.stotal + 1, *back = m->host ? m->host : m->back;

	for (long k = 0; k < c->a.g; k++)
		m->rcnt[k] = -1;
	for (long k = 0; k < n; k++)
		back[k] = MOE_POISON;
	return m->host ? m->b->ops->to_device(m->b, m->back, back, n) : 0;
}

int moe_corrupt(struct count_run *c, int phase)
{
	struct moe_run *m = c->moe;
	long i = c->v.stotal / 2, v;

	if (phase == 1)
		m->rcnt[0]++;
	if (phase != 2 || c->v.stotal == 0)
		return 0;
	if (!m->host) {
		m->back[i] ^= 1;
		return 0;
	}
	if (m->b->ops->to_host(m->b, &v, m->back + i, 1) != 0)
		return -1;
	v ^= 1;
	return m->b->ops->to_device(m->b, m->back + i, &v, 1);
}

long moe_check(const struct level *l, const struct count_run *c, struct mismatch *mm,
	       const char **phase)
{
	const struct moe_run *m = c->moe;
	long wrong = 0, g = c->a.g, n = c->v.stotal + 1;
	const long *back = m->back, *send = c->a.send;

	if (m->host) {   /* device memory: both to the host, outside the timing */
		if (m->b->ops->to_host(m->b, m->host, m->back, n) != 0 ||
		    m->b->ops->to_host(m->b, m->host + n, c->a.send, n - 1) != 0)
			return -1;
		back = m->host;
		send = m->host + n;
	}
	for (long k = 0; k < g; k++)
		if (m->rcnt[k] != c->v.rcounts[k] && wrong++ == 0) {
			*mm = (struct mismatch){ partition_member(&l->p, l->a.color, k), 0,
						 c->v.rcounts[k], m->rcnt[k] };
			*phase = "counts";
		}
	for (long k = 0, peer = 0; k <= c->v.stotal; k++) {
		long want = k < c->v.stotal ? send[k] : MOE_POISON;
		while (peer < g - 1 && k >= c->v.sdispls[peer] + c->v.scounts[peer])
			peer++;
		if (back[k] != want && wrong++ == 0) {
			*mm = (struct mismatch){ partition_member(&l->p, l->a.color, peer),
						 k - c->v.sdispls[peer], want, back[k] };
			*phase = "combine";
		}
	}
	return wrong;
}

void moe_row(struct sweep *s, struct count_run *c, struct row *row)
{
	double sum[3] = { 0, 0, 0 };
	int me = s->w->rank;

	for (int k = 0; k < 3; k++)
		row->moe[k] = NAN;
	if (!c->moe_on)
		return;
	memcpy(sum, c->moe_sum, sizeof(sum));
	failure_mpi(s->w, MPI_Reduce(me == 0 ? MPI_IN_PLACE : sum, sum, 3, MPI_DOUBLE, MPI_SUM, 0,
				      world_comm(s->w)), me == 0, "MPI_Reduce (--moe's phases)",
		    c->index, c->a.count);
	for (int k = 0; me == 0 && k < 3; k++)
		row->moe[k] = sum[k] / ((double)s->w->size * (double)c->iters);
}
