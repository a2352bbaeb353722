/* compare_side.c: one side of a comparison, read from its merge's tables (see compare_impl.h). */
#include "compare_impl.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format.h"
#include "grow.h"
#include "merged.h"
#include "merge/merge.h"
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
	if (sd->campaigns == 0 || strcmp(sd->campaign ? sd->campaign : "", pt->m->campaign) != 0) {
		sd->campaigns += sd->campaigns == 0 || sd->campaign != NULL;
		sd->campaign = sd->campaigns == 1 && pt->m->campaign[0] ? pt->m->campaign : NULL;
	}
}

static int cmp_num(long a, long b)
{
	return (a > b) - (a < b);
}

int compare_across_variants;

/* The identity of a measurement's point, then of the measurement. */
int compare_point_key(const struct meas *a, const struct meas *b)
{
	int c;

	return ((c = strcmp(a->pt->m->mode, b->pt->m->mode)) ||
	    (!compare_across_variants && (c = strcmp(a->pt->m->variant, b->pt->m->variant))) ||
	    (c = strcmp(a->pt->m->tasks_per_node, b->pt->m->tasks_per_node)) ||
	    (c = cmp_num(!!a->pt->reveal, !!b->pt->reveal)) || (c = cmp_num(a->nodes, b->nodes))) ? c : 0;
}

int compare_set_key(const struct meas *a, const struct meas *b)
{
	int c;

	return ((c = compare_point_key(a, b)) || (c = cmp_num(a->algo, b->algo)) || (c = cmp_num(a->split, b->split)) ||
		(c = cmp_num(a->commsize, b->commsize)) || (c = cmp_num(a->comms, b->comms))) ? c : 0;
}

int compare_meas(const void *x, const void *y)
{
	const struct meas *a = x, *b = y;
	int c = compare_set_key(a, b);

	return c ? c : cmp_num(a->bytes, b->bytes);
}

/*
 * The side's points from its model: each with its own three settings, then its facts' (its first MPI
 * library, its settings); 0, or -1.
 */
static int read_points(struct side *sd)
{
	const struct campaign *c = &sd->model;

	if (c->np == 0)
		return -1;   /* no point: not a merge */
	if (!(sd->pts = calloc((size_t)c->np + 1, sizeof(*sd->pts)))) {
		sd->oom = 1;
		return -1;
	}
	sd->npts = c->np;
	for (long i = 0; i < c->np; i++) {
		struct cpoint *p = &sd->pts[i];
		p->m = &c->pts[i];
		p->value[1] = p->m->buffers;
		p->value[2] = p->m->tasks_per_node;
		p->reveal = strcmp(p->m->instrumented, "yes") == 0 ? "yes" : NULL;
		sd->simulated += campaign_fact(p->m, ALLER_KEY_SIMULATED) != NULL;
		for (long k = 0; k < p->m->nfacts; k++) {
			const char *key = p->m->facts[k].key, *value = p->m->facts[k].value;
			const char *eq = strchr(value, '=');
			char name[64];
			int at;
			if (strcmp(key, ALLER_KEY_MPI) == 0 && !p->value[0]) {
				p->value[0] = value;
			} else if (strcmp(key, MERGED_FACT_SETTING) == 0 && eq && (size_t)(eq - value) < sizeof(name)) {
				snprintf(name, sizeof(name), "%.*s", (int)(eq - value), value);
				if ((at = setting_index(name)) >= 0 && !p->value[at])
					p->value[at] = eq + 1;
			}
		}
	}
	return 0;
}

static int algo_index(const char *name)
{
	for (int a = 0; a < ALLER_NALGOS; a++)
		if (strcmp(merged_algo_name(a), name) == 0)
			return a;
	return -1;
}

/* A row of points.csv: a measurement of its point. */
static int take_row(void *ctx, const struct mrow *r)
{
	struct side *sd = ctx;
	const struct mpoint *q = campaign_point(&sd->model, r->point);
	struct cpoint *pt = q ? &sd->pts[q - sd->model.pts] : NULL;
	struct meas *m;

	if (!pt || (sd->variant && strcmp(pt->m->variant, sd->variant)))
		return 0;   /* not a point, or another variant's */
	if ((size_t)sd->n == sd->cap) {
		struct meas *a = grow(sd->m, &sd->cap, sd->cap + 1, sizeof(*a), 1024);
		if (!a) {
			sd->oom = 1;
			return 1;
		}
		sd->m = a;
	}
	if (!pt->noted)
		note_settings(sd, pt);
	pt->noted = 1;
	m = &sd->m[sd->n++];
	*m = (struct meas){ .pt = pt, .nodes = pt->m->nodes, .comms = r->COMMS, .commsize = r->COMMSIZE,
			    .bytes = isfinite(r->bytes) ? (long)r->bytes : -1, .algo = algo_index(r->algo),
			    .split = splits_id(r->split, strlen(r->split)), .tmin = r->TMIN,
			    .tavg = r->TAVG, .tmax = r->TMAX, .tmed = r->TMED,
			    .one_call = (r->TMAX - r->TMED) / (r->ITERS > 0 ? (double)(r->COMMS * r->COMMSIZE * r->ITERS) : NAN) };
	return 0;
}

int compare_merged(const char *arg)
{
	char path[4096 + 32];
	struct stat st;

	snprintf(path, sizeof(path), "%s/points-index.csv", arg);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A side's outputs merged into SCRATCH/WHICH; its directory in dir, or an exit status said. */
static int merged_side(struct side *sd, const char *which, const char *scratch, char *dir, size_t len)
{
	char err[4608];
	long files = 0;
	int rc;

	snprintf(dir, len, "%s/%s", scratch, which);
	rc = merge_side(sd->path, dir, &files, err, sizeof(err));
	if (rc == -1)
		return text_error(2, "collect: error: %s %s\n", which, err);
	if (rc == 1 && files == 0)
		return text_error(2, "collect: error: %s '%s' has no job outputs\n", which, sd->arg);
	if (rc < 0)
		return text_error(3, "collect: error: %s\n", err);
	return 0;
}

int compare_load(struct side *sd, const char *which, const char *scratch)
{
	char dir[4096], err[4608];
	int rc;

	if (compare_merged(sd->path))
		snprintf(dir, sizeof(dir), "%s", sd->path);
	else if ((rc = merged_side(sd, which, scratch, dir, sizeof(dir))) != 0)
		return rc;
	if (compare_merged(dir) && (campaign_load(&sd->model, dir, CAMPAIGN_POINTS, err, sizeof(err)) != 0 ||
				    read_points(sd) != 0 || campaign_rows(&sd->model, take_row, sd, err, sizeof(err)) != 0 ||
				    sd->oom)) {
		text_error(0, "collect: error: %s: cannot read its merged tables in '%s'%s\n", which,
			dir, sd->oom ? ": out of memory" : "");
		return sd->oom ? 3 : 2;
	}
	qsort(sd->m, (size_t)sd->n, sizeof(*sd->m), compare_meas);
	return 0;
}

void compare_side_release(struct side *sd)
{
	free(sd->pts), free(sd->m), campaign_release(&sd->model);
}
