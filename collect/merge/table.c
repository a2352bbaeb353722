/* table.c: see table.h. */
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text.h"

int table_split(char *s, char **f, int max)
{
	int n = 0;

	s[strcspn(s, "\r\n")] = '\0';
	while (n < max) {
		char *w = s;
		if (*s == '"') {
			f[n++] = w = ++s;
			while (*s && !(*s == '"' && s[1] != '"')) {
				if (*s == '"')
					s++;
				*w++ = *s++;
			}
			if (*s)
				s++;
		} else {
			f[n++] = s;
			s += strcspn(s, ",");
			w = s;
		}
		if (*s != ',') {
			*w = '\0';
			return n;
		}
		*w = '\0';
		s++;
	}
	return n;
}

/* The index of each wanted column name in a header's fields, -1 when absent. */
static void columns(char **f, int n, const char *const *want, int *at, int nwant)
{
	for (int i = 0; i < nwant; i++) {
		at[i] = -1;
		for (int k = 0; k < n; k++)
			if (strcmp(f[k], want[i]) == 0)
				at[i] = k;
	}
}

double table_num(char **f, int n, int at)
{
	char *end;
	double v;

	if (at < 0 || at >= n || !*f[at])
		return NAN;
	v = strtod(f[at], &end);
	return *end ? NAN : v;
}

long table_long(char **f, int n, int at)
{
	double v = table_num(f, n, at);

	return v >= -0x1p63 && v < 0x1p63 ? (long)v : -1;
}

void table_copy(char *dst, size_t len, char **f, int n, int at)
{
	snprintf(dst, len, "%s", at >= 0 && at < n ? f[at] : "");
}

const char *table_csv(char *dst, size_t len, const char *s)
{
	size_t at = 0;

	if (!strpbrk(s, ",\"\r\n")) {
		snprintf(dst, len, "%s", s);
		return dst;
	}
	if (len < 3)
		return len ? (dst[0] = '\0', dst) : dst;
	dst[at++] = '"';
	for (; *s && at + 3 < len; s++) {
		if (*s == '"')
			dst[at++] = '"';
		dst[at++] = *s;
	}
	dst[at++] = '"';
	dst[at] = '\0';
	return dst;
}

FILE *table_open(const char *dir, const char *name, char *line, size_t len,
			const char *const *want, int *at, int nwant)
{
	char path[4096], *f[TABLE_FIELDS];
	struct stat st;
	FILE *in;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))   /* a FIFO would block */
		return NULL;
	if (!(in = fopen(path, "r")))
		return NULL;
	if (!fgets(line, (int)len, in)) {
		fclose(in);
		return NULL;
	}
	columns(f, table_split(line, f, TABLE_FIELDS), want, at, nwant);
	return in;
}


int table_start(const char *source, char *buf, size_t len)
{
	char line[512];
	int rc = -1;
	FILE *f = source && source[0] ? fopen(source, "r") : NULL;

	for (int i = 0; f && i < 400 && fgets(line, sizeof(line), f); i++) {
		if (strncmp(line, "# start: ", 9) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%.*s", (int)(len - 1), line + 9);
			rc = 0;
			break;
		}
		if (line[0] != '#' && line[0] != '\n')
			break;   /* the header is over */
	}
	if (f)
		fclose(f);
	return rc;
}

/* One --pairs output's slow links (table_slow_links). */
static long file_links(const char *file, long point, table_link_fn *each, void *ctx)
{
	char line[4096], since[32] = "", campaign[128] = "";
	long n = 0;
	FILE *f = fopen(file, "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "# start: ", 9) == 0)
			snprintf(since, sizeof(since), "%.31s", line + 9);
		else if (strncmp(line, "# campaign: ", 12) == 0)
			snprintf(campaign, sizeof(campaign), "%.127s", line + 12);
		else if (strncmp(line, "# slow_link: ", 13) == 0) {
			if (each)
				each(ctx, line + 13, since, campaign, point);
			n++;
		}
	}
	if (f)
		fclose(f);
	return n;
}

long table_slow_links(const char *dir, table_link_fn *each, void *ctx)
{
	char path[4096], line[4096], file[4096];
	long n = 0;
	FILE *tsv;

	snprintf(path, sizeof(path), "%s/pairs.tsv", dir);
	if (!(tsv = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), tsv)) {
		long point = -1;
		if (sscanf(line, "%4095[^\t]\t%*s\t%*s\t%ld", file, &point) >= 1 && strcmp(file, "file")) {
			text_tsv_decode(file);
			n += file_links(file, point, each, ctx);
		}
	}
	fclose(tsv);
	return n;
}
