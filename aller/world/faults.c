/* faults.c: see faults.h. Pure: no MPI. */
#include "faults.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

/* A variable naming a world rank ("R", "R:..."), or -1. */
static long rank_of(const char *s)
{
	char r[32];
	long v;

	snprintf(r, sizeof(r), "%.*s", s ? (int)strcspn(s, ":") : 0, s ? s : "");
	return parse_long(r, 0, LONG_MAX, &v) == 0 ? v : -1;
}

/* The number after RANK:, or def. */
static long after_colon(const char *s, long def)
{
	const char *c = s ? strchr(s, ':') : NULL;

	return c && c[1] ? strtol(c + 1, NULL, 10) : def;
}

void faults_parse(struct faults *f, const char *(*get)(const char *name))
{
	const char *slow = get("ALLER_TEST_SLOW"), *die = get("ALLER_TEST_DIE");
	const char *mem = get("ALLER_TEST_MEMAVAIL"), *delay = get("ALLER_TEST_DELAY");
	const char *stub = get("ALLER_TEST_NCCL_STUB"), *stall = get("ALLER_TEST_STALL");
	const char *pair = get("ALLER_TEST_SLOW_PAIR"), *mpi = get("ALLER_TEST_MPI_ERROR");
	const char *c;

	memset(f, 0, sizeof(*f));
	f->corrupt_rank = rank_of(get("ALLER_TEST_CORRUPT"));
	f->hang_rank = rank_of(get("ALLER_TEST_HANG"));
	f->stale_rank = rank_of(get("ALLER_TEST_STALE"));
	f->slow_rank = rank_of(slow);
	f->slow_us = after_colon(slow, 1000);
	if (slow && (c = strchr(slow, ':')) != NULL) {
		f->slow_busy = strstr(c + 1, ":busy") != NULL;
		f->slow_together = strstr(c + 1, ":together") != NULL;
	}
	f->slow_iter = slow && (c = strstr(slow, ":iter=")) != NULL ? strtol(c + 6, NULL, 10) : -1;
	f->slow_check_rank = rank_of(get("ALLER_TEST_SLOW_CHECK"));
	f->slow_check_us = after_colon(get("ALLER_TEST_SLOW_CHECK"), 100000);
	f->stall_iter = rank_of(stall);
	f->stall_us = after_colon(stall, 1000);
	f->trace = get("ALLER_TEST_TRACE") != NULL;
	f->die_rank = rank_of(die);
	f->die_upto = after_colon(die, 1000000);
	f->buffer_fail_rank = rank_of(get("ALLER_TEST_BUFFER_FAIL"));
	f->memavail = mem && *mem ? strtod(mem, NULL) : -1;
	f->delay_rank = rank_of(delay);
	f->delay_us = 1000 * after_colon(delay, 50);
	f->nccl_stub = stub && *stub && strcmp(stub, "0") != 0;
	f->nccl_trace = stub && strcmp(stub, "trace") == 0;
	f->pair_src = rank_of(pair);
	f->pair_dst = after_colon(pair, -1);
	c = pair ? strchr(pair, ':') : NULL;
	f->pair_us = c ? after_colon(c + 1, 20000) : 20000;
	if (f->pair_dst < 0)
		f->pair_src = -1;
	f->mpi_error_rank = rank_of(mpi);
	f->mpi_error_where = mpi && strchr(mpi, ':') ? strchr(mpi, ':') + 1 : "";
	c = get("ALLER_TEST_MOE_CORRUPT");
	f->moe_corrupt = !c ? 0 : strcmp(c, "counts") == 0 ? 1 : strcmp(c, "combine") == 0 ? 2 : 0;
	f->sysfs = get("ALLER_TEST_SYSFS") && *get("ALLER_TEST_SYSFS") ? get("ALLER_TEST_SYSFS")
									   : "/sys";
	f->proc = get("ALLER_TEST_PROC") && *get("ALLER_TEST_PROC") ? get("ALLER_TEST_PROC") : "/proc";
}

static const char *from_env(const char *name)
{
	return getenv(name);
}

const struct faults *faults(void)
{
	static struct faults f;
	static int parsed;

	if (!parsed) {
		faults_parse(&f, from_env);
		parsed = 1;
	}
	return &f;
}
