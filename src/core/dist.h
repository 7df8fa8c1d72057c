/* Several load nodes: one MPI rank is one load node (docs/distributed.md).
 *
 * A build with Open MPI (RPB_WITH_MPI) links dist_mpi.c; any other build
 * links dist_none.c, where every call is the one-process answer, so the
 * driver and runner have one code path. MPI starts only when the program
 * runs under mpirun (Open MPI's OMPI_COMM_WORLD_SIZE in the environment):
 * a standalone run never touches MPI.
 *
 * Thread level: MPI_THREAD_FUNNELED. Only the main thread (the driver and
 * the runner's supervisor) calls MPI; workers, the reaper and the injector
 * never do, so the hot loop has no MPI in it and no MPI lock. Every
 * collective is non-blocking and polled with short sleeps, so a rank
 * waiting for the others does not spin on one of the shared cores. */
#ifndef RPB_DIST_H
#define RPB_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rpb_runner;

/* Starts MPI when under mpirun. 0, or -1 with msg. */
int rpb_dist_init(int *argc, char ***argv, char *msg, size_t n);
void rpb_dist_finalize(void);
/* True when running as one rank of several (or of one) under mpirun. */
bool rpb_dist_on(void);
int rpb_dist_rank(void); /* 0 standalone */
int rpb_dist_size(void); /* 1 standalone */
/* The MPI thread level in use ("funneled"), or "none". */
const char *rpb_dist_thread_level(void);

/* Every rank passes its own ok; true when all ranks passed true. A rank
 * that fails before the run still calls it, so none waits forever. */
bool rpb_dist_agree(bool ok);
/* Rank 0's bytes of buf (n of them) on every rank. */
void rpb_dist_bcast(void *buf, size_t n);
/* The smallest of every rank's v (v standalone). */
int rpb_dist_min(int v);

/* What one rank brings to an exchange, for rank 0's progress lines: its
 * samples so far (every label, warm-up included), their latency sum (ns)
 * and failed ones, the min and max latency of its samples since its
 * previous exchange (bucket bounds), its active and started workers. */
struct rpb_dist_state {
	uint64_t count, sum_ns, errors, min_ns, max_ns, active, workers;
};
/* True when the next rpb_dist_sync starts an exchange and reads its state. */
bool rpb_dist_sync_idle(void);
/* The supervisor's exchange, at most one in flight: starts one with this
 * rank's stop (0 or the reason), whether its workers are done and its
 * state or, when one is in flight, tests it. True when one has completed:
 * *peer_stop is the largest stop reason that an error, a slow limit or a
 * signal set on any rank (0: none), *stopper that rank, and *all_done
 * whether every rank's workers have ended. Every rank completes the same
 * exchanges in the same order, so all see all_done together. */
bool rpb_dist_sync(int stop, bool done, const struct rpb_dist_state *mine, int *peer_stop,
		   int *stopper, bool *all_done);
/* Every rank's state as of the last completed exchange: counts summed, min
 * and max over the exchanges completed since the previous call. False
 * standalone or before the first exchange. */
bool rpb_dist_progress(struct rpb_dist_state *all);
/* The rank whose error, slow limit or signal stopped the run, or -1. */
int rpb_dist_stopper(void);

/* After every rank wrote its own result files in OUT/rank-N: sums the
 * labels' histograms bucket by bucket (a reduce over a tree of ranks) and
 * gathers every rank's result.json to rank 0, which writes OUT/result.json
 * and OUT/summary.txt with per-node and total figures. ok: this rank's
 * files were written. 0, or -1 with msg (at rank 0). */
int rpb_dist_merge(struct rpb_runner *rn, bool ok, const char *out, char *msg, size_t n);

#endif
