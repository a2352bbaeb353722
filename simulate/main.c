/*
 * aller-simulate: one aller output drawn from the fabric model (model.h), no
 * MPI, no buffers: the rows a run of --nodes of --hosts would write, each
 * row's time from the per-link loads on the fabric file's fabric with the
 * faults applied and a seeded noise. The header says '# simulated:' (the
 * model, the seed, the faults), so nothing takes it for a measurement.
 * docs/simulate.md; campaigns/simulate.sh (make simulate) runs it per point.
 * Exit status: 0 written, 2 usage (a bad option, host or fault), 3 system.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "fabricfile.h"
#include "format.h"
#include "model.h"
#include "partition.h"
#include "text.h"

struct opts {
	const char *fabric, *hosts, *mode, *faults, *campaign, *point, *series, *start, *aller_args;
	long nodes, tpn, longs, iters, min_bytes, seed;
	int count_hosts;
};

static const char usage[] =
	"usage: aller-simulate --fabric=FILE --hosts=LIST [--nodes=N] [--tasks-per-node=N]\n"
	"         [--mode=contiguous|strided] [--longs=N] [--iters=N] [--min-bytes=SIZE] [--seed=N]\n"
	"         [--faults='FAULT; FAULT'] [--campaign=NAME --point=KEY --series=S] [--start=ISO]\n"
	"         [--aller-args='ARGS'] [--count-hosts]\n"
	"One aller output (stdout) drawn from the fabric model: docs/simulate.md.\n";

struct names {
	char **v;
	long n, cap;
};

static int add_name(const char *name, void *ctx)
{
	struct names *l = ctx;

	if (l->n == l->cap) {
		long cap = l->cap ? 2 * l->cap : 64;
		char **v = realloc(l->v, sizeof(char *) * (size_t)cap);
		if (!v)
			return -1;
		l->v = v, l->cap = cap;
	}
	return (l->v[l->n] = strdup(name)) ? (l->n++, 0) : -1;
}

/* --min-bytes and --iters of ALLER_ARGS; the other aller options are not simulated. */
static int aller_args(struct opts *o)
{
	char buf[1024], *save = NULL;

	if (!o->aller_args || !o->aller_args[0])
		return 0;
	snprintf(buf, sizeof(buf), "%s", o->aller_args);
	for (char *a = strtok_r(buf, " ", &save); a; a = strtok_r(NULL, " ", &save)) {
		if (!strncmp(a, "--min-bytes=", 12) && parse_bytes(a + 12, &o->min_bytes) == 0)
			continue;
		if (!strncmp(a, "--iters=", 8) && parse_long(a + 8, 1, 1000000, &o->iters) == 0)
			continue;
		return text_error(2, "aller-simulate: error: ALLER_ARGS '%s' is not simulated: allowed are "
				  "--min-bytes=SIZE and --iters=N\n", a);
	}
	return 0;
}

static int parse(struct opts *o, int argc, char **argv)
{
	static const struct { const char *name; int num; size_t off; long lo, hi; } tab[] = {
#define S_(n, f) { n, 0, offsetof(struct opts, f), 0, 0 }
#define N_(n, f, lo, hi) { n, 1, offsetof(struct opts, f), lo, hi }
		S_("--fabric=", fabric), S_("--hosts=", hosts), S_("--mode=", mode), S_("--faults=", faults),
		S_("--campaign=", campaign), S_("--point=", point), S_("--series=", series),
		S_("--start=", start), S_("--aller-args=", aller_args),
		N_("--nodes=", nodes, 1, 10000000), N_("--tasks-per-node=", tpn, 1, 100000),
		N_("--longs=", longs, 0, 1L << 50), N_("--iters=", iters, 1, 1000000),
		N_("--seed=", seed, 0, 1L << 62),
	};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t k, len = 0;
		if (!strcmp(a, "--count-hosts")) {   /* the driver's: check everything, print how many hosts */
			o->count_hosts = 1;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			exit(0);
		}
		for (k = 0; k < sizeof(tab) / sizeof(tab[0]); k++)
			if (!strncmp(a, tab[k].name, len = strlen(tab[k].name)))
				break;
		if (k == sizeof(tab) / sizeof(tab[0]))
			return text_error(2, "aller-simulate: error: unknown option '%s': see --help\n", a);
		for (const char *c = a; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return text_error(2, "aller-simulate: error: option '%s' has a control character\n", a);
		if (!tab[k].num)
			*(const char **)((char *)o + tab[k].off) = a + len;
		else if (parse_long(a + len, tab[k].lo, tab[k].hi, (long *)((char *)o + tab[k].off)) != 0)
			return text_error(2, "aller-simulate: error: invalid %.*s '%s': allowed are %ld..%ld\n",
					  (int)len - 1, a, a + len, tab[k].lo, tab[k].hi);
	}
	if (!o->fabric || !o->hosts)
		return text_error(2, "aller-simulate: error: give --fabric=FILE and --hosts=LIST\n");
	if (strcmp(o->mode, ALLER_MODE_CONTIGUOUS) && strcmp(o->mode, ALLER_MODE_STRIDED))
		return text_error(2, "aller-simulate: error: invalid mode '%s': allowed are contiguous and strided\n",
				  o->mode);
	return aller_args(o);
}

static void header(const struct opts *o, const struct sim *s, const char *fabric_lines, long world)
{
	long nlev = partition_nlevels(world);

	if (o->campaign) {
		printf("# %s: %s\n# %s: %s\n# %s: %ld\n# %s: %s\n", ALLER_KEY_CAMPAIGN, o->campaign, ALLER_KEY_POINT,
		       o->point ? o->point : "-", ALLER_KEY_POINT_NODES, o->nodes, ALLER_KEY_POINT_MODE, o->mode);
		printf("# %s: %s\n# %s: %s\n# %s: default\n# %s: 1\n# %s: 0\n# %s: 1\n", ALLER_KEY_POINT_SERIES,
		       o->series ? o->series : "-", ALLER_KEY_POINT_BASE, o->series ? o->series : "-",
		       ALLER_KEY_VARIANT, ALLER_KEY_JOB, ALLER_KEY_RESTART, ALLER_KEY_ATTEMPT);
		printf("# %s: %ld (%ld per node)\n", ALLER_KEY_TASKS, world, o->tpn);
	}
	for (const char *l = fabric_lines; *l;) {
		size_t len = strcspn(l, "\n");
		printf("# %s: ", ALLER_KEY_FABRIC);
		text_escape(stdout, l, len);
		putchar('\n');
		l += len + (l[len] == '\n');
	}
	printf("# %s: model=bound (common/bound.c's per-link loads, simulate/model.h) noise=1/U[%.2f,%.2f] "
	       "a call x (1+U[0,%.2f]) a task seed=%ld faults=", ALLER_KEY_SIMULATED, SIM_EFF_LO, SIM_EFF_HI,
	       SIM_JITTER, o->seed);
	text_escape(stdout, o->faults[0] ? o->faults : "none", strlen(o->faults[0] ? o->faults : "none"));
	printf("\n# %s: %s\n# %s: %d\n# %s: aller-simulate --nodes=%ld --tasks-per-node=%ld %s %ld %ld\n",
	       ALLER_KEY_ALLER, ALLER_VERSION, ALLER_KEY_FORMAT, ALLER_FORMAT_VERSION, ALLER_KEY_COMMAND, o->nodes,
	       o->tpn, o->mode, o->iters, o->longs);
	printf("# %s: none (simulated)\n# %s: %ld\n# %s: %ld\n# %s: %ld\n", ALLER_KEY_MPI, ALLER_KEY_WORLD, world,
	       ALLER_KEY_NODES, o->nodes, ALLER_KEY_TPN, o->tpn);
	for (long i = 0; i < s->nnodes; i++)
		printf("# %s: %s %ld-%ld\n", ALLER_KEY_HOST, s->names[i], i * o->tpn, (i + 1) * o->tpn - 1);
	printf("# %s: host\n# %s: none\n# %s: reused\n# %s: %s\n# %s: %ld\n# %s: 0\n# %s: %ld\n",
	       ALLER_KEY_BUFFERS, ALLER_KEY_VERIFY, ALLER_KEY_DATA, ALLER_KEY_MODE, o->mode, ALLER_KEY_ITERS,
	       o->iters, ALLER_KEY_WARMUP, ALLER_KEY_LONGS, o->longs);
	printf("# %s: commsizes all; bytes per peer %ld B..max\n# %s: mpi\n# %s: alltoall\n# %s: none\n",
	       ALLER_KEY_SELECTION, o->min_bytes, ALLER_KEY_TRANSPORT, ALLER_KEY_ALGOS, ALLER_KEY_ISOLATE);
	printf("# %s: %s\n# %s: simulated (%ld levels)\n# %s: barrier\n# %s: hot\n# %s: simulated samples%s\n",
	       ALLER_KEY_START, o->start, ALLER_KEY_TIMER, nlev, ALLER_KEY_TIMING, ALLER_KEY_CACHE,
	       ALLER_KEY_STATISTICS, ALLER_COLUMN_MEANINGS);
	printf("# %s: %s\n", ALLER_KEY_COLUMNS, ALLER_COLUMN_HEADER);
}

static int rows(const struct opts *o, const struct sim *s, long world)
{
	char col[ALLER_NCOLS][64];
	int nlev = partition_nlevels(world);

	for (int lev = 0; lev < nlev; lev++) {
		long target = partition_level_target(world, lev);
		struct partition p;
		partition_init(&p, world, target, !strcmp(o->mode, ALLER_MODE_STRIDED));
		printf("# %s: %d target %ld comms %ld commsize %ld\n# %s: alltoall\n# %s world %ld iters %ld\n# %s\n",
		       ALLER_KEY_LEVEL, lev, target, p.ncomms, partition_max_size(&p), ALLER_KEY_ALGO, o->mode,
		       world, o->iters, ALLER_COLUMN_HEADER);
		for (int i = 0; i < partition_ncounts(o->longs, target); i++) {
			long count = partition_count(o->longs, target, i);
			if (count * 8 < o->min_bytes)
				break;
			if (sim_row(s, o->tpn, p.strided, target, count, o->iters, col) != 0)
				return text_error(3, "aller-simulate: error: out of memory\n");
			for (int k = 0; k < ALLER_NCOLS; k++)
				printf("%s%s", k ? " " : "", col[k]);
			putchar('\n');
		}
		printf("\n\n");
	}
	printf("%s\n# %s: 0\n", ALLER_DONE, ALLER_KEY_EXIT);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .mode = ALLER_MODE_CONTIGUOUS, .faults = "", .start = "1970-01-01T00:00:00Z",
			  .tpn = 1, .longs = 128L * 1024 * 1024, .iters = 5, .min_bytes = 1024, .seed = 1 };
	struct fabricfile ff = { 0 };
	struct names hosts = { 0 };
	struct sim s;
	char err[4608], bad[256];
	char *lines = NULL;
	int rc;

	if ((rc = parse(&o, argc, argv)) != 0)
		return rc;
	if (fabricfile_load(&ff, o.fabric, err, sizeof(err)) != 0)
		return text_error(2, "aller-simulate: error: %s\n", err);
	if ((rc = fabricfile_list(o.hosts, add_name, &hosts, bad, sizeof(bad))) != 0 || hosts.n == 0)
		return text_error(rc == -1 ? 3 : 2, "aller-simulate: error: invalid hosts '%s': allowed are names "
				  "and ranges, comma-separated, e.g. n[1-16],m3\n", hosts.n ? bad : o.hosts);
	if (o.nodes == 0)
		o.nodes = hosts.n;
	if (o.nodes > hosts.n)
		return text_error(2, "aller-simulate: error: invalid nodes '%ld': allowed are 1..%ld (the hosts)\n",
				  o.nodes, hosts.n);
	if (o.longs <= 0)
		o.longs = 128L * 1024 * 1024;
	if (sim_init(&s, &ff, (const char *const *)hosts.v, o.nodes, (uint64_t)o.seed, err, sizeof(err)) != 0 ||
	    sim_faults(&s, o.faults, err, sizeof(err)) != 0)
		return text_error(2, "aller-simulate: error: %s\n", err);
	if (o.count_hosts)
		return printf("%ld\n", hosts.n) < 0 || fflush(stdout) ? 3 : 0;
	lines = fabricfile_lines(&ff, o.fabric, (const char *const *)hosts.v, o.nodes);
	if (!lines)
		return text_error(3, "aller-simulate: error: out of memory\n");
	header(&o, &s, lines, o.nodes * o.tpn);
	rc = rows(&o, &s, o.nodes * o.tpn);
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = text_error(3, "aller-simulate: error: cannot write the output (a full disk?)\n");
	free(lines);
	sim_free(&s);
	fabricfile_free(&ff);
	for (long i = 0; i < hosts.n; i++)
		free(hosts.v[i]);
	free(hosts.v);
	return rc;
}
