/* replace.c: see replace.h. */
#include "replace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dirs.h"

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* Is st the file that descriptor fd writes to? */
static int same_as_fd(const struct stat *st, int fd)
{
	struct stat s;

	return fstat(fd, &s) == 0 && S_ISREG(s.st_mode) && s.st_dev == st->st_dev &&
	       s.st_ino == st->st_ino;
}

/* Does the file begin with magic (or hold nothing)? */
static int begins_with(const char *path, const char *magic)
{
	size_t n = strlen(magic);
	char buf[128];
	FILE *f = fopen(path, "r");
	size_t got;

	if (!f)
		return 0;
	got = fread(buf, 1, n < sizeof(buf) ? n : sizeof(buf), f);
	fclose(f);
	return got == 0 || (got == n && memcmp(buf, magic, n) == 0);
}

static int check(const char *shown, const char *path, const char *magic, char *err,
		 size_t errlen)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "cannot write '%s': %s", shown, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "'%s' is %s: allowed is a regular file or a new name", shown,
			 kind_of(st.st_mode));
		return -1;
	}
	if (same_as_fd(&st, STDOUT_FILENO) || same_as_fd(&st, STDERR_FILENO)) {
		snprintf(err, errlen,
			 "'%s' is the file standard %s goes to: writing it would replace that output",
			 shown, same_as_fd(&st, STDOUT_FILENO) ? "output" : "error");
		return -1;
	}
	if (magic && !begins_with(path, magic)) {
		snprintf(err, errlen, "'%s' holds something else than this kind of file (it does not "
			 "begin with '%s'): not replaced; name a new file or remove it", shown, magic);
		return -1;
	}
	return 0;
}

int replace_target(const char *path, const char *magic, char *resolved, size_t len, char *err,
		   size_t errlen)
{
	struct stat st;
	char *real;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (st.st_uid != geteuid()) {   /* one planted in a shared directory */
			snprintf(err, errlen, "'%s' is a symbolic link of another user (uid %ld): not "
				 "followed; remove it or name another file", path, (long)st.st_uid);
			return -1;
		}
		if (!(real = realpath(path, NULL))) {
			snprintf(err, errlen, "'%s' is a symbolic link to nothing (%s)", path,
				 strerror(errno));
			return -1;
		}
		if (strlen(real) >= len) {
			snprintf(err, errlen, "'%s': the file it links to has too long a name", path);
			free(real);
			return -1;
		}
		snprintf(resolved, len, "%s", real);
		free(real);
	} else if (strlen(path) >= len) {
		snprintf(err, errlen, "'%s': too long a name", path);
		return -1;
	} else {
		snprintf(resolved, len, "%s", path);
	}
	char dir[4096], *slash;   /* where it goes: its directory, held to dirs_safe */
	snprintf(dir, sizeof(dir), "%s", resolved);
	if ((slash = strrchr(dir, '/')))
		slash[slash == dir] = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	return replace_dir(dir, 0, err, errlen) || check(path, resolved, magic, err, errlen) ? -1 : 0;
}

int replace_dir(const char *dir, int make, char *err, size_t errlen)
{
	char why[4096];

	if (make && dirs_make(dir) != 0) {
		snprintf(err, errlen, "cannot create the output directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (dirs_safe(dir, why, sizeof(why)) == 0 || (!make && access(dir, F_OK) != 0))
		return 0;   /* (none there: what writes in it says so) */
	snprintf(err, errlen, "not writing into '%s': %s", dir, why);
	return -1;
}

int replace_commit(FILE *f, const char *tmp, const char *target, const char *magic, char *err,
		   size_t errlen)
{
	int bad = f && (ferror(f) | (fclose(f) != 0));

	if (bad)
		snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno ? errno : EIO));
	if (bad || check(target, target, magic, err, errlen) != 0) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, target) != 0) {
		snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, target, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

FILE *replace_create(const char *tmp, const char *what, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	int fd;

	if (lstat(tmp, &st) == 0) {
		if (!S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
			snprintf(err, errlen, "cannot write %s'%s': it is %s%s, in the way: not written "
				 "through; remove it", what, tmp, S_ISLNK(st.st_mode) ? "a symbolic link"
				 : S_ISREG(st.st_mode) ? "a file" : kind_of(st.st_mode),
				 st.st_uid != geteuid() ? " of another user" : "");
			return NULL;
		}
		unlink(tmp);   /* an earlier run's, cut short */
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "cannot write %s'%s': %s", what, tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return f;
}

/* DIR/NAME, links resolved, into target[4096], and its part beside it into part[4200]; 0 or -1 said. */
static int dir_target(const char *dir, const char *name, char *target, char *part, char *err,
		      size_t errlen)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (replace_target(path, NULL, target, 4096, err, errlen) != 0)
		return -1;
	snprintf(part, 4200, "%s.part", target);
	return 0;
}

/* DIR/NAME.part, written, then renamed; 0 or -1 with a message. */
int replace_close(FILE *f, const char *dir, const char *name, char *err, size_t errlen)
{
	char part[4200], target[4096];

	if (dir_target(dir, name, target, part, err, errlen) == 0)
		return replace_commit(f, part, target, NULL, err, errlen);
	fclose(f);
	return -1;
}

FILE *replace_open(const char *dir, const char *name, char *err, size_t errlen)
{
	char part[4200], target[4096];

	return dir_target(dir, name, target, part, err, errlen) ? NULL
							      : replace_create(part, "", err, errlen);
}
