/* input.c: see input.h. */
#include "input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "parse.h"
#include "text.h"

#define CHUNK (256 * 1024)

int input_lines(const char *path, input_line_fn line, input_long_fn longline, void *ctx,
		char *err, size_t errlen)
{
	static char buf[PARSE_MAX_LINE + CHUNK];
	size_t have = 0, skipping = 0;
	int fd = text_open(path, TEXT_RAW, err, errlen);
	int stop = 0;

	if (fd < 0)
		return -1;
	/* a small first read: the header pass stops after a few KiB */
	for (size_t want = 4096; !stop; want = sizeof(buf)) {
		ssize_t n = read(fd, buf + have, (want < sizeof(buf) ? want : sizeof(buf)) - have);
		size_t start = 0;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		have += (size_t)n;
		while (!stop) {
			char *nl = memchr(buf + start, '\n', have - start);
			if (!nl)
				break;
			size_t len = (size_t)(nl - (buf + start));
			if (skipping) {
				longline(ctx, skipping + len);
				skipping = 0;
			} else {
				stop = line(ctx, buf + start, len, 1);
			}
			start += len + 1;
		}
		/* keep the partial line; a too long one is skipped */
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have >= PARSE_MAX_LINE) {
			skipping += have;
			have = 0;
		}
	}
	if (!stop) {
		if (skipping)
			longline(ctx, skipping + have);
		else if (have > 0)
			line(ctx, buf, have, 0);
	}
	close(fd);
	return 0;
}

static int push(char ***v, size_t *n, size_t *cap, const char *s)
{
	if (*n == *cap) {
		char **p = grow(*v, cap, *n + 1, sizeof(*p), 64);
		if (!p)
			return -1;
		*v = p;
	}
	if (!((*v)[*n] = strdup(s)))
		return -1;
	(*n)++;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Why a directory entry is not read, or NULL when it is a readable regular file. */
static const char *not_read(const char *full)
{
	struct stat st, lst;

	if (stat(full, &st) != 0) {
		if (errno == ELOOP)
			return "a loop of symbolic links";
		if (errno == ENOENT && lstat(full, &lst) == 0 && S_ISLNK(lst.st_mode))
			return "a dangling symbolic link";
		return strerror(errno);
	}
	if (S_ISDIR(st.st_mode))
		return "a directory (collect does not descend into directories)";
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (access(full, R_OK) != 0)
		return "unreadable";
	return NULL;
}

int input_add(struct filelist *l, const char *path, char *err, size_t errlen)
{
	struct stat st;
	struct dirent *e;
	size_t first = l->n, first_skipped = l->nskipped;
	DIR *d;

	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a regular file or a directory (a FIFO, a device, a "
			 "socket): collect reads outputs from files and directories", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (push(&l->paths, &l->n, &l->cap, path) == 0)
			return 0;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!(d = opendir(path))) {
		snprintf(err, errlen, "cannot open directory '%s': %s", path, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char full[4096], why[4200];
		const char *no;
		int rc;
		if (e->d_name[0] == '.')
			continue;
		snprintf(full, sizeof(full), "%s/%s", path, e->d_name);
		no = not_read(full);
		if (no) {
			snprintf(why, sizeof(why), "%s\t%s", full, no);
			rc = push(&l->skipped, &l->nskipped, &l->skipcap, why);
		} else {
			rc = push(&l->paths, &l->n, &l->cap, full);
		}
		if (rc != 0) {
			closedir(d);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	closedir(d);
	if (l->n == first)
		l->empty_dir = path;
	if (l->n > first)
		qsort(l->paths + first, l->n - first, sizeof(char *), cmp_name);
	if (l->nskipped > first_skipped)
		qsort(l->skipped + first_skipped, l->nskipped - first_skipped, sizeof(char *),
		      cmp_name);
	return 0;
}

void filelist_release(struct filelist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	for (size_t i = 0; i < l->nskipped; i++)
		free(l->skipped[i]);
	free(l->skipped);
	memset(l, 0, sizeof(*l));
}
