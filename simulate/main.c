/*
 * simulate (aller-simulate's program): aller outputs drawn from the fabric model (model.h), no
 * MPI, no Slurm, no buffers: the rows a run on the first --nodes of --hosts
 * would write, each row's time from the per-link loads on the fabric file's
 * fabric with the faults applied and a seeded noise. The header says
 * '# simulated:' (the model, the seed, the faults), so nothing takes it for
 * a measurement. One output on stdout, or with --results=DIR a campaign's
 * manifest and raw outputs there, a point per NODES x MODES x TASKS_PER_NODE
 * x LONGS (campaigns/simulate.sh, make simulate, then merges them).
 * docs/simulate.md. Exit status: 0 written, 2 usage (a bad option, host or
 * fault, a measured campaign in DIR), 3 system.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bound.h"
#include "bytes.h"
#include "fabricfile.h"
#include "format.h"
#include "model.h"
#include "pairs.h"
#include "partition.h"
#include "text.h"

#define LIST_MAX 64

struct list {
	long v[LIST_MAX];
	int n;
};

struct opts {
	const char *fabric, *hosts, *modes, *faults, *campaign, *point, *series, *start, *aller_args;
	const char *results, *toolkit, *nodes_arg, *tpn_arg, *longs_arg, *copy;
	struct list nodes, tpn, longs;
	long iters, min_bytes, seed, pairs;   /* pairs: --pairs' message size, 0 the sweep */
	double slow_below;
};

static const char usage[] =
	"usage: simulate --fabric=FILE --hosts=LIST [--nodes=N...] [--tasks-per-node=N...]\n"
	"         [--modes=contiguous|strided...] [--longs=N...] [--seed=N] [--faults='FAULT; FAULT']\n"
	"         [--aller-args='--iters=N --min-bytes=SIZE'] [--start=ISO] [--copy=RATE]\n"
	"         [--campaign=NAME [--point=KEY --series=S] | --results=DIR --campaign=NAME [--toolkit=V]]\n"
	"One aller output (stdout), or a campaign's (--results), drawn from the fabric model:\n"
	"docs/simulate.md. Lists are space- or comma-separated; NODES 0 or none: every host.\n";

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

/* A list of numbers lo..hi, space- or comma-separated, into l; 0, or 2 said. */
static int parse_list(const char *what, const char *text, long lo, long hi, struct list *l)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", text);
	l->n = 0;
	for (char *w = strtok_r(buf, " ,", &save); w; w = strtok_r(NULL, " ,", &save))
		if (l->n == LIST_MAX || parse_long(w, lo, hi, &l->v[l->n++]) != 0)
			return text_error(2, "simulate: error: invalid %s '%s': allowed are up to %d numbers "
					  "%ld..%ld\n", what, w, LIST_MAX, lo, hi);
	return 0;
}

/* --min-bytes, --iters, --pairs[=SIZE] and --slow-below of ALLER_ARGS; aller's others are not simulated. */
static int aller_args(struct opts *o)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", o->aller_args);
	for (char *a = strtok_r(buf, " ", &save); a; a = strtok_r(NULL, " ", &save)) {
		if (!strncmp(a, "--min-bytes=", 12) && parse_bytes(a + 12, &o->min_bytes) == 0)
			continue;
		if (!strncmp(a, "--iters=", 8) && parse_long(a + 8, 1, 1000000, &o->iters) == 0)
			continue;
		if ((!strcmp(a, "--pairs") && (o->pairs = 1 << 20)) || (!strncmp(a, "--pairs=", 8) &&
		    parse_bytes(a + 8, &o->pairs) == 0))
			continue;
		if (!strncmp(a, "--slow-below=", 13) && parse_double(a + 13, 1e-6, 1, &o->slow_below, NULL) == 0)
			continue;
		return text_error(2, "simulate: error: ALLER_ARGS '%s' is not simulated: allowed are "
				  "--min-bytes=SIZE, --iters=N, --pairs[=SIZE] and --slow-below=F\n", a);
	}
	return 0;
}

static int parse(struct opts *o, int argc, char **argv)
{
	static const struct { const char *name; size_t off; } tab[] = {
#define S_(n, f) { n, offsetof(struct opts, f) }
		S_("--fabric=", fabric), S_("--hosts=", hosts), S_("--modes=", modes), S_("--mode=", modes),
		S_("--faults=", faults), S_("--campaign=", campaign), S_("--point=", point),
		S_("--series=", series), S_("--start=", start), S_("--aller-args=", aller_args),
		S_("--results=", results), S_("--toolkit=", toolkit), S_("--nodes=", nodes_arg),
		S_("--tasks-per-node=", tpn_arg), S_("--longs=", longs_arg), S_("--seed=", series),
		S_("--copy=", copy),
	};
	const char *seed = "1";
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t k, len = 0;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			exit(0);
		}
		for (k = 0; k < sizeof(tab) / sizeof(tab[0]); k++)
			if (!strncmp(a, tab[k].name, len = strlen(tab[k].name)))
				break;
		if (k == sizeof(tab) / sizeof(tab[0]))
			return text_error(2, "simulate: error: unknown option '%s': see --help\n", a);
		for (const char *c = a; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return text_error(2, "simulate: error: option '%s' has a control character\n", a);
		if (!strcmp(tab[k].name, "--seed="))
			seed = a + len;
		else
			*(const char **)((char *)o + tab[k].off) = a + len;
	}
	if (!o->fabric || !*o->fabric || !o->hosts || !*o->hosts)
		return text_error(2, "simulate: error: give the fabric file and the hosts: FABRIC=FILE HOSTS=LIST (--fabric, --hosts)\n");
	if (parse_long(seed, 0, 1L << 62, &o->seed) != 0)
		return text_error(2, "simulate: error: invalid seed '%s': allowed are 0..2^62\n", seed);
	if (o->results && !o->campaign)
		return text_error(2, "simulate: error: --results=DIR needs --campaign=NAME\n");
	for (const char *m = o->modes; *m; m += strspn(m, " ,")) {
		size_t n = strcspn(m, " ,");
		if (n && strncmp(m, ALLER_MODE_CONTIGUOUS, n) && strncmp(m, ALLER_MODE_STRIDED, n))
			return text_error(2, "simulate: error: invalid mode '%.*s': allowed are contiguous and "
					  "strided\n", (int)n, m);
		m += n;
	}
	if ((rc = parse_list("nodes", o->nodes_arg, 0, 10000000, &o->nodes)) ||
	    (rc = parse_list("tasks per node", o->tpn_arg, 1, 100000, &o->tpn)) ||
	    (rc = parse_list("longs", o->longs_arg, -(1L << 50), 1L << 50, &o->longs)))
		return rc;
	return aller_args(o);
}

/* One output: the run of `nodes` nodes x tpn tasks in mode, longs longs each, into f. */
static int output(FILE *f, const struct opts *o, const struct sim *s, const struct fabricfile *ff,
		  char **hosts, long nodes, long tpn, const char *mode, long longs, const char *key)
{
	long world = nodes * tpn;
	int nlev = partition_nlevels(world), strided = !strcmp(mode, ALLER_MODE_STRIDED);
	char col[ALLER_NCOLS][64], *lines = fabricfile_lines(ff, o->fabric, (const char *const *)hosts, nodes);
	const char *series = key ? key + strcspn(key, "-") + 1 + strlen(mode) + 1 : o->series;

	if (!lines)
		return text_error(3, "simulate: error: out of memory\n");
	if (o->campaign) {
		fprintf(f, "# %s: %s\n# %s: %s\n# %s: %ld\n# %s: %s\n", ALLER_KEY_CAMPAIGN, o->campaign,
			ALLER_KEY_POINT, key ? key : o->point ? o->point : "-", ALLER_KEY_POINT_NODES, nodes,
			ALLER_KEY_POINT_MODE, mode);
		fprintf(f, "# %s: %s\n# %s: %s\n# %s: default\n# %s: 1\n# %s: 0\n# %s: 1\n# %s: %ld (%ld per node)\n",
			ALLER_KEY_POINT_SERIES, series ? series : "-", ALLER_KEY_POINT_BASE, series ? series : "-",
			ALLER_KEY_VARIANT, ALLER_KEY_JOB, ALLER_KEY_RESTART, ALLER_KEY_ATTEMPT, ALLER_KEY_TASKS,
			world, tpn);
	}
	for (const char *l = lines; *l;) {
		size_t len = strcspn(l, "\n");
		fprintf(f, "# %s: ", ALLER_KEY_FABRIC);
		text_escape(f, l, len);
		fputc('\n', f);
		l += len + (l[len] == '\n');
	}
	free(lines);
	fprintf(f, "# %s: model=bound (common/bound.c's per-link loads, simulate/model.h) noise=1/U[%.2f,%.2f] "
		"a call x (1+U[0,%.2f]) a task seed=%ld faults=", ALLER_KEY_SIMULATED, SIM_EFF_LO, SIM_EFF_HI,
		SIM_JITTER, o->seed);
	text_escape(f, o->faults[0] ? o->faults : "none", strlen(o->faults[0] ? o->faults : "none"));
	fprintf(f, "\n# %s: %s\n# %s: %d\n# %s: simulate --nodes=%ld --tasks-per-node=%ld %s %ld %ld\n",
		ALLER_KEY_ALLER, ALLER_VERSION, ALLER_KEY_FORMAT, ALLER_FORMAT_VERSION, ALLER_KEY_COMMAND, nodes,
		tpn, mode, o->iters, longs);
	fprintf(f, "# %s: none (simulated)\n# %s: %ld\n# %s: %ld\n# %s: %ld\n", ALLER_KEY_MPI, ALLER_KEY_WORLD,
		world, ALLER_KEY_NODES, nodes, ALLER_KEY_TPN, tpn);
	for (long i = 0; i < nodes; i++)
		fprintf(f, "# %s: %s %ld-%ld\n", ALLER_KEY_HOST, hosts[i], i * tpn, (i + 1) * tpn - 1);
	fprintf(f, "# %s: host\n# %s: none\n# %s: reused\n# %s: %s\n# %s: %ld\n# %s: 0\n# %s: %ld\n",
		ALLER_KEY_BUFFERS, ALLER_KEY_VERIFY, ALLER_KEY_DATA, ALLER_KEY_MODE, mode, ALLER_KEY_ITERS,
		o->iters, ALLER_KEY_WARMUP, ALLER_KEY_LONGS, longs);
	fprintf(f, "# %s: commsizes all; bytes per peer %ld B..max\n# %s: mpi\n# %s: alltoall\n# %s: none\n",
		ALLER_KEY_SELECTION, o->min_bytes, ALLER_KEY_TRANSPORT, ALLER_KEY_ALGOS, ALLER_KEY_ISOLATE);
	if (o->pairs > 0) {   /* aller --pairs: its header up to the Slurm keys, then the matrix */
		fprintf(f, "# %s: %s\n", ALLER_KEY_START, o->start);
		return sim_pairs(f, s, nodes, tpn, o->pairs, o->iters, o->slow_below);
	}
	fprintf(f, "# %s: %s\n# %s: simulated\n# %s: barrier\n# %s: hot\n", ALLER_KEY_START, o->start,
		ALLER_KEY_TIMER, ALLER_KEY_TIMING, ALLER_KEY_CACHE);
	for (long i = 0; i < nodes && i < 64; i++)   /* aller's '# limit: copy' lines: the model's, as measured */
		fprintf(f, "# %s: copy %s: %.4g GB/s read + written, simulated (the model's node memory)\n",
			ALLER_KEY_LIMIT, hosts[i], s->copy / s->slow[i]);
	for (long i = 64; i < nodes; i++)   /* the rest: a slow node's its own, the others in one */
		if (s->slow[i] != 1 || i == 64)
			fprintf(f, s->slow[i] != 1 ? "# %s: copy %s: %.4g GB/s read + written, simulated (the model's "
				"node memory)\n" : "# %s: copy: %s and the rest: %.4g GB/s read + written, simulated\n",
				ALLER_KEY_LIMIT, hosts[i], s->copy / s->slow[i]);
	fprintf(f, "# %s: simulated samples%s\n# %s: %s\n", ALLER_KEY_STATISTICS, ALLER_COLUMN_MEANINGS,
		ALLER_KEY_COLUMNS, ALLER_COLUMN_HEADER);
	for (int lev = 0; lev < nlev; lev++) {
		long target = partition_level_target(world, lev);
		struct partition p;
		partition_init(&p, world, target, strided);
		fprintf(f, "# %s: %d target %ld comms %ld commsize %ld\n# %s: alltoall\n# %s world %ld iters %ld\n# %s\n",
			ALLER_KEY_LEVEL, lev, target, p.ncomms, partition_max_size(&p), ALLER_KEY_ALGO, mode, world,
			o->iters, ALLER_COLUMN_HEADER);
		for (int i = 0; i < partition_ncounts(longs, target); i++) {
			long count = partition_count(longs, target, i);
			if (count * 8 < o->min_bytes)
				break;
			if (sim_row(s, nodes, tpn, strided, target, count, o->iters, col) != 0)
				return text_error(3, "simulate: error: out of memory\n");
			for (int k = 0; k < ALLER_NCOLS; k++)
				fprintf(f, "%s%s", k ? " " : "", col[k]);
			fputc('\n', f);
		}
		fputs("\n\n", f);
	}
	fprintf(f, "%s\n# %s: 0\n", ALLER_DONE, ALLER_KEY_EXIT);
	return fflush(f) || ferror(f) ? text_error(3, "simulate: error: cannot write an output (a full disk?)\n") : 0;
}

/* A new file to write, never an existing name nor a planted link (git's lockfile.c); NULL, errno set. */
static FILE *create(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

/* path, written whole by rename from path.tmp (f: the open file, or NULL); 0, or 3 said. */
static int commit(FILE *f, const char *tmp, const char *path)
{
	int bad = !f || fflush(f) || ferror(f);

	if (f && fclose(f))
		bad = 1;
	if (bad || rename(tmp, path))
		return unlink(tmp), text_error(3, "simulate: error: cannot write '%s': %s\n", path, strerror(errno));
	return 0;
}

/* A simulated campaign in DIR: its earlier outputs removed; 0, or 2 when DIR holds a measured one. */
static int fresh_dir(const char *dir, const char *campaign)
{
	char path[4096], line[256];
	FILE *f;
	DIR *d;
	struct dirent *e;
	int sim = 0;

	snprintf(path, sizeof(path), "%s/manifest", dir);
	if ((f = fopen(path, "r")) != NULL) {
		while (!sim && fgets(line, sizeof(line), f))
			sim = !strncmp(line, "simulated ", 10);
		fclose(f);
		if (!sim)
			return text_error(2, "simulate: error: campaign '%s' in '%s' is measured: simulate into "
					  "another CAMPAIGN\n", campaign, dir);
	}
	snprintf(path, sizeof(path), "%s/manifest.tmp", dir);
	unlink(path);   /* a stale one of ours, or a link planted there: removed, never written through */
	snprintf(path, sizeof(path), "%s/raw", dir);
	for (char *c = path + 1;; c++)   /* mkdir -p: RESULTS, its campaign, raw/ */
		if (*c == '/' || !*c) {
			char was = *c;
			*c = 0;
			if (mkdir(path, 0777) && errno != EEXIST)
				return text_error(3, "simulate: error: cannot create '%s': %s\n", path,
						  strerror(errno));
			if (!(*c = was))
				break;
		}
	if ((d = opendir(path)) == NULL)
		return text_error(3, "simulate: error: cannot read '%s': %s\n", path, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		snprintf(path, sizeof(path), "%s/raw/%s", dir, e->d_name);
		if ((n > 4 && !strcmp(e->d_name + n - 4, ".out")) || (n > 8 && !strcmp(e->d_name + n - 8, ".out.tmp")))
			unlink(path);
	}
	closedir(d);
	return 0;
}

/*
 * The campaign: DIR/manifest (campaigns/manifest.sh's records, and
 * "simulated ..." first after its campaign) and DIR/raw/ a point each,
 * named as manifest.sh's point_key and RAW_NAME_FORMAT name them.
 */
static int campaign(const struct opts *o, const struct sim *s, const struct fabricfile *ff, char **hosts,
		    long nhosts)
{
	char sub[64], key[256], raw[1024], path[4096], tmp[4200], mtmp[4200], mpath[4096];
	FILE *m, *f;
	int rc = fresh_dir(o->results, o->campaign);

	if (rc)
		return rc;
	snprintf(sub, sizeof(sub), "%.4s%.2s%.2sT%.2s%.2s%.2sZ-%ld", o->start, o->start + 5, o->start + 8,
		 o->start + 11, o->start + 14, o->start + 17, (long)getpid());
	snprintf(mpath, sizeof(mpath), "%s/manifest", o->results);
	snprintf(mtmp, sizeof(mtmp), "%s.tmp", mpath);
	if ((m = create(mtmp)) == NULL)
		return commit(NULL, mtmp, mpath);
	fprintf(m, "manifest 2\ncampaign %s\nsimulated FABRIC=%s HOSTS=%s SEED=%ld FAULTS=%s\n", o->campaign,
		o->fabric, o->hosts, o->seed, o->faults);
	if (o->nodes.n)
		fprintf(m, "setting NODES=%s\n", o->nodes_arg);
	else
		fprintf(m, "setting NODES=%ld\n", nhosts);   /* all of HOSTS */
	fprintf(m, "setting MODES=%s\nsetting TASKS_PER_NODE=%s\nsetting LONGS=%s\nsetting ALLER_ARGS=%s\n"
		"submission %s time=%s toolkit=%s conf=simulated\n", o->modes, o->tpn_arg, o->longs_arg,
		o->aller_args, sub, o->start, o->toolkit);
	for (int a = 0; a < (o->nodes.n ? o->nodes.n : 1); a++)
		for (const char *md = o->modes; *(md += strspn(md, " ,"));) {
			size_t mlen = strcspn(md, " ,");
			char mode[16];
			snprintf(mode, sizeof(mode), "%.*s", (int)mlen, md);
			md += mlen;
			for (int b = 0; b < o->tpn.n; b++)
				for (int c = 0; c < o->longs.n; c++) {
					long n = o->nodes.n && o->nodes.v[a] ? o->nodes.v[a] : nhosts;
					if (n > nhosts)
						return fclose(m), unlink(mtmp), text_error(2, "simulate: error: invalid nodes "
								      "'%ld': allowed are 1..%ld (the hosts)\n", n, nhosts);
					snprintf(key, sizeof(key), "n%ld-%s-t%ld-L%ld-default-s1", n, mode, o->tpn.v[b],
						 o->longs.v[c]);
					snprintf(raw, sizeof(raw), "%s-%s-%s-j1-a01.out", o->campaign, key, sub);
					snprintf(path, sizeof(path), "%s/raw/%s", o->results, raw);
					snprintf(tmp, sizeof(tmp), "%s.tmp", path);
					if ((f = create(tmp)) == NULL)
						return fclose(m), commit(NULL, tmp, path);
					rc = output(f, o, s, ff, hosts, n, o->tpn.v[b], mode,
						    o->longs.v[c] > 0 ? o->longs.v[c] : 128L * 1024 * 1024, key);
					if (rc || (rc = commit(f, tmp, path)))
						return fclose(m), unlink(mtmp), rc;
					fprintf(m, "plan %s %s\npoint %s %s job=1 name=%s\n", sub, key, sub, key, raw);
				}
		}
	return commit(m, mtmp, mpath);
}

int main(int argc, char **argv)
{
	struct opts o = { .modes = ALLER_MODE_CONTIGUOUS, .faults = "", .aller_args = "", .toolkit = "unknown",
			  .nodes_arg = "", .tpn_arg = "1", .longs_arg = "0", .iters = 5, .min_bytes = 1024,
			  .slow_below = 0.8 };
	struct fabricfile ff = { 0 };
	struct names hosts = { 0 };
	struct sim s;
	char err[4608], bad[256], now[32];
	time_t t = time(NULL);
	long nodes;
	int rc;

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	o.start = now;
	if ((rc = parse(&o, argc, argv)) != 0)
		return rc;
	if (fabricfile_load(&ff, o.fabric, err, sizeof(err)) != 0)
		return text_error(2, "simulate: error: %s\n", err);
	for (char *c = (char *)o.hosts; *c; c++)
		*c = *c == ' ' ? ',' : *c;   /* HOSTS="n[1-2] n3" as fabricfile_list's n[1-2],n3 */
	if ((rc = fabricfile_list(o.hosts, add_name, &hosts, bad, sizeof(bad))) != 0 || hosts.n == 0)
		return text_error(rc == -1 ? 3 : 2, "simulate: error: invalid hosts '%s': allowed are names "
				  "and ranges, space- or comma-separated, e.g. n[1-16],m3\n", hosts.n ? bad : o.hosts);
	if (sim_init(&s, &ff, (const char *const *)hosts.v, hosts.n, (uint64_t)o.seed, err, sizeof(err)) != 0 ||
	    sim_faults(&s, o.faults, err, sizeof(err)) != 0)
		return text_error(2, "simulate: error: %s\n", err);
	if (o.copy && *o.copy && !((s.copy = bound_rate(o.copy)) > 0))
		return text_error(2, "simulate: error: invalid copy rate '%s': allowed is a rate, a number and kbit, "
				  "mbit, gbit, gbps or GB/s (400GB/s)\n", o.copy);
	if (o.pairs && (s.rails || ff.ngroup))   /* said before anything is written */
		return text_error(2, "simulate: error: --pairs is simulated on a tree only (no rails, no dragonfly "
				  "groups): its flows are common/flows.h's\n");
	nodes = o.nodes.n && o.nodes.v[0] ? o.nodes.v[0] : hosts.n;
	if (o.results)
		rc = campaign(&o, &s, &ff, hosts.v, hosts.n);
	else if (nodes > hosts.n)
		rc = text_error(2, "simulate: error: invalid nodes '%ld': allowed are 1..%ld (the hosts)\n",
				nodes, hosts.n);
	else
		rc = output(stdout, &o, &s, &ff, hosts.v, nodes, o.tpn.v[0], !strncmp(o.modes + strspn(o.modes, " ,"),
			    ALLER_MODE_STRIDED, 7) ? ALLER_MODE_STRIDED : ALLER_MODE_CONTIGUOUS, o.longs.v[0] > 0 ? o.longs.v[0] : 128L * 1024 * 1024,
			    NULL);
	sim_free(&s);
	fabricfile_free(&ff);
	for (long i = 0; i < hosts.n; i++)
		free(hosts.v[i]);
	free(hosts.v);
	return rc;
}
