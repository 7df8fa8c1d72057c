/* A run's job from the command line: the workload and its --set, -p and
 * -P, the store's location flags and paths, and the ranks' agreement on
 * what they run (docs/distributed.md). */
#ifndef RPB_DRIVER_JOB_H
#define RPB_DRIVER_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "driver_cli.h"
#include "store.h"
#include "workload.h"

int drv_load_job(struct rpb_job *job, struct cli *c, const char *prog);

void drv_store_cfg(struct rpb_store_cfg *cfg, const struct rpb_backend *b,
		   const struct rpb_job *job, const char *dir, const char *dsn, const char *schema);

int drv_check_location_flags(const struct rpb_backend *b, const struct cli *c, const char *prog);

/* Every path given: short enough, whole and absolute, for what rpbench
 * builds from it (result files, the store's files, OUT/store). verify has
 * no --out. */
int drv_check_paths(const struct cli *c, bool run, const char *prog);

/* What every rank must share (docs/distributed.md): the program, the verb,
 * the workload's contents, the resolved options but inject, the locations.
 * Paths absolute, the DSN redacted (no secret leaves the process). */
int drv_ranks_agree(const struct rpb_backend *b, const struct cli *c, const struct rpb_job *job,
		    const char *prog);

#endif
