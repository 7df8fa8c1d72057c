/* LevelDB opened as the rpbench LevelDB backend opens it by default (16 MiB
 * write buffer, 64 MiB block cache, 10-bit bloom filter, 4 KiB blocks, 1000
 * open files, snappy, 2 MiB files), for the direct LevelDB baselines. Uses
 * LevelDB's C API alone, no rpbench code. */
#ifndef CALIB_LEVELDB_H
#define CALIB_LEVELDB_H

#include <leveldb/c.h>
#include <stdbool.h>

struct calib_leveldb {
	leveldb_t *db;
	leveldb_options_t *options;
	leveldb_cache_t *cache;
	leveldb_filterpolicy_t *bloom;
};

/* Opens dir: a new store when create (an existing one is an error), else
 * the store already there. Returns NULL, or LevelDB's error message
 * (malloc'd) with nothing left open. */
char *calib_leveldb_open(struct calib_leveldb *l, const char *dir, bool create);
/* Closes the store and frees its options. */
void calib_leveldb_close(struct calib_leveldb *l);

#endif
