/*
 * reveal.c: --reveal through MPI_T (see reveal.h): the session, the tier all
 * ranks can use, the counter reads around each call; the tiers' own work is
 * in reveal_generic.c, reveal_peers.c and reveal_queues.c.
 */
#include "reveal_impl.h"
#include "buffers/footprint.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(REVEAL_MATRIX_MAX == FOOTPRINT_MATRIX_MAX, "the memory check counts the matrix reveal keeps");

#include "dirs.h"
#include "format.h"
#include "world/failure.h"
#include "world/faults.h"

#define CAP_COLL 1
#define CAP_PML 2
#define CAP_QUEUES 4
#define CAP_REREGISTERED 8

static const char *var_names[REVEAL_NVARS] = {
	"coll_monitoring_messages_count", "coll_monitoring_messages_size",
	"pml_monitoring_messages_count", "pml_monitoring_messages_size"
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

const char *reveal_tier_name(enum reveal_tier t)
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
		MPI_MUST(MPI_T_pvar_handle_free(r->ses, h));
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
	const char *env = getenv("OMPI_MCA_pml_monitoring_enable"), *pml = getenv("OMPI_MCA_pml");

	if (!r->mpit || !r->session)
		snprintf(why, len, "the MPI tool interface (MPI_T) cannot be initialised");
	else if (r->asked == REVEAL_PML && (caps & CAP_COLL))
		snprintf(why, len, "the pml monitoring counters (pml_monitoring_messages_*) do not "
			 "resolve, also not after mca_common_monitoring_register (ompi#9260)");
	else if (env && strcmp(env, "1") != 0)
		snprintf(why, len, "Open MPI's monitoring is off (OMPI_MCA_pml_monitoring_enable=%s; "
			 "aller turns it on only when the variable is unset)", env);
	else if (pml && *pml && *pml != '^' && !strstr(pml, "monitoring") && r->asked != REVEAL_QUEUES)
		snprintf(why, len, "Open MPI's PML list leaves out its monitoring component "
			 "(OMPI_MCA_pml=%s): add it, --mca pml %s,monitoring or OMPI_MCA_pml=%s,monitoring",
			 pml, pml, pml);
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
	long m = r->w->size < REVEAL_MATRIX_MAX ? r->w->size : REVEAL_MATRIX_MAX;

	r->values = calloc((size_t)r->w->size, sizeof(uint64_t));
	r->row = malloc(2 * sizeof(uint64_t) * (size_t)m);
	if (r->w->rank == 0) {
		r->mat = malloc(2 * sizeof(uint64_t) * (size_t)(m * m));
		r->mat_ranks = malloc(sizeof(long) * (size_t)m);
		if (!r->mat || !r->mat_ranks)
			return -1;
	}
	return r->values && r->row ? 0 : -1;
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
			MPI_MUST(MPI_T_pvar_handle_free(r->ses, &r->h[REVEAL_COLL_MSGS]));
	}
	if ((caps & CAP_COLL) && r->asked != REVEAL_COLL) {
		if (MPI_T_pvar_get_index(var_names[REVEAL_PML_MSGS], MPI_T_PVAR_CLASS_SIZE,
					 &idx) != MPI_SUCCESS && reregister_pml())
			caps |= CAP_REREGISTERED;
		if (bind_world(r, var_names[REVEAL_PML_MSGS], &r->h[REVEAL_PML_MSGS])) {
			if (bind_world(r, var_names[REVEAL_PML_BYTES], &r->h[REVEAL_PML_BYTES]))
				caps |= CAP_PML;
			else
				MPI_MUST(MPI_T_pvar_handle_free(r->ses, &r->h[REVEAL_PML_MSGS]));
		}
	}
	if (MPI_T_pvar_get_index(REVEAL_QUEUE_UNEXPECTED, MPI_T_PVAR_CLASS_SIZE, &idx) == MPI_SUCCESS &&
	    MPI_T_pvar_get_index(REVEAL_QUEUE_POSTED, MPI_T_PVAR_CLASS_SIZE, &idx) == MPI_SUCCESS)
		caps |= CAP_QUEUES;
	return caps;
}

/* Collective: what every rank has, and the generic list's length if all see the same one. */
static int agree(int caps, long *ngen, unsigned long hash)
{
	long range[2] = { -*ngen, *ngen };
	unsigned long hashes[2] = { ~hash, hash };

	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, &caps, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD));
	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD));
	MPI_MUST(MPI_Allreduce(MPI_IN_PLACE, hashes, 2, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD));
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
		reveal_generic_free(r);
	for (int v = r->nvars; v < REVEAL_NVARS; v++)
		if ((v < 2 && (caps & CAP_COLL)) || (v >= 2 && (caps & CAP_PML)))
			MPI_MUST(MPI_T_pvar_handle_free(r->ses, &r->h[v]));
}

/* The "# reveal:" and "# reveal_queues:" texts. */
static void describe(struct reveal *r, int agreed)
{
	snprintf(r->header, sizeof(r->header), "%s; counters read through MPI_T around each "
		 "timed call, outside the timed region; instrumented timings%s%s%s",
		 r->tier != REVEAL_OFF ? reveal_tier_name(r->tier) : "queues",
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

/* Everything but r itself; r is then as if reveal were off. */
static void release_parts(struct reveal *r)
{
	if (r->session) {
		for (int v = 0; v < r->nvars; v++)
			MPI_MUST(MPI_T_pvar_handle_free(r->ses, &r->h[v]));
		reveal_generic_free(r);
		MPI_MUST(MPI_T_pvar_session_free(&r->ses));
	}
	if (r->mpit)
		MPI_MUST(MPI_T_finalize());
	free(r->delta);
	free(r->values);
	free(r->row);
	free(r->mat);
	free(r->mat_ranks);
	memset(r, 0, sizeof(*r));
	r->tier = REVEAL_OFF;
}

/* ALLER_TEST_DELAY (faults.h): a late rank in the queues pass. */
static void test_delay(struct reveal *r)
{
	r->delay_rank = faults()->delay_rank;
	r->delay_us = faults()->delay_us;
}

/* Collective: the MPI_T session and the tier every rank can use; the agreed capabilities. */
static int open_session(struct reveal *r)
{
	int caps = 0, provided, agreed;
	long ngen = -1;
	unsigned long hash = 0;

	if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS) {
		r->mpit = 1;
		r->session = MPI_T_pvar_session_create(&r->ses) == MPI_SUCCESS;
	}
	if (r->session)
		caps = probe(r);
	if (r->session && (r->asked == REVEAL_GENERIC ||
			   ((r->asked == REVEAL_AUTO || r->asked == REVEAL_QUEUES) && !(caps & CAP_COLL))))
		ngen = reveal_generic_discover(r, &hash);
	/* All ranks agree before any collective depends on it. */
	agreed = agree(caps, &ngen, hash);
	choose(r, caps, agreed, ngen);
	return agreed;
}

int reveal_init(struct reveal **rp, const struct options *o, const struct world *w)
{
	struct reveal *r = calloc(1, sizeof(*r));
	char why[1400] = "";
	int agreed, failed = 0;

	*rp = r;
	if (failure_agree(w, !r, "out of memory for --reveal"))
		return 3;
	r->asked = o->reveal;
	r->tier = REVEAL_OFF;
	r->w = w;
	test_delay(r);
	if (r->asked == REVEAL_OFF)
		return 0;
	if (o->transport == TRANSPORT_NCCL) {   /* nothing to read: the exchange is not MPI's */
		snprintf(r->header, sizeof(r->header), "%s (MPI_T does not see NCCL: "
			 "--transport=nccl moves the data outside MPI)", ALLER_REVEAL_UNAVAILABLE);
		return 0;
	}
	agreed = open_session(r);
	failed = r->nvars > 0 && alloc_buffers(r) != 0;
	if (failure_agree(w, failed, "out of memory for the reveal counters: reveal is off")) {
		release_parts(r);
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
	if (failure_agree(w, failed, why))
		return 3;
	if (r->tier == REVEAL_OFF && !r->queues) {
		why_unavailable(r, agreed, why, sizeof(why));
		snprintf(r->header, sizeof(r->header), "%s (%s)", ALLER_REVEAL_UNAVAILABLE, why);
		return 0;
	}
	describe(r, agreed);
	return 0;
}

const char *reveal_header(const struct reveal *r)
{
	return r->asked != REVEAL_OFF ? r->header : NULL;
}

const char *reveal_queues_note(const struct reveal *r)
{
	return r->queues ? r->notes : NULL;
}

const char *reveal_dir(const struct reveal *r)
{
	return r->dir[0] ? r->dir : NULL;
}

int reveal_level_begin(struct reveal *r, MPI_Comm comm, const struct partition *p, long color)
{
	long world = r->w->size;
	uint64_t *d;

	if (r->tier == REVEAL_GENERIC)
		reveal_generic_level(r, comm, 1);
	if (r->nvars == 0)
		return 0;
	r->track_base = world <= REVEAL_MATRIX_MAX ? 0 : partition_member(p, color, 0);
	r->track_step = world <= REVEAL_MATRIX_MAX ? 1 : partition_member(p, color, 1) - r->track_base;
	r->ntrack = world <= REVEAL_MATRIX_MAX ? world : partition_size(p, color);
	d = realloc(r->delta, sizeof(uint64_t) * (size_t)r->nvars * (size_t)r->ntrack);
	if (!d)
		return -1;
	r->delta = d;
	return 0;
}

void reveal_level_end(struct reveal *r)
{
	if (r->tier == REVEAL_GENERIC)
		reveal_generic_level(r, MPI_COMM_NULL, 0);
}

void reveal_count_begin(struct reveal *r)
{
	r->calls = 0;
	if (r->nvars > 0)
		memset(r->delta, 0, sizeof(uint64_t) * (size_t)r->nvars * (size_t)r->ntrack);
	memset(r->total, 0, sizeof(r->total));
	reveal_generic_clear(r);
}

/* Reads every counter; each tracked rank's value and the sum go in with sign (+1 or -1). */
static void read_in(struct reveal *r, int sign)
{
	for (int v = 0; v < r->nvars; v++) {
		uint64_t *d = r->delta + (size_t)v * (size_t)r->ntrack, sum = 0;
		MPI_MUST(MPI_T_pvar_read(r->ses, r->h[v], r->values));
		for (long q = 0; q < r->w->size; q++)
			sum += r->values[q];
		for (long j = 0; j < r->ntrack; j++) {
			uint64_t x = r->values[r->track_base + j * r->track_step];
			d[j] += sign > 0 ? x : -x;
		}
		r->total[v] += sign > 0 ? sum : -sum;
	}
}

void reveal_call_before(struct reveal *r)
{
	read_in(r, -1);
	if (r->tier == REVEAL_GENERIC)
		reveal_generic_before(r);
}

void reveal_call_after(struct reveal *r)
{
	read_in(r, +1);
	if (r->tier == REVEAL_GENERIC)
		reveal_generic_after(r);
	r->calls++;
}

void reveal_free(struct reveal *r)
{
	if (!r)
		return;
	release_parts(r);
	free(r);
}
