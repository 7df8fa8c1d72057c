/* The RocksDB error classifier on status strings as RocksDB 7 writes them,
 * and real native errors from the library reaching the caller with their
 * class and text. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocksdb_backend.h"

#define CLASSIFY(msg, want) cr_expect_eq(rpb_rocksdb_classify(msg), want, "%s", msg)

Test(classify_rocksdb, disk_full)
{
	CLASSIFY("IO error: No space left on device: While appending to file: /tmp/x/000008.log: "
		 "No space left on device", RPB_DISK_FULL);
	CLASSIFY("IO error: No space left on device", RPB_DISK_FULL); /* the kept background error */
	CLASSIFY("IO error: No space: Max allowed space was reached", RPB_DISK_FULL);
	CLASSIFY("IO error: While appending to file: /tmp/x/000012.sst: Disk quota exceeded",
		 RPB_DISK_FULL);
}

Test(classify_rocksdb, conflicts_are_retryable)
{
	CLASSIFY("Resource busy: ", RPB_CONFLICT);
	CLASSIFY("Operation failed. Try again.: Transaction could not check for conflicts for "
		 "operation at SequenceNumber 12 as the MemTable only contains changes newer than "
		 "SequenceNumber 40.", RPB_CONFLICT);
	CLASSIFY("Operation timed out: ", RPB_TXN_TIMEOUT);
}

Test(classify_rocksdb, corruption_not_found_invalid)
{
	CLASSIFY("Corruption: block checksum mismatch: stored = 1, computed = 2", RPB_CORRUPT);
	CLASSIFY("Corruption: Corrupt or unsupported format_version: 9", RPB_CORRUPT);
	CLASSIFY("NotFound: ", RPB_NOT_FOUND);
	CLASSIFY("Invalid argument: /tmp/x/CURRENT: does not exist (create_if_missing is false)",
		 RPB_INVALID);
	CLASSIFY("Not implemented: Unsupported compression method for this build: ZSTD",
		 RPB_INVALID);
}

Test(classify_rocksdb, other_io)
{
	CLASSIFY("IO error: While lock file: /tmp/x/LOCK: Resource temporarily unavailable", RPB_IO);
	CLASSIFY("IO error: While appending to file: /tmp/x/000005.log: Input/output error", RPB_IO);
	CLASSIFY("something unforeseen", RPB_IO);
	CLASSIFY("", RPB_IO);
	cr_expect_eq(rpb_rocksdb_classify(NULL), RPB_IO);
}

/* ---- native errors from a real store ---- */

static struct rpb_store *open_at(const char *dir, bool create, struct rpb_err *err,
				 enum rpb_status *st)
{
	struct rpb_store_cfg cfg = {.dir = dir, .create = create};
	struct rpb_store *s = NULL;
	*st = rpb_backend_rocksdb.open(&cfg, &s, err);
	return s;
}

Test(classify_rocksdb, missing_store_names_the_fix)
{
	char dir[] = "/tmp/rpb-rocksdb-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	struct rpb_err err = {0};
	enum rpb_status st;
	cr_assert_null(open_at(dir, false, &err, &st));
	cr_expect_eq(st, RPB_INVALID, "%s", err.msg);
	cr_expect(strstr(err.msg, "no rocksdb store in") && strstr(err.msg, "--dir"), "%s", err.msg);
	rmdir(dir);
}

Test(classify_rocksdb, second_handle_is_refused)
{
	char dir[] = "/tmp/rpb-rocksdb-XXXXXX", cmd[64];
	cr_assert_not_null(mkdtemp(dir));
	struct rpb_err err = {0};
	enum rpb_status st;
	struct rpb_store *a = open_at(dir, true, &err, &st);
	cr_assert_not_null(a, "%s", err.msg);
	cr_assert_null(open_at(dir, false, &err, &st));
	cr_expect_eq(st, RPB_IO, "%s", err.msg);
	cr_expect(strstr(err.msg, "already open"), "%s", err.msg);
	rpb_backend_rocksdb.close(a);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

Test(classify_rocksdb, wal_off_with_synced_commits_is_a_usage_error)
{
	char dir[] = "/tmp/rpb-rocksdb-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	struct rpb_kv kv = {"wal", "off"};
	struct rpb_store_cfg cfg = {.dir = dir, .create = true, .sync = RPB_SYNC_COMMIT,
				    .opts = &kv, .nopts = 1};
	struct rpb_store *s = NULL;
	struct rpb_err err = {0};
	cr_expect_eq(rpb_backend_rocksdb.open(&cfg, &s, &err), RPB_INVALID);
	cr_expect(err.user_input && strstr(err.msg, "wal = on"), "%s", err.msg);
	cr_expect_null(s);
	rmdir(dir);
}
