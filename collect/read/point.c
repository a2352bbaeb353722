/* point.c: see point.h. */
#include "point.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "grow.h"
#include "merged.h"

#define SETTING_NAME(k, how, field, fact) POINT_IF_SETTING(how, ALLER_KEY_##k)
const char *const point_setting_names[PS_NSETTINGS] = { POINT_KEYS(SETTING_NAME) };
#undef SETTING_NAME

void point_init(struct point *p)
{
	memset(p, 0, sizeof(*p));
	p->nodes = p->world = p->restart = p->attempt = p->exit_code = p->id = -1;
	p->own_nodes = p->tasks = -1;
}

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
	free(p->series);
	free(p->variant);
	free(p->key);
	free(p->base);
	free(p->incomplete);
	free(p->failed);
	free(p->floor);
	free(p->job_error);
	free(p->format);
	free(p->own_mode);
	free(p->pairs);
	free(p->facts);
	free(p->matrix);
	for (int i = 0; i < PS_NSETTINGS; i++)
		free(p->setting[i]);
	point_fabric_release(p);
	memset(p, 0, sizeof(*p));
}

double point_llc(struct point *p, double *tasks)
{
	const char *s = p->facts ? p->facts : "";
	char node[64];
	double v;

	if (!p->llc_read) {
		p->llc_read = 1;
		p->llc_tasks = p->tpn ? strtod(strchr(p->tpn, '-') ? strchr(p->tpn, '-') + 1 : p->tpn, NULL) : 0;
		for (; (s = strstr(s, "limit\tcache ")); s++)
			if ((s == p->facts || s[-1] == '\n') &&
			    sscanf(s, "limit\tcache %63[^:]: %lf bytes", node, &v) == 2 && v > 0 &&
			    (p->llc == 0 || v < p->llc))
				p->llc = v;
	}
	*tasks = p->llc_tasks;
	return p->llc;
}

void point_fabric_release(struct point *p)
{
	fabric_unshare(p->fabric);
	p->fabric = NULL;
	p->fabric_read = 0;
}

const struct fabric *point_fabric(struct point *p)
{
	if (!p->fabric_read) {
		p->fabric_read = 1;
		p->fabric = fabric_shared(p->facts, p->world);
	}
	return p->fabric;
}

int point_add_fact(struct point *pt, const char *key, const char *val, size_t vlen)
{
	size_t klen = strlen(key), at = pt->nfacts;
	char *f;

	if (at + klen + vlen + 2 > POINT_FACTS_MAX ||
	    !(f = grow(pt->facts, &pt->facts_cap, at + klen + vlen + 3, 1, 256)))
		return pt->facts_cut++, -1;
	memcpy(f + at, key, klen);
	f[at + klen] = '\t';
	for (size_t i = 0; i < vlen; i++)
		f[at + klen + 1 + i] = val[i] == '\t' ? ' ' : val[i];
	f[at + klen + 1 + vlen] = '\n';
	f[at + klen + vlen + 2] = '\0';
	pt->facts = f;
	pt->nfacts = at + klen + vlen + 2;
	return 0;
}

void point_tell_retry(struct point *winner, const struct point *loser)
{
	size_t k = strlen(MERGED_FACT_RETRIED);
	char why[256], line[400];

	for (const char *f = loser->facts, *nl; f && (nl = strchr(f, '\n')); f = nl + 1)
		if (!strncmp(f, MERGED_FACT_RETRIED "\t", k + 1))
			point_add_fact(winner, MERGED_FACT_RETRIED, f + k + 1, (size_t)(nl - f) - k - 1);
	point_reason(loser, why, sizeof(why));
	snprintf(line, sizeof(line), "attempt %ld: %s%s%s", loser->attempt, point_state_name(point_state(loser)),
		 why[0] ? ": " : "", why);
	point_add_fact(winner, MERGED_FACT_RETRIED, line, strlen(line));
}

/* A signal's name by its number (Linux's), "" for one without a common name. */
static const char *signal_name(long sig)
{
	static const char *const names[] = { "", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP",
		"SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE",
		"SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP" };

	return sig > 0 && sig < (long)(sizeof(names) / sizeof(names[0])) ? names[sig] : "";
}

/* Signals that stop a run from outside (time limit, scancel, preemption): 0 or its name. */
static const char *stop_signal(long exit_code)
{
	switch (exit_code) {
	case 128 + 1: return "SIGHUP";
	case 128 + 2: return "SIGINT";
	case 128 + 9: return "SIGKILL";
	case 128 + 10: return "SIGUSR1";
	case 128 + 15: return "SIGTERM";
	default: return NULL;
	}
}

int point_format_ok(const struct point *p)
{
	long v;

	return !p->format || (p->format[0] >= '1' && p->format[0] <= '9' &&
			      parse_long(p->format, 1, ALLER_FORMAT_VERSION, &v) == 0);
}

enum point_state point_state(const struct point *p)
{
	if (!point_format_ok(p))
		return POINT_FAILED;
	if (p->marked_incomplete || stop_signal(p->exit_code))
		return POINT_INCOMPLETE;
	if (p->exit_code > 0 || !p->has_header || p->failed_sets > 0 || p->headers > 1 ||
	    point_mismatch(p, NULL, 0))
		return POINT_FAILED;
	if (p->done)
		return POINT_COMPLETE;
	return POINT_INCOMPLETE;
}

int point_mismatch(const struct point *p, char *buf, size_t len)
{
	const char *what = NULL;
	char job[64] = "", own[64] = "";

	if (!p->has_provenance || !p->has_header)
		return 0;
	if (p->own_mode && p->mode && strcmp(p->own_mode, p->mode) != 0) {
		what = "mode";
		snprintf(job, sizeof(job), "%.40s", p->mode);
		snprintf(own, sizeof(own), "%.40s", p->own_mode);
	} else if (p->own_nodes > 0 && p->nodes > 0 && p->own_nodes != p->nodes) {
		what = "node count";
		snprintf(job, sizeof(job), "%ld", p->nodes);
		snprintf(own, sizeof(own), "%ld", p->own_nodes);
	} else if (p->tasks > 0 && p->world > 0 && p->tasks != p->world) {
		what = "task count";
		snprintf(job, sizeof(job), "%ld", p->tasks);
		snprintf(own, sizeof(own), "%ld (its world)", p->world);
	}
	if (what && buf)
		snprintf(buf, len, "provenance does not match: the job's %s is %s, aller's header says %s",
			 what, job, own);
	return what != NULL;
}

void point_reason(const struct point *p, char *buf, size_t len)
{
	if (!point_format_ok(p))
		snprintf(buf, len, "format '%.40s' is not one this collect reads (1..%d)", p->format,
			 ALLER_FORMAT_VERSION);
	else if (p->marked_incomplete)
		snprintf(buf, len, "%s", p->incomplete ? p->incomplete : "stopped by its job");
	else if (p->job_error)
		snprintf(buf, len, "%.240s", p->job_error);
	else if (p->headers > 1)
		snprintf(buf, len, "%ld aller runs in one file: worlds the launcher started apart (an MPI "
			 "library that does not speak its process manager), not one measurement", p->headers);
	else if (point_mismatch(p, buf, len))
		;
	else if (stop_signal(p->exit_code))
		snprintf(buf, len, "ended by %s", stop_signal(p->exit_code));
	else if (p->failed_sets > 0)
		snprintf(buf, len, "%ld data set%s failed: %.200s", p->failed_sets,
			 p->failed_sets > 1 ? "s" : "", p->failed ? p->failed : "?");
	else if (p->exit_code == 1 && p->floor_failed > 0)
		snprintf(buf, len, "%ld row%s below the floor: %.200s", p->floor_failed,
			 p->floor_failed > 1 ? "s" : "", p->floor ? p->floor : "?");
	else if (p->exit_code == 1 && !p->has_header)   /* aller's 1 comes after its header */
		snprintf(buf, len, "exit 1 before aller's header, not a verification failure (the "
			 "launcher or MPI_Init failed)");
	else if (p->exit_code > 128 && p->exit_code <= 128 + 64)   /* a shell's 128 + a signal */
		snprintf(buf, len, "exit %ld (signal %ld%s%s)%s", p->exit_code, p->exit_code - 128,
			 signal_name(p->exit_code - 128)[0] ? ", " : "", signal_name(p->exit_code - 128),
			 p->has_header ? "" : " before aller's header (the launcher or MPI_Init)");
	else if (p->exit_code > 0)
		snprintf(buf, len, "exit %ld", p->exit_code);
	else if (!p->has_header)
		snprintf(buf, len, "no aller output");
	else if (!p->done)
		snprintf(buf, len, "no '%s'", ALLER_DONE);
	else
		buf[0] = '\0';
}

const char *point_state_name(enum point_state s)
{
	return s == POINT_COMPLETE ? "complete" : s == POINT_INCOMPLETE ? "incomplete" : "failed";
}

int point_strcmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

void point_series_base(const char *series, const char *placement, char *out, size_t len)
{
	char suffix[40];
	size_t n, k = 0;

	snprintf(out, len, "%s", series ? series : "");
	if (!placement || !placement[0] || !strcmp(placement, "block"))
		return;
	suffix[k++] = '-';
	for (; *placement && k + 1 < sizeof(suffix); placement++)
		if (*placement != ':')
			suffix[k++] = *placement;
	suffix[k] = '\0';
	n = strlen(out);
	if (n > k && !strcmp(out + n - k, suffix))
		out[n - k] = '\0';
}

void point_key(const struct point *p, char *out, size_t len)
{
	if (p->key)
		snprintf(out, len, "%s", p->key);
	else
		snprintf(out, len, "n%ld-%s", p->nodes, p->mode ? p->mode : "");
}

void point_base(const struct point *p, char *out, size_t len)
{
	if (p->base)
		snprintf(out, len, "%s", p->base);
	else
		point_series_base(p->series, p->setting[PS_PLACEMENT], out, len);
}

/* Job ids compare as numbers ("123_4" array ids: by the leading number). */
static int cmp_job(const char *a, const char *b)
{
	long x = a ? strtol(a, NULL, 10) : -1, y = b ? strtol(b, NULL, 10) : -1;
	return x < y ? -1 : x > y ? 1 : point_strcmp(a, b);
}

int point_same_job(const struct point *a, const struct point *b)
{
	return a->job && b->job && strcmp(a->job, b->job) == 0 && a->restart == b->restart;
}

int point_newer(const struct point *a, const struct point *b)
{
	static const int rank[] = { [POINT_COMPLETE] = 2, [POINT_INCOMPLETE] = 1, [POINT_FAILED] = 0 };
	int ra = rank[point_state(a)], rb = rank[point_state(b)], c;

	/*
	 * Attempts of one job: the later one tells how the point ended, unless
	 * the earlier completed (an attempt killed by the launcher because
	 * another task failed, 143, then a usage error, 2, is a failed point).
	 */
	if (ra != rb && !(point_same_job(a, b) && ra < 2 && rb < 2))
		return ra > rb;
	if ((c = point_strcmp(a->start, b->start)) != 0)
		return c > 0;
	if ((c = cmp_job(a->job, b->job)) != 0)
		return c > 0;
	if (a->restart != b->restart)
		return a->restart > b->restart;
	if (a->attempt != b->attempt)
		return a->attempt > b->attempt;
	return point_strcmp(a->path, b->path) > 0;
}

/* Outputs before format 4 said nothing of these: they timed with a barrier, caches hot. */
static const char *timing(const struct point *p)
{
	return p->setting[PS_TIMING] ? p->setting[PS_TIMING] : "barrier";
}

static const char *cold(const struct point *p)
{
	const char *c = p->setting[PS_CACHE];
	return c && strncmp(c, "hot", 3) != 0 ? c : NULL;
}

int point_cmp_group(const struct point *a, const struct point *b)
{
	int c;

	if ((c = point_strcmp(a->campaign, b->campaign)) || (c = point_strcmp(a->mode, b->mode)) ||
	    (c = point_strcmp(a->series, b->series)) || (c = point_strcmp(a->variant, b->variant)))
		return c;
	/*
	 * Two outputs of a campaign whose job wrote its series (point_base): the
	 * series stands for every setting of the point, so an attempt that
	 * failed before aller's header (no --placement, --reveal, ... said) is of
	 * the group of the attempt that ran.
	 */
	if (a->base && b->base)
		return 0;
	if (!a->campaign && ((c = point_strcmp(a->tpn, b->tpn)) || (c = point_strcmp(a->buffers, b->buffers)) ||
			     (c = point_strcmp(a->mpi, b->mpi))))
		return c;
	if (!a->reveal != !b->reveal)
		return a->reveal ? 1 : -1;
	if (!a->pairs != !b->pairs)
		return a->pairs ? 1 : -1;
	if ((c = point_strcmp(a->setting[PS_TRANSPORT], b->setting[PS_TRANSPORT])) ||
	    (c = point_strcmp(a->setting[PS_ALGOS], b->setting[PS_ALGOS])) ||
	    (c = point_strcmp(a->setting[PS_SPLITS], b->setting[PS_SPLITS])) ||
	    (c = point_strcmp(timing(a), timing(b))) || (c = point_strcmp(cold(a), cold(b))) ||
	    (c = point_strcmp(a->setting[PS_BUDGET], b->setting[PS_BUDGET])) ||
	    (c = point_strcmp(a->setting[PS_MODULES], b->setting[PS_MODULES])) ||
	    (c = point_strcmp(a->setting[PS_CONGESTION], b->setting[PS_CONGESTION])) ||
	    (c = point_strcmp(a->setting[PS_PLACEMENT], b->setting[PS_PLACEMENT])))
		return c;
	return 0;
}
