/* db_bench's loops over SQLite with prepared statements, at the settings
 * db_bench_sqlite3 really applies (LevelDB 1.23, benchmarks/
 * db_bench_sqlite3.cc; line numbers of that file):
 *
 *  - page_size: left at SQLite's default, 4096. FLAGS_page_size = 1024 (l. 62)
 *    is the "leave it" value: Open() sets PRAGMA page_size only when the flag
 *    differs from 1024 (l. 447-455). Its comment's "4 MB" cache (l. 65) is
 *    therefore 16 MiB: PRAGMA cache_size = FLAGS_num_pages = 4096 pages
 *    (l. 66, 441-445) of 4096 bytes.
 *  - journal_mode = WAL, then wal_autocheckpoint = 4096 (l. 456-468), then
 *    locking_mode = EXCLUSIVE before the CREATE TABLE (l. 470-480): the WAL
 *    is first opened under the exclusive lock, so its index is in process
 *    memory (no -shm file).
 *  - synchronous = OFF, set by every non-sync fill (Write, l. 511-515;
 *    FULL with --sync 1).
 *  - mmap_size: not set, SQLite's default (0 in Debian's build).
 *  - a fresh database file for every fill (Write with state FRESH closes the
 *    database and Open()s dbbench_sqlite3-<n+1>.db, then restarts the timer,
 *    l. 481-495): untimed; reads use the file the last fill left.
 *  - WalCheckpoint(db_) after every fill, sqlite3_wal_checkpoint_v2(...,
 *    SQLITE_CHECKPOINT_FULL) (l. 107-113, called in Run between Start() and
 *    Stop(), l. 362-397): timed as part of the fill. Printed here as a row
 *    of its own, NAME/ckpt, so the fill's row is the loop alone (what
 *    rpbench's raw pattern does, which has no checkpoint call) and
 *    db_bench's figure is the sum of the two.
 *
 * The table is the rpbench backend's, raw(k BLOB PRIMARY KEY, v BLOB NOT
 * NULL) WITHOUT ROWID (db_bench's test(key blob, value blob, PRIMARY
 * KEY(key)) WITHOUT ROWID stores the same B-tree). One transaction per batch
 * of operations: a batch of one write is the INSERT alone in autocommit
 * (SQLite makes it its own transaction, as db_bench's fills do), a larger
 * one BEGIN IMMEDIATE ... COMMIT; reads BEGIN ... COMMIT (db_bench reads in
 * autocommit; rpbench's raw pattern opens a read transaction per batch);
 * readseq is one SELECT stepped through in one read transaction.
 * calibrate.sh runs rpbench with the same settings (sqlite.page_size,
 * cache_size, mmap_size, wal_autocheckpoint, locking_mode). */
#include <sqlite3.h>

#include "calib.h"

static sqlite3 *db;
static sqlite3_stmt *put, *get, *scan, *begin_w, *begin_r, *commit;

static void check(int rc, const char *what)
{
	if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
		fprintf(stderr, "calibrate-sqlite: %s: %s\n", what, sqlite3_errmsg(db));
		exit(2);
	}
}

static void step(sqlite3_stmt *q, const char *what)
{
	check(sqlite3_step(q), what);
	sqlite3_reset(q);
}

static sqlite3_stmt *prep(const char *sql)
{
	sqlite3_stmt *q = NULL;
	check(sqlite3_prepare_v2(db, sql, -1, &q, NULL), sql);
	return q;
}

static void write_bench(struct calib *c, bool seq)
{
	unsigned char key[CALIB_KEY_MAX];
	uint64_t bytes = 0;
	struct calib_clock t0 = calib_start();
	for (uint64_t i = 0; i < c->num; i += c->batch) {
		if (c->batch > 1)
			step(begin_w, "begin");
		for (uint64_t j = 0; j < c->batch && i + j < c->num; j++) {
			calib_key(c, key, seq ? i + j : calib_uniform(c, c->num));
			sqlite3_bind_blob(put, 1, key, (int)c->key_size, SQLITE_STATIC);
			sqlite3_bind_blob(put, 2, calib_value(c), (int)c->value_size, SQLITE_STATIC);
			step(put, "insert");
			bytes += c->key_size + c->value_size;
		}
		if (c->batch > 1)
			step(commit, "commit");
	}
	const char *name = seq ? "fillseq" : "fillrandom";
	calib_report(name, calib_since(&t0), c->num, bytes, -1);
	/* db_bench_sqlite3's WalCheckpoint after the fill, timed there with it. */
	struct calib_clock t1 = calib_start();
	check(sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_FULL, NULL, NULL), "checkpoint");
	char ckpt[32];
	snprintf(ckpt, sizeof ckpt, "%s/ckpt", name);
	calib_report(ckpt, calib_since(&t1), c->num, 0, -1);
}

static void read_random(struct calib *c)
{
	unsigned char key[CALIB_KEY_MAX];
	long long found = 0;
	struct calib_clock t0 = calib_start();
	for (uint64_t i = 0; i < c->num; i += c->batch) {
		step(begin_r, "begin");
		for (uint64_t j = 0; j < c->batch && i + j < c->num; j++) {
			calib_key(c, key, calib_uniform(c, c->num));
			sqlite3_bind_blob(get, 1, key, (int)c->key_size, SQLITE_STATIC);
			int rc = sqlite3_step(get);
			check(rc, "select");
			if (rc == SQLITE_ROW) {
				/* the value is read in place, not copied */
				const void *v = sqlite3_column_blob(get, 0);
				found += v != NULL || sqlite3_column_bytes(get, 0) == 0;
			}
			sqlite3_reset(get);
		}
		step(commit, "commit");
	}
	calib_report("readrandom", calib_since(&t0), c->num, 0, found);
}

static void read_seq(struct calib *c)
{
	uint64_t n = 0, bytes = 0;
	struct calib_clock t0 = calib_start();
	step(begin_r, "begin");
	int rc;
	while (n < c->num && (rc = sqlite3_step(scan)) == SQLITE_ROW) {
		sqlite3_column_blob(scan, 0);
		sqlite3_column_blob(scan, 1);
		bytes += (uint64_t)sqlite3_column_bytes(scan, 0) + (uint64_t)sqlite3_column_bytes(scan, 1);
		n++;
	}
	sqlite3_reset(scan);
	step(commit, "commit");
	calib_report("readseq", calib_since(&t0), n, bytes, -1);
}

static void prepare_all(void)
{
	put = prep("INSERT OR REPLACE INTO raw(k, v) VALUES (?1, ?2)");
	get = prep("SELECT v FROM raw WHERE k = ?1");
	scan = prep("SELECT k, v FROM raw ORDER BY k");
	begin_w = prep("BEGIN IMMEDIATE");
	begin_r = prep("BEGIN");
	commit = prep("COMMIT");
}

static void close_db(void)
{
	sqlite3_stmt *all[] = {put, get, scan, begin_w, begin_r, commit};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		sqlite3_finalize(all[i]);
	check(sqlite3_close(db), "close");
	db = NULL;
}

static void remove_files(const char *path)
{
	char side[4096];
	remove(path);
	snprintf(side, sizeof side, "%s-wal", path);
	remove(side);
	snprintf(side, sizeof side, "%s-shm", path);
	remove(side);
}

/* A new database file in place of the old one, set up as db_bench_sqlite3's
 * Open() sets one up, in its order. The first one must not exist. */
static void fresh(struct calib *c)
{
	if (db) {
		close_db();
		remove_files(c->target);
	}
	check(sqlite3_open_v2(c->target, &db,
			      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL),
	      "open");
	char sql[512];
	snprintf(sql, sizeof sql,
		 "PRAGMA cache_size = 4096; PRAGMA journal_mode = WAL;"
		 " PRAGMA wal_autocheckpoint = 4096; PRAGMA locking_mode = EXCLUSIVE;"
		 " CREATE TABLE raw (k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID;"
		 " PRAGMA synchronous = %s;",
		 c->sync ? "FULL" : "OFF");
	check(sqlite3_exec(db, sql, NULL, NULL, NULL), "setup (give a new --db file)");
	prepare_all();
}

static const struct calib_loops loops = {"calibrate-sqlite", fresh, write_bench, read_random,
					  read_seq};

int main(int argc, char **argv)
{
	struct calib c;
	calib_args(&c, argc, argv, "db");
	fresh(&c);
	calib_each(&c, &loops);
	close_db();
	free(c.values);
	return 0;
}
