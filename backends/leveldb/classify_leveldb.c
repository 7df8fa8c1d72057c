/* The LevelDB error classifier on real status strings, and real native
 * errors from the library reaching the caller with their class and text. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "leveldb_backend.h"

#define CLASSIFY(msg, want) cr_expect_eq(rpb_leveldb_classify(msg), want, "%s", msg)

Test(classify_leveldb, disk_full)
{
	CLASSIFY("IO error: /tmp/x/000005.log: No space left on device", RPB_DISK_FULL);
	CLASSIFY("IO error: /tmp/x/000012.ldb: Disk quota exceeded", RPB_DISK_FULL);
	CLASSIFY("IO error: /tmp/x/MANIFEST-000004: No space left on device", RPB_DISK_FULL);
}

Test(classify_leveldb, corruption)
{
	CLASSIFY("Corruption: bad record length", RPB_CORRUPT);
	CLASSIFY("Corruption: block checksum mismatch: /tmp/x/000007.ldb", RPB_CORRUPT);
	CLASSIFY("Corruption: CURRENT file does not end with newline", RPB_CORRUPT);
}

Test(classify_leveldb, not_found_and_invalid)
{
	CLASSIFY("NotFound: /tmp/x/000009.ldb: No such file or directory", RPB_NOT_FOUND);
	CLASSIFY("Invalid argument: /tmp/x/CURRENT: does not exist (create_if_missing is false)",
		 RPB_INVALID);
	CLASSIFY("Invalid argument: /tmp/x: exists (error_if_exists is true)", RPB_INVALID);
	CLASSIFY("Not implemented: compression", RPB_INVALID);
}

Test(classify_leveldb, other_io)
{
	CLASSIFY("IO error: lock /tmp/x/LOCK: Resource temporarily unavailable", RPB_IO);
	CLASSIFY("IO error: lock /tmp/x/LOCK: already held by process", RPB_IO);
	CLASSIFY("IO error: /tmp/x/000005.log: Input/output error", RPB_IO);
	CLASSIFY("IO error: /tmp/x/000003.log: Permission denied", RPB_IO);
	CLASSIFY("something unforeseen", RPB_IO);
	CLASSIFY("", RPB_IO);
	cr_expect_eq(rpb_leveldb_classify(NULL), RPB_IO);
}

/* ---- native errors from a real store ---- */

static char tmpdir[64];

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

static void make_tmpdir(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/rpb-leveldb-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
	nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(leveldb_native, .init = make_tmpdir, .fini = remove_tmpdir);

Test(leveldb_native, missing_store_without_create)
{
	const struct rpb_backend *b = &rpb_backend_leveldb;
	struct rpb_store_cfg cfg = {.dir = tmpdir, .create = false};
	struct rpb_store *st = (struct rpb_store *)1;
	struct rpb_err err = {0};
	cr_assert_eq(b->open(&cfg, &st, &err), RPB_INVALID, "%s", err.msg);
	cr_expect_null(st);
	cr_expect_eq(err.status, RPB_INVALID);
	cr_expect_not_null(strstr(err.msg, "does not exist (create_if_missing is false)"), "%s", err.msg);
}

Test(leveldb_native, second_open_reports_the_lock)
{
	const struct rpb_backend *b = &rpb_backend_leveldb;
	struct rpb_store_cfg cfg = {.dir = tmpdir, .create = true};
	struct rpb_store *st, *st2;
	struct rpb_err err = {0};
	cr_assert_eq(b->open(&cfg, &st, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(b->open(&cfg, &st2, &err), RPB_IO, "%s", err.msg);
	cr_expect_null(st2);
	cr_expect_not_null(strstr(err.msg, "IO error: lock "), "%s", err.msg);
	cr_expect_not_null(strstr(err.msg, "already open"), "%s", err.msg);
	b->close(st);
}

static int collect(void *ctx, rpb_slice k, rpb_slice v)
{
	(void)v;
	strncat(ctx, k.data, k.len);
	return 0;
}

/* A staged delete ahead of a committed key must not stall the merge. */
Test(leveldb_native, scan_merges_staged_deletes)
{
	const struct rpb_backend *b = &rpb_backend_leveldb;
	struct rpb_store_cfg cfg = {.dir = tmpdir, .create = true};
	struct rpb_store *st;
	struct rpb_session *s;
	struct rpb_err err = {0};
	cr_assert_eq(b->open(&cfg, &st, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(b->session_open(st, &s, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(b->begin(s, RPB_TXN_WRITE, &err), RPB_OK);
	for (const char *k = "abcd"; *k; k++)
		cr_assert_eq(b->put(s, RPB_T_RAW, rpb_slice_make(k, 1), rpb_slice_make("v", 1), &err),
			     RPB_OK, "%s", err.msg);
	cr_assert_eq(b->commit(s, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(b->begin(s, RPB_TXN_WRITE, &err), RPB_OK);
	cr_assert_eq(b->del(s, RPB_T_RAW, rpb_slice_make("a", 1), &err), RPB_OK);
	cr_assert_eq(b->del(s, RPB_T_RAW, rpb_slice_make("c", 1), &err), RPB_OK);
	cr_assert_eq(b->del(s, RPB_T_RAW, rpb_slice_make("c", 1), &err), RPB_NOT_FOUND);
	cr_assert_eq(b->put(s, RPB_T_RAW, rpb_slice_make("bb", 2), rpb_slice_make("", 0), &err), RPB_OK);
	char seen[32] = "";
	cr_assert_eq(b->scan(s, RPB_T_RAW, NULL, NULL, 0, collect, seen, &err), RPB_OK, "%s", err.msg);
	cr_expect_str_eq(seen, "bbbd");
	seen[0] = '\0';
	rpb_slice lo = rpb_slice_make("b", 1), hi = rpb_slice_make("c", 1);
	cr_assert_eq(b->scan(s, RPB_T_RAW, &lo, &hi, 0, collect, seen, &err), RPB_OK, "%s", err.msg);
	cr_expect_str_eq(seen, "bb");
	b->rollback(s);
	b->session_close(s);
	b->close(st);
}

/* One committed put of a 70 KiB value (more than the smallest memtable). */
static enum rpb_status put_big(struct rpb_session *s, const char *key, struct rpb_err *err)
{
	static char val[70 << 10];
	const struct rpb_backend *b = &rpb_backend_leveldb;
	memset(val, key[0], sizeof val);
	enum rpb_status rc = b->begin(s, RPB_TXN_WRITE, err);
	if (!rc)
		rc = b->put(s, RPB_T_RAW, rpb_slice_make(key, strlen(key)), rpb_slice_make(val, sizeof val),
			    err);
	return rc ? rc : b->commit(s, err);
}

/* A real ENOSPC without a small file system: the first table a new store
 * flushes its memtable to (000005.ldb in LevelDB 1.x: MANIFEST 2, log 3,
 * next log 4) is a symlink to /dev/full. The flush fails in the background;
 * LevelDB keeps that error and returns it to the next write: disk full with
 * its message. Later commits are refused until the store is reopened, and
 * the reopened store has every acknowledged write and takes new ones. */
Test(leveldb_native, background_enospc_is_disk_full_until_reopened)
{
	const struct rpb_backend *b = &rpb_backend_leveldb;
	struct rpb_kv opts[] = {{"write_buffer", "64k"}};
	struct rpb_store_cfg cfg = {.dir = tmpdir, .create = true, .sync = RPB_SYNC_COMMIT,
				    .opts = opts, .nopts = 1};
	struct rpb_store *st;
	struct rpb_session *s;
	struct rpb_err err = {0};
	struct rpb_buf buf = {0};
	char table[128];
	snprintf(table, sizeof table, "%s/000005.ldb", tmpdir);
	cr_assert_eq(b->open(&cfg, &st, &err), RPB_OK, "%s", err.msg);
	/* After the open: an open deletes table files its MANIFEST does not list. */
	cr_assert_eq(symlink("/dev/full", table), 0, "symlink %s", table);
	cr_assert_eq(b->session_open(st, &s, &err), RPB_OK, "%s", err.msg);

	cr_assert_eq(put_big(s, "a", &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(put_big(s, "b", &err), RPB_OK, "switches the memtable: %s", err.msg);
	/* Waits for the flush of the first memtable, which failed. */
	enum rpb_status rc = put_big(s, "c", &err);
	cr_assert_eq(rc, RPB_DISK_FULL, "LevelDB no longer flushes to 000005.ldb? got %s: %s",
		     rpb_status_name(rc), err.msg);
	cr_expect_not_null(strstr(err.msg, "000005.ldb: No space left on device"), "%s", err.msg);
	rc = put_big(s, "d", &err);
	cr_expect_eq(rc, RPB_DISK_FULL, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_expect_not_null(strstr(err.msg, "refused"), "%s", err.msg);
	cr_expect_not_null(strstr(err.msg, "No space left on device"), "%s", err.msg);
	cr_assert_eq(b->begin(s, RPB_TXN_READ, &err), RPB_OK, "reads go on: %s", err.msg);
	cr_expect_eq(b->get(s, RPB_T_RAW, rpb_slice_make("a", 1), &buf, &err), RPB_OK, "%s", err.msg);
	b->rollback(s);
	b->session_close(s);
	b->close(st);

	unlink(table); /* LevelDB removes a table it failed to write; make sure */
	cr_assert_eq(b->open(&cfg, &st, &err), RPB_OK, "reopen: %s", err.msg);
	cr_assert_eq(b->session_open(st, &s, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(put_big(s, "e", &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(b->begin(s, RPB_TXN_READ, &err), RPB_OK, "%s", err.msg);
	for (const char *k = "abe"; *k; k++) {
		cr_expect_eq(b->get(s, RPB_T_RAW, rpb_slice_make(k, 1), &buf, &err), RPB_OK, "%c: %s",
			     *k, err.msg);
		cr_expect(buf.len == 70 << 10 && buf.data[0] == (unsigned char)*k, "%c", *k);
	}
	for (const char *k = "cd"; *k; k++)
		cr_expect_eq(b->get(s, RPB_T_RAW, rpb_slice_make(k, 1), &buf, &err), RPB_NOT_FOUND,
			     "%c was refused, yet is there", *k);
	b->rollback(s);
	rpb_buf_free(&buf);
	b->session_close(s);
	b->close(st);
}
