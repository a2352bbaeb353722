/*
 * fabricfile.h: a site's fabric file (aller --fabric=FILE, the campaign's
 * FABRIC), read and checked as pure logic, and the '# fabric:' lines it
 * gives a run's nodes (the ones the local cluster's 'fabric.sh info' gives,
 * which collect's bound reads: docs/format.md). One declaration a line:
 *
 *   switch NAME RATE [CHILD...]  a switch, its uplink's rate each way ('-':
 *                                none, the top of the tree), and what is
 *                                under it: nodes (where Slurm's topology
 *                                does not say), or switches declared on
 *                                lines above (a tree of any depth: leaves,
 *                                then the switches above them, ...). A
 *                                switch under none hangs off the spine
 *                                (today's two tiers).
 *   nic NODE RATE                a node's NIC rate each way (where sysfs
 *                                and --line-rate do not know it)
 *   gpu NODE RATE                each GPU's port to the node's switch
 *                                (NVSwitch), each way: the on-node part
 *                                of a row is bound by it
 *   NODE:IF (as a switch's child, or in a nic line): one of a node's
 *                                several NICs, by its interface, each on
 *                                its own rail (leaf); every node so
 *                                declared has the same interfaces
 *   group NAME SWITCH...         a dragonfly's group: the tops of its trees
 *                                (switches declared above, under none)
 *   global LINKS RATE [ROUTING]  between each pair of groups LINKS global
 *                                links of RATE each way; ROUTING minimal
 *                                (the default) or adaptive (common/bound.h).
 *                                With groups, every tree's top is in one,
 *                                and a global line is needed; once.
 *
 * RATE: a number and kbit, mbit, gbit, gbps or GB/s (25gbit, 12.5GB/s).
 * NODE: a name, or a range of names as Slurm writes them: n[1-16,20],
 * node[001-128]. '#' begins a comment; blank lines are skipped.
 */
#ifndef COMMON_FABRICFILE_H
#define COMMON_FABRICFILE_H

#include <stddef.h>

#include "namehash.h"

#define FABRICFILE_NAME 64          /* a name's bytes, its NUL included */
#define FABRICFILE_RANGE 1000000    /* names one range may give, at most */

struct fabricfile_switch {
	char name[FABRICFILE_NAME], rate[FABRICFILE_NAME];   /* rate "-": no uplink */
	long parent;                        /* the switch above it, -1: the spine (or none) */
	long group;                         /* its dragonfly group, -1: none */
	long line;                          /* the line it is declared on */
};

struct fabricfile_node {
	char name[FABRICFILE_NAME];         /* NODE, or NODE:IF (a NIC of a node of several) */
	long leaf;                          /* its switch's index, -1: none declared */
	char rate[FABRICFILE_NAME];         /* "": none declared */
	long line;                          /* the line that first names it */
};

struct fabricfile {
	struct fabricfile_switch *sw;
	struct fabricfile_node *node;
	long nsw, nnode;
	size_t capsw, capnode;
	struct namehash names, swnames, gpunames;   /* of node[], sw[] and gpu[] */
	char (*group)[FABRICFILE_NAME];     /* a dragonfly's groups (ngroup), by name */
	long ngroup, group_line;            /* ... and the first group's line */
	size_t capgroup;
	long global_links, global_line;     /* the global line's: 0 none */
	char global_rate[FABRICFILE_NAME];
	int adaptive;                       /* its routing: 1 adaptive, 0 minimal */
	char (*rail)[FABRICFILE_NAME];      /* several NICs a node: their interfaces (nrail), in order */
	long nrail;
	char (*gpu)[2][FABRICFILE_NAME];    /* gpu lines: a node and its GPUs' port rate (ngpu) */
	long ngpu;
	size_t capgpu;
};

/*
 * Parses text (the file's whole contents; `file` names it in messages) into
 * ff; 0, or -1 with one line in err (the file, the line, what was wrong and
 * what is allowed), ff then empty.
 */
int fabricfile_parse(struct fabricfile *ff, const char *text, const char *file, char *err,
		     size_t errlen);
/*
 * Each name a word gives (a name, or a range: n[1-16,20], node[001-128]) to
 * each(name, ctx), in order; 0, each's first nonzero, -2 (a '[' without its
 * ']' or a second range), -3 (an item not N or A-B with A <= B, or over
 * FABRICFILE_RANGE names), -4 (no name: "n[]").
 */
int fabricfile_names(const char *word, int (*each)(const char *name, void *ctx), void *ctx);
/*
 * fabricfile_names for each word of a comma-separated list (a comma inside
 * a range's brackets is the range's: "n[1-2,5],m3"); 0, or the first
 * nonzero, with the word it came from in bad (badlen bytes).
 */
int fabricfile_list(const char *list, int (*each)(const char *name, void *ctx), void *ctx,
		    char *bad, size_t badlen);
/* Reads and parses the file at path; 0, or -1 with the message. */
int fabricfile_load(struct fabricfile *ff, const char *path, char *err, size_t errlen);

/*
 * The '# fabric:' values for a run on nodes[0..n) (malloc'd, a line each,
 * NULL when out of memory): "file PATH", every switch's "uplink_rate SWITCH
 * RATE", "parent SWITCH ABOVE" where it has one and "group SWITCH GROUP"
 * where it is in one, "global LINKS RATE ROUTING" with groups, and of each
 * of the run's nodes the file declares "switch NODE LEAF" and "nic_rate
 * NODE RATE" (with rails, of each of its NICs: "switch NODE:IF LEAF").
 */
char *fabricfile_lines(const struct fabricfile *ff, const char *path, const char *const *nodes,
		       long n);
/* The rate of a node's GPU ports (a gpu line's), or NULL. */
const char *fabricfile_gpu_rate(const struct fabricfile *ff, const char *node);
/* Whether the file declares a node (a switch's child, a nic or gpu line; with rails its first NIC). */
int fabricfile_knows(const struct fabricfile *ff, const char *node);
/* The entry of a node (or NODE:IF) the file declares, or -1. */
long fabricfile_node_at(const struct fabricfile *ff, const char *name);
void fabricfile_free(struct fabricfile *ff);

#endif
