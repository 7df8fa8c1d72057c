/* Where the RocksDB backend keeps RocksDB's info log (LOG): outside the
 * store directory, so a full store disk does not fail a LOG write. RocksDB
 * 7.8's info logger (logging/env_logger.h) ignores a failed write, but its
 * WritableFileWriter remembers it and asserts on the next one
 * (file/writable_file_writer.h, AssertFalseAndGetStatusForPrevError):
 * with a library built with assertions, the process aborts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocksdb_backend.h"

enum rpb_status rpb_rocksdb_log_dir(const char *given, char *out, size_t n, struct rpb_err *err)
{
	if (given && *given) {
		if ((size_t)snprintf(out, n, "%s", given) >= n)
			return rpb_err_usage(err, "[rocksdb] info_log_dir %s is too long", given);
		return RPB_OK;
	}
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if ((size_t)snprintf(out, n, "%s/rpbench-rocksdb-%ld", tmp, (long)geteuid()) >= n)
		return rpb_err_usage(err, "TMPDIR %s is too long; give a shorter TMPDIR or "
					  "[rocksdb] info_log_dir", tmp);
	/* A shared directory: one of this user's own, private, or none. */
	struct stat sb;
	if (mkdir(out, 0700) != 0 && errno != EEXIST)
		return rpb_err_set(err, RPB_INVALID, errno, NULL,
				   "cannot create %s for RocksDB's info log: %s; give a writable TMPDIR or "
				   "[rocksdb] info_log_dir", out, strerror(errno));
	if (lstat(out, &sb) != 0 || !S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 077))
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "%s is not a private directory of this user; remove it, or give "
				   "[rocksdb] info_log_dir", out);
	return RPB_OK;
}
