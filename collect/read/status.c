/* status.c: see status.h. */
#include "status.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grow.h"
#include "namehash.h"
#include "state.h"
#include "text.h"

#define NAME 320

/* A point of the manifest, what Slurm and its output say of it. */
struct spoint {
	char key[NAME], job[32], name[NAME];
	int missing;
	char state[32], reason[256], retried[2048];
	long files;
};

/* A job as Slurm records it: sacct's row, or the controller's live record. */
struct sjob {
	char id[32], name[NAME], state[64], code[16], elapsed[32], nodes[256], reason[256];
};

struct status {
	struct spoint *p;
	size_t n, cap;
	struct sjob *acct, *live;
	size_t nacct, capacct, nlive, caplive;
	struct namehash keys, accts, lives;   /* the points by key, the jobs by id (a campaign of 10^5 points) */
};

/* The point of key; with add, a new one where there is none (NULL: memory); else NULL. */
static struct spoint *point_of(struct status *s, const char *key, int add)
{
	struct spoint *g;
	size_t k;

	if (namehash_room(&s->keys, s->n, s->n ? s->p[0].key : "", sizeof(*s->p)) != 0)
		return NULL;
	k = namehash_slot(&s->keys, key, s->n ? s->p[0].key : "", sizeof(*s->p));
	if (s->keys.slot[k] >= 0)
		return &s->p[s->keys.slot[k]];
	if (!add || !(g = grow(s->p, &s->cap, s->n + 1, sizeof(*g), 64)))
		return NULL;
	s->p = g;
	g = memset(&s->p[s->n], 0, sizeof(*g));
	snprintf(g->key, sizeof(g->key), "%s", key);
	s->keys.slot[k] = (long)s->n++;
	return g;
}

/* A line of the manifest: its plan, point and missing records (campaigns/manifest.sh). */
static int manifest_line(void *ctx, char *line, long no, char *err, size_t errlen)
{
	char kind[32], sub[64], key[NAME], rest[1024] = "";
	struct spoint *p;

	(void)no;
	if (sscanf(line, "%31s %63s %319s %1023[^\n]", kind, sub, key, rest) < 3)
		return 0;
	if (!(p = point_of(ctx, key, !strcmp(kind, "plan"))))
		return strcmp(kind, "plan") ? 0 : (snprintf(err, errlen, "out of memory"), -1);
	if (!strcmp(kind, "plan"))
		p->missing = 0;
	else if (!strcmp(kind, "missing"))
		p->missing = 1;
	else if (!strcmp(kind, "point") && !strncmp(rest, "job=", 4)) {
		char *name = strstr(rest, " name=");
		snprintf(p->job, sizeof(p->job), "%.*s", (int)strcspn(rest + 4, " "), rest + 4);
		snprintf(p->name, sizeof(p->name), "%s", name ? name + 6 : "");
	}
	return 0;
}

static void state_of(void *ctx, const char *key, const char *state, const char *reason,
		     const char *file, long files, const char *retried)
{
	struct spoint *p = point_of(ctx, key, 0);

	(void)file;
	if (!p)
		return;
	snprintf(p->state, sizeof(p->state), "%s", state);
	snprintf(p->reason, sizeof(p->reason), "%s", reason);
	snprintf(p->retried, sizeof(p->retried), "%s", retried);
	p->files = files;
}

static struct sjob *add_job(struct sjob **j, size_t *n, size_t *cap)
{
	struct sjob *g = grow(*j, cap, *n + 1, sizeof(*g), 64);

	if (!g)
		return NULL;
	*j = g;
	return memset(&g[(*n)++], 0, sizeof(*g));
}

/* sacct -X -n -P -o JobID,JobName%200,State,ExitCode,Elapsed,NodeList,Reason: "id|name|state|..." */
static int acct_line(void *ctx, char *line, long no, char *err, size_t errlen)
{
	struct status *s = ctx;
	char *f[7], *c = line, *bar;
	struct sjob *j;
	int k = 0;

	(void)no, (void)err, (void)errlen;
	for (; k < 7; c = bar + 1) {
		f[k++] = c;
		if (!(bar = strchr(c, '|')))
			break;
		*bar = '\0';
	}
	if (k < 7 || !(j = add_job(&s->acct, &s->nacct, &s->capacct)))
		return 0;
	snprintf(j->id, sizeof(j->id), "%s", f[0]);
	snprintf(j->name, sizeof(j->name), "%s", f[1]);
	snprintf(j->state, sizeof(j->state), "%.*s", (int)strcspn(f[2], " "), f[2]);   /* "CANCELLED by 0" */
	snprintf(j->code, sizeof(j->code), "%s", f[3]);
	snprintf(j->elapsed, sizeof(j->elapsed), "%s", f[4]);
	snprintf(j->nodes, sizeof(j->nodes), "%s", f[5]);
	snprintf(j->reason, sizeof(j->reason), "%s", f[6]);
	return 0;
}

/* One key's value of an 'scontrol -o show job' line (a word "KEY=value"), into out. */
static void field(const char *line, const char *key, char *out, size_t len)
{
	size_t n = strlen(key);

	snprintf(out, len, "-");
	for (const char *w = line; w && *w; w = strchr(w, ' ') ? strchr(w, ' ') + 1 : NULL)
		if (!strncmp(w, key, n) && w[n] == '=') {
			snprintf(out, len, "%.*s", (int)strcspn(w + n + 1, " \n"), w + n + 1);
			return;
		}
}

/* scontrol -o show job: a job a line, "KEY=value" words. */
static int live_line(void *ctx, char *line, long no, char *err, size_t errlen)
{
	struct status *s = ctx;
	struct sjob *j;

	(void)no, (void)err, (void)errlen;
	if (strncmp(line, "JobId=", 6) || !(j = add_job(&s->live, &s->nlive, &s->caplive)))
		return 0;
	field(line, "JobId", j->id, sizeof(j->id));
	field(line, "JobName", j->name, sizeof(j->name));
	field(line, "JobState", j->state, sizeof(j->state));
	field(line, "ExitCode", j->code, sizeof(j->code));
	field(line, "RunTime", j->elapsed, sizeof(j->elapsed));
	field(line, "NodeList", j->nodes, sizeof(j->nodes));
	field(line, "Reason", j->reason, sizeof(j->reason));
	return 0;
}

/* The jobs by id into h (sized once: the first of an id kept, as it was read); 0, or -1 (memory). */
static int index_jobs(struct namehash *h, const struct sjob *j, size_t n)
{
	if (namehash_init(h, n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t k = namehash_slot(h, j[i].id, j[0].id, sizeof(*j));
		if (h->slot[k] < 0)
			h->slot[k] = (long)i;
	}
	return 0;
}

static const struct sjob *find_job(const struct namehash *h, const struct sjob *j, size_t n, const char *id)
{
	long i = n ? namehash_find(h, id, j[0].id, sizeof(*j)) : -1;

	return i >= 0 ? &j[i] : NULL;
}

static int one_of(const char *s, const char *const *list, int prefix)
{
	for (; *list; list++)
		if (prefix ? !strncmp(s, *list, strlen(*list)) : !strcmp(s, *list))
			return 1;
	return 0;
}

/*
 * Slurm's record of p's job: sacct's where it has the job ended under its
 * own name; else the controller's live one (slurmdbd's lags: a pending
 * job's reason stays None, an ended one may still read RUNNING, one whose
 * start has not landed is named "allocation"); else sacct's; else UNKNOWN.
 */
static struct sjob record_of(const struct status *s, const struct spoint *p)
{
	static const char *const final[] = { "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL",
					     "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL", "DEADLINE", NULL };
	const struct sjob *a = find_job(&s->accts, s->acct, s->nacct, p->job),
			  *l = find_job(&s->lives, s->live, s->nlive, p->job);
	struct sjob none = { .name = "-", .state = "UNKNOWN", .code = "-", .elapsed = "-", .nodes = "-",
			     .reason = "-" };

	if (a && one_of(a->state, final, 0) && !strcmp(a->name, p->name))
		return *a;
	return l ? *l : a ? *a : none;
}

/* A point's row: its key, job, Slurm state, exit, elapsed, nodes, files and its output's state. */
static int row(const struct status *s, const struct spoint *p, int tsv, long *unrecorded)
{
	static const char *const stuck[] = { "PartitionConfig", "PartitionNodeLimit", "PartitionTimeLimit",
		"ReqNodeNotAvail", "BadConstraints", "InvalidAccount", "InvalidQOS", "QOSMax", "AssocMax",
		"AccountNotAllowed", "QOSNotAllowed", "JobHeldAdmin", "JobHeldUser", NULL };
	const char *out = p->state[0] ? p->state : "missing", *reason = p->state[0] ? p->reason : "-";
	char state[320], code[32], shown[4096];
	struct sjob j = { .elapsed = "-", .nodes = "-" };
	long exit;

	snprintf(state, sizeof(state), "not-submitted");
	snprintf(code, sizeof(code), "-");
	if (p->job[0] && !p->missing) {
		j = record_of(s, p);
		snprintf(state, sizeof(state), "%s", j.state);
		snprintf(code, sizeof(code), "%s", j.code);
		if (strcmp(j.name, "-") && strcmp(j.name, p->name)) {   /* the id is someone else's now */
			snprintf(state, sizeof(state), "unknown");
			snprintf(code, sizeof(code), "-");
			snprintf(j.elapsed, sizeof(j.elapsed), "-");
			snprintf(j.nodes, sizeof(j.nodes), "-");
		} else if (!strcmp(j.state, "PENDING") && one_of(j.reason, stuck, 1)) {
			snprintf(state, sizeof(state), "stuck (%s)", j.reason);
		} else if (!strcmp(j.state, "UNKNOWN") && strcmp(out, "missing")) {
			/* Slurm has no record (cluster down, accounting purged): the output says how it ended */
			snprintf(state, sizeof(state), "%s (output)", out);
			snprintf(code, sizeof(code), "%s", !strcmp(out, "complete") ? "0:0" : "-");
			if (sscanf(reason, "exit %ld", &exit) == 1)
				snprintf(code, sizeof(code), "%ld:0", exit);
			(*unrecorded)++;
		}
	}
	/* a point of a job that runs still, whose output has no end yet: running, not failed */
	if ((!strcmp(j.state, "RUNNING") || !strcmp(j.state, "COMPLETING")) &&
	    (!strcmp(reason, "no aller output") || !strcmp(reason, "no '# Done'")))
		out = "running";
	/* the point's own step can fail while the allocation goes on */
	if (!strcmp(out, "failed") && (!strcmp(state, "COMPLETED") || !strcmp(state, "FAILED"))) {
		snprintf(state, sizeof(state), "FAILED");
		if (sscanf(reason, "exit %ld", &exit) == 1)
			snprintf(code, sizeof(code), "%ld:0", exit);
	}
	snprintf(shown, sizeof(shown), "%s", out);
	if (strcmp(out, "complete") && strcmp(out, "missing") && strcmp(out, "running"))
		snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), " (%s)", reason);
	if (p->state[0] && strcmp(p->retried, "-"))   /* no retry hides how an attempt ended */
		snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), "; retried after %s", p->retried);
	if (tsv)
		printf("%s\t%s\t%s\t%s\t%s\t%s\t%ld\t%s\n", p->key, p->job[0] ? p->job : "-", state, code,
		       j.elapsed, j.nodes[0] ? j.nodes : "-", p->files, shown);
	else
		printf("%-42s %-8s %-22s %-6s %-10s %-12s %-5ld %s\n", p->key, p->job[0] ? p->job : "-", state,
		       code, j.elapsed, j.nodes[0] ? j.nodes : "-", p->files, shown);
	return !strcmp(out, "complete");
}

int status_main(int argc, char **argv)
{
	int tsv = argc > 0 && !strcmp(argv[0], "--tsv"), all = 1;
	struct status s = { 0 };
	long unrecorded = 0;
	struct stat st;
	char *raw[1], err[4400];

	if (argc != 4 + tsv)
		return text_error(2, "collect: error: --status takes a campaign's manifest, its raw outputs and "
			"Slurm's records: collect --status [--tsv] MANIFEST RAW SACCT SCONTROL\n");
	argv += tsv;
	if (text_lines(argv[0], TEXT_MANIFEST, manifest_line, &s, err, sizeof(err)) != 0 ||
	    text_lines(argv[2], TEXT_SLURM, acct_line, &s, err, sizeof(err)) != 0 ||
	    text_lines(argv[3], TEXT_SLURM, live_line, &s, err, sizeof(err)) != 0) {
		text_error(0, "collect: error: %s\n", err);
		free(s.p);
		namehash_free(&s.keys);
		return 2;
	}
	raw[0] = argv[1];
	if (stat(raw[0], &st) == 0 && state_points_each(1, raw, state_of, &s) == 3)
		return 3;
	if (index_jobs(&s.accts, s.acct, s.nacct) != 0 || index_jobs(&s.lives, s.live, s.nlive) != 0) {
		namehash_free(&s.accts);   /* Slurm's records unread: the outputs' states */
		namehash_free(&s.lives);
	}
	printf(tsv ? "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" : "%-42s %-8s %-22s %-6s %-10s %-12s %-5s %s\n",
	       "POINT", "JOB", "STATE", "EXIT", "ELAPSED", "NODELIST", "TRIES", "OUTPUT");
	for (size_t i = 0; i < s.n; i++)
		all &= row(&s, &s.p[i], tsv, &unrecorded);
	if (unrecorded)
		text_error(0, "status: Slurm has no record of the jobs of %ld points (cluster down, or "
			"accounting purged): their state is their output's, marked (output)\n", unrecorded);
	free(s.p);
	free(s.acct);
	free(s.live);
	namehash_free(&s.keys);
	namehash_free(&s.accts);
	namehash_free(&s.lives);
	return all ? 0 : 1;
}
