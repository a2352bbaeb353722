/*
 * replace.h: a result file written whole or not at all, by a temporary
 * beside it renamed over it, and never over what is not a result file: the
 * one check every writer by rename (aller's --json, --samples and --reveal
 * matrices; collect's outputs and findings) makes before it starts and
 * again before it renames.
 *
 * A target may be absent or a regular file. A symbolic link of the user's
 * own is followed (the file it names is replaced, the link kept); another
 * user's (one planted in a shared directory) is refused, as are a dangling
 * one, a
 * directory, a device, a FIFO or a socket is refused, and so is the file
 * standard output or standard error goes to (`--json=o.txt > o.txt` would
 * replace the text). Under a launcher (mpirun, srun) a task's standard
 * output is a pipe, not that file: a writer that knows how its files begin
 * passes that as magic, and an existing file that is not empty and begins
 * otherwise (the text output, anybody's file) is refused too.
 */
#ifndef COMMON_REPLACE_H
#define COMMON_REPLACE_H

#include <stddef.h>
#include <stdio.h>

/* dir (made first when make) held to dirs.h's dirs_safe; 0, or -1 with "not writing into 'DIR': why". */
int replace_dir(const char *dir, int make, char *err, size_t errlen);
/*
 * Resolves path (its links) into resolved[len] and checks it as a target
 * (magic: how a file it may replace begins, or NULL), its directory held
 * to replace_dir's rule;
 * 0, or -1 with a one-line reason in err ("'PATH' is a directory: ...").
 */
int replace_target(const char *path, const char *magic, char *resolved, size_t len, char *err,
		   size_t errlen);
/*
 * f, tmp's stream, closed (NULL: closed already) and, when every write
 * went, tmp renamed over target (a resolved path) after checking it again;
 * 0, or -1 with a reason in err (tmp is then removed).
 */
int replace_commit(FILE *f, const char *tmp, const char *target, const char *magic, char *err,
		   size_t errlen);

/*
 * The temporary tmp created for writing: a new file (O_EXCL), never through
 * a link (O_NOFOLLOW); a stale one of the user's own (a regular file, an
 * earlier run's cut short) removed first, anything else in the way refused.
 * NULL with a message, "cannot write WHAT'TMP': ..." (what: "" or the
 * file's kind, "--json file ").
 */
FILE *replace_create(const char *tmp, const char *what, char *err, size_t errlen);
/* DIR/NAME.part opened for writing (DIR/NAME checked as a target); NULL with a message. */
FILE *replace_open(const char *dir, const char *name, char *err, size_t errlen);
/* ... closed and renamed over DIR/NAME; 0, or -1 with a message (and the part removed). */
int replace_close(FILE *f, const char *dir, const char *name, char *err, size_t errlen);

#endif
