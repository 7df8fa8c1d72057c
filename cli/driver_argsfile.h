/* --args-file FILE: arguments read from a file instead of the command
 * line, which every user reads in /proc/PID/cmdline. rpbench compare and
 * sweep hand each run its --set list and DSN this way when one of them
 * holds a password (docs/security.md). */
#ifndef RPB_DRIVER_ARGSFILE_H
#define RPB_DRIVER_ARGSFILE_H

#include <getopt.h>
#include <stddef.h>

/* Finds the first --args-file FILE (as getopt_long reads argv with
 * optstring and longopts, where it is the option 'A') and puts FILE's
 * words, each ended by a NUL byte, in its place: *argc and *argv then name
 * a copy that lasts as long as the program. FILE must be a regular file of
 * the user's that no one else may read. 0 (also when there is none), or -1
 * with a one-line msg. Leaves optind for a fresh getopt (0). */
int rpb_args_file_argv(int *argc, char ***argv, const char *optstring,
		    const struct option *longopts, char *msg, size_t n);

#endif
