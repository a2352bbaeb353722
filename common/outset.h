/*
 * outset.h: a set of output files in one directory, written as temporaries
 * (".NAME.tmp.PID") and renamed into place together only when all are whole:
 * a reader never sees a half-written result.
 */
#ifndef COLLECT_OUTSET_H
#define COLLECT_OUTSET_H

#include <stddef.h>
#include <stdio.h>

#define OUTSET_MAX 12

struct outset {
	int n;
	FILE *f[OUTSET_MAX];
	char tmp[OUTSET_MAX][4200], final[OUTSET_MAX][4096];
};

/* Creates the directory (and its parents) and checks that no other user can write into it (dirs_safe); 0, or -1 with one line on stderr. */
int outset_dir(const char *dir);
/*
 * Opens names[0..n-1] in dir as temporaries, each with `buffer` bytes of
 * stdio buffering (0: stdio's own); 0, or -1 with one line on stderr.
 */
int outset_open(struct outset *o, const char *dir, const char *const *names, int n,
		size_t buffer);
/*
 * Closes them; unless failed (or a write failed), renames each into place,
 * else removes them. 0, or -1 with one line on stderr.
 */
int outset_commit(struct outset *o, int failed);

#endif
