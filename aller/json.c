/* json.c: see json.h. */
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "row.h"
#include "replace.h"
#include "strbuf.h"
#include "text.h"

#define JSON_MAX_KEYS 96
/* how every file --json writes begins: what it may replace */
#define JSON_MAGIC "{\"record\":\"header\""

struct json {
	FILE *f;
	char *path, *part;
	int header_done, finished;
	/* the header's facts, by key in first-seen order, each one value or an array */
	int nkeys;
	const char *keys[JSON_MAX_KEYS];
	struct strbuf values[JSON_MAX_KEYS];
	int counts[JSON_MAX_KEYS];
	/* the open data set, for its rows */
	int level;
	char algo[64], *split;   /* the split in full: names may be long */
	char wall[256];
	char parts[512];   /* '# wall_parts:' as a JSON object's members */
};

/*
 * '# wall_parts:''s "name=seconds" words up to its prose as JSON members,
 * "worst_rank" and "worst_buffers_s" from its end ("rank R (S s)").
 */
static void parts_members(struct json *j, const char *value)
{
	const char *p = value, *worst = strstr(value, "buffers: rank ");
	size_t at = 0;
	char name[32];
	double v;
	int n, r;

	while (sscanf(p, " %31[a-z]=%lf%n", name, &v, &n) == 2 && at < sizeof(j->parts)) {
		at += (size_t)snprintf(j->parts + at, sizeof(j->parts) - at, "%s\"%s_s\":%.6g",
				       at ? "," : "", name, v);
		p += n;
	}
	if (worst && sscanf(worst, "buffers: rank %d (%lf s)", &r, &v) == 2 && at < sizeof(j->parts))
		snprintf(j->parts + at, sizeof(j->parts) - at, ",\"worst_rank\":%d,"
			 "\"worst_buffers_s\":%.6g", r, v);
}

static void put_string(FILE *f, const char *s)
{
	struct strbuf b;

	strbuf_init(&b);
	text_add_json(&b, s);
	fputs(b.s && !b.failed ? b.s : "\"\"", f);
	strbuf_release(&b);
}

struct json *json_open(const char *path, char *err, size_t errlen)
{
	struct json *j = calloc(1, sizeof(*j));
	char target[4096], why[4352];
	size_t n;

	if (replace_target(path, JSON_MAGIC, target, sizeof(target), why, sizeof(why)) != 0) {
		snprintf(err, errlen, "--json: %s", why);
		free(j);
		return NULL;
	}
	n = strlen(target) + 6;
	if (j) {
		j->path = strdup(target);
		j->part = malloc(n);
	}
	if (!j || !j->path || !j->part) {
		snprintf(err, errlen, "out of memory for --json");
		json_close(j);
		return NULL;
	}
	snprintf(j->part, n, "%s.part", target);
	j->f = replace_create(j->part, "--json file ", why, sizeof(why));
	if (!j->f) {
		snprintf(err, errlen, "%s", why);
		json_close(j);
		return NULL;
	}
	for (int i = 0; i < JSON_MAX_KEYS; i++)
		strbuf_init(&j->values[i]);
	return j;
}

static void header_add(struct json *j, const char *key, const char *value)
{
	int i;

	for (i = 0; i < j->nkeys && strcmp(j->keys[i], key) != 0; i++)
		;
	if (i == j->nkeys) {
		if (j->nkeys == JSON_MAX_KEYS)
			return;
		j->keys[j->nkeys++] = key;
	}
	if (j->counts[i]++)
		strbuf_addf(&j->values[i], ",");
	text_add_json(&j->values[i], value);
}

static void header_write(struct json *j)
{
	fputs("{\"record\":\"header\"", j->f);
	for (int i = 0; i < j->nkeys; i++) {
		const char *v = j->values[i].s ? j->values[i].s : "\"\"";
		fputc(',', j->f);
		put_string(j->f, j->keys[i]);
		fprintf(j->f, j->counts[i] > 1 ? ":[%s]" : ":%s", v);
	}
	fputs("}\n", j->f);
	j->header_done = 1;
}

static void text_record(struct json *j, const char *record, const char *text)
{
	fprintf(j->f, "{\"record\":\"%s\",\"level\":%d,\"text\":", record, j->level);
	put_string(j->f, text);
	fputs("}\n", j->f);
}

void json_fact(struct json *j, const char *key, const char *value)
{
	if (!j)
		return;
	if (!j->header_done) {
		header_add(j, key, value);
		if (strcmp(key, ALLER_KEY_COLUMNS) == 0)   /* the header's last line */
			header_write(j);
		return;
	}
	if (!strcmp(key, ALLER_KEY_LEVEL) || !strcmp(key, ALLER_KEY_ALGO) ||
	    !strcmp(key, ALLER_KEY_SPLIT) || !strcmp(key, ALLER_KEY_SIZES))
		return;   /* the set record's */
	if (!strcmp(key, ALLER_KEY_FAILED) || !strcmp(key, ALLER_KEY_SKIPPED) ||
	    !strcmp(key, ALLER_KEY_FLOOR_FAILED)) {
		text_record(j, key, value);
	} else if (!strcmp(key, ALLER_KEY_WALL)) {
		snprintf(j->wall, sizeof(j->wall), "%s", value);
	} else if (!strcmp(key, ALLER_KEY_WALL_PARTS)) {
		parts_members(j, value);
	} else {
		fputs("{\"record\":\"fact\",\"key\":", j->f);
		put_string(j->f, key);
		fputs(",\"value\":", j->f);
		put_string(j->f, value);
		fputs("}\n", j->f);
	}
}

void json_set(struct json *j, int level, long target, long comms, long commsize,
	      const char *algo, const char *split)
{
	if (!j)
		return;
	j->level = level;
	snprintf(j->algo, sizeof(j->algo), "%s", algo);
	free(j->split);
	j->split = strdup(split ? split : "uniform");
	fprintf(j->f, "{\"record\":\"set\",\"level\":%d,\"target\":%ld,\"comms\":%ld,"
		"\"commsize\":%ld,\"algo\":", level, target, comms, commsize);
	put_string(j->f, j->algo);
	fputs(",\"split\":", j->f);
	put_string(j->f, j->split ? j->split : "uniform");
	fputs("}\n", j->f);
}

/* One column by its kind (format.h): numbers; null where the text has "-" (or NaN). */
static void col_COUNT(FILE *f, const char *name, long v)
{
	fprintf(f, ",\"%s\":%ld", name, v);
}

static void col_RANK(FILE *f, const char *name, long v)
{
	col_COUNT(f, name, v);
}

static void col_REAL(FILE *f, const char *name, double v)
{
	if (isfinite(v))
		fprintf(f, ",\"%s\":%.6e", name, v);
	else
		fprintf(f, ",\"%s\":null", name);
}

static void col_OPT(FILE *f, const char *name, double v)
{
	col_REAL(f, name, v);
}

static void col_ORANK(FILE *f, const char *name, double v)
{
	if (isnan(v))
		fprintf(f, ",\"%s\":null", name);
	else
		col_COUNT(f, name, (long)v);
}

static void col_TEXT(FILE *f, const char *name, const char *v)
{
	fprintf(f, ",\"%s\":", name);
	if (v[0])
		put_string(f, v);
	else
		fputs("null", f);
}

void json_row(struct json *j, const struct row *w)
{
	if (!j)
		return;
	fprintf(j->f, "{\"record\":\"row\",\"level\":%d,\"algo\":", j->level);
	put_string(j->f, j->algo);
	fputs(",\"split\":", j->f);
	put_string(j->f, j->split ? j->split : "uniform");
#define COL_(ID, name, kind, value, meaning) col_##kind(j->f, #name, value);
	ALLER_COLUMNS(COL_, COL_)
#undef COL_
	fputs("}\n", j->f);
}

int json_finish(struct json *j, char *err, size_t errlen)
{
	char why[4352];
	int e;

	if (!j)
		return 0;
	fputs("{\"record\":\"end\",\"wall\":", j->f);
	put_string(j->f, j->wall);
	if (j->parts[0])
		fprintf(j->f, ",\"wall_parts\":{%s}", j->parts);
	fputs(",\"done\":true}\n", j->f);
	e = replace_commit(j->f, j->part, j->path, JSON_MAGIC, why, sizeof(why));
	j->f = NULL;
	if (e != 0) {
		snprintf(err, errlen, "--json: %s", why);
		return -1;
	}
	j->finished = 1;
	return 0;
}

void json_close(struct json *j)
{
	if (!j)
		return;
	if (j->f)
		fclose(j->f);
	if (!j->finished && j->part)
		remove(j->part);
	for (int i = 0; i < JSON_MAX_KEYS; i++)
		strbuf_release(&j->values[i]);
	free(j->path);
	free(j->part);
	free(j->split);
	free(j);
}
