/* The SQLite backend: one database file in WAL mode, one WITHOUT ROWID table
 * per rpb_table (the key is the clustered B-tree key, so a scan is one range
 * walk), one connection per session with statements prepared once.
 *
 * A write transaction's BEGIN IMMEDIATE is sent lazily: a first put is kept
 * (key and value copied into the session) and not run yet. If commit comes
 * next, the put runs alone in autocommit mode, which SQLite makes atomic
 * and durable as one transaction, and its failure is commit's (store.h
 * allows a deferred put failure; nothing is committed then). Any other
 * statement first sends BEGIN IMMEDIATE and the kept put. So a transaction
 * of one put costs one statement instead of three, and every other
 * transaction keeps its semantics. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>

#include <sqlite3.h>

#include "sqlite_backend.h"
#include "fsutil.h"
#include "options.h"
#include "store.h"

#define SQ_FILE "rpbench.sqlite"

enum sq_op { SQ_PUT, SQ_GET, SQ_DEL, SQ_SCAN, SQ_OP_COUNT };

/* Each statement is head + table name + tail. */
static const char *const sq_sql[SQ_OP_COUNT][2] = {
	[SQ_PUT] = {"INSERT OR REPLACE INTO ", "(k, v) VALUES (?1, ?2)"},
	[SQ_GET] = {"SELECT v FROM ", " WHERE k = ?1"},
	[SQ_DEL] = {"DELETE FROM ", " WHERE k = ?1"},
	[SQ_SCAN] = {"SELECT k, v FROM ", " WHERE k > ?1 AND k <= ?2 ORDER BY k LIMIT ?3"},
};
static const char *const sq_op_name[SQ_OP_COUNT] = {"put", "get", "del", "scan"};

/* Binding a NULL pointer would bind SQL NULL; empty blobs point here. */
static const unsigned char sq_empty[1];

struct sq_tuning {
	uint64_t page_size, cache_size, mmap_size, busy_timeout, wal_autocheckpoint, max_pages;
	unsigned locking_mode; /* index in sq_locking_modes */
	bool exclusive; /* locking_mode = exclusive */
	unsigned synchronous; /* index in sq_synchronous: 0 = from sync */
};

/* sqlite.synchronous: auto = what sync asks (commit FULL, none OFF). */
static const char *const sq_synchronous[] = {"auto", "off", "normal", "full", "extra", NULL};
static const char *const sq_locking_modes[] = {"normal", "exclusive", NULL};

/* The largest first put kept for autocommit; a larger one begins at once
 * rather than be copied. */
#define SQ_KEEP_MAX (64u << 10)

struct rpb_store {
	char path[PATH_MAX];
	enum rpb_sync sync;
	struct sq_tuning tune;
	/* Held open for the store's lifetime: when the last connection closes,
	 * SQLite checkpoints and deletes the WAL, which sessions coming and
	 * going would otherwise pay for again and again. */
	sqlite3 *keeper;
	/* RPB_KEY_MAX + 1 bytes of 0xFF: above every valid key, the open upper
	 * bound of a scan. */
	unsigned char key_top[RPB_KEY_MAX + 1];
	/* The checkpoints sq_wal_hook ran, and their time (gauges). */
	_Atomic uint64_t checkpoints, checkpoint_ns;
	atomic_int sessions; /* open now (locking_mode = exclusive allows one) */
};

struct rpb_session {
	struct rpb_store *store;
	sqlite3 *db;
	sqlite3_stmt *data[RPB_TABLE_COUNT][SQ_OP_COUNT]; /* prepared on first use */
	sqlite3_stmt *begin_r, *begin_w, *commit, *rollback;
	bool in_txn;
	bool writable; /* begun with RPB_TXN_WRITE */
	bool begun;    /* the SQL transaction is open (see the header: lazy BEGIN) */
	bool kept;     /* a first put waits in keep_* */
	enum rpb_table keep_table;
	struct rpb_buf keep_key, keep_val;
	uint64_t statements; /* stepped since the session opened (rpb_sqlite_statements) */
	atomic_bool interrupted;
	struct timespec busy_since;
};

/* The refusal of locking_mode = exclusive for a run of several sessions. */
#define SQ_EXCLUSIVE_ONE_SESSION \
	"sqlite.locking_mode = exclusive allows one session at a time and this run opens more; " \
	"set threads = 1 and clients = 1, or sqlite.locking_mode = normal"

#define SQ(f) offsetof(struct sq_tuning, f)
static const struct rpb_optdef sq_options[] = {
	{ .key = "page_size", .type = RPB_OPT_COUNT, .dflt = "4096", .umin = 512, .umax = 65536,
	  .off = SQ(page_size),
	  .help = "page size in bytes, a power of two, fixed when the store is created; 4096 "
		  "matches the OS page and SSD write unit, so a page write is one device write" },
	{ .key = "cache_size", .type = RPB_OPT_SIZE, .dflt = "64M", .umin = 64u << 10,
	  .umax = 64ull << 30, .off = SQ(cache_size),
	  .help = "page cache per session in bytes; large enough for the B-tree interior pages "
		  "of every table, so a lookup reads at most one leaf page from the OS" },
	{ .key = "mmap_size", .type = RPB_OPT_SIZE, .dflt = "256M", .umin = 0, .umax = 64ull << 30,
	  .off = SQ(mmap_size),
	  .help = "bytes of the file read through mmap, 0 = read(); saves a copy per page read "
		  "for the hot part of the file without mapping unbounded stores" },
	{ .key = "busy_timeout", .type = RPB_OPT_COUNT, .dflt = "5000", .umin = 0, .umax = 3600000,
	  .off = SQ(busy_timeout),
	  .help = "ms a session waits for another's write lock before reporting a conflict; long "
		  "enough for any one benchmark transaction to finish" },
	{ .key = "wal_autocheckpoint", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 0,
	  .umax = INT32_MAX, .off = SQ(wal_autocheckpoint),
	  .help = "WAL pages after which a commit checkpoints, 0 = never; SQLite's default: keeps "
		  "the WAL (and read cost through it) small" },
	{ .key = "max_pages", .type = RPB_OPT_COUNT, .dflt = "0", .umin = 0, .umax = 1073741823,
	  .off = SQ(max_pages),
	  .help = "page quota of the database file, 0 = unlimited; exceeding it fails with "
		  "SQLITE_FULL, a disk-full test where a small file system cannot be mounted" },
	{ .key = "synchronous", .type = RPB_OPT_ENUM, .dflt = "auto", .choices = sq_synchronous,
	  .off = SQ(synchronous),
	  .help = "PRAGMA synchronous on every connection; auto = FULL with sync = commit, OFF "
		  "with sync = none; normal is WAL's usual setting (a commit survives a process "
		  "crash; the WAL is synced at checkpoints, so a power loss may lose the last "
		  "commits)" },
	{ .key = "locking_mode", .type = RPB_OPT_ENUM, .dflt = "normal",
	  .choices = sq_locking_modes, .off = SQ(locking_mode),
	  .help = "exclusive keeps the file locked by the one session a run may then open "
		  "(threads = 1, clients = 1) and its WAL index in process memory, as "
		  "db_bench_sqlite3 runs" },
	{ .key = NULL },
};

enum rpb_status rpb_sqlite_classify(int code)
{
	switch (code) {
	case SQLITE_OK:
	case SQLITE_ROW:
	case SQLITE_DONE:
		return RPB_OK;
	case SQLITE_IOERR_NOMEM:
		return RPB_NOMEM;
#ifdef SQLITE_IOERR_CORRUPTFS
	case SQLITE_IOERR_CORRUPTFS:
		return RPB_CORRUPT;
#endif
	default:
		break;
	}
	switch (code & 0xff) {
	case SQLITE_FULL:
		return RPB_DISK_FULL;
	case SQLITE_INTERRUPT:
		return RPB_TXN_TIMEOUT;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return RPB_CONFLICT;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return RPB_CORRUPT;
	case SQLITE_NOMEM:
		return RPB_NOMEM;
	case SQLITE_CONSTRAINT:
		return RPB_EXISTS;
	case SQLITE_TOOBIG:
	case SQLITE_MISUSE:
	case SQLITE_RANGE:
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return RPB_INVALID; /* configuration: read-only store, unopenable file */
	default:
		return RPB_IO; /* SQLITE_IOERR*, SQLITE_NOTFOUND (a file-control code), ... */
	}
}

/* One short fix per class, so every message names problem and remedy. A
 * disk full names what filled, so the fix offered is the one that helps:
 * the store's own sqlite.max_pages limit when one is set and the file
 * system still has room (1 MiB: more than a page and its journal), else the
 * file system. (SQLite's write of a full disk clears the OS error, so
 * ENOSPC cannot be told from it.) */
static const char *sq_hint(const struct rpb_store *st, enum rpb_status cls)
{
	struct statvfs fs;
	switch (cls) {
	case RPB_DISK_FULL:
		if (st->tune.max_pages &&
		    (statvfs(st->path, &fs) != 0 || (uint64_t)fs.f_bavail * fs.f_frsize >= 1u << 20))
			return "the store reached sqlite.max_pages; raise it (0: no limit)";
		return "the file system holding the store is full; free space there or give the "
		       "store a larger one";
	case RPB_TXN_TIMEOUT: return "the transaction was interrupted and rolled back";
	case RPB_CONFLICT: return "another session holds the write lock; retry or raise busy_timeout";
	case RPB_CORRUPT: return "the file is damaged or not an SQLite database; recreate the store";
	case RPB_NOMEM: return "free memory or lower cache_size/mmap_size";
	case RPB_INVALID: return "check that the store file exists, is writable and is not too large";
	default: return "check the file system holding the store";
	}
}

/* The extended code of the failure rc reported on db. */
static int sq_code(sqlite3 *db, int rc)
{
	int ext = db ? sqlite3_extended_errcode(db) : rc;
	return (ext & 0xff) == (rc & 0xff) ? ext : rc;
}

/* The class of code, refined by the OS error behind an I/O failure. */
static enum rpb_status sq_class(sqlite3 *db, int code)
{
	enum rpb_status cls = rpb_sqlite_classify(code);
	int prim = code & 0xff;
	if (db && (prim == SQLITE_IOERR || prim == SQLITE_CANTOPEN)) {
		int sys = sqlite3_system_errno(db);
		if (sys == ENOSPC || sys == EDQUOT)
			cls = RPB_DISK_FULL;
	}
	return cls;
}

/* Reports a failure of rc on db during what (open-time: no transaction). */
static enum rpb_status sq_db_fail(const struct rpb_store *st, sqlite3 *db, int rc,
				  const char *what, struct rpb_err *err)
{
	int code = sq_code(db, rc);
	enum rpb_status cls = sq_class(db, code);
	return rpb_err_set(err, cls, code, NULL, "sqlite %s %s: %s; %s", what, st->path,
			   db ? sqlite3_errmsg(db) : sqlite3_errstr(rc), sq_hint(st, cls));
}

static char sq_version_buf[64];

static void sq_version_fill(void)
{
	snprintf(sq_version_buf, sizeof sq_version_buf, "SQLite %s", sqlite3_libversion());
}

static const char *sq_version(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, sq_version_fill);
	return sq_version_buf;
}

/* ---- connections ---- */

/* Settings SQLite keeps per connection, so every connection sets them. */
static int sq_pragmas(const struct rpb_store *st, sqlite3 *db)
{
	char sql[512];
	int n = snprintf(sql, sizeof sql,
			 "PRAGMA locking_mode = %s; PRAGMA synchronous = %s; PRAGMA cache_size = -%llu; "
			 "PRAGMA mmap_size = %llu; PRAGMA wal_autocheckpoint = %llu;",
			 st->tune.exclusive ? "EXCLUSIVE" : "NORMAL",
			 st->tune.synchronous ? sq_synchronous[st->tune.synchronous]
			 : st->sync == RPB_SYNC_COMMIT ? "FULL"
						       : "OFF",
			 (unsigned long long)(st->tune.cache_size / 1024),
			 (unsigned long long)st->tune.mmap_size,
			 (unsigned long long)st->tune.wal_autocheckpoint);
	if (st->tune.max_pages)
		snprintf(sql + n, sizeof sql - (size_t)n, " PRAGMA max_page_count = %llu;",
			 (unsigned long long)st->tune.max_pages);
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* SQLite's own automatic checkpoint (sqlite3_wal_autocheckpoint installs
 * the same hook: a passive checkpoint once a commit leaves the WAL with
 * wal_autocheckpoint frames or more), counted and timed for the gauges. It
 * runs in the committing session's thread, after its commit, as SQLite's
 * does. */
static int sq_wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	struct rpb_store *st = arg;
	if (st->tune.wal_autocheckpoint && (uint64_t)frames >= st->tune.wal_autocheckpoint) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		clock_gettime(CLOCK_MONOTONIC, &b);
		atomic_fetch_add_explicit(&st->checkpoints, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&st->checkpoint_ns,
					  (uint64_t)((b.tv_sec - a.tv_sec) * 1000000000ll +
						     (b.tv_nsec - a.tv_nsec)),
					  memory_order_relaxed);
	}
	return SQLITE_OK;
}

static enum rpb_status sq_connect(struct rpb_store *st, bool create, sqlite3 **out,
				  struct rpb_err *err)
{
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(st->path, &db, flags, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_extended_result_codes(db, 1);
		if (sqlite3_db_readonly(db, "main") == 1) {
			sqlite3_close(db);
			*out = NULL;
			return rpb_err_set(err, RPB_INVALID, SQLITE_READONLY, NULL,
					   "sqlite store %s is read-only; make the file writable or choose another --dir",
					   st->path);
		}
		rc = sq_pragmas(st, db);
		if (rc == SQLITE_OK)
			sqlite3_wal_hook(db, sq_wal_hook, st); /* after the pragma, which sets SQLite's */
	}
	if (rc != SQLITE_OK) {
		enum rpb_status cls = sq_db_fail(st, db, rc, "open", err);
		sqlite3_close(db);
		*out = NULL;
		return cls;
	}
	*out = db;
	return RPB_OK;
}

/* ---- store ---- */

static enum rpb_status sq_tuning_read(const struct rpb_store_cfg *cfg, struct sq_tuning *t,
				      struct rpb_err *err)
{
	enum rpb_status st = rpb_cfg_parse(cfg, "sqlite", sq_options, t, err);
	if (!st && (t->page_size & (t->page_size - 1)))
		st = rpb_err_usage(err, "[sqlite] page_size = %llu is invalid; give a power of two "
				 "in [512, 65536]", (unsigned long long)t->page_size);
	t->exclusive = t->locking_mode == 1;
	return st;
}

/* Page size (only effective before the first table), WAL and the tables.
 * Idempotent, so it runs on every open. */
static enum rpb_status sq_schema(struct rpb_store *st, struct rpb_err *err)
{
	char sql[128];
	snprintf(sql, sizeof sql, "PRAGMA page_size = %llu", (unsigned long long)st->tune.page_size);
	int rc = sqlite3_exec(st->keeper, sql, NULL, NULL, NULL);
	sqlite3_stmt *q = NULL;
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(st->keeper, "PRAGMA journal_mode = WAL", -1, &q, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(q);
		const unsigned char *mode = rc == SQLITE_ROW ? sqlite3_column_text(q, 0) : NULL;
		bool wal = mode && strcmp((const char *)mode, "wal") == 0;
		rc = rc == SQLITE_ROW ? SQLITE_OK : rc;
		sqlite3_finalize(q);
		if (rc == SQLITE_OK && !wal)
			return rpb_err_set(err, RPB_INVALID, 0, NULL,
					   "sqlite store %s cannot use WAL mode; put --dir on a local file system",
					   st->path);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(st->keeper, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	for (int t = 0; rc == SQLITE_OK && t < RPB_TABLE_COUNT; t++) {
		snprintf(sql, sizeof sql,
			 "CREATE TABLE IF NOT EXISTS %s (k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID",
			 rpb_table_name((enum rpb_table)t));
		rc = sqlite3_exec(st->keeper, sql, NULL, NULL, NULL);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(st->keeper, "COMMIT", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		return RPB_OK;
	enum rpb_status cls = sq_db_fail(st, st->keeper, rc, "schema", err);
	if (!sqlite3_get_autocommit(st->keeper))
		sqlite3_exec(st->keeper, "ROLLBACK", NULL, NULL, NULL);
	return cls;
}

static void sq_close(struct rpb_store *st)
{
	if (!st)
		return;
	sqlite3_close(st->keeper);
	free(st);
}

static enum rpb_status sq_open(const struct rpb_store_cfg *cfg, struct rpb_store **out,
			       struct rpb_err *err)
{
	*out = NULL;
	struct sq_tuning tune;
	enum rpb_status rs = sq_tuning_read(cfg, &tune, err);
	if (!rs && tune.exclusive && cfg->sessions > 1) /* before anything is created */
		rs = rpb_err_set(err, RPB_INVALID, 0, NULL, SQ_EXCLUSIVE_ONE_SESSION);
	if (!rs)
		rs = rpb_dir_prepare(cfg->dir, cfg->create, err);
	if (rs)
		return rs;
	struct rpb_store *st = calloc(1, sizeof *st);
	if (!st)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory opening the sqlite store");
	st->sync = cfg->sync;
	st->tune = tune;
	memset(st->key_top, 0xFF, sizeof st->key_top);
	if (snprintf(st->path, sizeof st->path, "%s/%s", cfg->dir, SQ_FILE) >= (int)sizeof st->path) {
		free(st);
		return rpb_err_set(err, RPB_INVALID, ENAMETOOLONG, NULL,
				   "store directory path %s is too long; choose a shorter --dir", cfg->dir);
	}
	struct stat sb;
	if (!cfg->create && stat(st->path, &sb) != 0) {
		int e = errno;
		/* A configuration problem, as LevelDB and SQLITE_CANTOPEN report it. */
		rs = rpb_err_set(err, e == ENOENT ? RPB_INVALID : rpb_errno_class(e), e, NULL,
				 "sqlite store %s: %s; point --dir at the store's directory",
				 st->path, strerror(e));
		free(st);
		return rs;
	}
	sqlite3 *db;
	rs = sq_connect(st, cfg->create, &db, err);
	if (rs) {
		free(st);
		return rs;
	}
	st->keeper = db;
	sqlite3_busy_timeout(db, (int)tune.busy_timeout);
	rs = sq_schema(st, err);
	if (rs) {
		sq_close(st);
		return rs;
	}
	if (tune.exclusive) { /* the one session will hold the file alone */
		sqlite3_close(st->keeper);
		st->keeper = NULL;
	}
	*out = st;
	return RPB_OK;
}

/* The WAL's size on disk (it grows between checkpoints, and a checkpoint
 * that cannot finish lets it grow without bound), and the checkpoints run
 * since the store was opened with their total time. */
static enum rpb_status sq_gauges(struct rpb_store *st, struct rpb_gauge *out, size_t *n,
				 struct rpb_err *err)
{
	(void)err;
	char p[PATH_MAX + 8];
	snprintf(p, sizeof p, "%s-wal", st->path);
	out[0] = (struct rpb_gauge){"wal_bytes", (double)rpb_file_usage(p)};
	out[1] = (struct rpb_gauge){"checkpoints",
				    (double)atomic_load_explicit(&st->checkpoints, memory_order_relaxed)};
	out[2] = (struct rpb_gauge){"checkpoint_s",
				    (double)atomic_load_explicit(&st->checkpoint_ns, memory_order_relaxed) /
					    1e9};
	*n = 3;
	return RPB_OK;
}

static enum rpb_status sq_usage(struct rpb_store *st, uint64_t *bytes, struct rpb_err *err)
{
	(void)err;
	char p[PATH_MAX + 8];
	*bytes = rpb_file_usage(st->path);
	snprintf(p, sizeof p, "%s-wal", st->path);
	*bytes += rpb_file_usage(p);
	snprintf(p, sizeof p, "%s-shm", st->path);
	*bytes += rpb_file_usage(p);
	return RPB_OK;
}

/* ---- sessions ---- */

/* Waits with a short backoff for another session's lock; gives up after
 * busy_timeout, or at once when interrupted, so interrupt() also frees a
 * session blocked on a lock. */
static int sq_busy(void *arg, int count)
{
	struct rpb_session *s = arg;
	if (atomic_load_explicit(&s->interrupted, memory_order_acquire))
		return 0;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (count == 0)
		s->busy_since = now;
	int64_t waited_ms = (int64_t)(now.tv_sec - s->busy_since.tv_sec) * 1000 +
			    (now.tv_nsec - s->busy_since.tv_nsec) / 1000000;
	if (waited_ms >= (int64_t)s->store->tune.busy_timeout)
		return 0;
	/* 50 us doubling to 3.2 ms: a short wait for short transactions, and
	 * an interrupt is noticed within a few milliseconds. */
	struct timespec nap = {0, count < 6 ? 50000L << count : 3200000L};
	nanosleep(&nap, NULL);
	return !atomic_load_explicit(&s->interrupted, memory_order_acquire);
}

static void sq_session_free(struct rpb_session *s)
{
	for (int t = 0; t < RPB_TABLE_COUNT; t++)
		for (int op = 0; op < SQ_OP_COUNT; op++)
			sqlite3_finalize(s->data[t][op]);
	sqlite3_finalize(s->begin_r);
	sqlite3_finalize(s->begin_w);
	sqlite3_finalize(s->commit);
	sqlite3_finalize(s->rollback);
	sqlite3_close(s->db);
	rpb_buf_free(&s->keep_key);
	rpb_buf_free(&s->keep_val);
	atomic_fetch_sub(&s->store->sessions, 1);
	free(s);
}

static int sq_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **out)
{
	return sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL);
}

static enum rpb_status sq_session_open(struct rpb_store *st, struct rpb_session **out,
				       struct rpb_err *err)
{
	*out = NULL;
	struct rpb_session *s = rpb_calloc_lines(1, sizeof *s);
	if (!s)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory opening an sqlite session");
	s->store = st;
	atomic_init(&s->interrupted, false);
	if (atomic_fetch_add(&st->sessions, 1) > 0 && st->tune.exclusive) {
		atomic_fetch_sub(&st->sessions, 1);
		free(s);
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   SQ_EXCLUSIVE_ONE_SESSION);
	}
	enum rpb_status rs = sq_connect(st, false, &s->db, err);
	if (rs) {
		atomic_fetch_sub(&st->sessions, 1);
		free(s);
		return rs;
	}
	sqlite3_busy_handler(s->db, sq_busy, s);
	int rc = sq_prepare(s->db, "BEGIN", &s->begin_r);
	if (rc == SQLITE_OK)
		rc = sq_prepare(s->db, "BEGIN IMMEDIATE", &s->begin_w);
	if (rc == SQLITE_OK)
		rc = sq_prepare(s->db, "COMMIT", &s->commit);
	if (rc == SQLITE_OK)
		rc = sq_prepare(s->db, "ROLLBACK", &s->rollback);
	if (rc != SQLITE_OK) {
		rs = sq_db_fail(st, s->db, rc, "prepare on", err);
		sq_session_free(s);
		return rs;
	}
	*out = s;
	return RPB_OK;
}

/* Rolls back whatever is open. Retried because an interrupt landing just as
 * ROLLBACK starts can abort it too. */
static void sq_abort(struct rpb_session *s)
{
	for (int i = 0; i < 3 && !sqlite3_get_autocommit(s->db); i++) {
		sqlite3_step(s->rollback);
		sqlite3_reset(s->rollback);
	}
	s->in_txn = s->begun = s->kept = false;
}

static void sq_rollback(struct rpb_session *s)
{
	sq_abort(s);
}

static void sq_session_close(struct rpb_session *s)
{
	if (!s)
		return;
	sq_abort(s);
	sq_session_free(s);
}

/* Reports the failure rc of a call on stmt (may be NULL), then rolls the
 * transaction back as the contract requires. The message is copied before
 * reset and ROLLBACK overwrite it. */
static enum rpb_status sq_fail(struct rpb_session *s, sqlite3_stmt *stmt, int rc,
			       const char *what, const char *table, struct rpb_err *err)
{
	int code = sq_code(s->db, rc);
	enum rpb_status cls = sq_class(s->db, code);
	if (atomic_load_explicit(&s->interrupted, memory_order_acquire))
		cls = RPB_TXN_TIMEOUT; /* SQLITE_BUSY from the busy handler giving up, ... */
	rpb_err_set(err, cls, code, NULL, "sqlite %s%s%s: %s; %s", what, table ? " " : "",
		    table ? table : "", sqlite3_errmsg(s->db),
		    sq_hint(s->store, cls));
	if (stmt)
		sqlite3_reset(stmt);
	sq_abort(s);
	return cls;
}

/* A data operation's or commit's entry check: inside a transaction, and not
 * interrupted. */
static enum rpb_status sq_enter(struct rpb_session *s, const char *what, struct rpb_err *err)
{
	if (!s->in_txn)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "sqlite %s outside a transaction; call begin first", what);
	if (atomic_load_explicit(&s->interrupted, memory_order_acquire)) {
		sq_abort(s);
		return rpb_err_set(err, RPB_TXN_TIMEOUT, 0, NULL,
				   "sqlite %s: transaction interrupted and rolled back", what);
	}
	return RPB_OK;
}

/* Bad arguments fail the data operation, which rolls the transaction back. */
static enum rpb_status sq_invalid(struct rpb_session *s, const char *what, const char *why,
				  struct rpb_err *err)
{
	sq_abort(s);
	return rpb_err_set(err, RPB_INVALID, 0, NULL, "sqlite %s: %s", what, why);
}

static bool sq_key_ok(rpb_slice k)
{
	return k.data && k.len >= 1 && k.len <= RPB_KEY_MAX;
}

/* Entry check, table check and the (lazily prepared) statement for op. */
static enum rpb_status sq_stmt(struct rpb_session *s, enum rpb_table t, enum sq_op op,
			       sqlite3_stmt **out, struct rpb_err *err)
{
	const char *what = sq_op_name[op];
	enum rpb_status rs = sq_enter(s, what, err);
	if (rs)
		return rs;
	if ((unsigned)t >= RPB_TABLE_COUNT)
		return sq_invalid(s, what, "no such table", err);
	if (!s->data[t][op]) {
		char sql[160];
		snprintf(sql, sizeof sql, "%s%s%s", sq_sql[op][0], rpb_table_name(t), sq_sql[op][1]);
		int rc = sq_prepare(s->db, sql, &s->data[t][op]);
		if (rc != SQLITE_OK)
			return sq_fail(s, NULL, rc, what, rpb_table_name(t), err);
	}
	*out = s->data[t][op];
	return RPB_OK;
}

static int sq_bind(sqlite3_stmt *q, int i, rpb_slice v)
{
	return sqlite3_bind_blob64(q, i, v.len ? v.data : sq_empty, v.len, SQLITE_STATIC);
}

/* Steps q once (counted for rpb_sqlite_statements). */
static int sq_step(struct rpb_session *s, sqlite3_stmt *q)
{
	s->statements++;
	return sqlite3_step(q);
}

/* Runs a put on the statement q already checked; the failure rolls back. */
static enum rpb_status sq_put_run(struct rpb_session *s, sqlite3_stmt *q, enum rpb_table t,
				  rpb_slice key, rpb_slice val, struct rpb_err *err)
{
	int rc = sq_bind(q, 1, key);
	if (rc == SQLITE_OK)
		rc = sq_bind(q, 2, val);
	if (rc == SQLITE_OK)
		rc = sq_step(s, q);
	if (rc != SQLITE_DONE)
		return sq_fail(s, q, rc, "put", rpb_table_name(t), err);
	sqlite3_reset(q);
	return RPB_OK;
}

/* Opens the SQL transaction a write transaction has put off, then runs
 * the put it kept. */
static enum rpb_status sq_begun(struct rpb_session *s, struct rpb_err *err)
{
	if (s->begun)
		return RPB_OK;
	int rc = sq_step(s, s->begin_w);
	if (rc != SQLITE_DONE)
		return sq_fail(s, s->begin_w, rc, "begin", NULL, err);
	sqlite3_reset(s->begin_w);
	s->begun = true;
	if (!s->kept)
		return RPB_OK;
	s->kept = false;
	return sq_put_run(s, s->data[s->keep_table][SQ_PUT], s->keep_table,
			  rpb_slice_make(s->keep_key.data, s->keep_key.len),
			  rpb_slice_make(s->keep_val.data, s->keep_val.len), err);
}

static enum rpb_status sq_begin(struct rpb_session *s, enum rpb_txn_mode mode, struct rpb_err *err)
{
	if (s->in_txn)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "sqlite begin: a transaction is already open; commit or roll it back first");
	atomic_store_explicit(&s->interrupted, false, memory_order_release);
	s->in_txn = true;
	s->writable = mode == RPB_TXN_WRITE;
	s->kept = false;
	/* Writers take the write lock up front (BEGIN IMMEDIATE: a deferred
	 * upgrade could fail with SQLITE_BUSY_SNAPSHOT after work was done),
	 * but only with the transaction's second statement (sq_begun). */
	s->begun = false;
	if (s->writable)
		return RPB_OK;
	int rc = sq_step(s, s->begin_r);
	if (rc != SQLITE_DONE)
		return sq_fail(s, s->begin_r, rc, "begin", NULL, err);
	sqlite3_reset(s->begin_r);
	s->begun = true;
	return RPB_OK;
}

static enum rpb_status sq_put(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      rpb_slice val, struct rpb_err *err)
{
	sqlite3_stmt *q;
	enum rpb_status rs = sq_stmt(s, t, SQ_PUT, &q, err);
	if (rs)
		return rs;
	if (!s->writable)
		return sq_invalid(s, "put", "the transaction was begun read-only; begin it with RPB_TXN_WRITE", err);
	if (!sq_key_ok(key) || val.len > RPB_VALUE_MAX || (val.len && !val.data))
		return sq_invalid(s, "put", "keys are 1..1024 bytes, values at most 64 MiB", err);
	if (!s->begun && !s->kept && val.len <= SQ_KEEP_MAX) { /* kept for commit */
		rs = rpb_buf_set(&s->keep_key, key.data, key.len, err);
		if (!rs)
			rs = rpb_buf_set(&s->keep_val, val.len ? val.data : sq_empty, val.len, err);
		if (rs) {
			sq_abort(s);
			return rs;
		}
		s->keep_table = t;
		s->kept = true;
		return RPB_OK;
	}
	if ((rs = sq_begun(s, err)))
		return rs;
	return sq_put_run(s, q, t, key, val, err);
}

static enum rpb_status sq_get(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      struct rpb_buf *out, struct rpb_err *err)
{
	sqlite3_stmt *q;
	enum rpb_status rs = sq_stmt(s, t, SQ_GET, &q, err);
	if (rs)
		return rs;
	if (!sq_key_ok(key))
		return sq_invalid(s, "get", "keys are 1..1024 bytes", err);
	if ((rs = sq_begun(s, err)))
		return rs;
	int rc = sq_bind(q, 1, key);
	if (rc == SQLITE_OK)
		rc = sq_step(s, q);
	if (rc == SQLITE_DONE) {
		sqlite3_reset(q);
		return rpb_err_not_found(err);
	}
	if (rc != SQLITE_ROW)
		return sq_fail(s, q, rc, "get", rpb_table_name(t), err);
	const void *p = sqlite3_column_blob(q, 0);
	int n = sqlite3_column_bytes(q, 0);
	if (!p && n > 0)
		return sq_fail(s, q, SQLITE_NOMEM, "get", rpb_table_name(t), err);
	rs = rpb_buf_set(out, p, (size_t)n, err);
	sqlite3_reset(q);
	if (rs)
		sq_abort(s);
	return rs;
}

static enum rpb_status sq_del(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      struct rpb_err *err)
{
	sqlite3_stmt *q;
	enum rpb_status rs = sq_stmt(s, t, SQ_DEL, &q, err);
	if (rs)
		return rs;
	if (!s->writable)
		return sq_invalid(s, "del", "the transaction was begun read-only; begin it with RPB_TXN_WRITE", err);
	if (!sq_key_ok(key))
		return sq_invalid(s, "del", "keys are 1..1024 bytes", err);
	if ((rs = sq_begun(s, err)))
		return rs;
	int rc = sq_bind(q, 1, key);
	if (rc == SQLITE_OK)
		rc = sq_step(s, q);
	if (rc != SQLITE_DONE)
		return sq_fail(s, q, rc, "del", rpb_table_name(t), err);
	sqlite3_reset(q);
	if (sqlite3_changes(s->db) == 0)
		return rpb_err_not_found(err);
	return RPB_OK;
}

static bool sq_bound_ok(const rpb_slice *b)
{
	return !b || (b->len <= RPB_KEY_MAX && (b->data || !b->len));
}

static enum rpb_status sq_scan(struct rpb_session *s, enum rpb_table t, const rpb_slice *after,
			       const rpb_slice *upto, size_t limit, rpb_scan_fn fn, void *ctx,
			       struct rpb_err *err)
{
	sqlite3_stmt *q;
	enum rpb_status rs = sq_stmt(s, t, SQ_SCAN, &q, err);
	if (rs)
		return rs;
	if (!fn || !sq_bound_ok(after) || !sq_bound_ok(upto))
		return sq_invalid(s, "scan", "bounds are at most 1024 bytes and fn is required", err);
	if ((rs = sq_begun(s, err)))
		return rs;
	s->statements++;
	/* Every key is >= 1 byte, so an empty blob is below all of them. */
	int rc = sq_bind(q, 1, after ? *after : rpb_slice_make(sq_empty, 0));
	if (rc == SQLITE_OK)
		rc = sq_bind(q, 2, upto ? *upto : rpb_slice_make(s->store->key_top, sizeof s->store->key_top));
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(q, 3, limit && limit <= INT64_MAX ? (sqlite3_int64)limit : -1);
	while (rc == SQLITE_OK || rc == SQLITE_ROW) {
		rc = sqlite3_step(q);
		if (rc != SQLITE_ROW)
			break;
		/* A long scan notices an interrupt between rows. */
		if (atomic_load_explicit(&s->interrupted, memory_order_acquire)) {
			rc = SQLITE_INTERRUPT;
			break;
		}
		const void *k = sqlite3_column_blob(q, 0);
		int kn = sqlite3_column_bytes(q, 0);
		const void *v = sqlite3_column_blob(q, 1);
		int vn = sqlite3_column_bytes(q, 1);
		if ((!k && kn > 0) || (!v && vn > 0)) {
			rc = SQLITE_NOMEM;
			break;
		}
		if (fn(ctx, rpb_slice_make(k, (size_t)kn), rpb_slice_make(v ? v : sq_empty, (size_t)vn))) {
			rc = SQLITE_DONE;
			break;
		}
	}
	if (rc != SQLITE_DONE)
		return sq_fail(s, q, rc, "scan", rpb_table_name(t), err);
	sqlite3_reset(q);
	return RPB_OK;
}

static enum rpb_status sq_commit(struct rpb_session *s, struct rpb_err *err)
{
	enum rpb_status rs = sq_enter(s, "commit", err);
	if (rs)
		return rs;
	if (!s->begun) { /* at most one put, kept: it runs alone, in autocommit */
		if (s->kept && (rs = sq_put_run(s, s->data[s->keep_table][SQ_PUT], s->keep_table,
						rpb_slice_make(s->keep_key.data, s->keep_key.len),
						rpb_slice_make(s->keep_val.data, s->keep_val.len),
						err)))
			return rs;
		s->in_txn = s->kept = false;
		return RPB_OK;
	}
	int rc = sq_step(s, s->commit);
	if (rc != SQLITE_DONE)
		return sq_fail(s, s->commit, rc, "commit", NULL, err);
	sqlite3_reset(s->commit);
	s->in_txn = s->begun = false;
	return RPB_OK;
}

static void sq_interrupt(struct rpb_session *s)
{
	atomic_store_explicit(&s->interrupted, true, memory_order_release);
	sqlite3_interrupt(s->db); /* thread-safe; aborts a running statement */
}

uint64_t rpb_sqlite_statements(const struct rpb_session *s)
{
	return s->statements;
}

int rpb_sqlite_synchronous(const struct rpb_session *s)
{
	sqlite3_stmt *q = NULL;
	int v = -1;
	if (sqlite3_prepare_v2(s->db, "PRAGMA synchronous", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	return v;
}

/* The database and the files SQLite makes beside it. */
static const char *const sq_files[] = {"rpbench.sqlite", "rpbench.sqlite-*", NULL};

const struct rpb_backend rpb_backend_sqlite = {
	.name = "sqlite",
	.abi = RPB_BACKEND_ABI,
	.flags = RPB_BF_LOCKS,
	.options = sq_options,
	.config_size = sizeof(struct sq_tuning),
	.own_files = sq_files,
	.version = sq_version,
	.open = sq_open,
	.close = sq_close,
	.session_open = sq_session_open,
	.session_close = sq_session_close,
	.begin = sq_begin,
	.put = sq_put,
	.get = sq_get,
	.del = sq_del,
	.scan = sq_scan,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.interrupt = sq_interrupt,
	.usage = sq_usage,
	.gauges = sq_gauges,
};
