/* One process, no MPI: every call of dist.h answers for a single rank. */
#include "dist.h"

int rpb_dist_init(int *argc, char ***argv, char *msg, size_t n)
{
	(void)argc, (void)argv, (void)msg, (void)n;
	return 0;
}

void rpb_dist_finalize(void)
{
}

bool rpb_dist_on(void)
{
	return false;
}

int rpb_dist_rank(void)
{
	return 0;
}

int rpb_dist_size(void)
{
	return 1;
}

const char *rpb_dist_thread_level(void)
{
	return "none";
}

bool rpb_dist_agree(bool ok)
{
	return ok;
}

void rpb_dist_bcast(void *buf, size_t n)
{
	(void)buf, (void)n;
}

int rpb_dist_min(int v)
{
	return v;
}

bool rpb_dist_sync_idle(void)
{
	return false;
}

bool rpb_dist_progress(struct rpb_dist_state *all)
{
	(void)all;
	return false;
}

bool rpb_dist_sync(int stop, bool done, const struct rpb_dist_state *mine, int *peer_stop,
		   int *stopper, bool *all_done)
{
	(void)stop, (void)mine;
	*peer_stop = 0;
	*stopper = -1;
	*all_done = done;
	return true;
}

int rpb_dist_stopper(void)
{
	return -1;
}

int rpb_dist_merge(struct rpb_runner *rn, bool ok, const char *out, char *msg, size_t n)
{
	(void)rn, (void)ok, (void)out, (void)msg, (void)n;
	return 0;
}
