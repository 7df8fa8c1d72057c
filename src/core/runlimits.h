/* The run's limits (ops per thread, duration, bytes, and the pattern's own
 * amount of work): which one ended a run, and how far a run has come
 * towards the first it will reach. */
#ifndef RPB_RUNLIMITS_H
#define RPB_RUNLIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rpb_runner;

/* Main operations thread w of the run's threads does at most: [run] ops,
 * lowered by the pattern's thread_ops; UINT64_MAX for no bound. */
uint64_t rpb_thread_limit(const struct rpb_runner *rn, unsigned w);

/* The limit that ended a run that stopped on one (reason completed,
 * duration or bytes): "ops", "duration", "bytes", or "work" (the pattern's
 * own work was done first); NULL for any other stop. */
const char *rpb_ended_limit(const struct rpb_runner *rn);

/* When other limits were set beside the one that ended the run, says
 * which ended it ("ops = 1500 reached before duration = 3 s") and returns
 * true; else false and buf is "". */
bool rpb_ended_line(const struct rpb_runner *rn, char *buf, size_t n);

/* How far the run has come after elapsed seconds towards the first limit
 * it will reach: the largest share done of ops (the threads' operations
 * started, of their limits), bytes and duration, in [0, 1]; *eta_s the
 * least time left (duration's exactly, the others' at the rate so far).
 * False when the run has no limit to measure against (*done 0). */
bool rpb_run_done(const struct rpb_runner *rn, double elapsed, double *done, double *eta_s);

#endif
