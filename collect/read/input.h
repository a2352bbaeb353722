/* input.h: reading files line by line, and expanding directories. */
#ifndef COLLECT_INPUT_H
#define COLLECT_INPUT_H

#include <stddef.h>

/* Return nonzero to stop reading. */
typedef int (*input_line_fn)(void *ctx, const char *line, size_t len, int complete);
typedef void (*input_long_fn)(void *ctx, size_t total);

/* 0, or -1 with err when the file cannot be opened or read. */
int input_lines(const char *path, input_line_fn line, input_long_fn longline, void *ctx,
		char *err, size_t errlen);

struct filelist {
	char **paths;
	size_t n, cap;
	char **skipped;          /* "PATH<TAB>why" of each directory entry not read */
	size_t nskipped, skipcap;
	const char *empty_dir;   /* the last directory given that had no file */
};

/*
 * Adds a file, or a directory's regular files (not recursing, skipping
 * names that begin with '.'), sorted by name; the other entries of a
 * directory (dangling links, link loops, directories, devices, unreadable
 * files) are listed in skipped with the reason. 0, or -1 with err.
 */
int input_add(struct filelist *l, const char *path, char *err, size_t errlen);
void filelist_release(struct filelist *l);

#endif
