/* The RocksDB backend, over the library's C API.
 *
 * One RocksDB database per store directory, opened as an
 * OptimisticTransactionDB; each table is a one-byte key prefix (the enum
 * rpb_table value, META first), so the bytewise comparator keeps every
 * table ordered by memcmp, shorter key first, as store.h requires.
 *
 * A transaction is one of RocksDB's optimistic transactions, begun with a
 * snapshot: its reads (point reads and iterators) see that snapshot merged
 * with its own staged writes (the library's indexed write batch), and its
 * commit writes the batch atomically after checking that no key it wrote
 * was committed by another session since the snapshot; one that was is
 * RocksDB's Busy, RPB_CONFLICT here (retryable), and nothing is written.
 * The library gives what the LevelDB backend builds by hand (an overlay
 * and a snapshot), so this file has no overlay of its own.
 *
 * RocksDB calls cannot be cancelled: an interrupt is honoured as soon as
 * the call in progress returns, and at the next call. */
/* dladdr (_GNU_SOURCE, which the build defines): the version from the file name */
#include <dlfcn.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rocksdb/c.h>

#include "fsutil.h"
#include "options.h"
#include "rocksdb_backend.h"
#include "store.h"
#include "tablekey.h"

enum rdb_compression { RDB_C_NONE = 0, RDB_C_SNAPPY, RDB_C_LZ4, RDB_C_ZSTD };

#define RDB_LOG_DIR_MAX 1023

struct rdb_tuning {
	uint64_t write_buffer, block_cache, bloom_bits, bytes_per_sync;
	unsigned compression; /* enum rdb_compression */
	bool wal;
	char info_log_dir[RDB_LOG_DIR_MAX + 1]; /* as applied: never empty */
};

struct rpb_store {
	rocksdb_optimistictransactiondb_t *db;
	rocksdb_options_t *opts;
	rocksdb_block_based_table_options_t *table;
	rocksdb_cache_t *cache;
	rocksdb_writeoptions_t *wopts; /* shared: commits only read it */
	rocksdb_optimistictransaction_options_t *topts;
	char *dir;
	struct rdb_tuning tuning; /* as applied, for describe */
};

struct rpb_session {
	struct rpb_store *st;
	rocksdb_transaction_t *txn;   /* kept between transactions and reused */
	rocksdb_readoptions_t *ropts; /* carries the transaction's snapshot */
	const rocksdb_snapshot_t *snap;
	bool in_txn;
	enum rpb_txn_mode mode;
	uint64_t writes; /* staged puts and deletes */
	atomic_bool interrupted;
	/* Encoded keys (table byte + key); two so scan can hold both bounds. */
	unsigned char key[RPB_TKEY_MAX];
	unsigned char key2[RPB_TKEY_MAX];
};

/* block_cache = none: no block cache at all (rpb_cfg_parse's "none"). */
#define RDB_NO_CACHE UINT64_MAX

static const char *const rdb_compressions[] = {"none", "snappy", "lz4", "zstd", NULL};

/* RocksDB's own defaults, but the block cache's (32M in RocksDB 7), which
 * is LevelDB's 64M here so the two embedded stores cache alike. Fedora 4.5
 * ran no RocksDB store, so no row has a fedora-4.5 default of its own. */
#define RDB(f) offsetof(struct rdb_tuning, f)
static const struct rpb_optdef rdb_options[] = {
	{ .key = "write_buffer", .type = RPB_OPT_SIZE, .dflt = "64M", .umin = 64u << 10,
	  .umax = 4ull << 30, .off = RDB(write_buffer),
	  .help = "memtable size before a flush to a level-0 file" },
	{ .key = "block_cache", .type = RPB_OPT_SIZE, .dflt = "64M", .umin = 0,
	  .umax = 64ull << 30, .none = "none", .off = RDB(block_cache),
	  .help = "LRU cache of uncompressed data blocks; 0 = RocksDB's own 32M, none = no "
		  "block cache" },
	{ .key = "bloom_bits", .type = RPB_OPT_COUNT, .dflt = "10", .umin = 0, .umax = 32,
	  .off = RDB(bloom_bits),
	  .help = "full bloom filter bits per key (~1% false positives at 10); 0 = no filter" },
	{ .key = "compression", .type = RPB_OPT_ENUM, .dflt = "snappy", .choices = rdb_compressions,
	  .off = RDB(compression), .help = "block compression of the table files" },
	{ .key = "bytes_per_sync", .type = RPB_OPT_SIZE, .dflt = "0", .umin = 0, .umax = 1u << 30,
	  .off = RDB(bytes_per_sync),
	  .help = "sync table files in the background every this many bytes written; 0 = "
		  "only when a file is finished" },
	{ .key = "wal", .type = RPB_OPT_BOOL, .dflt = "on", .off = RDB(wal),
	  .help = "write-ahead log; off loses every commit not yet flushed at a crash "
		  "(refused with sync = commit)" },
	{ .key = "info_log_dir", .type = RPB_OPT_STRING, .dflt = "", .umax = RDB_LOG_DIR_MAX,
	  .off = RDB(info_log_dir),
	  .help = "directory of RocksDB's info log (LOG), kept off the store's disk; empty = "
		  "$TMPDIR/rpbench-rocksdb-<uid>" },
	{ .key = NULL },
};

/* What the C API of RocksDB 7.8 has no setter for, as an options string:
 * no fallocate, so a log or table file takes only the space written to
 * it. RocksDB preallocates a WAL by write_buffer x 1.1 and a table file by
 * its target size x 1.1 (db/db_impl/db_impl_write.cc GetWalPreallocateBlockSize,
 * env/io_posix.cc PosixWritableFile::PrepareWrite); on ext4 a failed
 * fallocate keeps what it got, so one preallocation fills a small disk
 * and the store cannot even be opened on it. */
static const char rdb_options_string[] = "allow_fallocate=false";

/* Classifies and copies a RocksDB error string, then frees it. */
static enum rpb_status rdb_error(struct rpb_err *err, char *native, const char *what)
{
	enum rpb_status st = rpb_rocksdb_classify(native);
	rpb_err_set(err, st, 0, NULL, "rocksdb %s: %s", what, native ? native : "unknown error");
	rocksdb_free(native);
	return st;
}

/* The C API has no version call: the shared library's file name has it
 * (librocksdb.so.7.8.3), found from one of its symbols. */
static char version_buf[48];

static void version_fill(void)
{
	Dl_info info;
	char path[PATH_MAX];
	const char *v = NULL;
	if (dladdr((void *)rocksdb_options_create, &info) && info.dli_fname &&
	    realpath(info.dli_fname, path)) {
		const char *so = strstr(path, ".so.");
		v = so ? so + 4 : NULL;
	}
	snprintf(version_buf, sizeof version_buf, "RocksDB%s%.32s", v ? " " : "", v ? v : "");
}

static const char *rdb_version(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, version_fill);
	return version_buf;
}

static void rdb_apply_tuning(struct rpb_store *st, const struct rdb_tuning *t, bool create)
{
	static const int codes[] = {
		[RDB_C_NONE] = rocksdb_no_compression, [RDB_C_SNAPPY] = rocksdb_snappy_compression,
		[RDB_C_LZ4] = rocksdb_lz4_compression, [RDB_C_ZSTD] = rocksdb_zstd_compression,
	};
	rocksdb_options_set_create_if_missing(st->opts, create);
	rocksdb_options_set_write_buffer_size(st->opts, t->write_buffer);
	/* The commit's conflict check reads the memtables written since the
	 * snapshot; keep one flushed memtable's worth so a flush between
	 * begin and commit does not fail the check (TryAgain). */
	rocksdb_options_set_max_write_buffer_size_to_maintain(st->opts, (int64_t)t->write_buffer);
	rocksdb_options_set_compression(st->opts, codes[t->compression]);
	rocksdb_options_set_bytes_per_sync(st->opts, t->bytes_per_sync);
	rocksdb_options_set_keep_log_file_num(st->opts, 4);
	rocksdb_options_set_db_log_dir(st->opts, t->info_log_dir);
	if (t->block_cache == RDB_NO_CACHE) {
		rocksdb_block_based_options_set_no_block_cache(st->table, 1);
	} else if (t->block_cache) {
		st->cache = rocksdb_cache_create_lru(t->block_cache);
		rocksdb_block_based_options_set_block_cache(st->table, st->cache);
	}
	if (t->bloom_bits) /* the table options own the policy from here on */
		rocksdb_block_based_options_set_filter_policy(
			st->table, rocksdb_filterpolicy_create_bloom_full((double)t->bloom_bits));
	rocksdb_options_set_block_based_table_factory(st->opts, st->table);
	rocksdb_writeoptions_disable_WAL(st->wopts, !t->wal);
	st->tuning = *t;
}

/* The settings in effect, for result.json's manifest. */
static enum rpb_status rdb_describe(struct rpb_store *st, struct rpb_fact *out, size_t *n,
				    struct rpb_err *err)
{
	(void)err;
	const struct rdb_tuning *t = &st->tuning;
	struct { const char *name; uint64_t v; } rows[] = {
		{"write_buffer", t->write_buffer},
		{"block_cache", t->block_cache},
		{"bloom_bits", t->bloom_bits},
		{"bytes_per_sync", t->bytes_per_sync},
	};
	*n = 0;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++, (*n)++) {
		snprintf(out[*n].name, sizeof out[*n].name, "%s", rows[i].name);
		if (rows[i].v == RDB_NO_CACHE)
			snprintf(out[*n].value, sizeof out[*n].value, "none");
		else
			snprintf(out[*n].value, sizeof out[*n].value, "%" PRIu64, rows[i].v);
	}
	snprintf(out[*n].name, sizeof out[*n].name, "compression");
	snprintf(out[*n].value, sizeof out[*n].value, "%s", rdb_compressions[t->compression]);
	(*n)++;
	snprintf(out[*n].name, sizeof out[*n].name, "wal");
	snprintf(out[*n].value, sizeof out[*n].value, "%s", t->wal ? "on" : "off");
	(*n)++;
	snprintf(out[*n].name, sizeof out[*n].name, "info_log_dir");
	snprintf(out[*n].value, sizeof out[*n].value, "%s", t->info_log_dir);
	(*n)++;
	return RPB_OK;
}

/* Turns a failed open into one line that names the fix. */
static enum rpb_status rdb_open_error(const char *dir, char *native, struct rpb_err *err)
{
	enum rpb_status st = rpb_rocksdb_classify(native);
	const char *m = native ? native : "unknown error";
	if (strstr(m, "lock ") || strstr(m, "LOCK"))
		rpb_err_set(err, st, 0, NULL,
			    "rocksdb store %s is already open in another process or handle (%s); "
			    "stop the other user or choose another --dir", dir, m);
	else if (st == RPB_DISK_FULL)
		rpb_err_set(err, st, 0, NULL,
			    "cannot open rocksdb store %s: %s; RocksDB writes a MANIFEST, an OPTIONS "
			    "file and a new log while opening, so free space on its file system first",
			    dir, m);
	else if (strstr(m, "create_if_missing is false"))
		rpb_err_set(err, st, 0, NULL,
			    "no rocksdb store in %s (%s); point --dir at the store's directory", dir, m);
	else
		rpb_err_set(err, st, 0, NULL, "cannot open rocksdb store %s: %s", dir, m);
	rocksdb_free(native);
	return st;
}

/* RocksDB's defaults with rdb_options_string applied, into *out; NULL
 * when out of memory. */
static enum rpb_status rdb_options_new(rocksdb_options_t **out, struct rpb_err *err)
{
	rocksdb_options_t *base = rocksdb_options_create();
	char *native = NULL;
	*out = rocksdb_options_create();
	if (base && *out)
		rocksdb_get_options_from_string(base, rdb_options_string, *out, &native);
	if (base)
		rocksdb_options_destroy(base);
	if (!native)
		return RPB_OK;
	rocksdb_options_destroy(*out);
	*out = NULL;
	return rdb_error(err, native, "options");
}

static void rdb_store_close(struct rpb_store *st)
{
	if (!st)
		return;
	/* The database first: it still uses the cache and the table options. */
	if (st->db)
		rocksdb_optimistictransactiondb_close(st->db);
	if (st->opts)
		rocksdb_options_destroy(st->opts);
	if (st->table)
		rocksdb_block_based_options_destroy(st->table);
	if (st->cache)
		rocksdb_cache_destroy(st->cache);
	if (st->wopts)
		rocksdb_writeoptions_destroy(st->wopts);
	if (st->topts)
		rocksdb_optimistictransaction_options_destroy(st->topts);
	free(st->dir);
	free(st);
}

static enum rpb_status rdb_store_open(const struct rpb_store_cfg *cfg, struct rpb_store **out,
				      struct rpb_err *err)
{
	*out = NULL;
	struct rdb_tuning t;
	enum rpb_status rc = rpb_cfg_parse(cfg, "rocksdb", rdb_options, &t, err);
	if (!rc && !t.wal && cfg->sync == RPB_SYNC_COMMIT)
		rc = rpb_err_usage(err, "[rocksdb] wal = off cannot sync a commit (sync = commit); "
					"give wal = on or sync = none");
	if (!rc)
		rc = rpb_dir_prepare(cfg->dir, cfg->create, err);
	char log_dir[sizeof t.info_log_dir];
	if (!rc)
		rc = rpb_rocksdb_log_dir(t.info_log_dir, log_dir, sizeof log_dir, err);
	if (rc)
		return rc;
	memcpy(t.info_log_dir, log_dir, sizeof log_dir);
	struct rpb_store *st = calloc(1, sizeof *st);
	if (st && (rc = rdb_options_new(&st->opts, err))) {
		rdb_store_close(st);
		return rc;
	}
	if (!st || !(st->dir = strdup(cfg->dir)) || !st->opts ||
	    !(st->table = rocksdb_block_based_options_create()) ||
	    !(st->wopts = rocksdb_writeoptions_create()) ||
	    !(st->topts = rocksdb_optimistictransaction_options_create())) {
		rdb_store_close(st);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory opening rocksdb store %s",
				   cfg->dir);
	}
	rdb_apply_tuning(st, &t, cfg->create);
	rocksdb_writeoptions_set_sync(st->wopts, cfg->sync == RPB_SYNC_COMMIT);
	rocksdb_optimistictransaction_options_set_set_snapshot(st->topts, 1);
	char *native = NULL;
	st->db = rocksdb_optimistictransactiondb_open(st->opts, cfg->dir, &native);
	if (native || !st->db) {
		rc = rdb_open_error(cfg->dir, native, err);
		rdb_store_close(st);
		return rc ? rc : RPB_IO;
	}
	*out = st;
	return RPB_OK;
}

/* RocksDB's own files: it makes no subdirectory in the store's. */
static enum rpb_status rdb_usage(struct rpb_store *st, uint64_t *bytes, struct rpb_err *err)
{
	return rpb_dir_files_usage(st->dir, bytes, err);
}

/* The figures that explain a RocksDB slowdown, from its own properties:
 * files at level 0 (at 20 RocksDB slows writes down, at 36 it stops them),
 * the bytes compaction is behind (past 64G it slows writes, past 256G it
 * stops them), the rate writes are held to while slowed (0 = not slowed),
 * whether writes are stopped now, the memtables' memory and the background
 * errors since open (one that is kept makes every write fail). */
static enum rpb_status rdb_gauges(struct rpb_store *st, struct rpb_gauge *out, size_t *n,
				  struct rpb_err *err)
{
	/* text: a property RocksDB has only as a string (num-files-at-level<N>
	 * has no integer handler in db/internal_stats.cc), read as one. */
	static const struct { const char *gauge, *prop; bool text; } rows[] = {
		{"l0_files", "rocksdb.num-files-at-level0", true},
		{"pending_compaction_bytes", "rocksdb.estimate-pending-compaction-bytes", false},
		{"delayed_write_rate_bps", "rocksdb.actual-delayed-write-rate", false},
		{"write_stopped", "rocksdb.is-write-stopped", false},
		{"memtable_bytes", "rocksdb.cur-size-all-mem-tables", false},
		{"background_errors", "rocksdb.background-errors", false},
	};
	*n = 0;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		uint64_t v = 0;
		bool ok;
		if (rows[i].text) {
			char *text = rocksdb_optimistictransactiondb_property_value(st->db, rows[i].prop);
			char *end = text;
			if (text)
				v = strtoull(text, &end, 10);
			ok = text && end != text;
			rocksdb_free(text);
		} else {
			ok = rocksdb_optimistictransactiondb_property_int(st->db, rows[i].prop, &v) == 0;
		}
		if (!ok) {
			*n = 0;
			return rpb_err_set(err, RPB_IO, 0, NULL, "rocksdb has no %s property",
					   rows[i].prop);
		}
		out[i] = (struct rpb_gauge){rows[i].gauge, (double)v};
	}
	*n = sizeof rows / sizeof rows[0];
	return RPB_OK;
}

/* ---- sessions and transactions ---- */

/* Ends the transaction: discards what it staged and frees its snapshot. */
static void txn_discard(struct rpb_session *s)
{
	if (!s->in_txn)
		return;
	char *native = NULL;
	rocksdb_transaction_rollback(s->txn, &native);
	rocksdb_free(native); /* rolling back an in-memory batch has nothing to report */
	rocksdb_readoptions_set_snapshot(s->ropts, NULL);
	rocksdb_free((void *)s->snap);
	s->snap = NULL;
	s->writes = 0;
	s->in_txn = false;
}

/* A failed data operation rolls the whole transaction back (store.h). */
static enum rpb_status txn_fail(struct rpb_session *s, enum rpb_status st)
{
	txn_discard(s);
	return st;
}

static bool txn_interrupted(struct rpb_session *s)
{
	return atomic_load_explicit(&s->interrupted, memory_order_relaxed);
}

static enum rpb_status txn_timeout(struct rpb_session *s, struct rpb_err *err)
{
	return txn_fail(s, rpb_err_set(err, RPB_TXN_TIMEOUT, 0, NULL,
				       "transaction interrupted and rolled back"));
}

/* Every data operation and commit starts here. */
static enum rpb_status txn_check(struct rpb_session *s, bool writes, struct rpb_err *err)
{
	if (!s->in_txn)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "operation outside a transaction; call begin first");
	if (txn_interrupted(s))
		return txn_timeout(s, err);
	if (writes && s->mode != RPB_TXN_WRITE)
		return txn_fail(s, rpb_err_set(err, RPB_INVALID, 0, NULL,
					       "write in a read-only transaction; begin it with RPB_TXN_WRITE"));
	return RPB_OK;
}

/* A library call's outcome: its error, else an interrupt that arrived
 * during it, rolls the transaction back. */
static enum rpb_status txn_after(struct rpb_session *s, char *native, const char *what,
				 struct rpb_err *err)
{
	if (native)
		return txn_fail(s, rdb_error(err, native, what));
	if (txn_interrupted(s))
		return txn_timeout(s, err);
	return RPB_OK;
}

static enum rpb_status rdb_session_open(struct rpb_store *st, struct rpb_session **out,
					struct rpb_err *err)
{
	struct rpb_session *s = rpb_calloc_lines(1, sizeof *s);
	if (s) {
		s->st = st;
		s->ropts = rocksdb_readoptions_create();
	}
	if (!s || !s->ropts) {
		free(s);
		*out = NULL;
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory opening a session");
	}
	atomic_init(&s->interrupted, false);
	*out = s;
	return RPB_OK;
}

static void rdb_session_close(struct rpb_session *s)
{
	if (!s)
		return;
	txn_discard(s);
	if (s->txn)
		rocksdb_transaction_destroy(s->txn);
	rocksdb_readoptions_destroy(s->ropts);
	free(s);
}

static enum rpb_status rdb_begin(struct rpb_session *s, enum rpb_txn_mode mode,
				 struct rpb_err *err)
{
	if (s->in_txn)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "a transaction is already open; commit or roll it back first");
	atomic_store_explicit(&s->interrupted, false, memory_order_relaxed);
	/* Reuses the session's transaction object (old_txn) when it has one. */
	rocksdb_transaction_t *txn =
		rocksdb_optimistictransaction_begin(s->st->db, s->st->wopts, s->st->topts, s->txn);
	if (!txn)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory beginning a transaction");
	s->txn = txn;
	s->snap = rocksdb_transaction_get_snapshot(txn);
	rocksdb_readoptions_set_snapshot(s->ropts, s->snap);
	s->mode = mode;
	s->in_txn = true;
	return RPB_OK;
}

static enum rpb_status rdb_put(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			       rpb_slice val, struct rpb_err *err)
{
	rpb_slice k;
	enum rpb_status st = txn_check(s, true, err);
	if (st)
		return st;
	if (val.len > RPB_VALUE_MAX || (val.len && !val.data))
		return txn_fail(s, rpb_err_set(err, RPB_INVALID, 0, NULL,
					       "value of %zu bytes; values are 0..%u bytes",
					       val.len, RPB_VALUE_MAX));
	if ((st = rpb_tkey_encode(s->key, t, key, false, &k, err)))
		return txn_fail(s, st);
	char *native = NULL;
	rocksdb_transaction_put(s->txn, k.data, k.len, val.len ? val.data : "", val.len, &native);
	if ((st = txn_after(s, native, "put", err)))
		return st;
	s->writes++;
	return RPB_OK;
}

/* Reads k as the transaction sees it (its snapshot and its own writes);
 * *out NULL when absent. The caller destroys *out. */
static enum rpb_status txn_read(struct rpb_session *s, rpb_slice k, rocksdb_pinnableslice_t **out,
				struct rpb_err *err)
{
	char *native = NULL;
	*out = rocksdb_transaction_get_pinned(s->txn, s->ropts, k.data, k.len, &native);
	enum rpb_status st = txn_after(s, native, "get", err);
	if (st && *out) {
		rocksdb_pinnableslice_destroy(*out);
		*out = NULL;
	}
	return st;
}

/* A get's or a del's start: checks the call (writes: a del), encodes the
 * key into *k and reads it as the transaction sees it into *v, which the
 * caller destroys; an absent key is RPB_NOT_FOUND. */
static enum rpb_status txn_find(struct rpb_session *s, enum rpb_table t, rpb_slice key,
				bool writes, rpb_slice *k, rocksdb_pinnableslice_t **v,
				struct rpb_err *err)
{
	enum rpb_status st = txn_check(s, writes, err);
	if (st)
		return st;
	if ((st = rpb_tkey_encode(s->key, t, key, false, k, err)))
		return txn_fail(s, st);
	if ((st = txn_read(s, *k, v, err)))
		return st;
	if (!*v)
		return rpb_err_not_found(err);
	return RPB_OK;
}

static enum rpb_status rdb_get(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			       struct rpb_buf *out, struct rpb_err *err)
{
	rpb_slice k;
	rocksdb_pinnableslice_t *v;
	enum rpb_status st = txn_find(s, t, key, false, &k, &v, err);
	if (st)
		return st;
	size_t n;
	const char *p = rocksdb_pinnableslice_value(v, &n);
	st = rpb_buf_set(out, p, n, err);
	rocksdb_pinnableslice_destroy(v);
	return st ? txn_fail(s, st) : RPB_OK;
}

static enum rpb_status rdb_del(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			       struct rpb_err *err)
{
	rpb_slice k;
	rocksdb_pinnableslice_t *v;
	enum rpb_status st = txn_find(s, t, key, true, &k, &v, err);
	if (st)
		return st;
	rocksdb_pinnableslice_destroy(v);
	char *native = NULL;
	rocksdb_transaction_delete(s->txn, k.data, k.len, &native);
	if ((st = txn_after(s, native, "delete", err)))
		return st;
	s->writes++;
	return RPB_OK;
}

/* Walks the transaction's iterator (snapshot merged with its own writes)
 * from lo; the upper bound and the table's end stop it. */
static enum rpb_status scan_run(struct rpb_session *s, rocksdb_iterator_t *it, enum rpb_table t,
				rpb_slice lo, bool lo_excl, const rpb_slice *hi, size_t limit,
				rpb_scan_fn fn, void *ctx)
{
	rocksdb_iter_seek(it, lo.data, lo.len);
	size_t count = 0;
	for (; rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
		if (txn_interrupted(s))
			return RPB_TXN_TIMEOUT;
		size_t klen, vlen;
		const unsigned char *k = (const unsigned char *)rocksdb_iter_key(it, &klen);
		if (klen < 1 || k[0] != rpb_tkey_byte(t) ||
		    (hi && rpb_tkey_cmp(k, klen, hi->data, hi->len) > 0))
			break;
		if (lo_excl && rpb_tkey_cmp(k, klen, lo.data, lo.len) == 0)
			continue;
		const char *v = rocksdb_iter_value(it, &vlen);
		if (fn(ctx, rpb_slice_make(k + 1, klen - 1), rpb_slice_make(v, vlen)) ||
		    (limit && ++count == limit))
			break;
	}
	return RPB_OK;
}

static enum rpb_status rdb_scan(struct rpb_session *s, enum rpb_table t, const rpb_slice *after,
				const rpb_slice *upto, size_t limit, rpb_scan_fn fn, void *ctx,
				struct rpb_err *err)
{
	rpb_slice lo = {0}, hi = {0};
	enum rpb_status st = txn_check(s, false, err);
	if (st)
		return st;
	if ((st = rpb_tkey_encode(s->key, t, after ? *after : rpb_slice_make(NULL, 0), true, &lo, err)) ||
	    (upto && (st = rpb_tkey_encode(s->key2, t, *upto, true, &hi, err))))
		return txn_fail(s, st);
	rocksdb_iterator_t *it = rocksdb_transaction_create_iterator(s->txn, s->ropts);
	if (!it)
		return txn_fail(s, rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory in a scan"));
	st = scan_run(s, it, t, lo, after != NULL, upto ? &hi : NULL, limit, fn, ctx);
	char *native = NULL;
	if (!st)
		rocksdb_iter_get_error(it, &native);
	rocksdb_iter_destroy(it);
	if (st == RPB_TXN_TIMEOUT)
		return txn_timeout(s, err);
	return txn_after(s, native, "scan", err);
}

static enum rpb_status rdb_commit(struct rpb_session *s, struct rpb_err *err)
{
	enum rpb_status st = txn_check(s, false, err);
	if (st)
		return st;
	if (s->writes == 0) { /* nothing staged: a read-only transaction */
		txn_discard(s);
		return RPB_OK;
	}
	/* The point of no return: an interrupt from here on is ignored, and
	 * begin clears it. A background error RocksDB keeps (a failed WAL or
	 * flush write: the database then refuses writes until it recovers or
	 * is reopened) comes back here and is classified the same way. */
	char *native = NULL;
	rocksdb_transaction_commit(s->txn, &native);
	txn_discard(s);
	if (native)
		return rdb_error(err, native, "commit");
	return RPB_OK;
}

static void rdb_rollback(struct rpb_session *s)
{
	txn_discard(s);
}

static void rdb_interrupt(struct rpb_session *s)
{
	atomic_store_explicit(&s->interrupted, true, memory_order_relaxed);
}

/* What RocksDB keeps in its directory (file/filename.cc). */
static const char *const rdb_files[] = {"CURRENT", "IDENTITY", "LOCK", "LOG", "LOG.old.*",
					"MANIFEST-*", "OPTIONS-*", "*.log", "*.sst", "*.blob",
					"*.dbtmp", NULL};

const struct rpb_backend rpb_backend_rocksdb = {
	.name = "rocksdb",
	.abi = RPB_BACKEND_ABI,
	.flags = RPB_BF_NATIVE_UNSYNCED,
	.options = rdb_options,
	.config_size = sizeof(struct rdb_tuning),
	.own_files = rdb_files,
	.version = rdb_version,
	.open = rdb_store_open,
	.close = rdb_store_close,
	.session_open = rdb_session_open,
	.session_close = rdb_session_close,
	.begin = rdb_begin,
	.put = rdb_put,
	.get = rdb_get,
	.del = rdb_del,
	.scan = rdb_scan,
	.commit = rdb_commit,
	.rollback = rdb_rollback,
	.interrupt = rdb_interrupt,
	.usage = rdb_usage,
	.gauges = rdb_gauges,
	.describe = rdb_describe,
};
