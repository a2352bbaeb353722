/* splits.c: see splits.h. */
#include "splits.h"

#include <stdlib.h>
#include <string.h>

static char *names[SPLITS_MAX + 1];
static int n = 1;

int splits_id(const char *name, size_t len)
{
	if (len == strlen(SPLITS_UNIFORM) && memcmp(name, SPLITS_UNIFORM, len) == 0)
		return 0;
	for (int i = 1; i < n; i++)
		if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
			return i;
	if (n > SPLITS_MAX || !(names[n] = malloc(len + 1)))
		return -1;
	memcpy(names[n], name, len);
	names[n][len] = '\0';
	return n++;
}

const char *splits_name(int id)
{
	return id == 0 ? SPLITS_UNIFORM : id > 0 && id < n ? names[id] : "?";
}
