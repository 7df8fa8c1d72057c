/* The LevelDB backend, over the library's C API.
 *
 * One LevelDB database per store directory; each table is a one-byte key
 * prefix (the enum rpb_table value), so the bytewise comparator keeps every
 * table ordered by memcmp, shorter key first, as store.h requires.
 *
 * A transaction is a write batch (applied atomically by one leveldb_write at
 * commit). Both of the other parts are taken only when a transaction needs
 * them, so a transaction of plain puts or of one get costs what the
 * library's own loop costs:
 *  - an overlay of the staged writes, so that the transaction reads its own
 *    writes: built from the batch at the first read of a write transaction,
 *    then kept up to date by every write;
 *  - a snapshot, so that every read sees one consistent state: a first
 *    point read runs without one (one read is consistent by itself), and
 *    its key and value are kept; the second read or a scan takes the
 *    snapshot and reads that key again under it. Had a commit changed it in
 *    between, the transaction's reads would not fit one state, so it fails
 *    with RPB_CONFLICT (retryable) and is rolled back.
 * Writers are not checked against each other: the last commit wins. */
#include <inttypes.h>
#include <stddef.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <leveldb/c.h>

#include "leveldb_backend.h"
#include "fsutil.h"
#include "leveldb_order.h"
#include "leveldb_overlay.h"
#include "options.h"
#include "store.h"
#include "tablekey.h"

struct ldb_tuning {
	uint64_t write_buffer, block_cache, bloom_bits, block_size;
	uint64_t max_open_files, compression, max_file_size;
};

struct rpb_store {
	leveldb_t *db;
	leveldb_options_t *opts;
	leveldb_cache_t *cache;
	leveldb_filterpolicy_t *filter;
	leveldb_writeoptions_t *wopts; /* shared: leveldb_write only reads it */
	char *dir;
	/* After a failed write LevelDB goes on appending to its log, behind a
	 * record it may have left half-written (only a failed sync stops it);
	 * records behind such a tail can be lost at recovery. So the first
	 * failed write (its class here, 0 = none) makes every later commit
	 * fail the same way until the store is reopened. */
	atomic_int write_failed;
	/* ... and a commit that succeeded behind a failed one is not
	 * acknowledged either (leveldb_order.h). */
	struct ldb_order order;
	pthread_mutex_t fail_lock; /* guards fail_msg; error path only */
	char fail_msg[160];        /* LevelDB's message of that first failure */
	atomic_uint_fast64_t snapshots; /* taken since open (rpb_leveldb_snapshots) */
	struct ldb_tuning tuning;       /* as applied, for describe */
};

struct rpb_session {
	struct rpb_store *st;
	leveldb_writebatch_t *batch;
	leveldb_readoptions_t *ropts; /* carries the transaction's snapshot */
	const leveldb_snapshot_t *snap;
	struct rpb_overlay ov;
	bool ov_live;      /* ov holds every staged write (after a read) */
	bool in_txn;
	enum rpb_txn_mode mode;
	uint64_t writes;   /* staged puts and deletes */
	/* The first point read made without a snapshot: its encoded key and
	 * LevelDB's copy of its value (NULL: absent). */
	bool first_read;
	char *first_val;
	size_t first_vlen, first_klen;
	unsigned char first_key[1 + RPB_KEY_MAX];
	atomic_bool interrupted;
	struct ldb_order_slot order; /* this session's write in flight */
	/* Encoded keys (table byte + key); two so scan can hold both bounds. */
	unsigned char key[RPB_TKEY_MAX];
	unsigned char key2[RPB_TKEY_MAX];
};

/* block_cache = none (fedora-4.5's default): a cache of capacity 0, which
 * LevelDB supports as "cache nothing". */
#define LDB_NO_CACHE UINT64_MAX

/* Defaults are per profile: under fedora-4.5 those of the store Fedora 4.5
 * ran (Infinispan's LevelDBStore.dataDbOptions sets only compression, NONE
 * by default, and a block size and cache size fcrepo's configuration does
 * not give; no filter policy), with LevelDB's own defaults for the rest.
 * Where LevelDB silently clamps a setting, the range is its clamp, so a
 * value given is a value used. */
#define LDB(f) offsetof(struct ldb_tuning, f)
static const struct rpb_optdef ldb_options[] = {
	{ .key = "write_buffer", .type = RPB_OPT_SIZE, .dflt = "16M", .dflt_fedora45 = "4M",
	  .umin = 64u << 10, .umax = 1u << 30, .off = LDB(write_buffer),
	  .help = "memtable size before a flush to a level-0 file" },
	{ .key = "block_cache", .type = RPB_OPT_SIZE, .dflt = "64M", .dflt_fedora45 = "none",
	  .umin = 0, .umax = 64ull << 30, .none = "none", .off = LDB(block_cache),
	  .help = "LRU cache of uncompressed data blocks; 0 = LevelDB's own 8M, none = a cache "
		  "that keeps nothing" },
	{ .key = "bloom_bits", .type = RPB_OPT_COUNT, .dflt = "10", .dflt_fedora45 = "0",
	  .umin = 0, .umax = 32, .off = LDB(bloom_bits),
	  .help = "bloom filter bits per key (~1% false positives at 10); 0 = no filter" },
	{ .key = "block_size", .type = RPB_OPT_SIZE, .dflt = "4k", .umin = 1u << 10,
	  .umax = 4u << 20, .off = LDB(block_size), .help = "uncompressed size of a data block" },
	{ .key = "max_open_files", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 74, .umax = 50000,
	  .off = LDB(max_open_files), .help = "table files kept open" },
	{ .key = "compression", .type = RPB_OPT_COUNT, .dflt = "1", .dflt_fedora45 = "0",
	  .umin = 0, .umax = 1, .off = LDB(compression),
	  .help = "1 = snappy block compression, 0 = none" },
	{ .key = "max_file_size", .type = RPB_OPT_SIZE, .dflt = "2M", .umin = 1u << 20,
	  .umax = 1u << 30, .off = LDB(max_file_size), .help = "target size of a table file" },
	{ .key = NULL },
};

enum rpb_status rpb_leveldb_classify(const char *msg)
{
	if (!msg)
		return RPB_IO;
	if (strstr(msg, "No space left on device") || strstr(msg, "Disk quota exceeded"))
		return RPB_DISK_FULL;
	if (strncmp(msg, "Corruption:", 11) == 0)
		return RPB_CORRUPT;
	if (strncmp(msg, "NotFound:", 9) == 0)
		return RPB_NOT_FOUND;
	if (strncmp(msg, "Invalid argument:", 17) == 0 || strncmp(msg, "Not implemented", 15) == 0)
		return RPB_INVALID;
	if (strstr(msg, "Cannot allocate memory"))
		return RPB_NOMEM;
	return RPB_IO; /* "IO error: ..." and anything unforeseen */
}

/* Classifies and copies a LevelDB error string, then frees it. */
static enum rpb_status ldb_error(struct rpb_err *err, char *native, const char *what)
{
	enum rpb_status st = rpb_leveldb_classify(native);
	rpb_err_set(err, st, 0, NULL, "leveldb %s: %s", what, native ? native : "unknown error");
	leveldb_free(native);
	return st;
}

static char version_buf[32];

static void version_fill(void)
{
	snprintf(version_buf, sizeof version_buf, "LevelDB %d.%d", leveldb_major_version(),
		 leveldb_minor_version());
}

static const char *ldb_version(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, version_fill);
	return version_buf;
}

static void ldb_apply_tuning(struct rpb_store *st, const struct ldb_tuning *t, bool create)
{
	leveldb_options_set_create_if_missing(st->opts, create);
	leveldb_options_set_write_buffer_size(st->opts, t->write_buffer);
	if (t->block_cache) {
		st->cache = leveldb_cache_create_lru(t->block_cache == LDB_NO_CACHE ? 0
										 : t->block_cache);
		leveldb_options_set_cache(st->opts, st->cache);
	}
	if (t->bloom_bits) {
		st->filter = leveldb_filterpolicy_create_bloom((int)t->bloom_bits);
		leveldb_options_set_filter_policy(st->opts, st->filter);
	}
	leveldb_options_set_block_size(st->opts, t->block_size);
	leveldb_options_set_max_open_files(st->opts, (int)t->max_open_files);
	leveldb_options_set_compression(st->opts, t->compression ? leveldb_snappy_compression
								  : leveldb_no_compression);
	leveldb_options_set_max_file_size(st->opts, t->max_file_size);
	st->tuning = *t;
}

/* The settings in effect, for result.json's manifest: under fedora-4.5 they
 * are not the defaults --help shows first. */
static enum rpb_status ldb_describe(struct rpb_store *st, struct rpb_fact *out, size_t *n,
				    struct rpb_err *err)
{
	(void)err;
	const struct ldb_tuning *t = &st->tuning;
	struct { const char *name; uint64_t v; } rows[] = {
		{"write_buffer", t->write_buffer}, {"block_cache", t->block_cache},
		{"bloom_bits", t->bloom_bits},     {"block_size", t->block_size},
		{"max_open_files", t->max_open_files}, {"compression", t->compression},
		{"max_file_size", t->max_file_size},
	};
	*n = 0;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0] && *n < RPB_FACTS_MAX; i++, (*n)++) {
		snprintf(out[*n].name, sizeof out[*n].name, "%s", rows[i].name);
		if (rows[i].v == LDB_NO_CACHE)
			snprintf(out[*n].value, sizeof out[*n].value, "none");
		else
			snprintf(out[*n].value, sizeof out[*n].value, "%" PRIu64, rows[i].v);
	}
	return RPB_OK;
}

/* Turns a failed leveldb_open into one line that names the fix. */
static enum rpb_status ldb_open_error(const char *dir, char *native, struct rpb_err *err)
{
	enum rpb_status st = rpb_leveldb_classify(native);
	const char *m = native ? native : "unknown error";
	if (strstr(m, "lock ") && (strstr(m, "already held") || strstr(m, "unavailable")))
		rpb_err_set(err, st, 0, NULL,
			    "leveldb store %s is already open in another process or handle (%s); "
			    "stop the other user or choose another --dir", dir, m);
	else if (st == RPB_DISK_FULL)
		rpb_err_set(err, st, 0, NULL,
			    "cannot open leveldb store %s: %s; LevelDB writes a table, a MANIFEST and a "
			    "new log while opening, so free space on its file system first", dir, m);
	else if (strstr(m, "create_if_missing is false"))
		rpb_err_set(err, st, 0, NULL,
			    "no leveldb store in %s (%s); point --dir at the store's directory",
			    dir, m);
	else
		rpb_err_set(err, st, 0, NULL, "cannot open leveldb store %s: %s", dir, m);
	leveldb_free(native);
	return st;
}

static void ldb_store_close(struct rpb_store *st)
{
	if (!st)
		return;
	/* The database first: it still uses the cache and the filter policy. */
	if (st->db)
		leveldb_close(st->db);
	if (st->opts)
		leveldb_options_destroy(st->opts);
	if (st->cache)
		leveldb_cache_destroy(st->cache);
	if (st->filter)
		leveldb_filterpolicy_destroy(st->filter);
	if (st->wopts)
		leveldb_writeoptions_destroy(st->wopts);
	pthread_mutex_destroy(&st->fail_lock);
	ldb_order_destroy(&st->order);
	free(st->dir);
	free(st);
}

static enum rpb_status ldb_store_open(const struct rpb_store_cfg *cfg, struct rpb_store **out,
					  struct rpb_err *err)
{
	*out = NULL;
	struct ldb_tuning t;
	enum rpb_status rc = rpb_cfg_parse(cfg, "leveldb", ldb_options, &t, err);
	if (!rc)
		rc = rpb_dir_prepare(cfg->dir, cfg->create, err);
	if (rc)
		return rc;
	struct rpb_store *st = calloc(1, sizeof *st);
	if (st) {
		atomic_init(&st->write_failed, 0);
		atomic_init(&st->snapshots, 0);
		pthread_mutex_init(&st->fail_lock, NULL);
		ldb_order_init(&st->order);
	}
	if (!st || !(st->dir = strdup(cfg->dir)) || !(st->opts = leveldb_options_create()) ||
	    !(st->wopts = leveldb_writeoptions_create())) {
		ldb_store_close(st);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory opening leveldb store %s",
				   cfg->dir);
	}
	ldb_apply_tuning(st, &t, cfg->create);
	leveldb_writeoptions_set_sync(st->wopts, cfg->sync == RPB_SYNC_COMMIT);
	char *native = NULL;
	st->db = leveldb_open(st->opts, cfg->dir, &native);
	if (native || !st->db) {
		rc = ldb_open_error(cfg->dir, native, err);
		ldb_store_close(st);
		return rc ? rc : RPB_IO;
	}
	*out = st;
	return RPB_OK;
}

/* LevelDB's own files: it makes no subdirectory (one there, such as the
 * Fedora model's binary store, is counted by whoever made it). */
static enum rpb_status ldb_usage(struct rpb_store *st, uint64_t *bytes, struct rpb_err *err)
{
	return rpb_dir_files_usage(st->dir, bytes, err);
}

/* The figures that explain a LevelDB slowdown, from its own properties:
 * files at level 0 (at 8 LevelDB delays every write by 1 ms, at 12 it
 * stops writes until a compaction is done: a commit that waits there is
 * what a transaction reaper sees), sst files in all, the time and bytes of
 * the compactions since the store was opened ("leveldb.stats"), and the
 * memory of the memtables and the block cache. */
static enum rpb_status ldb_gauges(struct rpb_store *st, struct rpb_gauge *out, size_t *n,
				  struct rpb_err *err)
{
	char *stats = leveldb_property_value(st->db, "leveldb.stats");
	char *mem = leveldb_property_value(st->db, "leveldb.approximate-memory-usage");
	if (!stats) {
		leveldb_free(mem);
		*n = 0;
		return rpb_err_set(err, RPB_IO, 0, NULL, "leveldb has no leveldb.stats property");
	}
	/* "Level Files Size(MB) Time(sec) Read(MB) Write(MB)" after a dashed rule. */
	double l0 = 0, files = 0, secs = 0, written_mb = 0;
	const char *p = strstr(stats, "----");
	for (p = p ? strchr(p, '\n') : NULL; p && *p; p = strchr(p + 1, '\n')) {
		int level, f;
		double size, t, rd, wr;
		if (sscanf(p + 1, "%d %d %lf %lf %lf %lf", &level, &f, &size, &t, &rd, &wr) != 6)
			continue;
		if (level == 0)
			l0 = f;
		files += f;
		secs += t;
		written_mb += wr;
	}
	out[0] = (struct rpb_gauge){"l0_files", l0};
	out[1] = (struct rpb_gauge){"sst_files", files};
	out[2] = (struct rpb_gauge){"compaction_s", secs};
	out[3] = (struct rpb_gauge){"compaction_write_bytes", written_mb * 1048576.0};
	out[4] = (struct rpb_gauge){"memory_bytes", mem ? strtod(mem, NULL) : 0};
	*n = 5;
	leveldb_free(stats);
	leveldb_free(mem);
	return RPB_OK;
}

/* ---- sessions and transactions ---- */

/* Drops everything the transaction staged and its snapshot. */
static void txn_discard(struct rpb_session *s)
{
	leveldb_writebatch_clear(s->batch);
	if (s->ov_live)
		rpb_ovl_reset(&s->ov);
	s->ov_live = false;
	s->writes = 0;
	if (s->first_read) {
		leveldb_free(s->first_val);
		s->first_val = NULL;
		s->first_read = false;
	}
	if (s->snap) {
		leveldb_readoptions_set_snapshot(s->ropts, NULL);
		leveldb_release_snapshot(s->st->db, s->snap);
		s->snap = NULL;
	}
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

static enum rpb_status ldb_session_open(struct rpb_store *st, struct rpb_session **out,
					    struct rpb_err *err)
{
	struct rpb_session *s = rpb_calloc_lines(1, sizeof *s);
	if (s) {
		s->st = st;
		s->batch = leveldb_writebatch_create();
		s->ropts = leveldb_readoptions_create();
	}
	if (!s || !s->batch || !s->ropts) {
		if (s && s->batch)
			leveldb_writebatch_destroy(s->batch);
		if (s && s->ropts)
			leveldb_readoptions_destroy(s->ropts);
		free(s);
		*out = NULL;
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory opening a session");
	}
	atomic_init(&s->interrupted, false);
	*out = s;
	return RPB_OK;
}

static void ldb_session_close(struct rpb_session *s)
{
	if (!s)
		return;
	txn_discard(s);
	leveldb_writebatch_destroy(s->batch);
	leveldb_readoptions_destroy(s->ropts);
	rpb_ovl_free(&s->ov);
	free(s);
}

static enum rpb_status ldb_begin(struct rpb_session *s, enum rpb_txn_mode mode,
				     struct rpb_err *err)
{
	if (s->in_txn)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "a transaction is already open; commit or roll it back first");
	atomic_store_explicit(&s->interrupted, false, memory_order_relaxed);
	s->mode = mode;
	s->in_txn = true;
	return RPB_OK;
}

static enum rpb_status ldb_put(struct rpb_session *s, enum rpb_table t, rpb_slice key,
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
	if ((st = rpb_tkey_encode(s->key, t, key, false, &k, err)) ||
	    (s->ov_live && (st = rpb_ovl_put(&s->ov, k, val, false, err))))
		return txn_fail(s, st);
	leveldb_writebatch_put(s->batch, k.data, k.len, val.len ? val.data : "", val.len);
	s->writes++;
	return RPB_OK;
}

/* ---- reading: the overlay and the snapshot, each taken when needed ---- */

struct ovl_fill {
	struct rpb_overlay *ov;
	enum rpb_status st;
	struct rpb_err *err;
};

static void ovl_fill_put(void *ctx, const char *k, size_t klen, const char *v, size_t vlen)
{
	struct ovl_fill *f = ctx;
	if (!f->st)
		f->st = rpb_ovl_put(f->ov, rpb_slice_make(k, klen), rpb_slice_make(v, vlen), false,
				    f->err);
}

static void ovl_fill_del(void *ctx, const char *k, size_t klen)
{
	struct ovl_fill *f = ctx;
	if (!f->st)
		f->st = rpb_ovl_put(f->ov, rpb_slice_make(k, klen), rpb_slice_make(NULL, 0), true,
				    f->err);
}

/* Before the first read of a transaction: the writes staged so far enter
 * the overlay, in order, and every later write goes there too. */
static enum rpb_status ovl_ensure(struct rpb_session *s, struct rpb_err *err)
{
	if (s->ov_live)
		return RPB_OK;
	struct ovl_fill f = {.ov = &s->ov, .err = err};
	if (s->writes)
		leveldb_writebatch_iterate(s->batch, &f, ovl_fill_put, ovl_fill_del);
	if (f.st)
		return txn_fail(s, f.st);
	s->ov_live = true;
	return RPB_OK;
}

/* Reads committed key k with the transaction's read options. */
static enum rpb_status db_read(struct rpb_session *s, rpb_slice k, char **val, size_t *len,
			       struct rpb_err *err)
{
	char *native = NULL;
	*val = leveldb_get(s->st->db, s->ropts, k.data, k.len, len, &native);
	if (native)
		return txn_fail(s, ldb_error(err, native, "get"));
	return RPB_OK;
}

/* Before a read of committed data that is not the transaction's first
 * point read: takes the snapshot, and checks that the first read still
 * holds under it (see the file's header). */
static enum rpb_status snap_ensure(struct rpb_session *s, struct rpb_err *err)
{
	if (s->snap)
		return RPB_OK;
	s->snap = leveldb_create_snapshot(s->st->db);
	atomic_fetch_add_explicit(&s->st->snapshots, 1, memory_order_relaxed);
	leveldb_readoptions_set_snapshot(s->ropts, s->snap);
	if (!s->first_read)
		return RPB_OK;
	char *now;
	size_t nlen;
	enum rpb_status st = db_read(s, rpb_slice_make(s->first_key, s->first_klen), &now, &nlen, err);
	if (st)
		return st;
	bool same = (now == NULL) == (s->first_val == NULL) &&
		    (!now || (nlen == s->first_vlen && memcmp(now, s->first_val, nlen) == 0));
	leveldb_free(now);
	leveldb_free(s->first_val);
	s->first_val = NULL;
	s->first_read = false;
	if (!same)
		return txn_fail(s, rpb_err_set(err, RPB_CONFLICT, 0, NULL,
					       "a concurrent commit changed a key this transaction "
					       "read; rolled back, retry it"));
	return RPB_OK;
}

/* Frees a value txn_lookup returned, unless the session keeps it. */
static void lookup_release(struct rpb_session *s, char *v)
{
	if (v != s->first_val || !s->first_read)
		leveldb_free(v);
}

/* Looks a staged or committed key up. Returns RPB_OK with *ov_idx set for a
 * staged value, or with *dbval set (caller frees) for a committed one. */
static enum rpb_status txn_lookup(struct rpb_session *s, rpb_slice k, size_t *ov_idx,
				  char **dbval, size_t *dblen, struct rpb_err *err)
{
	*dbval = NULL;
	*ov_idx = SIZE_MAX;
	size_t i;
	enum rpb_status st = ovl_ensure(s, err);
	if (st)
		return st;
	if (rpb_ovl_find(&s->ov, k, &i)) {
		if (s->ov.ents[i].tomb)
			return rpb_err_not_found(err);
		*ov_idx = i;
		return RPB_OK;
	}
	bool first = !s->snap && !s->first_read;
	if (!first && (st = snap_ensure(s, err)))
		return st;
	if ((st = db_read(s, k, dbval, dblen, err)))
		return st;
	if (first) { /* kept until the snapshot checks it, or the end */
		s->first_read = true;
		s->first_val = *dbval;
		s->first_vlen = *dblen;
		s->first_klen = k.len;
		memcpy(s->first_key, k.data, k.len);
	}
	/* LevelDB calls cannot be cancelled: honour an interrupt that arrived
	 * during one as soon as it returns. */
	if (txn_interrupted(s)) {
		if (!first)
			leveldb_free(*dbval);
		*dbval = NULL;
		return txn_timeout(s, err);
	}
	if (!*dbval)
		return rpb_err_not_found(err);
	return RPB_OK;
}

static enum rpb_status ldb_get(struct rpb_session *s, enum rpb_table t, rpb_slice key,
				   struct rpb_buf *out, struct rpb_err *err)
{
	rpb_slice k;
	size_t i, n;
	char *v;
	enum rpb_status st = txn_check(s, false, err);
	if (st)
		return st;
	if ((st = rpb_tkey_encode(s->key, t, key, false, &k, err)))
		return txn_fail(s, st);
	if ((st = txn_lookup(s, k, &i, &v, &n, err)))
		return st;
	if (v) {
		st = rpb_buf_set(out, v, n, err);
		lookup_release(s, v);
	} else {
		rpb_slice val = rpb_ovl_val(&s->ov, i);
		st = rpb_buf_set(out, val.data, val.len, err);
	}
	return st ? txn_fail(s, st) : RPB_OK;
}

static enum rpb_status ldb_del(struct rpb_session *s, enum rpb_table t, rpb_slice key,
				   struct rpb_err *err)
{
	rpb_slice k;
	size_t i, n;
	char *v;
	enum rpb_status st = txn_check(s, true, err);
	if (st)
		return st;
	if ((st = rpb_tkey_encode(s->key, t, key, false, &k, err)))
		return txn_fail(s, st);
	if ((st = txn_lookup(s, k, &i, &v, &n, err)))
		return st;
	lookup_release(s, v);
	if ((st = rpb_ovl_put(&s->ov, k, rpb_slice_make(NULL, 0), true, err)))
		return txn_fail(s, st);
	leveldb_writebatch_delete(s->batch, k.data, k.len);
	s->writes++;
	return RPB_OK;
}

/* True while k is still inside the scanned range of table t. The lower
 * bound is handled by seeking, so only the upper one is checked here. */
static bool scan_in_range(const unsigned char *k, size_t klen, enum rpb_table t,
			  const rpb_slice *hi)
{
	if (klen < 1 || k[0] != rpb_tkey_byte(t))
		return false;
	return !hi || rpb_ovl_keycmp(k, klen, hi->data, hi->len) <= 0;
}

struct scan_state {
	struct rpb_session *s;
	leveldb_iterator_t *it;
	size_t oi; /* next overlay entry */
	enum rpb_table t;
	const rpb_slice *hi;
};

/* Picks the next visible entry of the merge, overlay winning ties and its
 * tombstones hiding committed keys. Returns false at the end of the range.
 * *from_db says the entry is the iterator's, which the caller advances only
 * after fn has used it (the key and value point into the iterator). */
static bool scan_next(struct scan_state *sc, rpb_slice *key, rpb_slice *val, bool *from_db)
{
	const struct rpb_overlay *ov = &sc->s->ov;
	for (;;) {
		size_t dlen = 0, vlen = 0;
		const unsigned char *dk = NULL;
		if (leveldb_iter_valid(sc->it))
			dk = (const unsigned char *)leveldb_iter_key(sc->it, &dlen);
		bool have_d = dk && scan_in_range(dk, dlen, sc->t, sc->hi);
		rpb_slice ok = sc->oi < ov->n ? rpb_ovl_key(ov, sc->oi) : rpb_slice_make(NULL, 0);
		bool have_o = ok.len && scan_in_range(ok.data, ok.len, sc->t, sc->hi);
		if (!have_d && !have_o)
			return false;
		int c = !have_d ? 1 : !have_o ? -1 : rpb_ovl_keycmp(dk, dlen, ok.data, ok.len);
		if (c < 0) {
			const char *dv = leveldb_iter_value(sc->it, &vlen);
			*key = rpb_slice_make(dk, dlen);
			*val = rpb_slice_make(dv, vlen);
			*from_db = true;
			return true;
		}
		if (c == 0)
			leveldb_iter_next(sc->it);
		size_t i = sc->oi++;
		if (ov->ents[i].tomb)
			continue;
		*key = ok;
		*val = rpb_ovl_val(ov, i);
		*from_db = false;
		return true;
	}
}

static enum rpb_status scan_run(struct scan_state *sc, rpb_slice lo, bool lo_excl, size_t limit,
				rpb_scan_fn fn, void *ctx, struct rpb_err *err)
{
	struct rpb_session *s = sc->s;
	leveldb_iter_seek(sc->it, lo.data, lo.len);
	if (lo_excl && leveldb_iter_valid(sc->it)) {
		size_t klen;
		const char *k = leveldb_iter_key(sc->it, &klen);
		if (rpb_ovl_keycmp(k, klen, lo.data, lo.len) == 0)
			leveldb_iter_next(sc->it);
	}
	sc->oi = rpb_ovl_seek(&s->ov, lo, lo_excl);
	size_t count = 0;
	rpb_slice key, val;
	for (;;) {
		if (txn_interrupted(s))
			return RPB_TXN_TIMEOUT;
		bool from_db;
		if (!scan_next(sc, &key, &val, &from_db))
			break;
		int stop = fn(ctx, rpb_slice_make((const unsigned char *)key.data + 1, key.len - 1), val);
		if (from_db)
			leveldb_iter_next(sc->it);
		if (stop || (limit && ++count == limit))
			break;
	}
	char *native = NULL;
	leveldb_iter_get_error(sc->it, &native);
	return native ? ldb_error(err, native, "scan") : RPB_OK;
}

static enum rpb_status ldb_scan(struct rpb_session *s, enum rpb_table t, const rpb_slice *after,
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
	if ((st = ovl_ensure(s, err)) || (st = snap_ensure(s, err)))
		return st;
	struct scan_state sc = {.s = s, .t = t, .hi = upto ? &hi : NULL};
	sc.it = leveldb_create_iterator(s->st->db, s->ropts);
	st = scan_run(&sc, lo, after != NULL, limit, fn, ctx, err);
	leveldb_iter_destroy(sc.it);
	if (st == RPB_TXN_TIMEOUT)
		return txn_timeout(s, err);
	return st ? txn_fail(s, st) : RPB_OK;
}

/* Remembers the first failed write of the store (see write_failed). */
static void ldb_latch_failure(struct rpb_store *st, const char *native)
{
	pthread_mutex_lock(&st->fail_lock);
	if (!atomic_load(&st->write_failed)) {
		enum rpb_status cls = rpb_leveldb_classify(native);
		snprintf(st->fail_msg, sizeof st->fail_msg, "%s", native);
		/* A refused commit must fail: NotFound (a vanished file) is I/O here. */
		atomic_store(&st->write_failed, (int)(cls == RPB_NOT_FOUND ? RPB_IO : cls));
	}
	pthread_mutex_unlock(&st->fail_lock);
}

static enum rpb_status ldb_refuse_write(struct rpb_store *st, struct rpb_err *err)
{
	pthread_mutex_lock(&st->fail_lock);
	enum rpb_status cls = (enum rpb_status)atomic_load(&st->write_failed);
	rpb_err_set(err, cls, 0, NULL,
		    "leveldb commit refused after an earlier failed write (%s); reopen the store "
		    "once the cause is fixed", st->fail_msg);
	pthread_mutex_unlock(&st->fail_lock);
	return cls;
}

static enum rpb_status ldb_commit(struct rpb_session *s, struct rpb_err *err)
{
	enum rpb_status st = txn_check(s, false, err);
	if (st)
		return st;
	if (s->writes == 0) { /* nothing staged: a read-only transaction */
		txn_discard(s);
		return RPB_OK;
	}
	if (atomic_load_explicit(&s->st->write_failed, memory_order_acquire)) {
		txn_discard(s);
		return ldb_refuse_write(s->st, err);
	}
	/* The point of no return: an interrupt from here on is ignored, and
	 * begin clears it. A sticky background error from an earlier failed
	 * write is returned again here and classified the same way. */
	char *native = NULL;
	ldb_order_enter(&s->st->order, &s->order);
	leveldb_write(s->st->db, s->st->wopts, s->batch, &native);
	txn_discard(s);
	if (native) {
		ldb_latch_failure(s->st, native);
		ldb_order_leave(&s->st->order, &s->order, false);
		return ldb_error(err, native, "commit");
	}
	ldb_order_leave(&s->st->order, &s->order, true);
	if (!atomic_load_explicit(&s->st->write_failed, memory_order_acquire))
		return RPB_OK;
	/* Written, but perhaps behind the half-written record of a write that
	 * failed before it: in doubt, as a failure inside commit is. */
	pthread_mutex_lock(&s->st->fail_lock);
	enum rpb_status cls = (enum rpb_status)atomic_load(&s->st->write_failed);
	rpb_err_set(err, cls, 0, NULL,
		    "leveldb commit written behind an earlier failed write (%s), so it may be lost "
		    "at recovery: in doubt; reopen the store once the cause is fixed", s->st->fail_msg);
	pthread_mutex_unlock(&s->st->fail_lock);
	return cls;
}

static void ldb_rollback(struct rpb_session *s)
{
	if (s->in_txn)
		txn_discard(s);
}

static void ldb_interrupt(struct rpb_session *s)
{
	atomic_store_explicit(&s->interrupted, true, memory_order_relaxed);
}

uint64_t rpb_leveldb_snapshots(struct rpb_store *st)
{
	return atomic_load_explicit(&st->snapshots, memory_order_relaxed);
}

/* What LevelDB keeps in its directory (db/filename.cc). */
static const char *const ldb_files[] = {"CURRENT", "LOCK", "LOG", "LOG.old", "MANIFEST-*",
					"*.log", "*.ldb", "*.sst", "*.dbtmp", NULL};

const struct rpb_backend rpb_backend_leveldb = {
	.name = "leveldb",
	.abi = RPB_BACKEND_ABI,
	.flags = RPB_BF_NATIVE_UNSYNCED,
	.options = ldb_options,
	.config_size = sizeof(struct ldb_tuning),
	.own_files = ldb_files,
	.version = ldb_version,
	.open = ldb_store_open,
	.close = ldb_store_close,
	.session_open = ldb_session_open,
	.session_close = ldb_session_close,
	.begin = ldb_begin,
	.put = ldb_put,
	.get = ldb_get,
	.del = ldb_del,
	.scan = ldb_scan,
	.commit = ldb_commit,
	.rollback = ldb_rollback,
	.interrupt = ldb_interrupt,
	.usage = ldb_usage,
	.gauges = ldb_gauges,
	.describe = ldb_describe,
};
