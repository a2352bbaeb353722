/*
 * tablerow.h: a table collect writes (a CSV or a TSV), declared once as a list
 * of its columns, X(name, type, field) each, in order. From the list come
 * the struct of a row (TABLE_STRUCT), the header (TABLE_HEADER) and the
 * writer of a row (TABLE_ROW): a new column is one line in its declaration
 * plus the code that fills its field, and no reader or second writer can
 * disagree with the header. Types:
 *   LONG  an integer; empty below 0
 *   REAL  %.6e; empty where not finite
 *   G     %.6g; empty where not finite
 *   F3    %.3f; empty where not finite
 *   TEXT  a string; empty for NULL; in a CSV quoted where it needs it
 *         (a comma, a quote, a line break), in a TSV its tabs and line
 *         breaks written as spaces
 *   ESC   a string in a TSV written so that it reads back whole
 *         (common/text.h's text_add_tsv: a backslash, tab, newline or
 *         carriage return as \\, \t, \n, \r)
 * A row goes to a FILE or to a strbuf (a table gathered before it is
 * written whole).
 */
#ifndef COMMON_TABLEROW_H
#define COMMON_TABLEROW_H

#include <stdio.h>

#include "strbuf.h"

struct table_out {
	FILE *f;            /* where rows go, or */
	struct strbuf *b;   /* ... here (f NULL) */
	char sep;           /* ',' (CSV) or '\t' (TSV) */
	int first;          /* (TABLE_ROW's: the row's first column is next) */
};

#define TABLE_CTYPE_LONG long
#define TABLE_CTYPE_REAL double
#define TABLE_CTYPE_G double
#define TABLE_CTYPE_F3 double
#define TABLE_CTYPE_TEXT const char *
#define TABLE_CTYPE_ESC const char *
#define TABLE_FIELD_(name, type, field) TABLE_CTYPE_##type field;
/* struct TAG { one field per column }, from the list COLUMNS. */
#define TABLE_STRUCT(tag, COLUMNS) struct tag { COLUMNS(TABLE_FIELD_) }

#define TABLE_NAME_(name, type, field) #name,
/* The header row of the list COLUMNS onto t. */
#define TABLE_HEADER(t, COLUMNS) \
	do { \
		static const char *const names_[] = { COLUMNS(TABLE_NAME_) }; \
		table_header((t), names_, sizeof(names_) / sizeof(names_[0])); \
	} while (0)

#define TABLE_PUT_(name, type, field) table_##type(t_, r_->field);
/* One row onto t from r, a pointer to the list's struct. */
#define TABLE_ROW(t, r, COLUMNS) \
	do { \
		struct table_out *t_ = (t); \
		const __typeof__(*(r)) *r_ = (r); \
		t_->first = 1; \
		COLUMNS(TABLE_PUT_) \
		table_end(t_); \
	} while (0)

void table_header(struct table_out *t, const char *const *names, size_t n);
void table_LONG(struct table_out *t, long v);
void table_REAL(struct table_out *t, double v);
void table_G(struct table_out *t, double v);
void table_F3(struct table_out *t, double v);
void table_TEXT(struct table_out *t, const char *s);
void table_ESC(struct table_out *t, const char *s);
void table_end(struct table_out *t);

#endif
