/* reveal.c: --reveal through MPI_T (see reveal.h). */
#include "reveal.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dirs.h"
#include "format.h"
#include "traffic.h"

#define CAP_COLL 1
#define CAP_PML 2
#define CAP_QUEUES 4
#define CAP_REREGISTERED 8
#define GENERIC_MAX 64          /* counters the generic tier follows */
#define GENERIC_MAX_COUNT 65536 /* elements of one counter */
#define QUEUE_TAG 7311

static const char *var_names[REVEAL_NVARS] = {
	"coll_monitoring_messages_count", "coll_monitoring_messages_size",
	"pml_monitoring_messages_count", "pml_monitoring_messages_size"
};
static const char *queue_names[2] = { "pml_ob1_unexpected_msgq_length",
				      "pml_ob1_posted_recvq_length" };

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

static int monitoring_set_by_aller;

/* Open MPI's monitoring, only under Open MPI (other libraries have no such variable). */
void reveal_prepare(enum reveal_tier asked)
{
#if defined(OPEN_MPI)
	if (asked != REVEAL_OFF && !getenv("OMPI_MCA_pml_monitoring_enable")) {
		setenv("OMPI_MCA_pml_monitoring_enable", "1", 0);
		monitoring_set_by_aller = 1;
	}
#else
	(void)asked;
#endif
}

static const char *tier_name(enum reveal_tier t)
{
	switch (t) {
	case REVEAL_COLL: return "coll";
	case REVEAL_PML: return "pml";
	case REVEAL_GENERIC: return "generic";
	case REVEAL_QUEUES: return "queues";
	default: return "off";
	}
}

/* A per-peer counter bound to MPI_COMM_WORLD with one element per world rank, started. */
static int bind_world(struct reveal *r, const char *name, MPI_T_pvar_handle *h)
{
	MPI_Comm world = MPI_COMM_WORLD;
	int idx, count;

	if (MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_SIZE, &idx) != MPI_SUCCESS)
		return 0;
	if (MPI_T_pvar_handle_alloc(r->ses, idx, &world, h, &count) != MPI_SUCCESS)
		return 0;
	if (count != r->w->size || MPI_T_pvar_start(r->ses, *h) != MPI_SUCCESS) {
		MPI_T_pvar_handle_free(r->ses, h);
		return 0;
	}
	return 1;
}

/*
 * Open MPI 4.1 registers the pml monitoring variables too early for them to
 * resolve (ompi#9260); its exported registration function, called after
 * MPI_Init, registers them again.
 */
static int reregister_pml(void)
{
#if defined(OPEN_MPI)
	void (*reg)(void);
	*(void **)&reg = dlsym(RTLD_DEFAULT, "mca_common_monitoring_register");
	if (!reg)
		return 0;
	reg();
	return 1;
#else
	return 0;   /* Open MPI's work-around only */
#endif
}

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
static void generic_bind(struct reveal *r, int i, MPI_Comm comm)
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
		MPI_T_pvar_handle_free(r->ses, &g->h[i]);
		g->live[i] = 0;
	}
}

static void generic_unbind(struct reveal *r, int i)
{
	if (r->gen->live[i])
		MPI_T_pvar_handle_free(r->ses, &r->gen->h[i]);
	r->gen->live[i] = 0;
}

/*
 * Every integer counter (class COUNTER or AGGREGATE: events that add up, not
 * levels such as queue lengths) the library exposes that binds here (tried on
 * MPI_COMM_WORLD). Those bound to a communicator are bound to each level's
 * (reveal_level_begin), the others stay bound.
 */
static int generic_discover(struct reveal *r, unsigned long *hash)
{
	struct reveal_generic *g = calloc(1, sizeof(*g));
	int num = 0;

	*hash = 5381;
	if (!g || !(g->buf = malloc(8 * GENERIC_MAX_COUNT))) {
		free(g);
		return -1;
	}
	r->gen = g;
	MPI_T_pvar_get_num(&num);
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
		generic_bind(r, g->n, MPI_COMM_WORLD);
		if (!g->live[g->n])
			continue;
		if (g->comm_bound[g->n])
			generic_unbind(r, g->n);
		snprintf(g->name[g->n], sizeof(g->name[0]), "%s", name);
		for (const char *c = name; *c; c++)
			*hash = *hash * 33 + (unsigned char)*c;
		g->n++;
	}
	return g->n;
}

static void generic_free(struct reveal *r)
{
	if (!r->gen)
		return;
	for (int i = 0; i < r->gen->n; i++)
		generic_unbind(r, i);
	free(r->gen->buf);
	free(r->gen);
	r->gen = NULL;
}

/* Sum of a counter's elements. */
static double generic_read(struct reveal *r, int i)
{
	struct reveal_generic *g = r->gen;
	double s = 0;

	if (!g->live[i] || MPI_T_pvar_read(r->ses, g->h[i], g->buf) != MPI_SUCCESS)
		return 0;
	for (int k = 0; k < g->count[i]; k++)
		s += element(g->type[i], g->buf, k);
	return s;
}

static void default_dir(const struct options *o, char *dir, size_t len)
{
	const char *env = getenv("ALLER_REVEAL_DIR"), *job = getenv("SLURM_JOB_ID"),
		   *step = getenv("SLURM_STEP_ID");

	if (o->reveal_dir)
		snprintf(dir, len, "%s", o->reveal_dir);
	else if (env && *env)
		snprintf(dir, len, "%s", env);
	else if (job && *job)
		snprintf(dir, len, "aller-reveal-%s.%s", job, step && *step ? step : "0");
	else
		snprintf(dir, len, "aller-reveal-%ld", (long)getpid());
}

/* Why there is nothing to read, for "# reveal: unavailable (...)". */
static void why_unavailable(const struct reveal *r, int caps, char *why, size_t len)
{
	const char *env = getenv("OMPI_MCA_pml_monitoring_enable");

	if (!r->mpit || !r->session)
		snprintf(why, len, "the MPI tool interface (MPI_T) cannot be initialised");
	else if (r->asked == REVEAL_PML && (caps & CAP_COLL))
		snprintf(why, len, "the pml monitoring counters (pml_monitoring_messages_*) do not "
			 "resolve, also not after mca_common_monitoring_register (ompi#9260)");
	else if (env && strcmp(env, "1") != 0)
		snprintf(why, len, "Open MPI's monitoring is off (OMPI_MCA_pml_monitoring_enable=%s; "
			 "aller turns it on only when the variable is unset)", env);
	else if (r->asked == REVEAL_GENERIC || r->asked == REVEAL_AUTO)
		snprintf(why, len, "this MPI library exposes no monitoring counters "
			 "(coll_monitoring_*, pml_monitoring_*) and no other integer counters");
	else
		snprintf(why, len, "this MPI library exposes no %s counters (%s)",
			 r->asked == REVEAL_QUEUES ? "queue" : "coll monitoring",
			 r->asked == REVEAL_QUEUES ? "pml_ob1_*_length: the ob1 PML only"
						   : "coll_monitoring_messages_*");
}

static int alloc_buffers(struct reveal *r)
{
	size_t n = (size_t)r->nvars * (size_t)r->w->size;
	long m = r->w->size < REVEAL_MATRIX_MAX ? r->w->size : REVEAL_MATRIX_MAX;

	r->before = calloc(n, sizeof(uint64_t));
	r->delta = calloc(n, sizeof(uint64_t));
	r->after = calloc((size_t)r->w->size, sizeof(uint64_t));
	r->row = malloc(2 * sizeof(uint64_t) * (size_t)r->w->size);
	if (r->w->rank == 0) {
		r->mat = malloc(2 * sizeof(uint64_t) * (size_t)(m * m));
		r->mat_ranks = malloc(sizeof(long) * (size_t)m);
		if (!r->mat || !r->mat_ranks)
			return -1;
	}
	return r->before && r->delta && r->after && r->row ? 0 : -1;
}

/* This rank's capabilities (CAP_*), binding the coll and pml counters it finds. */
static int probe(struct reveal *r)
{
	int caps = 0, idx;

	if (r->asked == REVEAL_GENERIC)
		return 0;
	if (bind_world(r, var_names[REVEAL_COLL_MSGS], &r->h[REVEAL_COLL_MSGS])) {
		if (bind_world(r, var_names[REVEAL_COLL_BYTES], &r->h[REVEAL_COLL_BYTES]))
			caps |= CAP_COLL;
		else
			MPI_T_pvar_handle_free(r->ses, &r->h[REVEAL_COLL_MSGS]);
	}
	if ((caps & CAP_COLL) && r->asked != REVEAL_COLL) {
		if (MPI_T_pvar_get_index(var_names[REVEAL_PML_MSGS], MPI_T_PVAR_CLASS_SIZE,
					 &idx) != MPI_SUCCESS && reregister_pml())
			caps |= CAP_REREGISTERED;
		if (bind_world(r, var_names[REVEAL_PML_MSGS], &r->h[REVEAL_PML_MSGS])) {
			if (bind_world(r, var_names[REVEAL_PML_BYTES], &r->h[REVEAL_PML_BYTES]))
				caps |= CAP_PML;
			else
				MPI_T_pvar_handle_free(r->ses, &r->h[REVEAL_PML_MSGS]);
		}
	}
	if (MPI_T_pvar_get_index(queue_names[0], MPI_T_PVAR_CLASS_SIZE, &idx) == MPI_SUCCESS &&
	    MPI_T_pvar_get_index(queue_names[1], MPI_T_PVAR_CLASS_SIZE, &idx) == MPI_SUCCESS)
		caps |= CAP_QUEUES;
	return caps;
}

/* Collective: what every rank has, and the generic list's length if all see the same one. */
static int agree(int caps, long *ngen, unsigned long hash)
{
	long range[2] = { -*ngen, *ngen };
	unsigned long hashes[2] = { ~hash, hash };

	MPI_Allreduce(MPI_IN_PLACE, &caps, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, hashes, 2, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
	*ngen = -range[0] == range[1] && ~hashes[0] == hashes[1] ? range[1] : -1;
	return caps;
}

/* The tier that runs, from the agreed capabilities; frees the handles it does not use. */
static void choose(struct reveal *r, int caps, int agreed, long ngen)
{
	if ((agreed & CAP_PML) && r->asked != REVEAL_COLL)
		r->tier = REVEAL_PML;
	else if ((agreed & CAP_COLL) && r->asked != REVEAL_PML)
		r->tier = REVEAL_COLL;
	else if (ngen > 0 && r->asked != REVEAL_PML && r->asked != REVEAL_COLL)
		r->tier = REVEAL_GENERIC;
	r->nvars = r->tier == REVEAL_PML ? 4 : r->tier == REVEAL_COLL ? 2 : 0;
	r->queues = r->asked == REVEAL_QUEUES && (agreed & CAP_QUEUES);
	if (r->tier != REVEAL_GENERIC)
		generic_free(r);
	for (int v = r->nvars; v < REVEAL_NVARS; v++)
		if ((v < 2 && (caps & CAP_COLL)) || (v >= 2 && (caps & CAP_PML)))
			MPI_T_pvar_handle_free(r->ses, &r->h[v]);
}

/* The "# reveal:" and "# reveal_queues:" texts. */
static void describe(struct reveal *r, int agreed)
{
	snprintf(r->header, sizeof(r->header), "%s; counters read through MPI_T around each "
		 "timed call, outside the timed region; instrumented timings%s%s%s",
		 r->tier != REVEAL_OFF ? tier_name(r->tier) : "queues",
		 monitoring_set_by_aller ? "; Open MPI monitoring turned on by aller "
					   "(OMPI_MCA_pml_monitoring_enable=1)" : "",
		 (agreed & CAP_REREGISTERED) && r->tier == REVEAL_PML
			 ? "; pml counters re-registered with mca_common_monitoring_register "
			   "(ompi#9260)" : "",
		 r->asked == REVEAL_QUEUES && !r->queues
			 ? "; queues pass unavailable (no pml_ob1 queue counters: the ob1 PML only)"
			 : "");
	if (r->queues)
		snprintf(r->notes, sizeof(r->notes), "queues pass after each level's timed pass: "
			 "%d exchanges of one long per peer; a sender is late when its message has "
			 "not arrived %.0f ms after the receive was posted, a receiver when messages "
			 "of 3/4 of its peers waited longer than that; named when late in 3/4 of "
			 "the observations", REVEAL_QUEUE_ROUNDS, 1000 * REVEAL_QUEUE_WINDOW);
}

int reveal_init(struct reveal *r, const struct options *o, const struct world *w)
{
	int caps = 0, provided, agreed, failed = 0;
	long ngen = -1;
	unsigned long hash = 0;
	char why[1400] = "";
	const char *delay = getenv("ALLER_TEST_DELAY");

	memset(r, 0, sizeof(*r));
	r->asked = o->reveal;
	r->tier = REVEAL_OFF;
	r->w = w;
	r->delay_rank = -1;
	if (delay && *delay) {
		char *end;
		r->delay_rank = strtol(delay, &end, 10);
		r->delay_us = *end == ':' ? 1000 * strtol(end + 1, NULL, 10) : 50000;
	}
	if (r->asked == REVEAL_OFF)
		return 0;

	if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS) {
		r->mpit = 1;
		r->session = MPI_T_pvar_session_create(&r->ses) == MPI_SUCCESS;
	}
	if (r->session)
		caps = probe(r);
	if (r->session && (r->asked == REVEAL_GENERIC ||
			   ((r->asked == REVEAL_AUTO || r->asked == REVEAL_QUEUES) && !(caps & CAP_COLL))))
		ngen = generic_discover(r, &hash);
	/* All ranks agree before any collective depends on it. */
	agreed = agree(caps, &ngen, hash);
	choose(r, caps, agreed, ngen);

	failed = r->nvars > 0 && alloc_buffers(r) != 0;
	if (world_agree_failed(w, failed, "out of memory for the reveal counters: reveal is off")) {
		reveal_release(r);
		r->asked = o->reveal;
		snprintf(r->header, sizeof(r->header), "%s (out of memory for the counters)",
			 ALLER_REVEAL_UNAVAILABLE);
		return 0;
	}
	failed = 0;
	if (r->nvars > 0 && w->rank == 0) {
		default_dir(o, r->dir, sizeof(r->dir));
		failed = dirs_make(r->dir) != 0;
		snprintf(why, sizeof(why), "cannot create the reveal directory '%s': %s", r->dir,
			 strerror(errno));
	}
	if (world_agree_failed(w, failed, why))
		return 3;

	if (r->tier == REVEAL_OFF && !r->queues) {
		why_unavailable(r, agreed, why, sizeof(why));
		snprintf(r->header, sizeof(r->header), "%s (%s)", ALLER_REVEAL_UNAVAILABLE, why);
		return 0;
	}
	describe(r, agreed);
	return 0;
}

void reveal_level_begin(struct reveal *r, MPI_Comm comm)
{
	for (int i = 0; r->tier == REVEAL_GENERIC && i < r->gen->n; i++)
		if (r->gen->comm_bound[i])
			generic_bind(r, i, comm);
}

void reveal_level_end(struct reveal *r)
{
	for (int i = 0; r->tier == REVEAL_GENERIC && i < r->gen->n; i++)
		if (r->gen->comm_bound[i])
			generic_unbind(r, i);
}

void reveal_count_begin(struct reveal *r)
{
	r->calls = 0;
	if (r->nvars > 0)
		memset(r->delta, 0, sizeof(uint64_t) * (size_t)r->nvars * (size_t)r->w->size);
	if (r->gen)
		memset(r->gen->delta, 0, sizeof(r->gen->delta));
}

void reveal_call_before(struct reveal *r)
{
	for (int v = 0; v < r->nvars; v++)
		MPI_T_pvar_read(r->ses, r->h[v], r->before + (size_t)v * (size_t)r->w->size);
	if (r->tier == REVEAL_GENERIC)
		for (int i = 0; i < r->gen->n; i++)
			r->gen->before[i] = generic_read(r, i);
}

void reveal_call_after(struct reveal *r)
{
	long n = r->w->size;

	for (int v = 0; v < r->nvars; v++) {
		uint64_t *b = r->before + (size_t)v * (size_t)n, *d = r->delta + (size_t)v * (size_t)n;
		MPI_T_pvar_read(r->ses, r->h[v], r->after);
		for (long q = 0; q < n; q++)
			d[q] += r->after[q] - b[q];
	}
	if (r->tier == REVEAL_GENERIC)
		for (int i = 0; i < r->gen->n; i++)
			r->gen->delta[i] += generic_read(r, i) - r->gen->before[i];
	r->calls++;
}

/* Gathers the per-peer deltas of the whole world, or of communicator 0, to rank 0. */
static void matrix(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		   int level, long count, const uint64_t *msgs, const uint64_t *bytes, FILE *out)
{
	long world = r->w->size, g0 = partition_size(p, 0), n;
	char path[1200], title[256];

	if (world <= REVEAL_MATRIX_MAX) {
		n = world;
		memcpy(r->row, bytes, sizeof(uint64_t) * (size_t)n);
		memcpy(r->row + n, msgs, sizeof(uint64_t) * (size_t)n);
		MPI_Gather(r->row, (int)(2 * n), MPI_UINT64_T, r->mat, (int)(2 * n), MPI_UINT64_T, 0,
			   MPI_COMM_WORLD);
		for (long i = 0; out && i < n; i++)
			r->mat_ranks[i] = i;
	} else if (g0 <= REVEAL_MATRIX_MAX) {
		n = g0;
		if (color == 0) {
			for (long j = 0; j < n; j++) {
				long q = partition_member(p, 0, j);
				r->row[j] = bytes[q];
				r->row[n + j] = msgs[q];
				if (out)
					r->mat_ranks[j] = q;
			}
			MPI_Gather(r->row, (int)(2 * n), MPI_UINT64_T, r->mat, (int)(2 * n),
				   MPI_UINT64_T, 0, comm);
		}
	} else {
		if (out)
			fprintf(out, "# %s: none (communicator 0 has %ld ranks; matrices are written "
				"up to %d)\n", ALLER_KEY_MATRIX, g0, REVEAL_MATRIX_MAX);
		return;
	}
	if (!out)
		return;
	snprintf(path, sizeof(path), "%s/matrix-L%d-c%ld.dat", r->dir, level, count);
	snprintf(title, sizeof(title), "level %d (comms %ld, commsize %ld), count %ld, tier %s, "
		 "%s of world %ld, per timed call", level, p->ncomms, partition_max_size(p), count,
		 tier_name(r->tier), n == world ? "all ranks" : "communicator 0", world);
	if (traffic_matrix_write(path, title, n, r->mat_ranks, r->mat, r->calls) != 0)
		fprintf(out, "# %s: not written (%s: %s)\n", ALLER_KEY_MATRIX, path, strerror(errno));
	else
		fprintf(out, "# %s: %s\n", ALLER_KEY_MATRIX, path);
}

static void generic_end(struct reveal *r, long count, FILE *out)
{
	struct reveal_generic *g = r->gen;
	double sum[GENERIC_MAX];
	int shown = 0;

	MPI_Reduce(g->delta, sum, g->n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
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

void reveal_count_end(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		      int level, long count, FILE *out)
{
	long world = r->w->size, g = partition_size(p, color);
	const uint64_t *cb = r->delta + (size_t)REVEAL_COLL_BYTES * (size_t)world;
	const uint64_t *m, *b;
	double msgs = 0, bytes = 0, logical = 0, cross = 0, calls = r->calls ? (double)r->calls : 1;
	double vmax[TRAFFIC_NMAX], vsum[TRAFFIC_NSUM];
	struct traffic t;

	if (r->tier == REVEAL_GENERIC) {
		generic_end(r, count, out);
		return;
	}
	if (r->nvars == 0)
		return;
	m = r->delta + (size_t)(r->tier == REVEAL_PML ? REVEAL_PML_MSGS : REVEAL_COLL_MSGS) * (size_t)world;
	b = r->delta + (size_t)(r->tier == REVEAL_PML ? REVEAL_PML_BYTES : REVEAL_COLL_BYTES) * (size_t)world;
	for (long q = 0; q < world; q++) {
		if (partition_color(p, q) == color) {
			msgs += (double)m[q];
			bytes += (double)b[q];
			logical += (double)cb[q];
		} else {
			cross += (double)b[q];
		}
	}
	traffic_init(&t);
	traffic_add(&t, g, msgs / calls, bytes / calls, logical / calls, cross / calls);
	traffic_pack(&t, vmax, vsum);
	MPI_Reduce(out ? MPI_IN_PLACE : vmax, vmax, TRAFFIC_NMAX, MPI_DOUBLE, MPI_MAX, 0,
		   MPI_COMM_WORLD);
	MPI_Reduce(out ? MPI_IN_PLACE : vsum, vsum, TRAFFIC_NSUM, MPI_DOUBLE, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	if (out) {
		traffic_unpack(&t, vmax, vsum);
		traffic_line(out, &t, count, tier_name(r->tier), r->tier == REVEAL_PML);
	}
	matrix(r, p, color, comm, level, count, m, b, out);
}

/* One queue variable bound to the level's communicator, g elements; 0 or -1. */
static int bind_queue(struct reveal *r, const char *name, MPI_Comm comm, long g,
		      MPI_T_pvar_handle *h)
{
	int idx, count;

	if (MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_SIZE, &idx) != MPI_SUCCESS ||
	    MPI_T_pvar_handle_alloc(r->ses, idx, &comm, h, &count) != MPI_SUCCESS)
		return -1;
	if (count != g) {
		MPI_T_pvar_handle_free(r->ses, h);
		return -1;
	}
	return 0;
}

/*
 * One exchange of the queues pass, after a barrier on the world. A sender is
 * late when its message has not arrived a window after the receive was
 * posted (the receive is still in the posted queue): adds to late[its world
 * rank]. A receiver is late when messages of most peers were already waiting
 * in its unexpected queue as it arrived, each for longer than the window:
 * every message carries the nanoseconds from its sender's barrier exit to
 * the send, so the wait needs no synchronised clocks, only barrier exits
 * closer together than the window. Adds to *lr.
 */
static void queue_round(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
			MPI_T_pvar_handle hu, MPI_T_pvar_handle hp, unsigned *q, MPI_Request *req,
			long *buf, long *late, long *lr)
{
	long g = partition_size(p, color), me = partition_key(p, r->w->rank), early = 0;
	unsigned *waiting = q, *posted = q + g;
	int n = 0, flag = 0, done = 0;
	double exit, arrived, t0;

	MPI_Barrier(MPI_COMM_WORLD);
	exit = MPI_Wtime();
	if (r->delay_rank == r->w->rank)
		usleep((useconds_t)r->delay_us);
	for (int k = 0; k < 8; k++)   /* progress: move arrived messages into the queue */
		MPI_Iprobe(MPI_ANY_SOURCE, QUEUE_TAG, comm, &flag, MPI_STATUS_IGNORE);
	MPI_T_pvar_read(r->ses, hu, waiting);
	arrived = MPI_Wtime();
	for (long i = 0; i < g; i++)
		if (i != me)
			MPI_Irecv(buf + g + i, 1, MPI_LONG, (int)i, QUEUE_TAG, comm, &req[n++]);
	for (long i = 0; i < g; i++) {
		buf[i] = (long)(1e9 * (MPI_Wtime() - exit));
		if (i != me)
			MPI_Isend(buf + i, 1, MPI_LONG, (int)i, QUEUE_TAG, comm, &req[n++]);
	}
	t0 = MPI_Wtime();
	while (!done && MPI_Wtime() - t0 < REVEAL_QUEUE_WINDOW)
		MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
	if (!done) {
		MPI_T_pvar_read(r->ses, hp, posted);
		for (long i = 0; i < g; i++)
			if (i != me && posted[i] > 0)
				late[partition_member(p, color, i)]++;
	}
	MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
	for (long i = 0; i < g; i++)
		early += i != me && waiting[i] > 0 &&
			 1e9 * (arrived - exit) - (double)buf[g + i] > 1e9 * REVEAL_QUEUE_WINDOW;
	if (g > 1 && traffic_late(early, 1, g - 1))
		(*lr)++;
}

/* Rank 0: the "# late:" lines of a level from the reduced observations. */
static void late_lines(const struct reveal *r, const struct partition *p, int level,
		       const long *v, FILE *out)
{
	long world = r->w->size, named = 0;

	for (long q = 0; q < world; q++) {
		long c = partition_color(p, q), peers = partition_size(p, c) - 1;
		int sender = traffic_late(v[q], REVEAL_QUEUE_ROUNDS, peers);
		int receiver = traffic_late(v[world + q], REVEAL_QUEUE_ROUNDS, 1);
		if (!sender && !receiver)
			continue;
		named++;
		fprintf(out, "# %s: level %d comm %ld rank %ld host %s:", ALLER_KEY_LATE, level, c, q,
			r->w->names[v[2 * world + q]]);
		if (sender)
			fprintf(out, " late sender (%ld of %ld observations by %ld peers)", v[q],
				REVEAL_QUEUE_ROUNDS * peers, peers);
		if (receiver)
			fprintf(out, " late receiver (%ld of %d rounds)", v[world + q],
				REVEAL_QUEUE_ROUNDS);
		fputc('\n', out);
	}
	if (!named)
		fprintf(out, "# %s: level %d none (%d rounds in each of %ld communicators)\n",
			ALLER_KEY_LATE, level, REVEAL_QUEUE_ROUNDS, p->ncomms);
}

void reveal_queues(struct reveal *r, const struct partition *p, long color, MPI_Comm comm,
		   int level, FILE *out)
{
	long world = r->w->size, g = partition_size(p, color), lr = 0;
	MPI_T_pvar_handle hu = MPI_T_PVAR_HANDLE_NULL, hp = MPI_T_PVAR_HANDLE_NULL;
	unsigned *q = malloc(2 * sizeof(unsigned) * (size_t)g);
	MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(2 * g));
	long *buf = calloc((size_t)(2 * g), sizeof(long));
	long *v = calloc((size_t)(3 * world), sizeof(long));
	int bound = 0, failed = !q || !req || !buf || !v;

	if (!r->queues) {
		free(q);
		free(req);
		free(buf);
		free(v);
		return;
	}
	if (!failed) {
		failed = bind_queue(r, queue_names[0], comm, g, &hu) != 0;
		bound = !failed;
		failed = failed || bind_queue(r, queue_names[1], comm, g, &hp) != 0;
		bound += !failed;
	}
	MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (failed) {
		if (out)
			fprintf(out, "# %s: level %d queues unavailable (out of memory, or the queue "
				"counters do not bind to this communicator)\n", ALLER_KEY_LATE, level);
	} else {
		for (int k = 0; k < REVEAL_QUEUE_ROUNDS; k++)
			queue_round(r, p, color, comm, hu, hp, q, req, buf, v, &lr);
		v[world + r->w->rank] = lr;
		v[2 * world + r->w->rank] = r->w->node;
		MPI_Reduce(out ? MPI_IN_PLACE : v, v, (int)(3 * world), MPI_LONG, MPI_SUM, 0,
			   MPI_COMM_WORLD);
		if (out)
			late_lines(r, p, level, v, out);
	}
	if (bound > 0)
		MPI_T_pvar_handle_free(r->ses, &hu);
	if (bound > 1)
		MPI_T_pvar_handle_free(r->ses, &hp);
	free(q);
	free(req);
	free(buf);
	free(v);
}

void reveal_release(struct reveal *r)
{
	if (r->session) {
		for (int v = 0; v < r->nvars; v++)
			MPI_T_pvar_handle_free(r->ses, &r->h[v]);
		generic_free(r);
		MPI_T_pvar_session_free(&r->ses);
	}
	if (r->mpit)
		MPI_T_finalize();
	free(r->before);
	free(r->delta);
	free(r->after);
	free(r->row);
	free(r->mat);
	free(r->mat_ranks);
	memset(r, 0, sizeof(*r));
	r->tier = REVEAL_OFF;
}
