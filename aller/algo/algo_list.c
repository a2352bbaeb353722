/* algo_list.c: see algo_list.h. Compiled with the MPI headers, but calls no MPI. */
#include "algo_list.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include "world/faults.h"

static const char *const names[ALGO_N] = ALLER_ALGO_NAMES;
_Static_assert(ALGO_N == ALLER_NALGOS, "format.h's algorithm names and enum algo_id agree");

const char *algo_name(enum algo_id id)
{
	return id >= 0 && id < ALGO_N ? names[id] : "?";
}

void algo_list_default(struct algo_list *l)
{
	l->id[0] = ALGO_ALLTOALL;
	l->n = 1;
}

static int lookup(const char *s, size_t len)
{
	for (int i = 0; i < ALGO_MPI_N; i++)
		if (strlen(names[i]) == len && strncmp(s, names[i], len) == 0)
			return i;
	return -1;
}

int algo_list_parse(struct algo_list *l, const char *s, char *err, size_t errlen)
{
#define ALGO_ALLOWED_(ID, name, can, per_peer, what) ", " #name
	static const char *const allowed = ALLER_MPI_ALGOS(ALGO_ALLOWED_) + 2;
#undef ALGO_ALLOWED_
	struct algo_list out = { .n = 0 };

	for (const char *p = s;; p++) {
		size_t len = strcspn(p, ",");
		int id = lookup(p, len);
		if (len == 0) {
			snprintf(err, errlen, "invalid algorithm list '%s': an empty name (allowed are "
				 "%s, comma-separated)", s, allowed);
			return -1;
		}
		if (id < 0 && len == 4 && strncmp(p, "nccl", 4) == 0) {
			snprintf(err, errlen, "'nccl' is a transport, not an MPI algorithm: use "
				 "--transport=nccl");
			return -1;
		}
		if (id < 0) {
			snprintf(err, errlen, "unknown algorithm '%.*s' in '--algo=%s': allowed are %s",
				 (int)(len > 64 ? 64 : len), p, s, allowed);
			return -1;
		}
		for (int i = 0; i < out.n; i++)
			if (out.id[i] == (enum algo_id)id) {
				snprintf(err, errlen, "algorithm '%s' is given twice in '--algo=%s': "
					 "name each once", names[id], s);
				return -1;
			}
		out.id[out.n++] = (enum algo_id)id;
		p += len;
		if (*p == '\0')
			break;
	}
	*l = out;
	return 0;
}

int algo_list_has(const struct algo_list *l, enum algo_id id)
{
	for (int i = 0; i < l->n; i++)
		if (l->id[i] == id)
			return 1;
	return 0;
}

void algo_list_describe(const struct algo_list *l, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < l->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "," : "", names[l->id[i]]);
}

int algo_nccl_stubbed(void)
{
	return faults()->nccl_stub;
}

const char *algo_unavailable(enum algo_id id)
{
#ifndef ALLER_NCCL
	if (id == ALGO_NCCL && !algo_nccl_stubbed())
		return "'--transport=nccl' needs a build with 'make CUDA=1 NCCL=1'; this aller moves "
		       "data with MPI only";
#endif
	if (id != ALGO_PERSISTENT)
		return NULL;
#if MPI_VERSION >= 4 || defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
	return NULL;
#else
	return "algorithm 'persistent' needs MPI_Alltoall_init (MPI-4) or Open MPI's "
	       "MPIX_Alltoall_init (mpiext pcollreq); this MPI library has neither";
#endif
}

void algo_pairwise_step(long r, long k, long g, long *to, long *from)
{
	*to = (r + k) % g;
	*from = (r - k % g + g) % g;
}

#define ALGO_CAN_(ID, name, can, per_peer, what) [ALGO_##ID] = (can),
static const int can_do[ALGO_N] = { ALLER_ALGOS(ALGO_CAN_) };
#undef ALGO_CAN_
#define ALGO_PER_PEER_(ID, name, can, per_peer, what) [ALGO_##ID] = (long)(per_peer),
static const long per_peer_bytes[ALGO_N] = { ALLER_ALGOS(ALGO_PER_PEER_) };
#undef ALGO_PER_PEER_

int algo_can(enum algo_id id, int what)
{
	return id >= 0 && id < ALGO_N && (can_do[id] & what) == what;
}

long algo_per_peer(enum algo_id id)
{
	return id >= 0 && id < ALGO_N ? per_peer_bytes[id] : 0;
}

void algo_can_list(int what, int with_flag, char *buf, size_t len)
{
	int n = 0, k = 0;
	size_t at = 0;

	for (int i = 0; i < ALGO_MPI_N; i++)
		n += algo_can(i, what);
	buf[0] = '\0';
	for (int i = 0; i < ALGO_MPI_N && at < len; i++) {
		if (!algo_can(i, what))
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s%s", k == 0 && with_flag ? "--algo=" : "",
				       k == 0 ? "" : k == n - 1 ? " and " : ", ", names[i]);
		k++;
	}
	if (with_flag && algo_can(ALGO_NCCL, what) && at < len)
		snprintf(buf + at, len - at, ", and --transport=nccl");
}
