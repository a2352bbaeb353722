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
 * The door every file a user names is read through (docs/security.md,
 * "Reading a user's file"; tests/doors.sh lists the reads that go around
 * it), by its kind's rules, one row each below:
 *   - a regular file, or a FIFO where the kind says (a campaign's @<(...)),
 *     never a directory, device or socket: refused before a read, and a
 *     FIFO's open never blocks;
 *   - at most CAP bytes: a larger file is refused, never read in part;
 *   - text: a NUL byte is refused (FILE:LINE);
 *   - CRLF is read as LF (a file from Windows): "\r\n" is "\n", everywhere;
 *   - WHOLE: the last line ends with a newline; one without is a file cut
 *     short (written in part: a full disk, a writer killed) and refused.
 * One line in err: "NOUN 'FILE' what" for the file, "FILE:LINE: what" for
 * a line of it (every reader's own errors too).
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
#undef TEXT_KIND_

/* path opened for reading by the kind's first rule: the descriptor (blocking), or -1 with err. */
int text_open(const char *path, enum text_kind k, char *err, size_t errlen);
/* The whole text of path into b (initialised here; the caller releases it): 0, or -1 with err. */
int text_load(const char *path, enum text_kind k, struct strbuf *b, char *err, size_t errlen);
/*
 * path's lines in order, each without its newline (nor a CR before it):
 * line(ctx, text, its number, err) until it returns 1 (stop: 0 returned) or
 * -1 (with err saying what: "FILE:LINE: " is put before it); 0, or -1.
 */
typedef int text_line_fn(void *ctx, char *line, long no, char *err, size_t errlen);
int text_lines(const char *path, enum text_kind k, text_line_fn *line, void *ctx, char *err,
	       size_t errlen);
/* "FILE:LINE: what" into err; -1. */
int text_at(char *err, size_t errlen, const char *file, long line, const char *what);

#endif
