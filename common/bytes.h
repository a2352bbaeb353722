/* bytes.h: byte counts for people, shared by aller and collect. */
#ifndef ALLER_BYTES_H
#define ALLER_BYTES_H

#include <stddef.h>

/* "64 KiB", "8 B", "1000 B": the largest binary unit that divides exactly. */
void format_bytes(char *buf, size_t len, long bytes);

#endif
