/*
 * table.h: reading the collector's own merged CSV tables back (points.csv,
 * points-index.csv) by column name, for the findings and the export.
 */
#ifndef COLLECT_TABLE_H
#define COLLECT_TABLE_H

#include <stddef.h>
#include <stdio.h>

#define TABLE_FIELDS 64

/* Splits a CSV line in place (quoted fields: "" is one quote); the number of fields. */
int table_split(char *s, char **f, int max);
/* DIR/NAME opened, its header read, at[i] the field of want[i] (-1 absent); NULL when unreadable. */
FILE *table_open(const char *dir, const char *name, char *line, size_t len,
		 const char *const *want, int *at, int nwant);
/* Field `at` of a split line as a number, NAN when absent, empty or not a number. */
double table_num(char **f, int n, int at);
/* ... as a whole number: -1 when empty, not a number or out of range. */
long table_long(char **f, int n, int at);
/* ... as text ("" when absent). */
void table_copy(char *dst, size_t len, char **f, int n, int at);

/*
 * A merged DIR's facts.tsv: each point's first value of KEY (its '# start:',
 * ...) into vals[point], 0 <= point < np, malloc'd (NULL where it has none;
 * free them); 0, or -1 without the file. What the merge parsed, never the
 * outputs again.
 */
int table_point_facts(const char *dir, const char *key, char **vals, long np);
/* The least value of KEY over a merged DIR's facts ("# start:": its earliest start) into out, "" with none. */
void table_earliest(const char *dir, const char *key, char *out, size_t len);
/* Calls fn(ctx, point, key, value) for each of facts.tsv's lines of a point 0..np-1, in
 * order; 0, or -1 without the file. */
int table_each_fact(const char *dir, long np,
		    void (*fn)(void *ctx, long point, const char *key, const char *value), void *ctx);

/*
 * The '# slow_link:' lines of the --pairs points a merged DIR's pairs.tsv
 * names, as facts.tsv holds them: each with its point's start and campaign
 * ("" unknown) and point to each (NULL: only counted); how many.
 */
typedef void table_link_fn(void *ctx, const char *link, const char *since, const char *campaign,
			   long point);
long table_slow_links(const char *dir, table_link_fn *each, void *ctx);

#endif
