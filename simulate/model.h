/*
 * model.h: the fabric simulator's model of one row, as pure logic (no MPI,
 * no buffers): a site's fabric file, the faults applied to a copy of it, and
 * each row's columns from common/bound.c's per-link loads plus a seeded noise.
 *
 * The model (docs/simulate.md): tasks are placed block (rank r on node r /
 * tasks per node; with rails on its node's NIC of rail r % tasks per node %
 * rails), split as aller splits them (common/partition.h). Every
 * link's least time for the row is its bytes / its rate on the faulted
 * fabric (bound_times); a task's call takes the longest of the links on its
 * path (its NIC, the uplink of each switch from its leaf to the top, a
 * dragonfly's global links where its communicator spans groups, a slowed
 * pair of groups where it spans both), or of its node's memory (its tasks'
 * in + out bytes / its copy rate, SIM_COPY_GBS unless set), whichever is longer, plus SIM_PEER_S per
 * member of its communicator; a slow node's tasks take FACTOR times their
 * memory and per-member time. A communicator's call ends with its slowest member. Each call
 * (communicator, iteration) is then divided by an efficiency drawn uniformly
 * from SIM_EFF_LO..SIM_EFF_HI (the spread of eff_bound the local cluster
 * measures), and each task's sample by 1 + a jitter up to SIM_JITTER.
 *
 * The row's bound_s and bottleneck are what aller would write: the bound on
 * the fabric as the file declares it (a fault is what the run finds, not
 * what the site knows), or the busiest node's memory at the copy rate its
 * '# limit: copy' line says (aller's own copy, measured: FACTOR times lower
 * on a slow node), whichever is longer.
 */
#ifndef SIMULATE_MODEL_H
#define SIMULATE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "bound.h"
#include "fabricfile.h"
#include "format.h"

#define SIM_EFF_LO 0.70
#define SIM_EFF_HI 0.98
#define SIM_JITTER 0.02
#define SIM_COPY_GBS 400.0   /* a node's memory copy, GB/s read + written: a two-socket DDR5 node's (docs/simulate.md) */
#define SIM_PEER_S 2e-7

/* One of the fabric: the file's, or with the faults applied. */
struct sim_fabric {
	struct bound_fabric f;
	long *leaf, *parent, *group;
	double *nic, *uplink;
};

struct sim {
	const struct fabricfile *ff;
	long nnodes;                 /* the hosts, names[0..nnodes) */
	const char **names;
	long rails, nnic;            /* the file's rails (0: one NIC a node), the NICs: nnodes x rails */
	long *node_at, *host;        /* per NIC: the file's entry, its host */
	char **nic_name;             /* per NIC: NODE, or NODE:IF with rails */
	struct sim_fabric declared, real;
	double *slow;                /* per node: its compute and copy factor (slow-node), 1 none */
	double *way[2];              /* per NIC: slow-rx's [0], slow-tx's [1] rate, 0 none (the pair matrix's one way) */
	long pair[2];                /* slow-global: the groups, -1 none */
	double pair_rate;
	double copy;                 /* a node's memory copy rate, GB/s read + written (SIM_COPY_GBS, --copy) */
	uint64_t seed;
};

/*
 * The model of nodes names[0..n) (each declared in ff, which outlives s);
 * 0, or -1 with one line in err (a node the file does not place).
 */
int sim_init(struct sim *s, const struct fabricfile *ff, const char *const *names, long n, uint64_t seed,
	     char *err, size_t errlen);
/*
 * One fault applied to s->real: "slow-nic NODE[:IF] RATE", "slow-tx ...",
 * "slow-rx ...", "slow-uplink SWITCH RATE", "slow-global GROUP GROUP RATE",
 * "move NODE[:IF] SWITCH", "slow-node NODE FACTOR" (NODE: all its NICs; NODE:IF
 * one, with rails). 0, or -1 with one line in err.
 */
int sim_fault(struct sim *s, const char *fault, char *err, size_t errlen);
/* Each fault of a ';'-separated list (blank ones skipped); 0, or -1 with the first bad one's line. */
int sim_faults(struct sim *s, const char *list, char *err, size_t errlen);
void sim_free(struct sim *s);

/*
 * The row of one level and count on the first `nodes` nodes of s: its
 * columns (ALLER_COLUMNS' order) as text in col[ALLER_NCOLS] (each up to 64
 * bytes), the tasks tpn a node, iters timed calls, the noise drawn from
 * s->seed and (level, count, iter); 0, or -1 when out of memory.
 */
int sim_row(const struct sim *s, long nodes, long tpn, int strided, long target, long count, long iters,
	    char col[ALLER_NCOLS][64]);

/* The noise: a number in [0, 1) from a seed and three more numbers (splitmix64). */
double sim_uniform(uint64_t seed, uint64_t a, uint64_t b, uint64_t c);

#endif
