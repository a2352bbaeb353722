/*
 * findings.h: what a merged campaign found, from the collector's own merged
 * tables (points-index.csv, points.csv, pairs.tsv) in DIR: models.csv (a
 * Hockney fit per curve, models.h) and findings.json (a list of findings,
 * each with kind, severity, one sentence, its numbers and the points and
 * data sets it rests on; docs/plots.md says when each kind is emitted), and
 * findings.tsv, the same for the report (severity, kind, text, points),
 * and suspects.tsv (suspects.h).
 * Both are written whole (FILE.part renamed) or not at all.
 */
#ifndef COLLECT_FINDINGS_H
#define COLLECT_FINDINGS_H

#include <stddef.h>

/* 0, or -1 with a one-line message in err (a table unreadable, a write failed). */
int findings_run(const char *dir, char *err, size_t errlen);

#endif
