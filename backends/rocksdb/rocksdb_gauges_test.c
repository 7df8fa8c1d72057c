/* The RocksDB backend's gauges read from a real store: every one is read
 * (l0_files too, a property RocksDB has only as text), with the values a
 * store that has just replayed its WAL into one level-0 file must have. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocksdb_backend.h"

static struct rpb_store *open_store(const char *dir)
{
	struct rpb_store_cfg cfg = {.dir = dir, .create = true};
	struct rpb_store *s = NULL;
	struct rpb_err err = {0};
	cr_assert_eq(rpb_backend_rocksdb.open(&cfg, &s, &err), RPB_OK, "%s", err.msg);
	return s;
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
	char dir[] = "/tmp/rpb-rocksdb-XXXXXX", cmd[64];
	cr_assert_not_null(mkdtemp(dir));
	struct rpb_store *st = open_store(dir);
	struct rpb_session *s = NULL;
	struct rpb_err err = {0};
	cr_assert_eq(rpb_backend_rocksdb.session_open(st, &s, &err), RPB_OK);
	cr_assert_eq(rpb_backend_rocksdb.begin(s, RPB_TXN_WRITE, &err), RPB_OK);
	cr_assert_eq(rpb_backend_rocksdb.put(s, RPB_T_META, rpb_slice_make("k", 1),
					     rpb_slice_make("v", 1), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(rpb_backend_rocksdb.commit(s, &err), RPB_OK, "%s", err.msg);
	rpb_backend_rocksdb.session_close(s);
	struct rpb_gauge g[RPB_GAUGES_MAX];
	size_t n = 0;
	cr_assert_eq(rpb_backend_rocksdb.gauges(st, g, &n, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(n, 6);
	cr_expect_eq(gauge(g, n, "l0_files"), 0, "the write is in the memtable alone");
	cr_expect_gt(gauge(g, n, "memtable_bytes"), 0);
	/* Closed with its WAL unflushed: the next open replays it into a
	 * level-0 file (db/db_impl/db_impl_open.cc, RecoverLogFiles). */
	rpb_backend_rocksdb.close(st);
	st = open_store(dir);
	cr_assert_eq(rpb_backend_rocksdb.gauges(st, g, &n, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(gauge(g, n, "l0_files"), 1);
	cr_expect_eq(gauge(g, n, "write_stopped"), 0);
	cr_expect_eq(gauge(g, n, "delayed_write_rate_bps"), 0);
	cr_expect_eq(gauge(g, n, "background_errors"), 0);
	rpb_backend_rocksdb.close(st);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}
