/* bigcount.c: see bigcount.h. */
#include "bigcount.h"

#include "partition.h"
#include "world/failure.h"

const char *bigcount_describe(void)
{
#if MPI_VERSION >= 4
	return "MPI_Alltoall_c (MPI-4) for counts above INT_MAX with alltoall, one element of a "
	       "derived datatype (chunks of 2^30 longs) with the other algorithms";
#else
	return "one element of a derived datatype (chunks of 2^30 longs) for counts above INT_MAX";
#endif
}

/*
 * The datatype and count that move `count` longs per peer, also above
 * INT_MAX: with MPI-4, *big is set and MPI_Alltoall_c takes the count as it
 * is; before, it is one element of a derived datatype.
 */
void bigcount_type(long count, int large, MPI_Datatype *type, int *n, int *big)
{
	MPI_Datatype chunk, body, rest, both;
	long q, r;

	*big = 0;
	if (!partition_bigcount(count, &q, &r)) {
		*type = MPI_LONG;
		*n = (int)count;
		return;
	}
#if MPI_VERSION >= 4
	if (large) {
		*type = MPI_LONG;
		*n = 0;
		*big = 1;
		return;
	}
#else
	(void)large;
#endif
	MPI_MUST(MPI_Type_contiguous((int)PARTITION_CHUNK, MPI_LONG, &chunk));
	MPI_MUST(MPI_Type_contiguous((int)q, chunk, &body));
	if (r > 0) {
		int lens[2] = { 1, 1 };
		MPI_Aint disp[2] = { 0, (MPI_Aint)(q * PARTITION_CHUNK * (long)sizeof(long)) };
		MPI_Datatype types[2];
		MPI_MUST(MPI_Type_contiguous((int)r, MPI_LONG, &rest));
		types[0] = body;
		types[1] = rest;
		MPI_MUST(MPI_Type_create_struct(2, lens, disp, types, &both));
		MPI_MUST(MPI_Type_free(&rest));
		MPI_MUST(MPI_Type_free(&body));
	} else {
		both = body;
	}
	MPI_MUST(MPI_Type_create_resized(both, 0, (MPI_Aint)(count * (long)sizeof(long)), type));
	MPI_MUST(MPI_Type_commit(type));
	MPI_MUST(MPI_Type_free(&both));
	MPI_MUST(MPI_Type_free(&chunk));
	*n = 1;
}
