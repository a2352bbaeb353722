/* compare_side.c: one side of a comparison, read (see compare_impl.h). */
#include "compare_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format.h"
#include "grow.h"

const char *compare_setting_name(int i)
{
	static const char *const own[3] = { ALLER_KEY_MPI, ALLER_KEY_BUFFERS, ALLER_KEY_TPN };
	return i < 3 ? own[i] : point_setting_names[i - 3];
}

static const char *setting_value(const struct point *pt, int i)
{
	const char *v = i == 0 ? pt->mpi : i == 1 ? pt->buffers : i == 2 ? pt->tpn
			 : pt->setting[i - 3];
	return v ? v : "";
}

static void note_settings(struct side *sd, const struct point *pt)
{
	for (int i = 0; i < NSETTINGS; i++) {
		const char *v = setting_value(pt, i);
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
	if (sd->campaigns == 0 || point_strcmp(sd->campaign, pt->campaign) != 0) {
		sd->campaigns += sd->campaigns == 0 || sd->campaign != NULL;
		sd->campaign = sd->campaigns == 1 ? pt->campaign : NULL;
	}
}

static double number(const char *text, const struct crow *r, int c)
{
	char buf[64];
	size_t n = r->len[c] < sizeof(buf) - 1 ? r->len[c] : sizeof(buf) - 1;

	if (c >= r->ncols)
		return NAN;
	memcpy(buf, text + r->off[c], n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

/* groups_each's callback: the winners' rows of a group. */
static long take_group(void *ctx, const struct group *g)
{
	struct side *sd = ctx;
	long taken = 0;

	for (int p = 0; p < g->n; p++) {
		const struct point *pt = g->pts[p];
		if (pt->superseded || pt->nrows == 0)
			continue;
		note_settings(sd, pt);
		for (long i = pt->first_row; i < pt->first_row + pt->nrows; i++) {
			const struct crow *r = &g->rows.rows[i];
			const char *text = rows_text(&g->rows, r);
			struct meas *m;
			if ((size_t)sd->n == sd->cap) {
				struct meas *a = grow(sd->m, &sd->cap, sd->cap + 1, sizeof(*a), 1024);
				if (!a)
					return -1;
				sd->m = a;
			}
			m = &sd->m[sd->n++];
			m->pt = pt;
			m->nodes = pt->nodes;
			m->comms = r->comms;
			m->commsize = r->commsize;
			m->algo = r->algo;
			m->split = r->split;
			m->bytes = r->count * (long)sizeof(long);
			m->tmin = number(text, r, ALLER_COL_TMIN);
			m->tavg = number(text, r, ALLER_COL_TAVG);
			m->tmax = number(text, r, ALLER_COL_TMAX);
			m->tmed = number(text, r, ALLER_COL_TMED);
			taken++;
		}
	}
	return taken;
}

static int cmp_num(long a, long b)
{
	return (a > b) - (a < b);
}

/* The identity of a measurement's point, then of the measurement. */
int compare_point_key(const struct meas *a, const struct meas *b)
{
	int c;

	if ((c = point_strcmp(a->pt->mode, b->pt->mode)) ||
	    (c = point_strcmp(a->pt->variant, b->pt->variant)) ||
	    (c = point_strcmp(a->pt->tpn, b->pt->tpn)) ||
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

/* A campaign directory stands for its raw outputs. */
static const char *inputs_of(const char *arg, char *buf, size_t len)
{
	struct stat st;

	snprintf(buf, len, "%s/raw", arg);
	return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? buf : arg;
}

int compare_load(struct side *sd, const char *which)
{
	char err[4608], path[4096];

	if (input_add(&sd->files, inputs_of(sd->arg, path, sizeof(path)), err, sizeof(err)) != 0) {
		fprintf(stderr, "collect: error: %s %s\n", which, err);
		return 2;
	}
	if (sd->files.n == 0) {
		fprintf(stderr, "collect: error: %s '%s' has no job outputs\n", which, sd->arg);
		return 2;
	}
	/* no warnings: damaged inputs are the merge's to report; compare takes what reads */
	groups_init(&sd->gs, &sd->s, NULL, NULL);
	if (groups_read(&sd->gs, &sd->files) != 0 || groups_each(&sd->gs, take_group, sd) != 0) {
		fprintf(stderr, "collect: error: out of memory\n");
		return 3;
	}
	qsort(sd->m, (size_t)sd->n, sizeof(*sd->m), compare_meas);
	return 0;
}

void compare_side_release(struct side *sd)
{
	groups_release(&sd->gs);
	filelist_release(&sd->files);
	free(sd->m);
}

