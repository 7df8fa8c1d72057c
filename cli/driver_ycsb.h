/* YCSB's own command-line flags, in the driver's terms (driver_ycsb.c). */
#ifndef RPB_DRIVER_YCSB_H
#define RPB_DRIVER_YCSB_H

#include <stddef.h>

/* Rewrites *argv with YCSB's flags (site.ycsb.Client) put in the driver's
 * words: *argc and *argv then name a copy that lasts as long as the
 * program (its words are the old argv's or static). 0, or -1 with a
 * one-line msg. */
int rpb_ycsb_argv(int *argc, char ***argv, char *msg, size_t n);

#endif
