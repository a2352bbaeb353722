/* bigcount.h: how aller moves counts above INT_MAX per peer (MPI). */
#ifndef ALLER_BIGCOUNT_H
#define ALLER_BIGCOUNT_H

#include <mpi.h>

/* For the header: how counts above INT_MAX are sent. */
const char *bigcount_describe(void);

/*
 * The datatype and count that move `count` longs per peer: MPI_LONG and the
 * count itself when it fits an int; above, with MPI-4 and a caller that
 * takes large counts (large), *big is set and the _c call takes the count as
 * it is; else one element of a derived datatype (committed: the caller frees
 * it when it is not MPI_LONG).
 */
void bigcount_type(long count, int large, MPI_Datatype *type, int *n, int *big);

#endif
