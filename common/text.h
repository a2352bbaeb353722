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
 * The whole text file at path into b (initialised here; the caller releases
 * it); 0, or -1 with one line in err naming it as `what` ("fabric file
 * 'F'"): it cannot be opened, read to its end, holds a NUL byte (not text)
 * or does not fit in memory.
 */
int text_load(const char *path, const char *what, struct strbuf *b, char *err, size_t errlen);

#endif
