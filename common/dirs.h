/*
 * dirs.h: "mkdir -p", shared by aller (reveal matrices) and collect (its -o
 * DIR), and whether a directory is safe to write into.
 */
#ifndef ALLER_DIRS_H
#define ALLER_DIRS_H

#include <stddef.h>

/* Creates path and its missing parents. 0, or -1 with errno set. */
int dirs_make(const char *path);

/*
 * Whether no other user can plant a name in path or swap a directory on
 * the way to it (OpenSSH's safe_path; docs/security.md): path's
 * directories, links resolved, each owned by root or the effective user;
 * path itself writable by no one else (no group or other write bit); a
 * directory above it writable by others only with the sticky bit (as /tmp:
 * a name in it cannot be removed or renamed by another user). 0, or -1 with
 * a one-line reason in err ("'/x' is writable by its group (mode 2775): ...").
 */
int dirs_safe(const char *path, char *err, size_t errlen);
/*
 * The same for a directory about to be made: when path is not there yet,
 * whether its nearest directory that is can be made into (a sticky one
 * writable by everyone, as /tmp, can); dirs_safe again once it is made.
 */
int dirs_safe_to_make(const char *path, char *err, size_t errlen);

#endif
