/* The RocksDB backend's store: where it keeps RocksDB's info log (outside
 * the store directory), that it preallocates no space (docs/backends.md,
 * "What disk full looks like"), and its gauges, every one read (l0_files
 * too, a property RocksDB has only as text). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocksdb_backend.h"

static void rm_rf(const char *dir)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

/* The number of files in dir whose name ends with suffix. */
static int count_ending(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "%s", dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name), s = strlen(suffix);
		n += l >= s && strcmp(e->d_name + l - s, suffix) == 0;
	}
	closedir(d);
	return n;
}

static struct rpb_store *open_store(const char *dir, const struct rpb_kv *kv, size_t nkv)
{
	struct rpb_store_cfg cfg = {.dir = dir, .create = true, .opts = kv, .nopts = nkv};
	struct rpb_store *s = NULL;
	struct rpb_err err = {0};
	cr_assert_eq(rpb_backend_rocksdb.open(&cfg, &s, &err), RPB_OK, "%s", err.msg);
	return s;
}

/* Commits one small record in a session of its own. */
static void commit_one(struct rpb_store *st)
{
	struct rpb_session *s = NULL;
	struct rpb_err err = {0};
	cr_assert_eq(rpb_backend_rocksdb.session_open(st, &s, &err), RPB_OK);
	cr_assert_eq(rpb_backend_rocksdb.begin(s, RPB_TXN_WRITE, &err), RPB_OK);
	cr_assert_eq(rpb_backend_rocksdb.put(s, RPB_T_META, rpb_slice_make("k", 1),
					     rpb_slice_make("v", 1), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(rpb_backend_rocksdb.commit(s, &err), RPB_OK, "%s", err.msg);
	rpb_backend_rocksdb.session_close(s);
}

Test(rocksdb_info_log, goes_to_info_log_dir_not_the_store)
{
	char top[] = "/tmp/rpb-rocksdb-XXXXXX", store[64], logs[64];
	cr_assert_not_null(mkdtemp(top));
	snprintf(store, sizeof store, "%s/store", top);
	snprintf(logs, sizeof logs, "%s/logs", top);
	struct rpb_kv kv = {"info_log_dir", logs};
	struct rpb_store *s = open_store(store, &kv, 1);
	struct rpb_fact facts[RPB_FACTS_MAX];
	size_t n = 0;
	struct rpb_err err = {0};
	cr_assert_eq(rpb_backend_rocksdb.describe(s, facts, &n, &err), RPB_OK);
	bool said = false;
	for (size_t i = 0; i < n; i++)
		said |= !strcmp(facts[i].name, "info_log_dir") && !strcmp(facts[i].value, logs);
	cr_expect(said, "describe names info_log_dir %s", logs);
	rpb_backend_rocksdb.close(s);
	cr_expect_eq(count_ending(logs, "_store_LOG"), 1, "RocksDB's LOG is in %s", logs);
	cr_expect_eq(count_ending(store, "LOG"), 0, "no LOG in the store directory");
	rm_rf(top);
}

Test(rocksdb_info_log, default_is_a_private_directory_in_tmpdir)
{
	char tmp[] = "/tmp/rpb-rocksdb-XXXXXX", store[64], want[96];
	cr_assert_not_null(mkdtemp(tmp));
	cr_assert_eq(setenv("TMPDIR", tmp, 1), 0);
	snprintf(store, sizeof store, "%s/store", tmp);
	snprintf(want, sizeof want, "%s/rpbench-rocksdb-%ld", tmp, (long)geteuid());
	rpb_backend_rocksdb.close(open_store(store, NULL, 0));
	struct stat sb;
	cr_assert_eq(lstat(want, &sb), 0, "%s made", want);
	cr_expect(S_ISDIR(sb.st_mode) && (sb.st_mode & 0777) == 0700, "mode %o", sb.st_mode);
	cr_expect_eq(count_ending(want, "_store_LOG"), 1);
	rm_rf(tmp);
}

Test(rocksdb_info_log, shared_default_not_private_is_refused)
{
	char tmp[] = "/tmp/rpb-rocksdb-XXXXXX", dir[96], got[PATH_MAX];
	cr_assert_not_null(mkdtemp(tmp));
	cr_assert_eq(setenv("TMPDIR", tmp, 1), 0);
	snprintf(dir, sizeof dir, "%s/rpbench-rocksdb-%ld", tmp, (long)geteuid());
	cr_assert_eq(mkdir(dir, 0755), 0); /* readable by others */
	struct rpb_err err = {0};
	cr_expect_eq(rpb_rocksdb_log_dir("", got, sizeof got, &err), RPB_INVALID);
	cr_expect(strstr(err.msg, "not a private directory") && strstr(err.msg, "info_log_dir"),
		  "%s", err.msg);
	cr_assert_eq(rmdir(dir), 0);
	cr_assert_eq(symlink(tmp, dir), 0); /* someone else's redirection */
	cr_expect_eq(rpb_rocksdb_log_dir(NULL, got, sizeof got, &err), RPB_INVALID);
	rm_rf(tmp);
}

/* The WAL holds one small record: with fallocate it would own write_buffer
 * x 1.1 (70 MiB at the default 64M) of disk. */
Test(rocksdb_info_log, wal_is_not_preallocated)
{
	char dir[] = "/tmp/rpb-rocksdb-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	struct rpb_store *st = open_store(dir, NULL, 0);
	commit_one(st);
	DIR *d = opendir(dir);
	cr_assert_not_null(d);
	int wals = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l < 4 || strcmp(e->d_name + l - 4, ".log"))
			continue;
		char p[PATH_MAX];
		struct stat sb;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		cr_assert_eq(stat(p, &sb), 0);
		cr_expect_lt((long long)sb.st_blocks * 512, 1 << 20, "%s holds %lld bytes of disk",
			     p, (long long)sb.st_blocks * 512);
		wals++;
	}
	closedir(d);
	cr_expect_geq(wals, 1, "a WAL in %s", dir);
	rpb_backend_rocksdb.close(st);
	rm_rf(dir);
}

static double gauge(const struct rpb_gauge *g, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(g[i].name, name))
			return g[i].value;
	cr_assert_fail("no gauge %s", name);
	return -1;
}

Test(rocksdb_gauges, all_read_and_l0_counts_the_replayed_wal)
{
	char dir[] = "/tmp/rpb-rocksdb-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	struct rpb_store *st = open_store(dir, NULL, 0);
	commit_one(st);
	struct rpb_gauge g[RPB_GAUGES_MAX];
	size_t n = 0;
	struct rpb_err err = {0};
	cr_assert_eq(rpb_backend_rocksdb.gauges(st, g, &n, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(n, 6);
	cr_expect_eq(gauge(g, n, "l0_files"), 0, "the write is in the memtable alone");
	cr_expect_gt(gauge(g, n, "memtable_bytes"), 0);
	/* Closed with its WAL unflushed: the next open replays it into a
	 * level-0 file (db/db_impl/db_impl_open.cc, RecoverLogFiles). */
	rpb_backend_rocksdb.close(st);
	st = open_store(dir, NULL, 0);
	cr_assert_eq(rpb_backend_rocksdb.gauges(st, g, &n, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(gauge(g, n, "l0_files"), 1);
	cr_expect_eq(gauge(g, n, "write_stopped"), 0);
	cr_expect_eq(gauge(g, n, "delayed_write_rate_bps"), 0);
	cr_expect_eq(gauge(g, n, "background_errors"), 0);
	rpb_backend_rocksdb.close(st);
	rm_rf(dir);
}
