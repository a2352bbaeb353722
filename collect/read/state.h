/* state.h: 'collect --state FILE...': each point file's state, for the campaign scripts. */
#ifndef COLLECT_STATE_H
#define COLLECT_STATE_H

/*
 * Prints "STATE<TAB>REASON<TAB>FILE" per file: complete, incomplete, failed
 * (point.h has the rules) or missing; REASON is "-" for a complete point.
 * Returns 0, or 2 when no file is given.
 */
int state_main(int nfiles, char **files);

#endif
