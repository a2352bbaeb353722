/* bytes.c: see bytes.h. */
#include "bytes.h"

#include <stdio.h>

void format_bytes(char *buf, size_t len, long bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	int u = 0;

	while (u < 6 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%ld %s", bytes, unit[u]);
}
