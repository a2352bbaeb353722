/* state.c: see state.h. */
#include "state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
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
		point_release(&g->best);
		g->best = *pt;
	} else {
		point_release(pt);
	}
	return 0;
}

/*
 * --state --points PATH...: per point key (a file's '# point:'; files
 * without one skipped), "KEY STATE REASON FILE FILES": the state of the
 * file the merge would take (point_newer), and how many files it has.
 */
static int points_state(int nargs, char **args)
{
	struct filelist l = { 0 };
	struct keyed *k = NULL;
	size_t n = 0, cap = 0;
	struct namehash h;
	char err[4608];
	int rc = namehash_init(&h, 64) != 0 ? 3 : 0;

	for (int i = 0; i < nargs && !rc; i++)
		if (input_add(&l, args[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "collect: error: %s\n", err);
			rc = 2;
		}
	for (size_t i = 0; i < l.n && !rc; i++) {
		struct point pt;
		if (read_file(l.paths[i], &pt) != 0)
			continue;
		if (!pt.key || strlen(pt.key) >= sizeof(k->key))
			point_release(&pt);
		else if (keep(&k, &n, &cap, &h, &pt) != 0)
			rc = 3;
		if (rc)
			fprintf(stderr, "collect: error: out of memory\n");
	}
	for (size_t i = 0; i < n; i++) {
		if (!rc) {
			printf("%s\t", k[i].key);
			print_state(&k[i].best, k[i].best.path);
			printf("\t%ld\n", k[i].files);
		}
		point_release(&k[i].best);
	}
	free(k);
	namehash_free(&h);
	filelist_release(&l);
	return rc;
}

int state_main(int nfiles, char **files)
{
	if (nfiles >= 1 && strcmp(files[0], "--points") == 0)
		return nfiles > 1 ? points_state(nfiles - 1, files + 1) : state_main(0, files);
	if (nfiles < 1) {
		fprintf(stderr, "collect: error: '--state' needs files: collect --state [--points] PATH...\n");
		return 2;
	}
	for (int i = 0; i < nfiles; i++)
		file_state(files[i]);
	return 0;
}
