/* db_bench's loops over LevelDB's C API, with the options the rpbench
 * LevelDB backend uses by default (calib_leveldb.h). One write batch per
 * transaction; reads with default read options. Each fill on a new store
 * (fresh, as db_bench's fresh_db). */
#include <leveldb/c.h>

#include "calib.h"
#include "calib_leveldb.h"

static leveldb_t *db;
static leveldb_writeoptions_t *wo;
static leveldb_readoptions_t *ro;

static void die(const char *what, char *err)
{
	fprintf(stderr, "calibrate-leveldb: %s: %s\n", what, err ? err : "failed");
	exit(2);
}

static void write_bench(struct calib *c, bool seq)
{
	unsigned char key[CALIB_KEY_MAX];
	leveldb_writebatch_t *b = leveldb_writebatch_create();
	uint64_t bytes = 0;
	struct calib_clock t0 = calib_start();
	for (uint64_t i = 0; i < c->num; i += c->batch) {
		leveldb_writebatch_clear(b);
		for (uint64_t j = 0; j < c->batch && i + j < c->num; j++) {
			calib_key(c, key, seq ? i + j : calib_uniform(c, c->num));
			leveldb_writebatch_put(b, (const char *)key, c->key_size,
					       (const char *)calib_value(c), c->value_size);
			bytes += c->key_size + c->value_size;
		}
		char *err = NULL;
		leveldb_write(db, wo, b, &err);
		if (err)
			die("write", err);
	}
	struct calib_clock secs = calib_since(&t0);
	leveldb_writebatch_destroy(b);
	calib_report(seq ? "fillseq" : "fillrandom", secs, c->num, bytes, -1);
}

static void read_random(struct calib *c)
{
	unsigned char key[CALIB_KEY_MAX];
	long long found = 0;
	struct calib_clock t0 = calib_start();
	for (uint64_t i = 0; i < c->num; i++) {
		calib_key(c, key, calib_uniform(c, c->num));
		size_t len;
		char *err = NULL;
		char *v = leveldb_get(db, ro, (const char *)key, c->key_size, &len, &err);
		if (err)
			die("get", err);
		found += v != NULL;
		leveldb_free(v);
	}
	calib_report("readrandom", calib_since(&t0), c->num, 0, found);
}

static void read_seq(struct calib *c)
{
	uint64_t n = 0, bytes = 0;
	struct calib_clock t0 = calib_start();
	leveldb_iterator_t *it = leveldb_create_iterator(db, ro);
	for (leveldb_iter_seek_to_first(it); n < c->num && leveldb_iter_valid(it); leveldb_iter_next(it)) {
		size_t kl, vl;
		leveldb_iter_key(it, &kl);
		leveldb_iter_value(it, &vl);
		bytes += kl + vl;
		n++;
	}
	leveldb_iter_destroy(it);
	calib_report("readseq", calib_since(&t0), n, bytes, -1);
}

static struct calib_leveldb l;

/* A new, empty store in place of the old one (db_bench's fresh_db). */
static void fresh(struct calib *c)
{
	if (l.db) {
		calib_leveldb_close(&l);
		leveldb_options_t *o = leveldb_options_create();
		char *err = NULL;
		leveldb_destroy_db(o, c->target, &err);
		leveldb_options_destroy(o);
		if (err)
			die("destroy", err);
	}
	char *err = calib_leveldb_open(&l, c->target, true);
	if (err)
		die("open (give a new --db directory)", err);
	db = l.db;
}

static const struct calib_loops loops = {"calibrate-leveldb", fresh, write_bench, read_random,
					  read_seq};

int main(int argc, char **argv)
{
	struct calib c;
	calib_args(&c, argc, argv, "db");
	fresh(&c);
	wo = leveldb_writeoptions_create();
	leveldb_writeoptions_set_sync(wo, c.sync);
	ro = leveldb_readoptions_create();
	calib_each(&c, &loops);
	calib_leveldb_close(&l);
	leveldb_writeoptions_destroy(wo);
	leveldb_readoptions_destroy(ro);
	free(c.values);
	return 0;
}
