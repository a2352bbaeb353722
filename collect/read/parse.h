/*
 * parse.h: a streaming parser of aller's output, fed one line at a time.
 * It never fails: every problem becomes a warning "file:line: what", and
 * every complete, well-formed data row is kept.
 */
#ifndef COLLECT_PARSE_H
#define COLLECT_PARSE_H

#include <stddef.h>

#include "point.h"

/* Lines longer than this are skipped with a warning (a data line is ~230). */
#define PARSE_MAX_LINE 65536
/*
 * The most a header-only parse reads: aller's header is bounded (hostmap.h:
 * one line per run of alike hosts; devices of 64 hosts), so a header longer
 * than this is not one it wrote.
 */
#define PARSE_HEADER_MAX (1024 * 1024)
#define PARSE_HEADER_MAX_TEXT "1 MiB"
#define PARSE_MAX_DATA_LINE 511
#define PARSE_MAX_WARNINGS 20   /* per file; then one line with the count */

struct parser {
	struct point *pt;
	long lineno;
	int header_only;           /* stop at the first data set, or PARSE_HEADER_MAX bytes */
	size_t seen;               /* bytes of header seen */
	int cut;                   /* the header-only parse stopped at PARSE_HEADER_MAX */
	int level;                 /* current data set, -1 before the first */
	int algo;                  /* its algorithm (ALLER_ALGO_NAMES), -1: unknown */
	int split;                 /* its split (splits.h), -1: one too many */
	long last_count;           /* its last row's count (0: none yet); counts go down */
	int pair_hosts;            /* in the rows after "# pair_hosts:" (aller --pairs) */
	int warned_binary, warned_nolevel, warned_after_done, warned_preamble;
	long warnings, suppressed;
	/* where rows and warnings go */
	void (*row)(void *ctx, const char *line, size_t len, const struct crow *r);
	void (*warn)(void *ctx, const char *path, long line, const char *msg);
	void *ctx;
};

void parser_init(struct parser *p, struct point *pt, int header_only);
/*
 * One line without its '\n' (a trailing '\r' is dropped); complete is 0 for
 * a last line without newline. Returns 1 when a header-only parse is done.
 */
int parser_line(struct parser *p, const char *line, size_t len, int complete);
/* A line over PARSE_MAX_LINE bytes, of which total were seen. */
void parser_long_line(struct parser *p, size_t total);
/* End of file: reports a missing "# Done", suppressed warnings. */
void parser_end(struct parser *p);

#endif
