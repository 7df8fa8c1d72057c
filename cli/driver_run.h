/* The verbs run, load and preload: the job, the store, the results
 * directory, the run and its results. */
#ifndef RPB_DRIVER_RUN_H
#define RPB_DRIVER_RUN_H

#include "driver_cli.h"
#include "store.h"

int drv_cmd_run(const struct rpb_backend *b, struct cli *c, const char *prog,
		const char *argv0);

#endif
