/*
 * must.h: an MPI call whose error ends the run (failure.h's second kind:
 * one line naming the call and where it is, MPI_Abort, exit 3). Apart from
 * failure.h so that the world's discovery (world.c), which failure.h's
 * agreements need, can use it too. Test hook ALLER_TEST_MPI_ERROR (faults.h).
 */
#ifndef ALLER_MUST_H
#define ALLER_MUST_H

#define MPI_MUST(call) failure_must((call), #call, __FILE__, __LINE__)
void failure_must(int rc, const char *call, const char *file, int line);

#endif
