/* memcheck.c: see memcheck.h. */
#include "memcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"

double memcheck_need(long longs, int sharers, double state)
{
	return (2.0 * (double)longs * (double)sizeof(long) + state) * (double)sharers;
}

static double gib(double bytes)
{
	return bytes / (1024.0 * 1024.0 * 1024.0);
}

int memcheck(long longs, int sharers, double state, double available, const char *what,
	     const char *host, char *err, size_t errlen)
{
	double need = memcheck_need(longs, sharers, state);
	char own[96] = "";

	if (available < 0 || need <= available)
		return 0;
	if (state >= 1024.0 * 1024.0)
		snprintf(own, sizeof(own), ", and %.0f MiB of aller's own state each",
			 state / (1024.0 * 1024.0));
	snprintf(err, errlen, "the buffers do not fit: %d rank%s on %s need %.2f GiB (2 x %ld "
		 "longs each%s), %s has %.2f GiB available: use a smaller LONGS or fewer ranks "
		 "per %s", sharers, sharers == 1 ? "" : "s", host, gib(need), longs, own, what,
		 gib(available), strncmp(what, "CUDA", 4) == 0 ? "device" : "node");
	return -1;
}

/* The first line of root/index<i>/<name>, without its newline; 0 or -1. */
static int sysfs_word(const char *root, int i, const char *name, char *buf, size_t len)
{
	char path[1024];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/index%d/%s", root, i, name);
	if (!(f = fopen(path, "r")))
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

long memcheck_llc(const char *root, int *level)
{
	long best = -1;

	*level = 0;
	for (int i = 0; i < 16; i++) {
		char lv[32], type[32], size[32];
		long l, v;
		if (sysfs_word(root, i, "level", lv, sizeof(lv)) != 0 ||
		    sysfs_word(root, i, "type", type, sizeof(type)) != 0 ||
		    sysfs_word(root, i, "size", size, sizeof(size)) != 0 ||
		    strcmp(type, "Instruction") == 0 || parse_long(lv, 0, 16, &l) != 0 || parse_bytes(size, &v) != 0)
			continue;
		if (l >= *level) {
			*level = (int)l;
			best = v;
		}
	}
	return best;
}

long memcheck_llc_any(const char *root, int *level, long (*sys)(int name), const char **from)
{
	static const int names[][2] = { { _SC_LEVEL3_CACHE_SIZE, 3 }, { _SC_LEVEL2_CACHE_SIZE, 2 } };
	long v = memcheck_llc(root, level);

	*from = "sysfs";
	for (size_t i = 0; v <= 0 && i < sizeof(names) / sizeof(names[0]); i++)
		if ((v = sys(names[i][0])) > 0) {
			*level = names[i][1];
			*from = "sysconf";
		}
	return v > 0 ? v : -1;
}

double memcheck_meminfo(const char *text)
{
	const char *p = strstr(text, "MemAvailable:");
	double kib;

	if (!p || sscanf(p + strlen("MemAvailable:"), "%lf", &kib) != 1)
		return -1;
	return kib * 1024.0;
}
