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
/* The supervisor's exchange: stop and done flags (max), progress counts
 * (sum), window extremes (max, the min as UINT64_MAX - min). */
static MPI_Request sync_req[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
static int sync_in[3], sync_out[3];
static uint64_t sum_in[5], sum_out[5], max_in[2], max_out[2];
static struct rpb_dist_state seen; /* merged, as of the last exchange */
static bool have_seen;

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

int rpb_dist_min(int v)
{
	if (!on)
		return v;
	int all = v;
	MPI_Request r;
	MPI_Iallreduce(&v, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &r);
	rpb_dist_wait(&r);
	return all;
}

bool rpb_dist_sync_idle(void)
{
	return on && sync_req[0] == MPI_REQUEST_NULL;
}

bool rpb_dist_sync(int stop, bool done, const struct rpb_dist_state *mine, int *peer_stop,
		   int *who, bool *all_done)
{
	if (!on) {
		*peer_stop = 0;
		*who = -1;
		*all_done = done;
		return true;
	}
	if (sync_req[0] == MPI_REQUEST_NULL) {
		/* Largest wins: a signal before a slow limit before an error. */
		sync_in[0] = stop;
		sync_in[1] = !done;
		sync_in[2] = stop ? my_rank + 1 : 0;
		struct rpb_dist_state none = {.min_ns = UINT64_MAX};
		if (!mine)
			mine = &none;
		uint64_t sums[5] = {mine->count, mine->sum_ns, mine->errors, mine->active, mine->workers};
		uint64_t maxes[2] = {mine->max_ns, UINT64_MAX - mine->min_ns}; /* min as a max */
		memcpy(sum_in, sums, sizeof sums);
		memcpy(max_in, maxes, sizeof maxes);
		MPI_Iallreduce(sync_in, sync_out, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &sync_req[0]);
		MPI_Iallreduce(sum_in, sum_out, 5, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &sync_req[1]);
		MPI_Iallreduce(max_in, max_out, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD, &sync_req[2]);
	}
	int flag = 0;
	MPI_Testall(3, sync_req, &flag, MPI_STATUSES_IGNORE);
	if (!flag)
		return false;
	*peer_stop = sync_out[0];
	if (sync_out[2] && stopper < 0)
		stopper = sync_out[2] - 1;
	*who = stopper;
	*all_done = sync_out[1] == 0;
	seen = (struct rpb_dist_state){sum_out[0], sum_out[1], sum_out[2],
				       have_seen && seen.min_ns < UINT64_MAX - max_out[1] ? seen.min_ns
											  : UINT64_MAX - max_out[1],
				       have_seen && seen.max_ns > max_out[0] ? seen.max_ns : max_out[0],
				       sum_out[3], sum_out[4]};
	have_seen = true;
	return true;
}

bool rpb_dist_progress(struct rpb_dist_state *all)
{
	if (!on || !have_seen)
		return false;
	*all = seen;
	/* The next window's extremes start afresh. */
	seen.min_ns = UINT64_MAX;
	seen.max_ns = 0;
	return true;
}

int rpb_dist_stopper(void)
{
	return stopper;
}
