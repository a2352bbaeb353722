/*
 * fabricmap.h: what the rows' bound_s knows of the fabric (world/eff.h):
 * each node's leaf and each leaf's uplink rate from --fabric=FILE
 * (common/fabricfile.h), each node's NIC rate where '# limit:' has none,
 * and the names bottleneck gives (MPI).
 */
#ifndef ALLER_FABRICMAP_H
#define ALLER_FABRICMAP_H

struct eff_limits;
struct fabricfile;
struct world;

/*
 * Collective where declared (--fabric=FILE, on every task): fills e's
 * fabric part (eff.h) from ff (rank 0's parsed file) and every task gets
 * each node's leaf. Without a file no leaf is known and nothing is sent:
 * rank 0 alone fills its part (the bound from the NICs and memory, partial
 * where bytes leave a node), the others keep a NULL leaf. 0, or -1 out of
 * memory (every task agreeing, said).
 */
int fabric_map(struct eff_limits *e, const struct fabricfile *ff, int declared, const struct world *w);
void fabric_map_free(struct eff_limits *e);

#endif
