/* options.c: aller's command line: [MODE] [ITERS] [LONGS] and GNU long options. */
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: aller [OPTIONS] [MODE] [ITERS] [LONGS]\n"
	"\n"
	"Runs MPI_Alltoall concurrently on all subcommunicators of a partition of\n"
	"MPI_COMM_WORLD, for communicator sizes world..1 (halving) and per-peer\n"
	"counts max..1 (halving), and prints gnuplot-ready blocks of statistics.\n"
	"\n"
	"  MODE   's...' or 'S...': strided groups (rank % comms); anything else:\n"
	"         contiguous blocks of ranks (default)\n"
	"  ITERS  timed iterations per count, plus one warm-up; <= 0: 3\n"
	"  LONGS  per-task send (and receive) buffer size in longs; <= 0: 134217728\n"
	"         (1 GiB); at most 2^60\n"
	"\n"
	"  --buffers=host|cuda  where the buffers live (default host; cuda needs a\n"
	"                       build with CUDA=1 and a CUDA-aware MPI)\n"
	"  --no-verify          do not check the received data\n"
	"  --timeout=SECONDS    end the job when one call takes longer (1..604800)\n"
	"  --reveal[=TIER]      show what MPI sends inside each call, through MPI_T:\n"
	"                       auto (default), coll, pml, generic or queues; the\n"
	"                       run is marked instrumented (README: Reveal)\n"
	"  --reveal-dir=DIR     where the traffic matrices go (default\n"
	"                       $ALLER_REVEAL_DIR, else aller-reveal-JOB.STEP\n"
	"                       under Slurm, else aller-reveal-PID)\n"
	"  --version            print the version and exit\n"
	"  --help               print this help and exit\n"
	"\n"
	"Exit status: 0 ok, 1 verification failed, 2 usage error,\n"
	"3 system, MPI or CUDA error.\n";

const char *options_usage(void)
{
	return usage;
}

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->iters = OPTIONS_DEFAULT_ITERS;
	o->longs = OPTIONS_DEFAULT_LONGS;
	o->verify = 1;
	o->buffers = BUFFERS_HOST;
}

/* Decimal integer, whole string; 0 ok, -1 not a number, -2 out of long's range. */
static int parse_long(const char *s, long *out)
{
	char *end;
	long v;

	if (*s == '\0' || !(*s == '-' || *s == '+' || (*s >= '0' && *s <= '9')))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0')
		return -1;
	if (errno == ERANGE)
		return -2;
	*out = v;
	return 0;
}

/* A positional count: <= 0 means default, else at most max. */
static int parse_count(const char *what, const char *s, long def, long max,
		       long *out, char *err, size_t errlen)
{
	long v;
	int rc = parse_long(s, &v);

	if (rc == -1) {
		snprintf(err, errlen, "cannot parse %s '%s': expected an integer "
			 "(<= 0 for the default %ld, at most %ld)", what, s, def, max);
		return -1;
	}
	if (rc == -2 || v > max) {
		snprintf(err, errlen, "%s '%s' is out of range: allowed are "
			 "1..%ld, or <= 0 for the default %ld", what, s, max, def);
		return -1;
	}
	*out = v <= 0 ? def : v;
	return 0;
}

static int looks_numeric(const char *s)
{
	long v;
	return parse_long(s, &v) != -1;
}

static int parse_option(struct options *o, const char *arg, char *err, size_t errlen)
{
	const char *val = strchr(arg, '=');
	size_t namelen = val ? (size_t)(val - arg) : strlen(arg);

	if (val)
		val++;
#define IS(name) (namelen == strlen(name) && strncmp(arg, name, namelen) == 0)
	if (IS("--help") || IS("-h")) {
		if (val)
			goto no_value;
		o->help = 1;
	} else if (IS("--version")) {
		if (val)
			goto no_value;
		o->version = 1;
	} else if (IS("--no-verify")) {
		if (val)
			goto no_value;
		o->verify = 0;
	} else if (IS("--timeout")) {
		long v;
		if (!val) {
			snprintf(err, errlen, "option '--timeout' needs a value: --timeout=SECONDS");
			return -1;
		}
		if (parse_long(val, &v) != 0 || v < 1 || v > OPTIONS_MAX_TIMEOUT) {
			snprintf(err, errlen, "invalid timeout '%s': expected whole seconds, "
				 "1..%ld", val, OPTIONS_MAX_TIMEOUT);
			return -1;
		}
		o->timeout = v;
	} else if (IS("--reveal")) {
		static const char *names[] = { "auto", "coll", "pml", "generic", "queues" };
		size_t i;
		for (i = 0; val && i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(val, names[i]) == 0)
				break;
		if (val && i == sizeof(names) / sizeof(names[0])) {
			snprintf(err, errlen, "invalid reveal tier '%s': allowed are 'auto', 'coll', "
				 "'pml', 'generic' and 'queues'", val);
			return -1;
		}
		o->reveal = val ? (enum reveal_tier)(REVEAL_AUTO + i) : REVEAL_AUTO;
	} else if (IS("--reveal-dir")) {
		if (!val || !*val) {
			snprintf(err, errlen, "option '--reveal-dir' needs a directory: --reveal-dir=DIR");
			return -1;
		}
		o->reveal_dir = val;
	} else if (IS("--buffers")) {
		if (val && strcmp(val, "host") == 0)
			o->buffers = BUFFERS_HOST;
		else if (val && strcmp(val, "cuda") == 0)
			o->buffers = BUFFERS_CUDA;
		else {
			snprintf(err, errlen, "invalid buffers '%s': allowed are 'host' and 'cuda'",
				 val ? val : "");
			return -1;
		}
	} else {
		snprintf(err, errlen, "unknown option '%s' (see 'aller --help')", arg);
		return -1;
	}
#undef IS
	return 0;
no_value:
	snprintf(err, errlen, "option '%.*s' takes no value", (int)namelen, arg);
	return -1;
}

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	int npos = 0, only_positional = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!only_positional && strcmp(a, "--") == 0) {
			only_positional = 1;
			continue;
		}
		/* "-5" is a (non-positive) count, not an option, after MODE. */
		if (!only_positional && a[0] == '-' && !(npos > 0 && looks_numeric(a))) {
			if (parse_option(o, a, err, errlen) != 0)
				return -1;
			continue;
		}
		switch (npos++) {
		case 0:
			if (a[0] == '\0') {
				snprintf(err, errlen, "empty mode '': use 'strided' or 'contiguous'");
				return -1;
			}
			o->strided = (a[0] == 's' || a[0] == 'S');
			break;
		case 1:
			if (parse_count("iterations", a, OPTIONS_DEFAULT_ITERS,
					OPTIONS_MAX_ITERS, &o->iters, err, errlen) != 0)
				return -1;
			break;
		case 2:
			if (parse_count("longs", a, OPTIONS_DEFAULT_LONGS,
					OPTIONS_MAX_LONGS, &o->longs, err, errlen) != 0)
				return -1;
			break;
		default:
			snprintf(err, errlen, "unexpected argument '%s': at most MODE ITERS LONGS", a);
			return -1;
		}
	}
	return 0;
}
