/*
 * reveal_generic.c: the generic tier of --reveal: non-zero deltas of
 * whatever integer counters the MPI library exposes through MPI_T.
 */
#include "reveal_impl.h"

#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "world/failure.h"

#define GENERIC_MAX 64          /* counters the generic tier follows */
#define GENERIC_MAX_COUNT 65536 /* elements of one counter */

struct reveal_generic {
	int n;
	MPI_T_pvar_handle h[GENERIC_MAX];
	int live[GENERIC_MAX];          /* h is bound now */
	int idx[GENERIC_MAX], comm_bound[GENERIC_MAX], cont[GENERIC_MAX];
	MPI_Datatype type[GENERIC_MAX];
	int count[GENERIC_MAX];
	char name[GENERIC_MAX][256];
	double before[GENERIC_MAX], delta[GENERIC_MAX];
	unsigned char *buf;     /* one read, GENERIC_MAX_COUNT elements of 8 bytes */
};

static int is_integer(MPI_Datatype t)
{
	return t == MPI_UNSIGNED || t == MPI_UNSIGNED_LONG || t == MPI_UNSIGNED_LONG_LONG ||
	       t == MPI_COUNT || t == MPI_INT || t == MPI_LONG || t == MPI_LONG_LONG;
}

static double element(MPI_Datatype t, const unsigned char *p, int i)
{
	if (t == MPI_UNSIGNED)
		return ((const unsigned *)p)[i];
	if (t == MPI_INT)
		return ((const int *)p)[i];
	if (t == MPI_UNSIGNED_LONG)
		return (double)((const unsigned long *)p)[i];
	if (t == MPI_LONG)
		return (double)((const long *)p)[i];
	if (t == MPI_COUNT)
		return (double)((const MPI_Count *)p)[i];
	if (t == MPI_LONG_LONG)
		return (double)((const long long *)p)[i];
	return (double)((const unsigned long long *)p)[i];
}

/*
 * Counters that crash when bound: Open MPI 4.1 registers the PSM2 MTL's
 * counters even when PSM2 is not in use, and binding one then calls
 * psm2_mq_get_stats on a queue that does not exist.
 */
static int unsafe_counter(const char *name)
{
	return strncmp(name, "mtl_psm2_", 9) == 0;
}

/*
 * Binds counter i of the generic list to comm (ignored for those bound to no
 * object) and starts it; a counter that does not bind reads 0 here.
 */
static void bind_one(struct reveal *r, int i, MPI_Comm comm)
{
	struct reveal_generic *g = r->gen;
	int count;

	g->live[i] = MPI_T_pvar_handle_alloc(r->ses, g->idx[i], &comm, &g->h[i], &count) ==
		     MPI_SUCCESS;
	if (!g->live[i])
		return;
	g->count[i] = count;
	if (count < 1 || count > GENERIC_MAX_COUNT ||
	    (!g->cont[i] && MPI_T_pvar_start(r->ses, g->h[i]) != MPI_SUCCESS)) {
		MPI_MUST(MPI_T_pvar_handle_free(r->ses, &g->h[i]));
		g->live[i] = 0;
	}
}

static void unbind_one(struct reveal *r, int i)
{
	if (r->gen->live[i])
		MPI_MUST(MPI_T_pvar_handle_free(r->ses, &r->gen->h[i]));
	r->gen->live[i] = 0;
}

/*
 * Every integer counter (class COUNTER or AGGREGATE: events that add up, not
 * levels such as queue lengths) the library exposes that binds here (tried on
 * MPI_COMM_WORLD). Those bound to a communicator are bound to each level's
 * (reveal_level_begin), the others stay bound.
 */
int reveal_generic_discover(struct reveal *r, unsigned long *hash)
{
	struct reveal_generic *g = calloc(1, sizeof(*g));
	int num = 0;

	*hash = 5381;
	if (!g || !(g->buf = malloc(8 * GENERIC_MAX_COUNT))) {
		free(g);
		return -1;
	}
	r->gen = g;
	MPI_MUST(MPI_T_pvar_get_num(&num));
	for (int i = 0; i < num && g->n < GENERIC_MAX; i++) {
		char name[256], desc[256];
		int nlen = sizeof(name), dlen = sizeof(desc), verb, cls, bind, ro, cont, atomic;
		MPI_Datatype type;
		MPI_T_enum e;

		if (MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &type, &e, desc, &dlen, &bind,
					&ro, &cont, &atomic) != MPI_SUCCESS)
			continue;
		if ((cls != MPI_T_PVAR_CLASS_COUNTER && cls != MPI_T_PVAR_CLASS_AGGREGATE) ||
		    !is_integer(type) ||
		    (bind != MPI_T_BIND_NO_OBJECT && bind != MPI_T_BIND_MPI_COMM) ||
		    unsafe_counter(name))
			continue;
		g->idx[g->n] = i;
		g->comm_bound[g->n] = bind == MPI_T_BIND_MPI_COMM;
		g->cont[g->n] = cont;
		g->type[g->n] = type;
		bind_one(r, g->n, MPI_COMM_WORLD);
		if (!g->live[g->n])
			continue;
		if (g->comm_bound[g->n])
			unbind_one(r, g->n);
		snprintf(g->name[g->n], sizeof(g->name[0]), "%s", name);
		for (const char *c = name; *c; c++)
			*hash = *hash * 33 + (unsigned char)*c;
		g->n++;
	}
	return g->n;
}

void reveal_generic_free(struct reveal *r)
{
	if (!r->gen)
		return;
	for (int i = 0; i < r->gen->n; i++)
		unbind_one(r, i);
	free(r->gen->buf);
	free(r->gen);
	r->gen = NULL;
}

/* Sum of a counter's elements. */
static double read_one(struct reveal *r, int i)
{
	struct reveal_generic *g = r->gen;
	double s = 0;

	if (!g->live[i] || MPI_T_pvar_read(r->ses, g->h[i], g->buf) != MPI_SUCCESS)
		return 0;
	for (int k = 0; k < g->count[i]; k++)
		s += element(g->type[i], g->buf, k);
	return s;
}

void reveal_generic_end(struct reveal *r, long count, FILE *out)
{
	struct reveal_generic *g = r->gen;
	double sum[GENERIC_MAX];
	int shown = 0;

	MPI_MUST(MPI_Reduce(g->delta, sum, g->n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));
	if (!out)
		return;
	fprintf(out, "# %s: count=%ld", ALLER_KEY_COUNTERS, count);
	for (int i = 0; i < g->n; i++)
		if (sum[i] != 0) {
			fprintf(out, " %s=%.6g", g->name[i], sum[i] / (double)(r->calls ? r->calls : 1));
			shown++;
		}
	fprintf(out, "%s\n", shown ? "" : " (no counter changed)");
}

void reveal_generic_level(struct reveal *r, MPI_Comm comm, int bind)
{
	for (int i = 0; r->gen && i < r->gen->n; i++) {
		if (!r->gen->comm_bound[i])
			continue;
		if (bind)
			bind_one(r, i, comm);
		else
			unbind_one(r, i);
	}
}

void reveal_generic_clear(struct reveal *r)
{
	if (r->gen)
		memset(r->gen->delta, 0, sizeof(r->gen->delta));
}

void reveal_generic_before(struct reveal *r)
{
	for (int i = 0; i < r->gen->n; i++)
		r->gen->before[i] = read_one(r, i);
}

void reveal_generic_after(struct reveal *r)
{
	for (int i = 0; i < r->gen->n; i++)
		r->gen->delta[i] += read_one(r, i) - r->gen->before[i];
}
