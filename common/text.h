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
