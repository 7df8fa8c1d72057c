/* rpbench sweep: one workload on one backend at a list of thread counts
 * (and, under Open MPI, rank counts), interleaved over repeats as compare
 * runs them; then throughput and p99 against total concurrency, with the
 * ideal linear line and the efficiency at each point (docs/distributed.md). */
#ifndef RPB_SWEEP_H
#define RPB_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

struct rpb_servers;

#define RPB_SWEEP_MAX 32

struct rpb_sweep_plan {
	const char *workload;
	const char *backend;
	const char *const *sets; /* further --set KEY=VALUE for every run */
	size_t nsets;
	unsigned threads[RPB_SWEEP_MAX], ranks[RPB_SWEEP_MAX];
	size_t nthreads, nranks;   /* nranks 0: standalone runs, no mpirun */
	unsigned repeat;
	const char *out;
	const struct rpb_servers *servers; /* the backend's DSN when a server backend (servers.h) */
	bool quiet;
	char bindir[4096];
};

/* Parses "1,2,4,8" (each 1..max, no repeats) into v; -1 with msg. */
int rpb_sweep_list(const char *text, unsigned *v, size_t *n, unsigned max, const char *what,
		   char *msg, size_t mn);
/* Runs every point, writes OUT/sweep.csv (a row per run), OUT/sweep.txt
 * (the table), OUT/sweep.gp and its sweep.svg (gnuplot). 0 when every run
 * completed, 3 when a run did not, -1 with msg when the sweep could not go
 * on (a run that could not start, an unreadable result, gnuplot). */
int rpb_sweep_run(const struct rpb_sweep_plan *p, char *msg, size_t n);

#endif
