/* must.c: see must.h. */
#include "must.h"
#include "text.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "faults.h"

/* Whether ALLER_TEST_MPI_ERROR turns this call into a failed one (once). */
static int injected(const char *call, const char *file, int line)
{
	static int done;
	const struct faults *f = faults();
	char where[512];
	int rank;

	if (done || f->mpi_error_rank < 0 || MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS ||
	    rank != f->mpi_error_rank)
		return 0;
	snprintf(where, sizeof(where), "%s:%d %s", strrchr(file, '/') ? strrchr(file, '/') + 1
		 : file, line, call);
	return done = strstr(where, f->mpi_error_where) != NULL;
}

void failure_must(int rc, const char *call, const char *file, int line)
{
	char msg[MPI_MAX_ERROR_STRING] = "", host[MPI_MAX_PROCESSOR_NAME] = "?";
	int len, rank = -1;

	if (rc == MPI_SUCCESS && !injected(call, file, line))
		return;
	if (rc == MPI_SUCCESS)
		rc = MPI_ERR_OTHER;
	MPI_Error_string(rc, msg, &len);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Get_processor_name(host, &len);
	text_error(0, "aller: error: rank %d on %s: %.*s failed (%s:%d): %s\n", rank, host,
		(int)strcspn(call, "("), call, file, line, msg);
	MPI_Abort(MPI_COMM_WORLD, 3);
}
