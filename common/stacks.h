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
 * disagree: never guessed which one wins). reveal: the PML list gets
 * ",monitoring". desc: what was set, "VAR=value ...", for the header.
 */
int stack_apply(const struct stack *s, int reveal, const char *(*get)(const char *),
		int (*set)(const char *, const char *), char *desc, size_t desclen, char *err, size_t errlen);

#endif
