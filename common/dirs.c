/* dirs.c: see dirs.h. */
#include "dirs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int dirs_make(const char *path)
{
	char tmp[4096];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(tmp)) {
		errno = n ? ENAMETOOLONG : ENOENT;
		return -1;
	}
	memcpy(tmp, path, n + 1);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/*
 * One step of the way to a safe directory (dirs_safe), lstat'ed when the way
 * is as given (a link of it must be root's or the user's own: another user
 * could point it elsewhere), stat'ed when it is resolved; last: the
 * directory itself.
 */
static int step_ok(const char *dir, int last, int as_given, char *err, size_t errlen)
{
	struct stat st;

	if ((as_given ? lstat(dir, &st) : stat(dir, &st)) != 0) {
		snprintf(err, errlen, "cannot read '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(err, errlen, "'%s' belongs to another user (uid %ld): it could swap what is "
			 "%s", dir, (long)st.st_uid, S_ISLNK(st.st_mode) ? "behind it" : "in it");
		return -1;
	}
	if (!S_ISLNK(st.st_mode) && (st.st_mode & 022) && (last || !(st.st_mode & S_ISVTX))) {
		if (last)
			snprintf(err, errlen, "'%s' is writable by %s (mode %04o): another user could plant "
				 "a link in it; write into a directory of your own in it (mkdir -m 755 ...)",
				 dir, (st.st_mode & 002) ? "everyone" : "its group", (unsigned)(st.st_mode & 07777));
		else
			snprintf(err, errlen, "'%s' is writable by %s and not sticky (mode %04o): another user "
				 "could move the directories in it; write under directories only you or root "
				 "can change (a sticky one, chmod +t, is fine above)", dir,
				 (st.st_mode & 002) ? "everyone" : "its group", (unsigned)(st.st_mode & 07777));
		return -1;
	}
	return 0;
}

static int dirs_safe_as(const char *path, int strict, char *err, size_t errlen);

/* Every step of an absolute path, its prefixes "/", "/a", "/a/b" (step_ok); strict: the last as a directory to write into. */
static int walk(char *path, int as_given, int strict, char *err, size_t errlen)
{
	int rc = step_ok("/", strict && path[1] == '\0', as_given, err, errlen);

	for (size_t i = 1; path[i - 1] && rc == 0; i++) {
		char c = path[i];
		if ((c != '/' && c != '\0') || path[i - 1] == '/')
			continue;
		path[i] = '\0';
		rc = step_ok(path, strict && (c == '\0' || (c == '/' && path[i + 1] == '\0')), as_given, err,
			     errlen);
		path[i] = c;
	}
	return rc;
}

int dirs_safe(const char *path, char *err, size_t errlen)
{
	return dirs_safe_as(path, 1, err, errlen);
}

int dirs_safe_to_make(const char *path, char *err, size_t errlen)
{
	char up[4096];
	struct stat st;
	char *slash;

	if (lstat(path, &st) == 0 || errno != ENOENT)
		return dirs_safe(path, err, errlen);
	/* the nearest directory that is there, as a place to make one in */
	snprintf(up, sizeof(up), "%s", path);
	while ((slash = strrchr(up, '/')) && slash != up) {
		*slash = '\0';
		if (lstat(up, &st) == 0)
			return dirs_safe_as(up, 0, err, errlen);
	}
	return dirs_safe_as(slash ? "/" : ".", 0, err, errlen);
}

static int dirs_safe_as(const char *path, int strict, char *err, size_t errlen)
{
	char given[4096], *real;
	int rc;

	if (path[0] != '/') {   /* as given, from the working directory */
		size_t n;
		if (!getcwd(given, sizeof(given)) || (n = strlen(given)) + strlen(path) + 2 > sizeof(given)) {
			snprintf(err, errlen, "cannot resolve '%s': %s", path, strerror(errno ? errno : ENAMETOOLONG));
			return -1;
		}
		snprintf(given + n, sizeof(given) - n, "/%s", path);
	} else if (snprintf(given, sizeof(given), "%s", path) >= (int)sizeof(given)) {
		snprintf(err, errlen, "'%.200s...': too long a name", path);
		return -1;
	}
	if (!(real = realpath(path, NULL))) {
		snprintf(err, errlen, "cannot resolve '%s': %s", path, strerror(errno));
		return -1;
	}
	rc = walk(given, 1, strict, err, errlen) != 0 || walk(real, 0, strict, err, errlen) != 0 ? -1 : 0;
	free(real);
	return rc;
}
