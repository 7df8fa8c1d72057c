/* File-system helpers shared by the embedded backends and the driver. */
#ifndef RPB_FSUTIL_H
#define RPB_FSUTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

/* Makes sure dir exists as a writable directory, creating it (and missing
 * parents) when create is set. Errors name the directory and the fix. */
enum rpb_status rpb_dir_prepare(const char *dir, bool create, struct rpb_err *err);

/* Bytes allocated on disk (st_blocks) by everything under dir. */
enum rpb_status rpb_dir_usage(const char *dir, uint64_t *bytes, struct rpb_err *err);

/* The same, but a file with holes (the Fedora model's preload_content =
 * sparse) counts as written: its size rounded up to the block; *elided is
 * what that adds to the blocks the files hold. */
enum rpb_status rpb_dir_usage_written(const char *dir, uint64_t *bytes, uint64_t *elided,
				      struct rpb_err *err);

/* The same for the files directly in dir, not its subdirectories: a
 * library's own files, beside what a pattern keeps in a subdirectory. */
enum rpb_status rpb_dir_files_usage(const char *dir, uint64_t *bytes, struct rpb_err *err);

/* Bytes allocated on disk by one file; 0 when it does not exist. */
uint64_t rpb_file_usage(const char *path);

/* Reads a whole regular file of at most max bytes into a malloc'd buffer
 * with a NUL after its *len bytes. Returns NULL with *why set ("does not
 * exist", "is a directory, not a file", "is larger than ...", ...): a
 * results directory may hold anything under a result file's name. */
char *rpb_file_slurp(const char *path, size_t max, size_t *len, const char **why);

/* fsync of a directory: its entries (a file created or renamed in it)
 * reach the disk. 0, or -1 with errno. */
int rpb_fsync_dir(const char *dir);
/* fsync of the file at path (its data written through any descriptor);
 * 0, or -1 with errno (ENOENT when there is none). */
int rpb_fsync_path(const char *path);

/* Maps an errno to an error class (ENOSPC/EDQUOT: disk full, ENOMEM, ...). */
enum rpb_status rpb_errno_class(int e);

#endif
