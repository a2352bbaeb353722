/* failure.c: see failure.h. */
#include "failure.h"
#include "text.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "faults.h"
#include "output.h"
#include "world_comm.h"

/* The lowest failed rank, agreed by all (w->size when none); it prints msg. */
static int agree_first(const struct world *w, int failed, const char *msg)
{
	int first = failed ? w->rank : w->size;

	int rc = MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, world_comm(w));

	if (rc != MPI_SUCCESS) {
		char err[MPI_MAX_ERROR_STRING];
		int len;
		MPI_Error_string(rc, err, &len);
		text_error(0, "aller: error: rank %d on %s: MPI_Allreduce failed while agreeing "
			"on errors: %s%s%s\n", w->rank, world_host(w), err, failed ? "; and: " : "",
			failed ? msg : "");
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	if (first == w->rank && failed)
		text_error(0, "aller: error: rank %d on %s: %s\n", w->rank, world_host(w), msg);
	return first;
}

int failure_agree(const struct world *w, int failed, const char *msg)
{
	return agree_first(w, failed, msg) < w->size;
}

int failure_agree_text(const struct world *w, int failed, char *msg, size_t len)
{
	int first = agree_first(w, failed, msg);
	size_t n;

	if (first == w->size || len < 2)
		return 0;
	if (first == w->rank) {
		char *mine = strdup(msg);
		snprintf(msg, len, "rank %d on %s: %s", w->rank, world_host(w), mine ? mine : "?");
		free(mine);
	}
	n = strlen(msg) + 1;
	MPI_MUST(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG, first, world_comm(w)));
	MPI_MUST(MPI_Bcast(msg, (int)(n < len ? n : len), MPI_CHAR, first, world_comm(w)));
	msg[len - 1] = '\0';
	return 1;
}

int failure_data_set(const struct world *w, FILE *out, const char *algo, int index, long g,
		     const char *what, int rc, const char *why)
{
	char msg[MPI_MAX_ERROR_STRING + 640] = "", err[MPI_MAX_ERROR_STRING] = "";
	int len = 0;

	if (rc != MPI_SUCCESS) {
		if (!why)
			MPI_Error_string(rc, err, &len);
		snprintf(msg, sizeof(msg), "%s: %s failed at level %d (commsize %ld): %s", algo, what,
			 index, g, why ? why : err);
	}
	if (!failure_agree_text(w, rc != MPI_SUCCESS, msg, sizeof(msg)))
		return 0;
	if (out)
		output_failed(out, msg);
	return 1;
}

void failure_mpi(const struct world *w, int rc, int lowest, const char *what, int index,
		 long count)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len;

	if (rc == MPI_SUCCESS)
		return;
	MPI_Error_string(rc, msg, &len);
	if (!lowest)
		sleep(1);
	text_error(0, "aller: error: rank %d on %s: %s failed at level %d, count %ld: %s\n",
		w->rank, world_host(w), what, index, count, msg);
	MPI_Abort(MPI_COMM_WORLD, 3);
}
