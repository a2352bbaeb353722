/* dirs.h: "mkdir -p", shared by aller (reveal matrices) and collect (its -o DIR). */
#ifndef ALLER_DIRS_H
#define ALLER_DIRS_H

/* Creates path and its missing parents. 0, or -1 with errno set. */
int dirs_make(const char *path);

#endif
