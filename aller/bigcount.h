/* bigcount.h: how aller moves counts above INT_MAX per peer (MPI). */
#ifndef ALLER_BIGCOUNT_H
#define ALLER_BIGCOUNT_H

#include <mpi.h>

/* For the header: how counts above INT_MAX are sent. */
const char *bigcount_describe(void);

/*
 * The datatype and count that move `count` longs per peer: MPI_LONG and the
 * count itself when it fits an int; above, with MPI-4, *big is set and
 * MPI_Alltoall_c takes the count as it is; before, one element of a derived
 * datatype (committed: the caller frees it when it is not MPI_LONG).
 */
void bigcount_type(long count, MPI_Datatype *type, int *n, int *big);

#endif
