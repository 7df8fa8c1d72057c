/* Several load nodes over Open MPI (dist.h): start and stop together, and
 * the exact merge of every rank's measurements at rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dist.h"
#include "dist_mpi.h"

static bool on;
static int my_rank, nranks = 1;
static int stopper = -1;
static MPI_Request sync_req = MPI_REQUEST_NULL;
static int sync_in[3], sync_out[3];

int rpb_dist_init(int *argc, char ***argv, char *msg, size_t n)
{
	/* Only under mpirun: a standalone run never starts MPI. */
	if (!getenv("OMPI_COMM_WORLD_SIZE"))
		return 0;
	int provided = 0;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		snprintf(msg, n, "MPI could not start; check the mpirun command line");
		return -1;
	}
	if (provided < MPI_THREAD_FUNNELED) {
		snprintf(msg, n, "this MPI library offers no MPI_THREAD_FUNNELED; use Open MPI from Debian");
		MPI_Abort(MPI_COMM_WORLD, 2);
		return -1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	on = true;
	return 0;
}

void rpb_dist_finalize(void)
{
	if (on)
		MPI_Finalize();
	on = false;
}

bool rpb_dist_on(void)
{
	return on;
}

int rpb_dist_rank(void)
{
	return my_rank;
}

int rpb_dist_size(void)
{
	return nranks;
}

const char *rpb_dist_thread_level(void)
{
	return on ? "funneled" : "none";
}

/* Waits for a non-blocking call, testing it every millisecond: a blocking
 * collective in Open MPI polls a core at full speed while it waits. */
void rpb_dist_wait(MPI_Request *r)
{
	int done = 0;
	MPI_Test(r, &done, MPI_STATUS_IGNORE);
	while (!done) {
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
		MPI_Test(r, &done, MPI_STATUS_IGNORE);
	}
}

bool rpb_dist_agree(bool ok)
{
	if (!on)
		return ok;
	int mine = ok, all = 0;
	MPI_Request r;
	MPI_Iallreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &r);
	rpb_dist_wait(&r);
	return all != 0;
}

void rpb_dist_bcast(void *buf, size_t n)
{
	if (!on)
		return;
	MPI_Request r;
	MPI_Ibcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &r);
	rpb_dist_wait(&r);
}

bool rpb_dist_sync(int stop, bool done, int *peer_stop, int *who, bool *all_done)
{
	if (!on) {
		*peer_stop = 0;
		*who = -1;
		*all_done = done;
		return true;
	}
	if (sync_req == MPI_REQUEST_NULL) {
		/* Largest wins: a signal before a slow limit before an error. */
		sync_in[0] = stop;
		sync_in[1] = !done;
		sync_in[2] = stop ? my_rank + 1 : 0;
		MPI_Iallreduce(sync_in, sync_out, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &sync_req);
	}
	int flag = 0;
	MPI_Test(&sync_req, &flag, MPI_STATUS_IGNORE);
	if (!flag)
		return false;
	*peer_stop = sync_out[0];
	if (sync_out[2] && stopper < 0)
		stopper = sync_out[2] - 1;
	*who = stopper;
	*all_done = sync_out[1] == 0;
	return true;
}

int rpb_dist_stopper(void)
{
	return stopper;
}
