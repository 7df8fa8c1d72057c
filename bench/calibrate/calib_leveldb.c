#include "calib_leveldb.h"

char *calib_leveldb_open(struct calib_leveldb *l, const char *dir, bool create)
{
	l->options = leveldb_options_create();
	l->cache = leveldb_cache_create_lru(64u << 20);
	l->bloom = leveldb_filterpolicy_create_bloom(10);
	leveldb_options_set_create_if_missing(l->options, create);
	leveldb_options_set_error_if_exists(l->options, create);
	leveldb_options_set_write_buffer_size(l->options, 16u << 20);
	leveldb_options_set_cache(l->options, l->cache);
	leveldb_options_set_filter_policy(l->options, l->bloom);
	leveldb_options_set_block_size(l->options, 4096);
	leveldb_options_set_max_open_files(l->options, 1000);
	leveldb_options_set_compression(l->options, leveldb_snappy_compression);
	leveldb_options_set_max_file_size(l->options, 2u << 20);
	char *err = NULL;
	l->db = leveldb_open(l->options, dir, &err);
	if (err) {
		l->db = NULL;
		calib_leveldb_close(l);
	}
	return err;
}

void calib_leveldb_close(struct calib_leveldb *l)
{
	if (l->db)
		leveldb_close(l->db);
	leveldb_options_destroy(l->options);
	leveldb_filterpolicy_destroy(l->bloom);
	leveldb_cache_destroy(l->cache);
	*l = (struct calib_leveldb){0};
}
