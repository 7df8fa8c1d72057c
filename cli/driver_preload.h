/* The verb preload (a store of N objects at the backend's fastest path,
 * through the pattern's preload hook) and run --continue (a measured run
 * that goes on from a preload's last object); docs/workloads.md,
 * "Preload". */
#ifndef RPB_DRIVER_PRELOAD_H
#define RPB_DRIVER_PRELOAD_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "workload.h"

/* --objects N: a count from 1; 0, or -1 with msg. */
int rpb_preload_objects(const char *text, uint64_t *n, char *msg, size_t mn);
/* Before the workload is finished: refuses a pattern without a preload
 * hook (naming what fills its store instead), a count the threads do not
 * divide, a fault; then sets the run to (objects - before) / threads ops
 * per thread (before: the store's objects, preload --continue),
 * sync none, no rate, warm-up, duration, bytes, samples.jtl or timeout. */
int rpb_preload_sets(struct rpb_job *job, uint64_t objects, uint64_t before, const char *given,
		     char *msg, size_t n);
/* After it is finished: the pattern's hook readies its config. */
int rpb_preload_ready(struct rpb_job *job, uint64_t objects, uint64_t before, char *msg,
		      size_t n);
/* The one sync at the end: the file system that holds dir (syncfs). */
int rpb_preload_sync(const char *dir, char *msg, size_t n);

/* run --continue DIR (and preload --continue DIR): what the store holds
 * after the preload in DIR, or after a run or preload that continued one,
 * read from its result.json: its run tag (tag, 16 bytes), its objects
 * (*before: those the run continued, plus its own), and the --set
 * assignments the run adds after the command line's (start_at, for a
 * server's store the preload's binary_dir, and preload_content = sparse
 * when the preload elided its files' content), in sets[0..*nsets-1] (static
 * storage). */
#define RPB_CONTINUE_SETS 3
int rpb_continue_read(const char *dir, const struct rpb_backend *b, char *tag,
		      const char *sets[RPB_CONTINUE_SETS], size_t *nsets, uint64_t *seed,
		      uint64_t *threads, uint64_t *before, char *msg, size_t n);

#endif
