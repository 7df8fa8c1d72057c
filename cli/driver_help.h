/* The help of the rpbench-<backend> binaries, as --help text or as their
 * man page, and the rpbench-workload(5) page (help.h: one source for both). */
#ifndef RPB_DRIVER_HELP_H
#define RPB_DRIVER_HELP_H

#include <stddef.h>

#include "help.h"
#include "store.h"

/* Usage lines of prog for backend b: only the location options b takes. */
void rpb_driver_usage(struct rpb_help *h, const struct rpb_backend *b, const char *prog);
/* Everything: commands, options, exit codes, workload and tuning options. */
void rpb_driver_help(struct rpb_help *h, const struct rpb_backend *b, const char *prog);
/* --help SECTION: "run", a pattern's name or a backend's (its tuning
 * options); 0, or -1 with msg, one line naming the known sections. */
int rpb_driver_help_section(struct rpb_help *h, const char *section, const char *prog, char *msg,
			    size_t n);
/* rpbench-workload(5): the file format, every section's options and every
 * built-in backend's tuning options. */
void rpb_workload_man(struct rpb_help *h);

#endif
