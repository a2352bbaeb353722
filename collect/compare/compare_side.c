/* compare_side.c: one side of a comparison, read from its merge's tables (see compare_impl.h). */
#include "compare_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format.h"
#include "grow.h"
#include "merged.h"
#include "merge/merge.h"
#include "merge/table.h"
#include "read/splits.h"

/* The settings' names by index: the point's own three, then facts.tsv's as first read. */
static char setting_names[NSETTINGS][32] = { ALLER_KEY_MPI, ALLER_KEY_BUFFERS, ALLER_KEY_TPN };
static int nsetting_names = 3;

const char *compare_setting_name(int i)
{
	return i < nsetting_names ? setting_names[i] : "";
}

/* A setting's index by its name, added when new; -1 when the names are full. */
static int setting_index(const char *name)
{
	int i = 0;

	while (i < nsetting_names && strcmp(setting_names[i], name) != 0)
		i++;
	if (i == nsetting_names) {
		size_t n = strlen(name);
		if (i == NSETTINGS || n >= sizeof(setting_names[i]))
			return -1;
		memcpy(setting_names[nsetting_names++], name, n + 1);
	}
	return i;
}

static void note_settings(struct side *sd, const struct cpoint *pt)
{
	for (int i = 0; i < nsetting_names; i++) {
		const char *v = pt->value[i] ? pt->value[i] : "";
		int k = 0;
		while (k < sd->nvalues[i] && strcmp(sd->values[i][k], v) != 0)
			k++;
		if (k < sd->nvalues[i])
			continue;
		if (k == SETTING_VALUES)
			sd->many[i] = 1;
		else
			sd->values[i][sd->nvalues[i]++] = v;
	}
	if (sd->campaigns == 0 || strcmp(sd->campaign ? sd->campaign : "", pt->campaign) != 0) {
		sd->campaigns += sd->campaigns == 0 || sd->campaign != NULL;
		sd->campaign = sd->campaigns == 1 && pt->campaign[0] ? pt->campaign : NULL;
	}
}

static int cmp_num(long a, long b)
{
	return (a > b) - (a < b);
}

/* The identity of a measurement's point, then of the measurement. */
int compare_point_key(const struct meas *a, const struct meas *b)
{
	int c;

	if ((c = strcmp(a->pt->mode, b->pt->mode)) || (c = strcmp(a->pt->variant, b->pt->variant)) ||
	    (c = strcmp(a->pt->tpn, b->pt->tpn)) ||
	    (c = cmp_num(!!a->pt->reveal, !!b->pt->reveal)) || (c = cmp_num(a->nodes, b->nodes)))
		return c;
	return 0;
}

int compare_set_key(const struct meas *a, const struct meas *b)
{
	int c;

	if ((c = compare_point_key(a, b)) || (c = cmp_num(a->algo, b->algo)) ||
	    (c = cmp_num(a->split, b->split)) ||
	    (c = cmp_num(a->commsize, b->commsize)) || (c = cmp_num(a->comms, b->comms)))
		return c;
	return 0;
}

int compare_meas(const void *x, const void *y)
{
	const struct meas *a = x, *b = y;
	int c = compare_set_key(a, b);

	return c ? c : cmp_num(a->bytes, b->bytes);
}

static char *dup(char **f, int n, int at, int *oom)
{
	char buf[1024], *d;

	table_copy(buf, sizeof(buf), f, n, at);
	if (!(d = strdup(buf)))
		*oom = 1;
	return d;
}

enum { X_POINT, X_CAMPAIGN, X_MODE, X_NODES, X_TPN, X_BUFFERS, X_INSTRUMENTED, X_VARIANT, X_N };
static const char *const index_cols[X_N] = { "point", "campaign", "mode", "nodes", "tasks_per_node",
					     "buffers", "instrumented", "variant" };

/* points-index.csv: the side's points, by their number; 0, or -1. */
static int read_points(struct side *sd, const char *dir)
{
	char line[8192], *f[TABLE_FIELDS];
	int at[X_N];
	FILE *in = table_open(dir, "points-index.csv", line, sizeof(line), index_cols, at, X_N);

	if (!in)
		return -1;
	while (fgets(line, sizeof(line), in)) {
		int n = table_split(line, f, TABLE_FIELDS);
		long id = table_long(f, n, at[X_POINT]);
		struct cpoint *p;
		if (id < 0 || id > 100000000)
			continue;
		if (id >= sd->npts) {
			struct cpoint *g = realloc(sd->pts, sizeof(*g) * (size_t)(id + 1));
			if (!g) {
				sd->oom = 1;
				break;
			}
			memset(g + sd->npts, 0, sizeof(*g) * (size_t)(id + 1 - sd->npts));
			sd->pts = g;
			sd->npts = id + 1;
		}
		p = &sd->pts[id];
		p->campaign = dup(f, n, at[X_CAMPAIGN], &sd->oom);
		p->mode = dup(f, n, at[X_MODE], &sd->oom);
		p->tpn = dup(f, n, at[X_TPN], &sd->oom);
		p->variant = dup(f, n, at[X_VARIANT], &sd->oom);
		p->value[1] = dup(f, n, at[X_BUFFERS], &sd->oom);
		p->value[2] = dup(f, n, at[X_TPN], &sd->oom);
		p->nodes = table_long(f, n, at[X_NODES]);
		p->reveal = at[X_INSTRUMENTED] >= 0 && at[X_INSTRUMENTED] < n &&
			    strcmp(f[at[X_INSTRUMENTED]], "yes") == 0 ? "yes" : NULL;
	}
	fclose(in);
	return sd->oom || !sd->pts ? -1 : 0;
}

/* facts.tsv's line of a point: its (first) MPI library, its settings. */
static void take_fact(void *ctx, long point, const char *key, const char *value)
{
	struct side *sd = ctx;
	struct cpoint *p = &sd->pts[point];
	const char *eq = strchr(value, '=');
	char name[64];
	int i = 0;

	if (strcmp(key, ALLER_KEY_MPI) == 0 && !p->value[0]) {
		i = 0;
	} else if (strcmp(key, MERGED_FACT_SETTING) == 0 && eq && (size_t)(eq - value) < sizeof(name)) {
		snprintf(name, sizeof(name), "%.*s", (int)(eq - value), value);
		if ((i = setting_index(name)) < 0 || p->value[i])
			return;
		value = eq + 1;
	} else {
		return;
	}
	if (!(p->value[i] = strdup(value)))
		sd->oom = 1;
}

static int algo_index(const char *name)
{
	for (int a = 0; a < ALLER_NALGOS; a++)
		if (strcmp(merged_algo_name(a), name) == 0)
			return a;
	return -1;
}

enum { R_POINT, R_ALGO, R_SPLIT, R_COMMS, R_COMMSIZE, R_BYTES, R_TMIN, R_TAVG, R_TMAX, R_TMED, R_N };
static const char *const row_cols[R_N] = { "point", "algo", "split", "comms", "commsize",
					   "bytes_per_peer", "tmin_s", "tavg_s", "tmax_s", "tmed_s" };

/* points.csv: the winners' rows, each a measurement of its point; 0, or -1. */
static int read_rows(struct side *sd, const char *dir)
{
	char line[8192], *f[TABLE_FIELDS];
	int at[R_N];
	FILE *in = table_open(dir, "points.csv", line, sizeof(line), row_cols, at, R_N);

	if (!in)
		return -1;
	while (fgets(line, sizeof(line), in)) {
		int n = table_split(line, f, TABLE_FIELDS);
		long id = table_long(f, n, at[R_POINT]);
		char name[256];
		struct meas *m;
		if (id < 0 || id >= sd->npts || !sd->pts[id].mode)
			continue;
		if ((size_t)sd->n == sd->cap) {
			struct meas *a = grow(sd->m, &sd->cap, sd->cap + 1, sizeof(*a), 1024);
			if (!a) {
				sd->oom = 1;
				break;
			}
			sd->m = a;
		}
		if (!sd->pts[id].noted)
			note_settings(sd, &sd->pts[id]);
		sd->pts[id].noted = 1;
		m = &sd->m[sd->n++];
		m->pt = &sd->pts[id];
		m->nodes = sd->pts[id].nodes;
		table_copy(name, sizeof(name), f, n, at[R_ALGO]);
		m->algo = algo_index(name);
		table_copy(name, sizeof(name), f, n, at[R_SPLIT]);
		m->split = splits_id(name, strlen(name));
		m->comms = table_long(f, n, at[R_COMMS]);
		m->commsize = table_long(f, n, at[R_COMMSIZE]);
		m->bytes = table_long(f, n, at[R_BYTES]);
		m->tmin = table_num(f, n, at[R_TMIN]);
		m->tavg = table_num(f, n, at[R_TAVG]);
		m->tmax = table_num(f, n, at[R_TMAX]);
		m->tmed = table_num(f, n, at[R_TMED]);
	}
	fclose(in);
	return sd->oom ? -1 : 0;
}

int compare_merged(const char *arg)
{
	char path[4096 + 32];
	struct stat st;

	snprintf(path, sizeof(path), "%s/points-index.csv", arg);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A side's outputs merged into SCRATCH/WHICH; its directory in dir, or an exit status said. */
static int merged_side(struct side *sd, const char *which, const char *scratch, char *dir,
		       size_t len)
{
	char err[4608];
	long files = 0;
	int rc;

	snprintf(dir, len, "%s/%s", scratch, which);
	rc = merge_side(sd->arg, dir, &files, err, sizeof(err));
	if (rc == -1 || (rc == 1 && files == 0)) {
		if (rc == -1)
			fprintf(stderr, "collect: error: %s %s\n", which, err);
		else
			fprintf(stderr, "collect: error: %s '%s' has no job outputs\n", which, sd->arg);
		return 2;
	}
	if (rc < 0) {
		fprintf(stderr, "collect: error: %s\n", err);
		return 3;
	}
	return 0;
}

int compare_load(struct side *sd, const char *which, const char *scratch)
{
	char dir[4096];
	int rc;

	if (compare_merged(sd->arg))
		snprintf(dir, sizeof(dir), "%s", sd->arg);
	else if ((rc = merged_side(sd, which, scratch, dir, sizeof(dir))) != 0)
		return rc;
	if (compare_merged(dir) && (read_points(sd, dir) != 0 ||
				    table_each_fact(dir, sd->npts, take_fact, sd) != 0 ||
				    read_rows(sd, dir) != 0 || sd->oom)) {
		fprintf(stderr, "collect: error: %s: cannot read its merged tables in '%s'%s\n", which,
			dir, sd->oom ? ": out of memory" : "");
		return sd->oom ? 3 : 2;
	}
	qsort(sd->m, (size_t)sd->n, sizeof(*sd->m), compare_meas);
	return 0;
}

void compare_side_release(struct side *sd)
{
	for (long i = 0; i < sd->npts; i++) {
		struct cpoint *p = &sd->pts[i];
		free(p->mode);
		free(p->variant);
		free(p->tpn);
		free(p->campaign);
		for (int k = 0; k < NSETTINGS; k++)
			free(p->value[k]);
	}
	free(sd->pts);
	free(sd->m);
}
