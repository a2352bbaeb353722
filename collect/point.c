/* point.c: see point.h. */
#include "point.h"

#include <stdlib.h>
#include <string.h>

void point_release(struct point *p)
{
	free(p->path);
	free(p->campaign);
	free(p->mode);
	free(p->tpn);
	free(p->buffers);
	free(p->mpi);
	free(p->job);
	free(p->start);
	free(p->reveal);
	memset(p, 0, sizeof(*p));
}

enum point_state point_state(const struct point *p)
{
	if (p->exit_code > 0 || (p->nrows == 0 && !p->done))
		return POINT_FAILED;
	if (p->done && !p->marked_incomplete)
		return POINT_COMPLETE;
	return POINT_INCOMPLETE;
}

const char *point_state_name(enum point_state s)
{
	return s == POINT_COMPLETE ? "complete" : s == POINT_INCOMPLETE ? "incomplete" : "failed";
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* Job ids compare as numbers ("123_4" array ids: by the leading number). */
static int cmp_job(const char *a, const char *b)
{
	long x = a ? strtol(a, NULL, 10) : -1, y = b ? strtol(b, NULL, 10) : -1;
	return x < y ? -1 : x > y ? 1 : cmp_str(a, b);
}

int point_newer(const struct point *a, const struct point *b)
{
	static const int rank[] = { [POINT_COMPLETE] = 2, [POINT_INCOMPLETE] = 1, [POINT_FAILED] = 0 };
	int ra = rank[point_state(a)], rb = rank[point_state(b)], c;

	if (ra != rb)
		return ra > rb;
	if ((c = cmp_str(a->start, b->start)) != 0)
		return c > 0;
	if ((c = cmp_job(a->job, b->job)) != 0)
		return c > 0;
	if (a->restart != b->restart)
		return a->restart > b->restart;
	return cmp_str(a->path, b->path) > 0;
}
