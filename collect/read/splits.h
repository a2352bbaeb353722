/*
 * splits.h: the splits of the data sets (aller's '# split:', one word), as
 * small numbers for the rows: 0 is uniform (no '# split:'), the others in
 * the order first seen. One table per collect run.
 */
#ifndef COLLECT_SPLITS_H
#define COLLECT_SPLITS_H

#include <stddef.h>

#define SPLITS_MAX 255
#define SPLITS_UNIFORM "uniform"

/* The id of a split's name (len bytes); -1 when SPLITS_MAX are taken or out of memory. */
int splits_id(const char *name, size_t len);
/* Its name: "uniform" for 0, "?" out of range. */
const char *splits_name(int id);

#endif
