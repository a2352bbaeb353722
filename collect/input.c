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

#include "parse.h"

#define CHUNK (256 * 1024)

int input_lines(const char *path, input_line_fn line, input_long_fn longline, void *ctx,
		char *err, size_t errlen)
{
	static char buf[PARSE_MAX_LINE + CHUNK];
	size_t have = 0, skipping = 0;
	int fd = open(path, O_RDONLY);
	int stop = 0;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	while (!stop) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - have);
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

static int add_path(struct filelist *l, const char *path)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		char **p = realloc(l->paths, cap * sizeof(*p));
		if (!p)
			return -1;
		l->paths = p;
		l->cap = cap;
	}
	if (!(l->paths[l->n] = strdup(path)))
		return -1;
	l->n++;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int input_add(struct filelist *l, const char *path, char *err, size_t errlen)
{
	struct stat st;
	struct dirent *e;
	size_t first = l->n;
	DIR *d;

	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return add_path(l, path) == 0 ? 0 : (snprintf(err, errlen, "out of memory"), -1);
	if (!(d = opendir(path))) {
		snprintf(err, errlen, "cannot open directory '%s': %s", path, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char full[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(full, sizeof(full), "%s/%s", path, e->d_name);
		if (stat(full, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (add_path(l, full) != 0) {
			closedir(d);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	closedir(d);
	qsort(l->paths + first, l->n - first, sizeof(char *), cmp_name);
	return 0;
}

void filelist_release(struct filelist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	memset(l, 0, sizeof(*l));
}
