/*
 * text.h: strings as other formats need them, the one place for each rule:
 * valid UTF-8 (a byte that is not part of a well-formed character becomes
 * U+FFFD, the replacement character, so a Latin-1 file name or argument
 * still reads as itself, nearly, and the file stays valid for Python's json,
 * promtool and browsers), a cut on a character boundary, and the JSON string
 * that aller's --json and collect's findings.json both write.
 */
#ifndef COMMON_TEXT_H
#define COMMON_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "strbuf.h"

/* The bytes of the well-formed UTF-8 character s[0..n) begins with; 0 if none. */
size_t text_utf8_char(const char *s, size_t n);
/* The longest prefix of s of at most max bytes that ends on a character boundary. */
size_t text_utf8_cut(const char *s, size_t max);
/* s as valid UTF-8 (see above). */
void text_add_utf8(struct strbuf *b, const char *s);
/* s as a JSON string, quotes included: ", \ and control characters escaped, valid UTF-8. */
void text_add_json(struct strbuf *b, const char *s);

/*
 * s[0..n) on one line, as a terminal or a header shows it: a backslash as
 * \\, a newline, CR and tab as \n, \r, \t, any other control character
 * (C0, DEL, C1) and a byte of no well-formed UTF-8 character as \xHH. The
 * one escaper of what aller and collect echo: the output's header, and
 * every diagnostic line (text_error), so that a value a user gave cannot
 * forge a line or send a terminal its escapes.
 */
void text_escape(FILE *f, const char *s, size_t n);
/* One diagnostic line on stderr, fmt's ("aller: error: ... '%s' ...\n"), escaped but its end; returns rc. */
int text_error(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A TSV field that may hold anything (a file's path): a backslash as \\, a
 * tab as \t, a newline as \n, a carriage return as \r; the readers decode
 * it (printf '%b' in shell, which no other escape can reach since every
 * backslash is doubled).
 */
void text_add_tsv(struct strbuf *b, const char *s);

/*
 * The door every file a user names is read through (docs/security.md,
 * "Reading a user's file"; tests/door-read.sh names a read around it), by
 * its kind's row below: a regular file, or a FIFO where FIFO (a campaign's
 * @<(...)), never a directory or device, refused before a read; at most CAP
 * bytes, a larger file refused, never read in part; a NUL byte refused;
 * CRLF read as LF; with WHOLE, a last line without its newline is a file
 * cut short (written in part), refused. One line in err: "NOUN 'FILE'
 * what", or "FILE:LINE: what" for a line (every reader's own errors too).
 */
#define TEXT_KINDS(X) /* KIND, NOUN, CAP, FIFO, WHOLE */ \
	X(TEXT_WORLDS, "--check-args' file", 1L << 20, 1, 1) \
	X(TEXT_FABRIC, "fabric file", 16L << 20, 0, 0) \
	X(TEXT_MATRIX, "matrix file", 1L << 30, 0, 0) \
	X(TEXT_TRACE, "trace file", 1L << 30, 0, 0) \
	X(TEXT_PEER, "output", 256L << 20, 0, 0) \
	X(TEXT_RAW, "aller output", 1L << 40, 0, 0) \
	X(TEXT_MERGED, "merged table", 1L << 34, 0, 1) \
	X(TEXT_MANIFEST, "manifest", 1L << 30, 0, 0) \
	X(TEXT_SLURM, "Slurm's answer", 1L << 30, 1, 0)
#define TEXT_KIND_(kind, noun, cap, fifo, whole) kind,
enum text_kind { TEXT_KINDS(TEXT_KIND_) TEXT_NKINDS };

/* path opened by the kind's first rule and its cap, blocking: fd, or -1 (-2: no such file) with err. */
int text_open(const char *path, enum text_kind k, char *err, size_t errlen);
/* The whole text of path into b (the caller releases it): 0, or with err 1 (no such file) or -1. */
int text_load(const char *path, enum text_kind k, struct strbuf *b, char *err, size_t errlen);
/* Its lines, each without its newline, to line(ctx, text, number, err) until 1 (stop) or -1
 * (with err, FILE:LINE put before); returns as text_load. */
typedef int text_line_fn(void *ctx, char *line, long no, char *err, size_t errlen);
int text_lines(const char *path, enum text_kind k, text_line_fn *line, void *ctx, char *err, size_t errlen);
/* "FILE:LINE: what" into err; -1. */
int text_at(char *err, size_t errlen, const char *file, long line, const char *what);

#endif
