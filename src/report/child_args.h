/* The --set list and the DSN of a child run (rpbench compare and sweep)
 * kept out of its argv, which every user reads in /proc/PID/cmdline: when
 * any of them holds a secret (libpq's parser says which, dsn.h), all of
 * them go, in order, into a file only the user can read, in a directory of
 * its own, and the child reads them with --args-file FILE
 * (docs/security.md). The file lives as long as the child. */
#ifndef RPB_CHILD_ARGS_H
#define RPB_CHILD_ARGS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct rpb_child_args {
	char dir[PATH_MAX]; /* "" while none is made */
	char file[PATH_MAX + 16];
};

/* Whether the DSN (NULL: none) or one of the assignments holds a secret. */
bool rpb_child_args_secret(const char *dsn, const char *const *sets, size_t nsets);

/* Appends "--set S" for each assignment and "--dsn DSN" (dsn NULL: none) to
 * argv at *a, or, when one of them holds a secret, writes them to a new
 * file (mode 0600 in a new directory of mode 0700 under $TMPDIR, else
 * /tmp) and appends "--args-file FILE" instead. argv must have room for
 * 2 * nsets + 2 more. 0, or -1 with msg when the file cannot be written
 * (nothing is left behind). */
int rpb_child_args_add(struct rpb_child_args *s, const char **argv, size_t *a,
		       const char *const *sets, size_t nsets, const char *dsn, char *msg, size_t mn);

/* Removes the file and its directory, if made; again is harmless. */
void rpb_child_args_remove(struct rpb_child_args *s);

#endif
