/* dirs.c: see dirs.h. */
#include "dirs.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

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
