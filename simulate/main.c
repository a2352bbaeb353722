/*
 * simulate (aller-simulate's program): aller outputs drawn from the fabric model (model.h), no
 * MPI, no Slurm, no buffers: the rows a run on the first --nodes of --hosts
 * would write, each row's time from the per-link loads on the fabric file's
 * fabric with the faults applied and a seeded noise. The header says
 * '# simulated:' (the model, the fabric, the seed, the faults), so nothing
 * takes it for a measurement. One output on stdout, or with --results=DIR a
 * campaign's manifest and raw outputs there, a point per NODES x MODES x
 * TASKS_PER_NODE x LONGS, written whole beside DIR and renamed into its
 * place (campaigns/simulate.sh, make simulate, then merges them). Every
 * input is checked before anything is written. docs/simulate.md. Exit
 * status: 0 written, 2 usage (a bad option, host, fault or point; a measured
 * campaign, a link or another directory at DIR), 3 system, 130 / 143
 * stopped by SIGINT / SIGTERM (DIR left as it was).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
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
#include "namehash.h"
#include "pairs.h"
#include "replace.h"
#include "partition.h"
#include "text.h"

#define LIST_MAX 64
#define ROW_MAX (1L << 27)   /* a row's doubles: a task's iters samples and 6 more (model.c's), 1 GiB */
#define FAULTS_MAX 4096L      /* FAULTS' faults, at most (each looked up among the hosts: model.c) */
#define PAIRS_MAX 4096L      /* --pairs' tasks: its n x n matrices, 5 doubles a pair (0.7 GB, a minute) */
#define PAIRS_DRAWS (1L << 28)   /* --pairs' timed exchanges, n x n x iters (seconds) */

static volatile sig_atomic_t stop;   /* SIGINT, SIGTERM or SIGHUP: the campaign given up between rows */

static void on_signal(int sig)
{
	stop = sig;
}

struct list {
	long v[LIST_MAX];
	int n;
};

struct opts {
	const char *fabric, *hosts, *modes, *faults, *campaign, *point, *series, *start, *aller_args;
	const char *results, *toolkit, *nodes_arg, *tpn_arg, *longs_arg, *copy;
	struct list nodes, tpn, longs;
	long iters, min_bytes, seed, pairs;   /* pairs: --pairs' message size, 0 the sweep */
	unsigned long fabric_id;              /* the fabric as it binds the hosts: fabric_id() */
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

	if (!*name)
		return 0;   /* "n1, n2", "n1  n2": the blanks between names, no name */
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
	static const char iso[] = "0000-00-00T00:00:00Z";   /* 0 a digit */
	const char *seed = "1";
	long semis = 0;
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
	for (const char *c = o->faults; *c && semis < FAULTS_MAX; c++)
		semis += *c == ';';
	if (semis >= FAULTS_MAX)   /* the faults' count bounded before any is looked up */
		return text_error(2, "simulate: error: invalid faults '%.20s...': over %ld: allowed are at most %ld, "
				  "';'-separated\n", o->faults, FAULTS_MAX, FAULTS_MAX);
	if (o->campaign && (!isalnum((unsigned char)o->campaign[0]) || strlen(o->campaign) > 64 ||
	    strspn(o->campaign, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") < strlen(o->campaign)))
		return text_error(2, "simulate: error: invalid campaign '%s': allowed are letters, digits, '.', '_' and "
				  "'-', the first a letter or digit, at most 64 (a file's name)\n", o->campaign);
	for (size_t i = 0; i < sizeof(iso); i++)   /* --start: the submission's name is cut from it */
		if (iso[i] == '0' ? !isdigit((unsigned char)o->start[i]) : o->start[i] != iso[i])
			return text_error(2, "simulate: error: invalid start '%s': allowed is a UTC time as "
					  "YYYY-MM-DDTHH:MM:SSZ\n", o->start);
	if (o->results && !o->campaign)
		return text_error(2, "simulate: error: --results=DIR needs --campaign=NAME\n");
	for (const char *m = o->modes; *m; m += strspn(m, " ,")) {
		size_t n = strcspn(m, " ,");
		if (n && (n != strlen(ALLER_MODE_CONTIGUOUS) || strncmp(m, ALLER_MODE_CONTIGUOUS, n)) &&
		    (n != strlen(ALLER_MODE_STRIDED) || strncmp(m, ALLER_MODE_STRIDED, n)))
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
	fprintf(f, "# %s: model=bound (common/bound.c's per-link loads, simulate/model.h) noise=1/U[%.2f,%.2f] "
		"a call x (1+U[0,%.2f]) a task fabric=%08lx seed=%ld faults=", ALLER_KEY_SIMULATED, SIM_EFF_LO,
		SIM_EFF_HI, SIM_JITTER, o->fabric_id, o->seed);
	text_escape(f, o->faults[0] ? o->faults : "none", strlen(o->faults[0] ? o->faults : "none"));
	fputc('\n', f);   /* before the fabric's lines, which may fill what collect keeps of a header */
	for (const char *l = lines; *l;) {
		size_t len = strcspn(l, "\n");
		fprintf(f, "# %s: ", ALLER_KEY_FABRIC);
		text_escape(f, l, len);
		fputc('\n', f);
		l += len + (l[len] == '\n');
	}
	free(lines);
	fprintf(f, "# %s: %s\n# %s: %d\n# %s: simulate --nodes=%ld --tasks-per-node=%ld %s %ld %ld\n",
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
			if (stop)
				return 128 + stop;
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

/* DIR/NAME through the write door (common/replace.h: NAME.part, renamed over NAME when whole); NULL or 3, said. */
static FILE *create(const char *dir, const char *name)
{
	char err[4400];
	FILE *f = replace_open(dir, name, err, sizeof(err));

	return f ? f : (text_error(3, "simulate: error: %s\n", err), NULL);
}

static int commit(FILE *f, const char *dir, const char *name)
{
	char err[4400];

	return replace_close(f, dir, name, err, sizeof(err)) ? text_error(3, "simulate: error: %s\n", err) : 0;
}

/* path and all under it, links not followed (a staging directory of ours, an old simulated campaign). */
static void remove_tree(const char *path)
{
	struct stat st;
	struct dirent *e;
	char sub[4096];
	DIR *d;

	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && (d = opendir(path)) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
			    snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) < (int)sizeof(sub))
				remove_tree(sub);
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

/* text_lines' reader of a manifest: *ctx 1 at a "simulated ..." record, then stop. */
static int simulated_record(void *ctx, char *line, long no, char *err, size_t errlen)
{
	(void)no, (void)err, (void)errlen;
	return *(int *)ctx = !strncmp(line, "simulated ", 10);
}

/*
 * What DIR holds may be replaced: nothing, an empty directory or a simulated
 * campaign; never a measured one, another directory's contents, nor a link
 * (which would be followed elsewhere). 0 (*old: DIR exists), or 2 said.
 */
static int replaceable(const char *dir, const char *campaign, int *old)
{
	char path[4096], err[4400];
	struct stat st;
	int sim = 0, any = 0;
	DIR *d;

	if ((*old = lstat(dir, &st) == 0) == 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return text_error(2, "simulate: error: '%s' is %s: allowed is a simulated campaign's directory or "
				  "none\n", dir, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
	snprintf(path, sizeof(path), "%s/manifest", dir);
	if (lstat(path, &st) == 0 && !S_ISLNK(st.st_mode)) {   /* (a link to another's manifest: no campaign's) */
		if (text_lines(path, TEXT_MANIFEST, simulated_record, &sim, err, sizeof(err)) < 0)
			return text_error(2, "simulate: error: %s\n", err);
		if (!sim)
			return text_error(2, "simulate: error: campaign '%s' in '%s' is measured: simulate into "
					  "another CAMPAIGN\n", campaign, dir);
		return 0;
	}
	if ((d = opendir(dir)) != NULL) {
		for (struct dirent *e; (e = readdir(d)) != NULL;)
			any |= strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
		closedir(d);
	}
	return any ? text_error(2, "simulate: error: '%s' holds no campaign's manifest: allowed is a simulated "
				"campaign's directory or none\n", dir) : 0;
}

/*
 * The campaign: DIR/manifest (campaigns/manifest.sh's records, and
 * "simulated ..." first after its campaign) and DIR/raw/ a point each,
 * named as manifest.sh's point_key and RAW_NAME_FORMAT name them. Written
 * whole in a directory of its own beside DIR (.DIR.sim-XXXXXX), then put in
 * DIR's place: a bad point, a full disk or a signal leaves DIR as it was.
 */
static int campaign(const struct opts *o, const struct sim *s, const struct fabricfile *ff, char **hosts,
		    long nhosts)
{
	char sub[64], key[256], raw[1024], path[4096], tmp[4200], stage[2048], gone[2048];
	const char *base = strrchr(o->results, '/') ? strrchr(o->results, '/') + 1 : o->results;
	int len = (int)(base - o->results), old, rc = replaceable(o->results, o->campaign, &old);
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };   /* a second: at once */
	mode_t mask;
	FILE *m, *f;

	if (rc)
		return rc;
	if (!*base || snprintf(stage, sizeof(stage), "%.*s.%s.sim-XXXXXX", len, o->results, base) >= (int)sizeof(stage))
		return text_error(2, "simulate: error: invalid --results '%s': allowed is a directory's path\n", o->results);
	snprintf(gone, sizeof(gone), "%.*s.%s.old-XXXXXX", len, o->results, base);
	for (char *c = stage + 1; c < stage + len; c++)   /* mkdir -p RESULTS */
		if (*c == '/') {
			*c = 0;
			if (mkdir(stage, 0777) && errno != EEXIST)
				return text_error(3, "simulate: error: cannot create '%s': %s\n", stage, strerror(errno));
			*c = '/';
		}
	mask = umask(0);
	umask(mask);
	if (!mkdtemp(stage))
		return text_error(3, "simulate: error: cannot create '%s': %s\n", stage, strerror(errno));
	if (chmod(stage, 0777 & ~mask) || (snprintf(path, sizeof(path), "%s/raw", stage), mkdir(path, 0777)))
		return rc = text_error(3, "simulate: error: cannot create '%s': %s\n", path, strerror(errno)),
		       remove_tree(stage), rc;   /* (chmod: a campaign's directory as mkdir makes one, not 0700) */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	snprintf(sub, sizeof(sub), "%.4s%.2s%.2sT%.2s%.2s%.2sZ-%ld", o->start, o->start + 5, o->start + 8,
		 o->start + 11, o->start + 14, o->start + 17, (long)getpid());
	if ((m = create(stage, "manifest")) == NULL)
		return remove_tree(stage), 3;
	fprintf(m, "manifest 2\ncampaign %s\nsimulated FABRIC=%s HOSTS=%s SEED=%ld FAULTS=%s\n", o->campaign,
		o->fabric, o->hosts, o->seed, o->faults);
	if (o->nodes.n)
		fprintf(m, "setting NODES=%s\n", o->nodes_arg);
	else
		fprintf(m, "setting NODES=%ld\n", nhosts);   /* all of HOSTS */
	fprintf(m, "setting MODES=%s\nsetting TASKS_PER_NODE=%s\nsetting LONGS=%s\nsetting ALLER_ARGS=%s\n"
		"submission %s time=%s toolkit=%s conf=simulated\n", o->modes, o->tpn_arg, o->longs_arg,
		o->aller_args, sub, o->start, o->toolkit);
	for (int a = 0; !rc && a < (o->nodes.n ? o->nodes.n : 1); a++)
		for (const char *md = o->modes; !rc && *(md += strspn(md, " ,"));) {
			size_t mlen = strcspn(md, " ,");
			char mode[16];
			snprintf(mode, sizeof(mode), "%.*s", (int)mlen, md);
			md += mlen;
			for (int b = 0; !rc && b < o->tpn.n; b++)
				for (int c = 0; !rc && c < o->longs.n; c++) {
					long n = o->nodes.n && o->nodes.v[a] ? o->nodes.v[a] : nhosts;
					snprintf(key, sizeof(key), "n%ld-%s-t%ld-L%ld-default-s1", n, mode, o->tpn.v[b],
						 o->longs.v[c]);
					snprintf(raw, sizeof(raw), "%s-%s-%s-j1-a01.out", o->campaign, key, sub);
					snprintf(path, sizeof(path), "%s/raw/%s", stage, raw);
					if (access(path, F_OK) == 0) {   /* (the campaign is its own: nothing is left of it) */
						rc = text_error(2, "simulate: error: invalid point '%s': given twice: allowed is "
								"each of NODES, MODES, TASKS_PER_NODE and LONGS once\n", key);
						break;
					}
					snprintf(tmp, sizeof(tmp), "%s/raw", stage);
					if ((f = create(tmp, raw)) == NULL) {
						rc = 3;
						break;
					}
					rc = output(f, o, s, ff, hosts, n, o->tpn.v[b], mode,
						    o->longs.v[c] > 0 ? o->longs.v[c] : 128L * 1024 * 1024, key);
					if (rc)
						fclose(f);
					else if ((rc = commit(f, tmp, raw)) == 0)
						fprintf(m, "plan %s %s\npoint %s %s job=1 name=%s\n", sub, key, sub, key, raw);
					rc = rc ? rc : stop ? 128 + stop : 0;
				}
		}
	if (rc)
		fclose(m);
	else
		rc = commit(m, stage, "manifest");
	if (!rc && old && (!mkdtemp(gone) || rename(o->results, gone))) {
		rc = text_error(3, "simulate: error: cannot replace '%s': %s\n", o->results, strerror(errno));
	} else if (!rc && rename(stage, o->results)) {
		rc = text_error(3, "simulate: error: cannot write '%s': %s\n", o->results, strerror(errno));
		if (old)
			rename(gone, o->results);   /* the old campaign back */
	} else if (!rc && old) {
		remove_tree(gone);
	}
	if (rc > 128)
		text_error(rc, "simulate: error: stopped by signal %d: '%s' left as it was\n", rc - 128, o->results);
	if (rc) {
		remove_tree(stage);
		rmdir(gone);   /* made and left empty, or still the old campaign: kept */
	}
	return rc;
}

/*
 * Every point's size before anything is written: its nodes among the hosts,
 * a row's samples and --pairs' n x n matrices within what memory holds;
 * 0, or 2 said.
 */
static int check_points(const struct opts *o, long nhosts)
{
	for (int a = 0; a < (o->nodes.n ? o->nodes.n : 1); a++)
		for (int b = 0; b < o->tpn.n; b++) {
			long n = o->nodes.n && o->nodes.v[a] ? o->nodes.v[a] : nhosts, world = n * o->tpn.v[b];
			if (n > nhosts)
				return text_error(2, "simulate: error: invalid nodes '%ld': allowed are 1..%ld (the "
						  "hosts)\n", n, nhosts);
			if (o->pairs && world <= PAIRS_MAX && world * world * o->iters > PAIRS_DRAWS)
				return text_error(2, "simulate: error: invalid --pairs world '%ld' of %ld iters: allowed are at "
						  "most 2^28 timed exchanges (tasks x tasks x iters: %ld iters at most)\n",
						  world, o->iters, PAIRS_DRAWS / (world * world));
			if (o->pairs && world > PAIRS_MAX)
				return text_error(2, "simulate: error: invalid --pairs world '%ld' (%ld nodes x %ld tasks): "
						  "allowed are at most %ld tasks (its n x n matrices)\n", world, n,
						  o->tpn.v[b], PAIRS_MAX);
			for (int c = 0; !o->pairs && c < o->longs.n; c++) {   /* a row at least, as aller's select_check */
				long longs = o->longs.v[c] > 0 ? o->longs.v[c] : 128L * 1024 * 1024, most = 0;
				for (int lev = 0; lev < partition_nlevels(world); lev++) {
					long t = partition_level_target(world, lev);
					if (partition_ncounts(longs, t) > 0 && partition_count(longs, t, 0) * 8 > most)
						most = partition_count(longs, t, 0) * 8;
				}
				if (most < o->min_bytes)
					return text_error(2, "simulate: error: invalid --min-bytes '%ld': above every row of %ld "
							  "nodes x %ld tasks of LONGS %ld (at most %ld bytes per peer): "
							  "nothing to simulate\n", o->min_bytes, n, o->tpn.v[b], longs, most);
			}
			if (world > ROW_MAX / (o->iters + 6))
				return text_error(2, "simulate: error: invalid world '%ld' (%ld nodes x %ld tasks) of %ld "
						  "iters: allowed are at most %ld tasks (a row's samples in 1 GiB)\n", world,
						  n, o->tpn.v[b], o->iters, ROW_MAX / (o->iters + 6));
		}
	return 0;
}

/*
 * The fabric as it binds the hosts (fabricfile_lines, less the file's name),
 * FNV-1a: the '# simulated:' line's fabric=, so collect never merges runs
 * of two fabrics; 0, or 3 said.
 */
static int fabric_id(struct opts *o, const struct fabricfile *ff, char **hosts, long n)
{
	char *lines = fabricfile_lines(ff, "", (const char *const *)hosts, n);
	unsigned long h = 2166136261u;

	if (!lines)
		return text_error(3, "simulate: error: out of memory\n");
	for (const char *c = lines + strcspn(lines, "\n"); *c; c++)
		h = ((h ^ (unsigned char)*c) * 16777619u) & 0xffffffffu;
	free(lines);
	o->fabric_id = h;
	return 0;
}

/* A fault as check_faults sorts them: what it slows, the node (or switch) it names, the whole name, its place. */
struct fault_key {
	char cls, node[FABRICFILE_NAME], name[FABRICFILE_NAME], sw[FABRICFILE_NAME];
	const char *text;
};

/* By what a fault slows, then the node it names, NODE before its NODE:IF, then by place. */
static int fault_cmp(const void *pa, const void *pb)
{
	const struct fault_key *a = pa, *b = pb;
	int c = a->cls - b->cls;

	c = c ? c : strcmp(a->node, b->node);
	c = c ? c : strcmp(a->name, b->name);
	return c ? c : (a->text > b->text) - (a->text < b->text);
}

/*
 * The faults together, each valid alone (sim_faults): one on a thing (a NIC, an uplink, a node, a node's wiring; with rails NODE
 * names all its NICs), one slow-global (the model slows one pair of
 * groups), and a move onto a leaf switch that is not the node's own; sorted,
 * so 10^4 faults cost no more than their sort; 0, or 2 said.
 */
static int check_faults(const char *list, const struct fabricfile *ff)
{
	char *all = strdup(list), *under = calloc((size_t)ff->nsw + 1, 1), kind[FABRICFILE_NAME];
	struct fault_key *k = calloc(FAULTS_MAX, sizeof(*k));   /* (parse: at most FAULTS_MAX) */
	const char *end, *bad = NULL, *why = NULL;
	long n = 0;

	if (!all || !under || !k)
		return free(all), free(under), free(k), text_error(3, "simulate: error: out of memory\n");
	end = all + strlen(all);
	for (char *c = all; *c; c++)
		*c = *c == ';' ? 0 : *c;
	for (long i = 0; i < ff->nsw; i++)
		if (ff->sw[i].parent >= 0)
			under[ff->sw[i].parent] = 1;
	for (const char *f = all; !why && f < end; f += strlen(f) + 1) {
		struct fault_key *x = &k[n];
		long sw, node;
		if (sscanf(f, " %63s %63s %63s", kind, x->name, x->sw) < 3)
			continue;   /* (an empty one: the blanks between two ';') */
		x->cls = !strcmp(kind, "slow-uplink") ? 'u' : !strcmp(kind, "slow-global") ? 'g' : !strcmp(kind, "move")
			? 'm' : !strcmp(kind, "slow-node") ? 's' : 'n';   /* n: slow-nic, slow-tx, slow-rx, one NIC's */
		snprintf(x->node, sizeof(x->node), "%.*s", x->cls == 'g' ? 0 : (int)strcspn(x->name, ":"), x->name);
		x->text = f + strspn(f, " \t");
		n++;
		if (why || x->cls != 'm')
			continue;
		sw = namehash_find(&ff->swnames, x->sw, ff->nsw ? ff->sw[0].name : "", sizeof(*ff->sw));
		node = fabricfile_node_at(ff, x->name);
		bad = f, why = sw >= 0 && under[sw] ? "a move onto a switch with switches under it: allowed are leaves"
			: node >= 0 && ff->node[node].leaf == sw ? "a move onto the switch the node is under already" : NULL;
	}
	qsort(k, (size_t)n, sizeof(*k), fault_cmp);
	for (long i = 1; !why && i < n; i++)   /* a node's faults side by side, NODE (all its NICs) first */
		if (k[i].cls == k[i - 1].cls && !strcmp(k[i].node, k[i - 1].node) &&
		    (!strcmp(k[i].name, k[i - 1].name) || !strchr(k[i - 1].name, ':')))
			bad = k[i].text, why = k[i].cls == 'g' ? "a second slow-global: allowed is one (the model slows "
				"one pair of groups)" : "another fault names it too: allowed is one a NIC, uplink, "
				"node or wiring";
	if (why)
		text_error(2, "simulate: error: invalid fault '%s': %s\n", bad + strspn(bad, " \t"), why);
	free(all);
	free(under);
	free(k);
	return why ? 2 : 0;
}

/* Each host once: a node named twice (n[1-4],n1) is one node, never two of a run; 0, or 2 said. */
static int check_hosts(const struct sim *s, const struct fabricfile *ff)
{
	char *seen = calloc((size_t)ff->nnode + 1, 1);
	long j = 0;

	while (seen && j < s->nnic && !seen[s->node_at[j]])
		seen[s->node_at[j++]] = 1;
	free(seen);
	if (!seen)
		return text_error(3, "simulate: error: out of memory\n");
	return j < s->nnic ? text_error(2, "simulate: error: host '%s' is named twice in HOSTS: allowed is each "
					"node once\n", s->names[s->host[j]]) : 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .modes = ALLER_MODE_CONTIGUOUS, .faults = "", .aller_args = "", .toolkit = "unknown",
			  .nodes_arg = "", .tpn_arg = "1", .longs_arg = "0", .iters = 5, .min_bytes = 1024,
			  .slow_below = 0.8 };
	struct fabricfile ff = { 0 };
	struct names hosts = { 0 };
	struct sim s = { 0 };
	char err[4608], bad[256], now[32];
	time_t t = time(NULL);
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
		rc = text_error(rc == -1 ? 3 : 2, "simulate: error: invalid hosts '%s': allowed are names and ranges "
				"of at most %d, space- or comma-separated, e.g. n[1-16],m3\n", rc ? bad : o.hosts,
				FABRICFILE_RANGE);
	else if (sim_init(&s, &ff, (const char *const *)hosts.v, hosts.n, (uint64_t)o.seed, err, sizeof(err)) != 0 ||
		 sim_faults(&s, o.faults, err, sizeof(err)) != 0)
		rc = text_error(2, "simulate: error: %s\n", err);
	else if (o.copy && *o.copy && !((s.copy = bound_rate(o.copy)) > 0))
		rc = text_error(2, "simulate: error: invalid copy rate '%s': allowed is a rate, a number and kbit, "
				"mbit, gbit, gbps or GB/s (400GB/s)\n", o.copy);
	else if (o.pairs && (s.rails || ff.ngroup))   /* said before anything is written */
		rc = text_error(2, "simulate: error: --pairs is simulated on a tree only (no rails, no dragonfly "
				"groups): its flows are common/flows.h's\n");
	else if ((rc = check_hosts(&s, &ff)) != 0 || (rc = check_points(&o, hosts.n)) != 0 ||
		 (rc = check_faults(o.faults, &ff)) != 0 || (rc = fabric_id(&o, &ff, hosts.v, hosts.n)) != 0)
		;   /* (each said) */
	else if (o.results)
		rc = campaign(&o, &s, &ff, hosts.v, hosts.n);
	else
		rc = output(stdout, &o, &s, &ff, hosts.v, o.nodes.n && o.nodes.v[0] ? o.nodes.v[0] : hosts.n,
			    o.tpn.v[0], !strncmp(o.modes + strspn(o.modes, " ,"), ALLER_MODE_STRIDED, 7) ?
			    ALLER_MODE_STRIDED : ALLER_MODE_CONTIGUOUS, o.longs.v[0] > 0 ? o.longs.v[0] : 128L * 1024 * 1024,
			    NULL);
	sim_free(&s);
	fabricfile_free(&ff);
	for (long i = 0; i < hosts.n; i++)
		free(hosts.v[i]);
	free(hosts.v);
	return rc;
}
