/* state.h: 'collect --state FILE...': each point file's state, for the campaign scripts. */
#ifndef COLLECT_STATE_H
#define COLLECT_STATE_H

/*
 * Prints "STATE<TAB>REASON<TAB>FILE" per file: complete, incomplete, failed
 * (point.h has the rules) or missing; REASON is "-" for a complete point.
 * With --points first (files or directories): per point key, a file's
 * '# point:' line, "KEY<TAB>STATE<TAB>REASON<TAB>FILE<TAB>FILES": the file
 * a merge takes (point_newer) and how many files the key has. Returns 0,
 * 2 when no file is given or one cannot be listed, 3 out of memory.
 */
int state_main(int nfiles, char **files);

#endif
