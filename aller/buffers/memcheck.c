/* memcheck.c: see memcheck.h. */
#include "memcheck.h"

#include <stdio.h>
#include <string.h>

double memcheck_need(long longs, int sharers)
{
	return 2.0 * (double)longs * (double)sizeof(long) * (double)sharers;
}

static double gib(double bytes)
{
	return bytes / (1024.0 * 1024.0 * 1024.0);
}

int memcheck(long longs, int sharers, double available, const char *what, const char *host,
	     char *err, size_t errlen)
{
	double need = memcheck_need(longs, sharers);

	if (available < 0 || need <= available)
		return 0;
	snprintf(err, errlen, "the buffers do not fit: %d rank%s on %s need %.2f GiB (2 x %ld "
		 "longs each), %s has %.2f GiB available: use a smaller LONGS or fewer ranks "
		 "per %s", sharers, sharers == 1 ? "" : "s", host, gib(need), longs, what,
		 gib(available), strncmp(what, "CUDA", 4) == 0 ? "device" : "node");
	return -1;
}

double memcheck_meminfo(const char *text)
{
	const char *p = strstr(text, "MemAvailable:");
	double kib;

	if (!p || sscanf(p + strlen("MemAvailable:"), "%lf", &kib) != 1)
		return -1;
	return kib * 1024.0;
}
