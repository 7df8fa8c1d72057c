/* db_bench's loops over RocksDB's C API, with the options the rpbench
 * RocksDB backend opens its store with by default (backends/rocksdb/
 * rocksdb.c, rdb_options and rdb_apply_tuning): 64 MiB write buffer (and as
 * much flushed memtable history kept), snappy, bytes_per_sync 0, 4 info
 * logs kept, a 64 MiB LRU block cache, a full bloom filter of 10 bits per
 * key, the WAL on, synced writes only with --sync 1. The store is a plain
 * DB, as RocksDB's db_bench opens one unless told otherwise
 * (--optimistic_transaction_db defaults to false); the backend's optimistic
 * transaction per batch is part of what the ratio measures, as the LevelDB
 * backend's overlay is. One write batch per transaction; reads with
 * default read options; each fill on a new store (db_bench's fresh_db). */
#include <rocksdb/c.h>

#include "calib.h"

static rocksdb_t *db;
static rocksdb_options_t *opts;
static rocksdb_block_based_table_options_t *table;
static rocksdb_cache_t *cache;
static rocksdb_writeoptions_t *wo;
static rocksdb_readoptions_t *ro;

static void die(const char *what, char *err)
{
	fprintf(stderr, "calibrate-rocksdb: %s: %s\n", what, err ? err : "failed");
	exit(2);
}

static void make_options(void)
{
	enum { MIB = 1 << 20 };
	opts = rocksdb_options_create();
	table = rocksdb_block_based_options_create();
	rocksdb_options_set_create_if_missing(opts, 1);
	rocksdb_options_set_error_if_exists(opts, 1);
	rocksdb_options_set_write_buffer_size(opts, 64 * MIB);
	rocksdb_options_set_max_write_buffer_size_to_maintain(opts, 64 * MIB);
	rocksdb_options_set_compression(opts, rocksdb_snappy_compression);
	rocksdb_options_set_bytes_per_sync(opts, 0);
	rocksdb_options_set_keep_log_file_num(opts, 4);
	cache = rocksdb_cache_create_lru(64 * MIB);
	rocksdb_block_based_options_set_block_cache(table, cache);
	rocksdb_block_based_options_set_filter_policy(table, rocksdb_filterpolicy_create_bloom_full(10));
	rocksdb_options_set_block_based_table_factory(opts, table);
}

/* A new, empty store in place of the old one; the first must not exist. */
static void fresh(struct calib *c)
{
	char *err = NULL;
	if (db) {
		rocksdb_close(db);
		db = NULL;
		rocksdb_destroy_db(opts, c->target, &err);
		if (err)
			die("destroy", err);
	}
	db = rocksdb_open(opts, c->target, &err);
	if (err)
		die("open (give a new --db directory)", err);
}

static void write_bench(struct calib *c, bool seq)
{
	unsigned char key[CALIB_KEY_MAX];
	rocksdb_writebatch_t *b = rocksdb_writebatch_create();
	uint64_t bytes = 0;
	struct calib_clock t0 = calib_start();
	for (uint64_t i = 0; i < c->num; i += c->batch) {
		rocksdb_writebatch_clear(b);
		for (uint64_t j = 0; j < c->batch && i + j < c->num; j++) {
			calib_key(c, key, seq ? i + j : calib_uniform(c, c->num));
			rocksdb_writebatch_put(b, (const char *)key, c->key_size,
					       (const char *)calib_value(c), c->value_size);
			bytes += c->key_size + c->value_size;
		}
		char *err = NULL;
		rocksdb_write(db, wo, b, &err);
		if (err)
			die("write", err);
	}
	struct calib_clock secs = calib_since(&t0);
	rocksdb_writebatch_destroy(b);
	calib_report(seq ? "fillseq" : "fillrandom", secs, c->num, bytes, -1);
}

static void read_random(struct calib *c)
{
	unsigned char key[CALIB_KEY_MAX];
	long long found = 0;
	struct calib_clock t0 = calib_start();
	for (uint64_t i = 0; i < c->num; i++) {
		calib_key(c, key, calib_uniform(c, c->num));
		char *err = NULL;
		rocksdb_pinnableslice_t *v =
			rocksdb_get_pinned(db, ro, (const char *)key, c->key_size, &err);
		if (err)
			die("get", err);
		found += v != NULL;
		rocksdb_pinnableslice_destroy(v);
	}
	calib_report("readrandom", calib_since(&t0), c->num, 0, found);
}

static void read_seq(struct calib *c)
{
	uint64_t n = 0, bytes = 0;
	struct calib_clock t0 = calib_start();
	rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
	for (rocksdb_iter_seek_to_first(it); n < c->num && rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
		size_t kl, vl;
		rocksdb_iter_key(it, &kl);
		rocksdb_iter_value(it, &vl);
		bytes += kl + vl;
		n++;
	}
	rocksdb_iter_destroy(it);
	calib_report("readseq", calib_since(&t0), n, bytes, -1);
}

static const struct calib_loops loops = {"calibrate-rocksdb", fresh, write_bench, read_random,
					  read_seq};

int main(int argc, char **argv)
{
	struct calib c;
	calib_args(&c, argc, argv, "db");
	make_options();
	fresh(&c);
	wo = rocksdb_writeoptions_create();
	rocksdb_writeoptions_set_sync(wo, c.sync);
	ro = rocksdb_readoptions_create();
	calib_each(&c, &loops);
	rocksdb_close(db);
	rocksdb_writeoptions_destroy(wo);
	rocksdb_readoptions_destroy(ro);
	rocksdb_options_destroy(opts);
	rocksdb_block_based_options_destroy(table);
	rocksdb_cache_destroy(cache);
	free(c.values);
	return 0;
}
