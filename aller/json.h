/*
 * json.h: --json=FILE, the run as JSON lines (as nccl-tests -J and rccl-tests
 * --output_format json write theirs), beside the text and from the same
 * writers (output.c), never parsed back from it:
 *   {"record":"header", KEY: VALUE, ...}   every header fact by its format.h
 *       key (a key given on several lines, like host or env, an array);
 *   {"record":"set", "level":L, "target":T, "comms":C, "commsize":S,
 *       "algo":A, "split":P}                a data set opens;
 *   {"record":"row", "level":L, "algo":A, "split":P, COLUMN: VALUE, ...}
 *       every column by its name (format.h), numbers, null where "-";
 *   {"record":"failed"|"skipped"|"floor_failed", "text":T}  in their place;
 *   {"record":"fact", "key":K, "value":V}   any other line of a data set;
 *   {"record":"end", "wall":W, "done":true} after "# Done".
 * Written by world rank 0 to FILE.part, renamed to FILE when the run ends
 * with "# Done": a FILE is always whole.
 */
#ifndef ALLER_JSON_H
#define ALLER_JSON_H

#include <stddef.h>

struct json;
struct row;

/* FILE.part opened for writing; NULL with a message in err. */
struct json *json_open(const char *path, char *err, size_t errlen);
/* A "# key: value" line of the text (value as printed, unescaped). */
void json_fact(struct json *j, const char *key, const char *value);
void json_set(struct json *j, int level, long target, long comms, long commsize,
	      const char *algo, const char *split);
void json_row(struct json *j, const struct row *w);
/* The end record, then FILE.part renamed to FILE; 0, or -1 with a message (a write failed). */
int json_finish(struct json *j, char *err, size_t errlen);
/* Closes; a FILE.part not finished is removed. */
void json_close(struct json *j);

#endif
