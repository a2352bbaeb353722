/*
 * stacks.h: the MPI stacks aller runs on, one table, a row a stack: its
 * name, the MPI it belongs to, what it is, and the environment it sets
 * before MPI_Init (aller --stack=NAME, or ALLER_STACK=NAME, which a
 * campaign's VARIANTS row sets: docs/campaigns.md). A stack runs over the
 * NICs MPI is told to use: where OMPI_MCA_btl_tcp_if_include names them and
 * the stack's own variable does not, UCX_NET_DEVICES or FI_TCP_IFACE is set
 * to them; with --reveal the PML list gets Open MPI's monitoring component.
 * A site's own stack (Cray MPICH, MVAPICH, Intel MPI) is a VARIANTS row of
 * its assignments, or a row here. Pure: the environment through callbacks.
 */
#ifndef COMMON_STACKS_H
#define COMMON_STACKS_H

#include <stddef.h>

struct stack {
	const char *name, *mpi;     /* mpi: "openmpi" or "mpich" */
	const char *what;
	const char *sets;           /* "VAR=value VAR=value ...", in order */
};

/* The stack named so, or NULL. */
const struct stack *stack_named(const char *name);
/* Every stack's name, ", "-separated, for the messages. */
void stack_names(char *buf, size_t len);

/*
 * The stack's assignments, and those it takes from the site's (above),
 * each as set(VAR, value) where get(VAR) is unset; 0, or -1 with one line
 * in err where get(VAR) holds another value (the environment and the stack
 * disagree: never guessed which one wins), and then nothing is set: every
 * assignment is checked before the first is made. set NULL: checked only
 * (aller --check-args, by the run's own rule). reveal: the PML list gets
 * ",monitoring". desc: what was set, "VAR=value ...", for the header.
 */
int stack_apply(const struct stack *s, int reveal, const char *(*get)(const char *),
		int (*set)(const char *, const char *), char *desc, size_t desclen, char *err, size_t errlen);

/*
 * The NICs the MPI stack in the environment is told to use ("IF,IF" into
 * buf), and the variable that says so (returned; NULL where none is set):
 * UCX_NET_DEVICES where UCX carries the messages (OMPI_MCA_pml naming ucx,
 * or no OMPI_MCA_pml and UCX_TLS set: MPICH's ch4:ucx), each DEVICE:PORT as
 * its device; FI_TCP_IFACE where Open MPI's OFI MTL does (OMPI_MCA_mtl
 * naming ofi); else the TCP BTL's OMPI_MCA_btl_tcp_if_include. Several:
 * each message striped over them (the TCP BTL over each interface, NIC k
 * to the peer's NIC k; UCX's multi-rail); collect's bound reads it where a
 * node has rails (aller's '# fabric: task_nics IF,IF VAR').
 */
const char *stack_nics(const char *(*get)(const char *), char *buf, size_t len);
/* Whether name is one of list's comma-separated words (an interface of a NIC list). */
int stack_listed(const char *list, const char *name);

#endif
