/*
 * merge.c: the merged files of all groups (groups.c reads them, emit.c
 * writes them), and summary.txt. The outputs are written to temporary files
 * and renamed into place only when all are whole.
 */
#include "merge.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "outset.h"
#include "strbuf.h"
#include "text.h"

#define NOUT (EMIT_NFILES + 4) /* the merged files, summary.txt, pairs.tsv, facts.tsv, pairs.dat */
#define PAIRS_OUT (EMIT_NFILES + 1)
#define FACTS_OUT (EMIT_NFILES + 2)
#define MATRIX_OUT (EMIT_NFILES + 3)

struct merge {
	const struct merge_options *o;
	struct summary *s;
	FILE *summary_warnings;      /* the warnings, for summary.txt */
	struct groups gs;
	struct emit emit;
	struct outset out;           /* the merged files and summary.txt */
	long matrices;               /* the data sets of pairs.dat so far */
	int lockfd;
};

static void on_warn(void *ctx, const char *path, long line, const char *msg)
{
	struct merge *m = ctx;

	m->s->warnings++;
	for (int i = 0; i < 2; i++) {
		FILE *f = i ? m->summary_warnings : m->o->side ? NULL : stderr;   /* a side's are its merge's to say */
		if (!f)
			continue;
		text_escape(f, path, strlen(path));   /* (common/text.h: a name cannot forge a line) */
		if (line > 0)
			fprintf(f, ":%ld", line);
		fputs(": ", f);
		text_escape(f, msg, strlen(msg));
		fputc('\n', f);
	}
}

static void write_summary(FILE *f, const struct summary *s)
{
	fprintf(f, "collect: %ld files read, %ld skipped\ncollect: %ld points: %ld complete, %ld incomplete, %ld "
		"failed; %ld superseded by a re-run\ncollect: %ld rows merged\ncollect: %ld warnings\n", s->files,
		s->skipped, s->points, s->complete, s->incomplete, s->failed, s->superseded, s->rows, s->warnings);
}

/* The summary, then every warning. */
static void finish_summary(struct merge *m)
{
	FILE *sum = m->out.f[EMIT_NFILES];
	char buf[4096];
	size_t n;

	write_summary(sum, m->s);
	if (m->summary_warnings) {
		rewind(m->summary_warnings);
		while ((n = fread(buf, 1, sizeof(buf), m->summary_warnings)) > 0)
			fwrite(buf, 1, n, sum);
	}
	if (!m->o->quiet)
		write_summary(stderr, m->s);
}

/*
 * The output directory, locked (overlapping merges into one directory take
 * turns, a flock on the directory itself, so each commits a whole set), and
 * the temporary files, the side tables' headers written; 0 or -1 with the
 * message said.
 */
static int open_outputs(struct merge *m)
{
	const char *dir = m->o->outdir, *names[NOUT];

	if (outset_dir(dir) != 0)
		return -1;
	m->lockfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (m->lockfd >= 0)
		flock(m->lockfd, LOCK_EX);
	for (int i = 0; i < NOUT; i++)
		names[i] = i < EMIT_NFILES ? emit_names[i] : i == PAIRS_OUT ? MERGED_PAIRS_FILE
			   : i == FACTS_OUT ? MERGED_FACTS_FILE : i == MATRIX_OUT ? MERGED_PAIRS_DAT : "summary.txt";
	if (outset_open(&m->out, dir, names, NOUT, 1 << 20) != 0)
		return -1;
	TABLE_HEADER((&(struct table_out){ m->out.f[PAIRS_OUT], NULL, '\t', 0 }), PAIRS_COLUMNS);
	TABLE_HEADER((&(struct table_out){ m->out.f[FACTS_OUT], NULL, '\t', 0 }), FACTS_COLUMNS);
	fprintf(m->out.f[MATRIX_OUT], "# aller --pairs matrices, a data set per point (pairs.tsv's index)\n"
		"# columns: %s\n", MERGED_PAIRS_DAT_COLUMNS);
	return 0;
}

static void report_skipped(struct merge *m, const struct filelist *files)
{
	m->s->files = (long)files->n;
	for (size_t i = 0; i < files->nskipped; i++) {
		char *tab = strchr(files->skipped[i], '\t'), msg[512];
		*tab = '\0';
		snprintf(msg, sizeof(msg), "skipped: %s", tab + 1);
		on_warn(m, files->skipped[i], 0, msg);
		*tab = '\t';
		m->s->skipped++;
	}
}

/*
 * pairs.tsv: each aller --pairs point (not superseded), and its matrix as the
 * next data set of pairs.dat (its index there; -1 without one).
 */
static void write_pairs(struct merge *m, const struct group *g)
{
	struct table_out t = { m->out.f[PAIRS_OUT], NULL, '\t', 0 };

	for (int i = 0; i < g->n; i++) {
		const struct point *pt = g->pts[i];
		long index = -1;
		if (!pt->pairs || pt->superseded)
			continue;
		if (pt->nmatrix > 0) {
			fprintf(m->out.f[MATRIX_OUT], "%s# point: %ld\n%.*s", m->matrices ? "\n\n" : "", pt->id,
				(int)pt->nmatrix, pt->matrix);
			index = m->matrices++;
		}
		TABLE_ROW(&t, (&(struct pairs_row){ pt->path, pt->nodes, point_state_name(point_state(pt)),
						     pt->id, index }), PAIRS_COLUMNS);
	}
}

/* facts.tsv: what the plots and the report read of each point (not superseded), by its row
 * of points-index.csv: "point key value" (point.h's facts), then each of its settings
 * (point.h's point_setting_names, every one, "" when its header lacks it) as
 * "point setting NAME=VALUE", a tab in a value a space (the comparison's). */
static void write_facts(FILE *f, const struct group *g)
{
	for (int i = 0; i < g->n; i++) {
		const struct point *pt = g->pts[i];
		if (pt->superseded)
			continue;
		for (const char *l = pt->facts; l && *l; l += strcspn(l, "\n") + 1)   /* each fact a line */
			fprintf(f, "%ld\t%.*s\n", pt->id, (int)strcspn(l, "\n"), l);
		for (int k = 0; k < PS_NSETTINGS; k++) {
			fprintf(f, "%ld\t" MERGED_FACT_SETTING "\t%s=", pt->id, point_setting_names[k]);
			for (const char *v = pt->setting[k]; v && *v; v++)
				fputc(*v == '\t' ? ' ' : *v, f);
			fputc('\n', f);
		}
	}
}

static long emit_one(void *ctx, const struct group *g)
{
	struct merge *m = ctx;
	long n = emit_group(&m->emit, g);   /* which numbers the points */

	write_pairs(m, g);
	write_facts(m->out.f[FACTS_OUT], g);
	return n;
}

static void merge_release(struct merge *m)
{
	groups_release(&m->gs);
	if (m->summary_warnings)
		fclose(m->summary_warnings);
	if (m->lockfd >= 0)
		close(m->lockfd);
}

/* Outputs merged together are drawn alike: all measured, or all one simulation ('# simulated:'); 1 when not (said). */
static int mixed(const struct groups *gs)
{
	size_t sim = 0, apart = 0;
	const char *v, *first = NULL;

	for (size_t i = 0; i < gs->npts; i++)
		if ((v = gs->pts[i].facts ? strstr(gs->pts[i].facts, ALLER_KEY_SIMULATED "\t") : NULL))   /* no other key ends so */
			sim++, apart += (first = first ? first : v) != v && strncmp(v, first, strcspn(first, "\n") + 1);
	return sim && (sim < gs->npts || apart) && text_error(1, "collect: error: %zu of the %zu outputs are simulated%s: "
		"nothing merged; merge them apart\n", sim < gs->npts ? sim : apart, gs->npts, sim < gs->npts ?
		" ('# simulated:'), the others measured" : " otherwise than the first (its '# simulated:' fabric, seed or faults)");
}

int merge_run(const struct merge_options *o, const struct filelist *files, struct summary *s)
{
	struct merge *m = calloc(1, sizeof(*m));
	int failed, nothing = 0, lockfd;

	memset(s, 0, sizeof(*s));
	if (!m)
		return text_error(3, "collect: error: out of memory\n");
	m->o = o;
	m->s = s;
	m->lockfd = -1;
	m->summary_warnings = tmpfile();
	groups_init(&m->gs, s, on_warn, m);
	failed = open_outputs(m) != 0;
	if (!failed) {
		report_skipped(m, files);
		failed = groups_read(&m->gs, files) != 0;
		nothing = !failed && (m->gs.npts == 0 || mixed(&m->gs));   /* nothing to merge: the last merge stays */
		if (!failed && !nothing) {
			failed = emit_init(&m->emit, m->out.f, groups_labels(&m->gs)) != 0 ||
				 groups_each(&m->gs, emit_one, m) != 0;
			emit_release(&m->emit);   /* its buffers written, before the files close */
		}
		if (failed)
			text_error(0, "collect: error: out of memory\n");
		else if (!nothing)
			finish_summary(m);
	}
	if (nothing && !o->side && !m->gs.npts)
		text_error(0, "collect: error: none of the %ld files read is an aller output: "
			"nothing merged, '%s' left as it was\n", s->files, o->outdir);
	failed = outset_commit(&m->out, failed || nothing) != 0;
	lockfd = m->lockfd;   /* held over o->then: the merge's memory freed first */
	m->lockfd = -1;
	merge_release(m);
#ifdef __GLIBC__
	malloc_trim(0);   /* the merge's heap back to the system before the findings grow theirs */
#endif
	if (!failed && !nothing && o->then) {   /* from the tables just written */
		char err[4608];
		if (o->then(o->outdir, err, sizeof(err)) != 0)
			failed = text_error(1, "collect: error: %s\n", err);
	}
	if (lockfd >= 0)
		close(lockfd);
	free(m);
	return nothing ? 2 : failed ? 3 : s->warnings || s->incomplete || s->failed || s->skipped;
}

int merge_side(const char *arg, const char *outdir, long *files, char *err, size_t errlen)
{
	struct merge_options o = { .outdir = outdir, .quiet = 1, .side = 1 };
	struct filelist list = { 0 };
	struct summary s;
	struct stat st;
	char raw[4096];
	int rc;

	snprintf(raw, sizeof(raw), "%s/raw", arg);   /* a campaign directory: its raw outputs */
	if (input_add(&list, stat(raw, &st) == 0 && S_ISDIR(st.st_mode) ? raw : arg, err, errlen))
		rc = -1;
	else
		*files = (long)list.n, rc = list.n ? merge_run(&o, &list, &s) : 2;
	filelist_release(&list);
	if (rc == 3)
		snprintf(err, errlen, "cannot merge '%s' into '%s'", arg, outdir);
	return rc < 0 ? rc : rc == 3 ? -2 : rc == 2 ? 1 : 0;
}
