/* An option table (options.h) in --help and the man pages: the workload's
 * sections and every backend's tuning options are shown alike. */
#ifndef RPB_OPTHELP_H
#define RPB_OPTHELP_H

#include "help.h"
#include "options.h"

/* The table under its title: text, columns key, default (with a profile's
 * own), range and meaning; a man page, an item "key = default" per row. */
void rpb_opt_help_table(struct rpb_help *h, const char *title, const struct rpb_optdef *table);

#endif
