/*
 * setup.h: the buffers of a run, collectively (MPI): host or device, one
 * GPU per rank by the ids each rank of a node sees, whether the MPI library
 * takes device pointers, whether every rank's buffers fit, the allocation.
 */
#ifndef ALLER_BUFFERS_SETUP_H
#define ALLER_BUFFERS_SETUP_H

#include <stddef.h>

#include "buffers.h"
#include "options.h"
#include "world/world.h"

/*
 * Collective: picks, initialises and allocates the buffers; aware: how the
 * library was found to take device pointers (for the header). 0, or an exit
 * status (2: not in this build; 3), every failure agreed with one message.
 */
int buffers_setup(const struct options *o, const struct world *w, struct buffers *b,
		  char *aware, size_t awarelen);

#endif
