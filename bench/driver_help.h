/* The help of the rpbench-<backend> binaries, as --help text or as their
 * man page, and the rpbench-workload(5) page (help.h: one source for both). */
#ifndef RPB_DRIVER_HELP_H
#define RPB_DRIVER_HELP_H

#include "help.h"
#include "store.h"

/* Usage lines of prog for backend b: only the location options b takes. */
void rpb_driver_usage(struct rpb_help *h, const struct rpb_backend *b, const char *prog);
/* Everything: commands, options, exit codes, workload and tuning options. */
void rpb_driver_help(struct rpb_help *h, const struct rpb_backend *b, const char *prog);
/* rpbench-workload(5): the file format, every section's options and every
 * built-in backend's tuning options. */
void rpb_workload_man(struct rpb_help *h);

#endif
