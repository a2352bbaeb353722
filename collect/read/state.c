/* state.c: see state.h. */
#include "state.h"
#include "text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "merged.h"
#include "input.h"
#include "namehash.h"
#include "parse.h"
#include "point.h"

static int feed_line(void *ctx, const char *line, size_t len, int complete)
{
	return parser_line(ctx, line, len, complete);
}

static void feed_long(void *ctx, size_t total)
{
	parser_long_line(ctx, total);
}

/* One file read as the merge reads it into pt; 0, or -1 (errno says why). */
static int read_file(const char *path, struct point *pt)
{
	struct parser p;
	char err[512];

	point_init(pt);
	parser_init(&p, pt, 0);
	if (!(pt->path = strdup(path)) ||
	    input_lines(path, feed_line, feed_long, &p, err, sizeof(err)) != 0) {
		point_release(pt);
		return -1;
	}
	return 0;
}

static void print_state(const struct point *pt, const char *path)
{
	char reason[256];

	point_reason(pt, reason, sizeof(reason));
	printf("%s\t%s\t%s", point_state_name(point_state(pt)), reason[0] ? reason : "-", path);
}

/* One file's state and reason, as the merge would see it. */
static void file_state(const char *path)
{
	struct point pt;

	if (read_file(path, &pt) != 0) {
		printf("%s\t%s\t%s\n", errno == ENOENT ? "missing" : "failed",
		       errno == ENOENT ? "no such file" : "unreadable", path);
		return;
	}
	print_state(&pt, path);
	putchar('\n');
	point_release(&pt);
}

/* A point key's files: the one that tells its state (point_newer's), and how many. */
struct keyed {
	char key[256];
	struct point best;
	long files;
};

/* pt, of a file with a '# point:' line, into its key's entry (taken, or released); 0, or -1. */
static int keep(struct keyed **k, size_t *n, size_t *cap, struct namehash *h, struct point *pt)
{
	struct keyed *g = grow(*k, cap, *n + 1, sizeof(**k), 64);
	size_t slot;

	if (!g || namehash_room(h, *n, g->key, sizeof(*g)) != 0)
		return -1;
	*k = g;
	slot = namehash_slot(h, pt->key, g->key, sizeof(*g));
	if (h->slot[slot] < 0) {
		h->slot[slot] = (long)*n;
		g = &(*k)[(*n)++];
		snprintf(g->key, sizeof(g->key), "%s", pt->key);
		g->best = *pt;
		g->files = 1;
		return 0;
	}
	g = &(*k)[h->slot[slot]];
	g->files++;
	if (point_newer(pt, &g->best)) {
		if (point_same_job(pt, &g->best))
			point_tell_retry(pt, &g->best);
		point_release(&g->best);
		g->best = *pt;
	} else {
		if (point_same_job(pt, &g->best))
			point_tell_retry(&g->best, pt);
		point_release(pt);
	}
	return 0;
}

/* Its job's earlier attempts, how each ended (point.h's retried facts) joined by "; ", or "-", into buf. */
static void retries_of(const struct point *pt, char *buf, size_t len)
{
	size_t k = strlen(MERGED_FACT_RETRIED), at = 0;

	buf[0] = '\0';
	for (const char *f = pt->facts, *nl; f && (nl = strchr(f, '\n')) && at < len; f = nl + 1)
		if (!strncmp(f, MERGED_FACT_RETRIED "\t", k + 1))
			at += (size_t)snprintf(buf + at, len - at, "%s%.*s", at ? "; " : "",
					       (int)(nl - f - (long)k - 1), f + k + 1);
	if (!buf[0])
		snprintf(buf, len, "-");
}

int state_points_each(int nargs, char **args, state_point_fn fn, void *ctx)
{
	struct filelist l = { 0 };
	struct keyed *k = NULL;
	size_t n = 0, cap = 0;
	struct namehash h;
	char err[4608], reason[256], retried[2048];
	int rc = namehash_init(&h, 64) != 0 ? 3 : 0;

	for (int i = 0; i < nargs && !rc; i++)
		if (input_add(&l, args[i], err, sizeof(err)) != 0)
			rc = text_error(2, "collect: error: %s\n", err);
	for (size_t i = 0; i < l.n && !rc; i++) {
		struct point pt;
		if (read_file(l.paths[i], &pt) != 0)
			continue;
		if (!pt.key || strlen(pt.key) >= sizeof(k->key))
			point_release(&pt);
		else if (keep(&k, &n, &cap, &h, &pt) != 0)
			rc = 3;
		if (rc)
			text_error(0, "collect: error: out of memory\n");
	}
	for (size_t i = 0; i < n; i++) {
		if (!rc) {
			point_reason(&k[i].best, reason, sizeof(reason));
			retries_of(&k[i].best, retried, sizeof(retried));
			fn(ctx, k[i].key, point_state_name(point_state(&k[i].best)), reason[0] ? reason : "-",
			   k[i].best.path, k[i].files, retried);
		}
		point_release(&k[i].best);
	}
	free(k);
	namehash_free(&h);
	filelist_release(&l);
	return rc;
}

static void print_point(void *ctx, const char *key, const char *state, const char *reason,
			const char *file, long files, const char *retried)
{
	(void)ctx;
	printf("%s\t%s\t%s\t%s\t%ld\t%s\n", key, state, reason, file, files, retried);
}

int state_main(int nfiles, char **files)
{
	if (nfiles >= 1 && strcmp(files[0], "--points") == 0)
		return nfiles > 1 ? state_points_each(nfiles - 1, files + 1, print_point, NULL) : state_main(0, files);
	if (nfiles < 1)
		return text_error(2, "collect: error: '--state' needs files: collect --state [--points] PATH...\n");
	for (int i = 0; i < nfiles; i++)
		file_state(files[i]);
	return 0;
}
