/* db_bench's loops over SQLite with prepared statements, at
 * db_bench_sqlite3's settings: WAL, page_size 1024, cache_size 4096 pages,
 * locking_mode EXCLUSIVE, synchronous OFF (FULL with --sync 1), no mmap,
 * wal_autocheckpoint 1000, and the rpbench backend's table
 * raw(k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID. One transaction
 * per batch of operations: a batch of one write is the INSERT alone in
 * autocommit (SQLite makes it its own transaction), a larger one
 * BEGIN IMMEDIATE ... COMMIT; reads BEGIN ... COMMIT; readseq is one SELECT
 * stepped through in one read transaction. calibrate.sh runs rpbench with
 * the same settings (sqlite.page_size, cache_size, mmap_size, locking_mode). */
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
	calib_report(seq ? "fillseq" : "fillrandom", calib_since(&t0), c->num, bytes, -1);
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

static void clear(void)
{
	check(sqlite3_exec(db, "DELETE FROM raw", NULL, NULL, NULL), "delete");
}

static const struct calib_loops loops = {"calibrate-sqlite", clear, write_bench, read_random,
					  read_seq};

int main(int argc, char **argv)
{
	struct calib c;
	calib_args(&c, argc, argv, "db");
	check(sqlite3_open_v2(c.target, &db,
			      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL),
	      "open");
	char sql[512];
	snprintf(sql, sizeof sql,
		 "PRAGMA locking_mode = EXCLUSIVE; PRAGMA page_size = 1024;"
		 " PRAGMA journal_mode = WAL; PRAGMA synchronous = %s;"
		 " PRAGMA cache_size = 4096; PRAGMA mmap_size = 0;"
		 " PRAGMA wal_autocheckpoint = 1000;"
		 " CREATE TABLE raw (k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID;",
		 c.sync ? "FULL" : "OFF");
	check(sqlite3_exec(db, sql, NULL, NULL, NULL), "setup (give a new --db file)");
	put = prep("INSERT OR REPLACE INTO raw(k, v) VALUES (?1, ?2)");
	get = prep("SELECT v FROM raw WHERE k = ?1");
	scan = prep("SELECT k, v FROM raw ORDER BY k");
	begin_w = prep("BEGIN IMMEDIATE");
	begin_r = prep("BEGIN");
	commit = prep("COMMIT");
	calib_each(&c, &loops);
	sqlite3_stmt *all[] = {put, get, scan, begin_w, begin_r, commit};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		sqlite3_finalize(all[i]);
	sqlite3_close(db);
	free(c.values);
	return 0;
}
