/* output.h: aller's text output (the format is defined in format.h). */
#ifndef ALLER_OUTPUT_H
#define ALLER_OUTPUT_H

#include <stdio.h>

#include "partition.h"
#include "row.h"
#include "strbuf.h"

struct options;
struct world;

/* What the header says: the options and the world as they are, and the rest. */
struct run_info {
	const struct options *opt;
	const struct world *w;    /* size, nodes, tasks per node */
	const char *command;      /* the command line */
	const char *mpi;          /* first line of the library version */
	const char *host_map;     /* "name ranges" lines */
	const char *buffers;      /* "host" or "cuda" */
	const char *devices;      /* "name id ranks" lines (hostmap_devices), or NULL */
	const char *cuda_aware;   /* cuda: how the MPI library was found to take device pointers */
	const char *env;          /* "NAME=value" lines (output_env), or NULL */
	const char *test_hooks;   /* the ALLER_TEST_* set, "NAME=value ..." (output_test_hooks), or NULL */
	const char *selection;    /* what select_describe says */
	const char *algos;        /* algo_list_describe */
	const char *splits;       /* the --split list (split_describe), NULL when uniform alone */
	const char *transport;    /* "mpi", or "nccl <version>" */
	const char *osc;          /* put under Open MPI: algo_put_osc(), else NULL */
	const char *cache;        /* the buffers' "hot ..." or "cold ..." */
	const char *samples;      /* --samples: the files' pattern, else NULL */
	const char *congestion;   /* --congestion: who the aggressors are and what they run, else NULL */
	const char *moe;          /* --moe: the phases, else NULL */
	const char *placement;    /* --placement: its spec, else NULL */
	const char *placed;       /* ... the nodes per communicator at each level */
	const char *large_counts; /* how counts above INT_MAX are sent */
	const char *start;        /* ISO-8601 UTC */
	const char *slurm_job, *slurm_nodes; /* or NULL */
	double wtick;
	const char *reveal;       /* "# reveal:" text, or NULL when not asked for */
	const char *reveal_queues; /* the queues pass's rule, or NULL */
	const char *reveal_dir;   /* where the matrices go, or NULL */
	const char *limits;       /* the '# limit:' lines: every node's NIC rate and copy bandwidth */
	const char *fabric;       /* the '# fabric:' lines of --fabric=FILE, or NULL */
};

void output_header(FILE *f, const struct run_info *r);
/*
 * The environment that shapes the measurement, "NAME=value" lines, sorted:
 * OMPI_MCA_*, PMIX_MCA_*, UCX_*, MPICH_*, MPIR_CVAR_*, I_MPI_*, FI_*, NCCL_*,
 * CUDA_VISIBLE_DEVICES, SLURM_CPU_BIND, SLURM_DISTRIBUTION; not the
 * launcher's own per-process plumbing (OMPI_MCA_orte_*, ranks, URIs).
 */
void output_env(struct strbuf *b, char *const *env);
/* The test hooks set (world/faults.h's ALLER_TEST_*), "NAME=value" words, sorted: the header says them. */
void output_test_hooks(struct strbuf *b, char *const *env);
/*
 * Opens the data set of a level, algorithm and split (split_describe, NULL
 * for uniform: no line); the first follows the header directly.
 */
void output_level(FILE *f, const struct run_info *r, int level, const struct partition *p,
		  const char *algo, const char *split, int first);
/* In a count's place: why it was not measured (its uneven blocks do not fit). */
void output_skipped(FILE *f, long count, const char *why);
/* Communicator sizes, run-length encoded: "3x2 1" for 3 3 1. */
void output_sizes(struct strbuf *b, const struct partition *p);
void output_row(FILE *f, const struct row *row);
/* After a row of --timing=nccl: its time per call on the stream (NAN: unknown) and by the host. */
void output_stream_time(FILE *f, long count, double stream_s, double host_s);
/* After a row below --min-busbw: what it is and the floor. */
void output_floor_failed(FILE *f, const char *text);
/* --json: its writer gets every fact and row the text gets (NULL: none). */
struct json;
void output_json(struct json *j);
/* s as the header writes a value: a control character as \n, \t or \xHH. */
void output_escaped(FILE *f, const char *s);
/*
 * Lines another module writes ("# key: value", --reveal's) captured and then
 * given to the one writer, so that they reach --json as facts too:
 * output_capture returns the stream to write them to (NULL where f is NULL),
 * output_release writes them to f.
 */
struct capture {
	FILE *mem;
	char *buf;
	size_t len;
};
FILE *output_capture(struct capture *c, FILE *f);
void output_release(struct capture *c, FILE *f);
/* In a data set's place: why its set-up failed (no rows follow). */
void output_failed(FILE *f, const char *msg);
/* The sweep's wall time and the part of it inside the calls (rank 0). */
void output_wall(FILE *f, double wall, double in_calls);

/*
 * The run's time from before MPI_Init to the end, by part (rank 0's), and
 * the task that spent the most on its buffers (fill, poison, check).
 */
struct wall_parts {
	double total, startup, limits, fill, poison, check, barrier, calls, other;
	int worst_rank;
	double worst_buffers;
};
void output_wall_parts(FILE *f, const struct wall_parts *p);
/* '# nic_counters:' a line each of lines ('\n'-separated; NULL: none). */
void output_nic_counters(FILE *f, const char *lines);
void output_done(FILE *f);

/* After writing f (named name): whether every write reached it (fflush, ferror); -1 with a message. */
int output_check(FILE *f, const char *name, char *err, size_t errlen);

#endif
