/* state.c: see state.h. */
#include "state.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "input.h"
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

/* One file's state and reason, as the merge would see it. */
static void file_state(const char *path)
{
	struct point pt;
	struct parser p;
	char err[512], reason[256];

	point_init(&pt);
	parser_init(&p, &pt, 0);
	if (input_lines(path, feed_line, feed_long, &p, err, sizeof(err)) != 0) {
		printf("%s\t%s\t%s\n", errno == ENOENT ? "missing" : "failed",
		       errno == ENOENT ? "no such file" : "unreadable", path);
		return;
	}
	point_reason(&pt, reason, sizeof(reason));
	printf("%s\t%s\t%s\n", point_state_name(point_state(&pt)), reason[0] ? reason : "-", path);
	point_release(&pt);
}

int state_main(int nfiles, char **files)
{
	if (nfiles < 1) {
		fprintf(stderr, "collect: error: '--state' needs files: collect --state FILE...\n");
		return 2;
	}
	for (int i = 0; i < nfiles; i++)
		file_state(files[i]);
	return 0;
}
