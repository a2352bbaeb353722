/* state.h: 'collect --state FILE...': each point file's state, for the campaign scripts. */
#ifndef COLLECT_STATE_H
#define COLLECT_STATE_H

/*
 * Prints "STATE<TAB>REASON<TAB>FILE" per file: complete, incomplete, failed
 * (point.h has the rules) or missing; REASON is "-" for a complete point.
 * With --points first (files or directories): per point key, a file's
 * '# point:' line, "KEY<TAB>STATE<TAB>REASON<TAB>FILE<TAB>FILES<TAB>RETRIED"
 * (state_points_each's). Returns 0,
 * 2 when no file is given or one cannot be listed, 3 out of memory.
 */
int state_main(int nfiles, char **files);

/*
 * --state --points' rows: per point key (a file's '# point:'; files without
 * one skipped), the state and reason of the file a merge takes
 * (point_newer), that file, how many files the key has, and how its job's
 * earlier attempts ended ("attempt 1: failed: ...; ...", or "-"), each to
 * fn. Returns 0, 2 when a path cannot be listed, 3 out of memory.
 */
typedef void (*state_point_fn)(void *ctx, const char *key, const char *state, const char *reason,
			       const char *file, long files, const char *retried);
int state_points_each(int nargs, char **args, state_point_fn fn, void *ctx);

#endif
