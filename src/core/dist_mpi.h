/* What the MPI files of the core share (dist_mpi.c, dist_mpi_merge.c). */
#ifndef RPB_DIST_MPI_H
#define RPB_DIST_MPI_H

#include <mpi.h>

/* Waits for a non-blocking call, testing it every millisecond: a blocking
 * collective in Open MPI polls a core at full speed while it waits. */
void rpb_dist_wait(MPI_Request *r);

#endif
