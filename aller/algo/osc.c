/* osc.c: see osc.h. */
#include "osc.h"

#include <string.h>

const char *osc_choice(const char *env, int ompi_major)
{
	return ompi_major > 0 && ompi_major < 5 && (!env || !*env) ? "pt2pt" : NULL;
}

/* Whether the comma-separated list names `name`. */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p += len;
		p += *p == ',';
	}
	return 0;
}

int osc_rdma_possible(const char *env, int ompi_major)
{
	if (ompi_major <= 0 || ompi_major >= 5)
		return 0;
	if (!env || !*env)
		return 1;
	if (*env == '^')
		return !listed(env + 1, "rdma");
	return listed(env, "rdma");
}
