/*
 * algo_list.h: the algorithms aller can time (--algo), without MPI: their
 * names, the parsing of a list, what this build can run, and the pairwise
 * exchange's schedule. The operations themselves are algo.h.
 */
#ifndef ALLER_ALGO_LIST_H
#define ALLER_ALGO_LIST_H

#include <stddef.h>

#include "format.h"

/* format.h's list: ALGO_ALLTOALL ... ALGO_NCCL. */
#define ALGO_ID_(ID, name, can, per_peer, what) ALGO_##ID,
enum algo_id { ALLER_ALGOS(ALGO_ID_) ALGO_N };
#undef ALGO_ID_
/* --algo takes the MPI ones; nccl comes with --transport=nccl */
#define ALGO_MPI_N (0 ALLER_MPI_ALGOS(ALLER_ALGO_ONE_))

/* The algorithms asked for, in the order given; the default is alltoall alone. */
struct algo_list {
	enum algo_id id[ALGO_N];
	int n;
};

const char *algo_name(enum algo_id id);
void algo_list_default(struct algo_list *l);
/*
 * A comma-separated list of names (each once). 0, or -1 with a one-line
 * message (without the program name) in err.
 */
int algo_list_parse(struct algo_list *l, const char *s, char *err, size_t errlen);
/* What it can be asked for beside equal blocks (format.h's ALGO_CAN_*: its list's can). */
int algo_can(enum algo_id id, int what);
/* The bytes it keeps per peer beside the buffers (its list's per_peer). */
long algo_per_peer(enum algo_id id);
/*
 * The MPI algorithms that can `what`, in words: "--algo=alltoallv, pairwise
 * and put, and --transport=nccl" (with_flag: "--algo=" and NCCL's transport
 * where it can; else the names alone, "alltoall, ialltoall, alltoallv and
 * pairwise"), into buf.
 */
void algo_can_list(int what, int with_flag, char *buf, size_t len);
/* Whether the list has the algorithm. */
int algo_list_has(const struct algo_list *l, enum algo_id id);
/* "alltoall,pairwise": the list as given (for the header). */
void algo_list_describe(const struct algo_list *l, char *buf, size_t len);
/*
 * ALLER_TEST_NCCL_STUB (tests only): --transport=nccl's output path without
 * a GPU, in any build: the nccl data sets and header, moved by MPI_Alltoall
 * on host buffers.
 */
int algo_nccl_stubbed(void);
/* NULL when this build runs it, else why not (one line). ALLER_NCCL: a NCCL=1 build. */
const char *algo_unavailable(enum algo_id id);
/*
 * Step k (0..g-1) of the pairwise exchange of rank r in a group of g: it
 * sends to (r + k) mod g and receives from (r - k) mod g, so over the g
 * steps every ordered pair meets exactly once, the rank itself at step 0.
 */
void algo_pairwise_step(long r, long k, long g, long *to, long *from);
/* Steps pairwise posts before it waits for them: 2 x this many requests at most. */
#define ALGO_PAIRWISE_WINDOW 64

#endif
