/* The results directory's lifecycle: its name, making it (and removing
 * only what a failed start made), refusing one that holds results, the
 * nesting of --out and --dir, and the output files opened in it. */
#ifndef RPB_DRIVER_OUTDIR_H
#define RPB_DRIVER_OUTDIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "driver_cli.h"
#include "workload.h"

/* The directories drv_make_out created, each the prefix of path up to end[i]. */
struct made_dirs {
	char path[PATH_MAX];
	size_t end[64];
	int n;
};

/* The results directory: --out, or results/<pattern>-<backend>-<UTC time>,
 * with -2, -3, ... when a run of the same second already took that name
 * (a YCSB load and its run, a script's quick runs). */
void drv_out_name(char *out, size_t n, const struct cli *c, const struct rpb_job *job,
		  const struct rpb_backend *b);

/* Makes the results directory and any missing parent, and notes which it
 * made, so a start that fails removes only those. Errors are left to
 * drv_prepare_out. */
void drv_make_out(const char *out, struct made_dirs *m);

/* A start that failed leaves no directory behind that rpbench made for it
 * (the results directory, a new --dir): the store directory dir, when
 * own_store says this start made it, while it holds nothing but the mark
 * (call with the store's lock held), then every directory drv_make_out made,
 * innermost first, each only while empty (rmdir), so nothing another
 * program put there goes. */
void drv_unmake_out(struct made_dirs *m, const char *dir, bool own_store);

/* After a start that failed before any operation: removes every result
 * file in out. Each is this run's: drv_prepare_out refused a directory that held
 * any of them. */
void drv_remove_result_files(const char *out);

/* Creates the results directory; refuses one that holds a result file. */
int drv_prepare_out(const char *out, char *msg, size_t mn);

/* The absolute form of a path for the record; the path as given when it
 * cannot be resolved (rpb_path_check has ruled out a too long one). */
void drv_absolute_or_given(const char *path, char *abs, size_t n);

/* --out and --dir never nest (but for OUT/store, which rpbench makes there
 * itself): --fresh empties a store, so results kept in it would go, and a
 * store kept in results would be written as results are. Canonical paths,
 * symlinks resolved. */
int drv_check_nesting(const char *abs_out, const char *abs_dir, char *msg, size_t n);

/* Every directory an option names for rpbench to write into (binary_dir)
 * stays apart from --out, as --dir does. */
int drv_check_option_dirs(const struct rpb_job *job, const char *abs_out, char *msg, size_t n);

FILE *drv_open_output(const char *dir, const char *name, const char *header);

#endif
