/*
 * osc.h: which of Open MPI's one-sided (osc) components --algo=put runs on,
 * without MPI. Open MPI 4.1's osc rdma, its default without UCX, cannot
 * make a window on one task (open-mpi/ompi#10726), and it names a window's
 * shared-memory segment by host, job and communicator id, which the
 * concurrent communicators of one MPI_Comm_split share: their windows on one
 * node collide (MPI_Win_create fails, or MPI_Put spins forever; measured
 * here at commsize 2 of 4 ranks). Its osc pt2pt makes every window aller
 * needs. Open MPI 5 has no pt2pt, and its rdma reaches every task through
 * any BTL (ompi#7830); aller leaves it to its defaults (not tested here).
 */
#ifndef ALLER_OSC_H
#define ALLER_OSC_H

/*
 * What aller sets OMPI_MCA_osc to before MPI_Init when put is asked for:
 * "pt2pt" under Open MPI 1-4 (ompi_major) when the variable (env, NULL when
 * unset) is unset or empty; else NULL: the user's choice, or the library's.
 */
const char *osc_choice(const char *env, int ompi_major);
/*
 * Whether Open MPI 1-4 may pick its osc rdma for a window under
 * OMPI_MCA_osc=env: the list names it, or excludes ("^...") others only,
 * or is unset (the default picks rdma without UCX). 0 elsewhere.
 */
int osc_rdma_possible(const char *env, int ompi_major);

#endif
