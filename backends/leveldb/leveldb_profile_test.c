/* profile = fedora-4.5 opens LevelDB as Infinispan's store did (no
 * compression, no bloom filter, a block cache that keeps nothing, LevelDB's
 * 4M write buffer), seen where it shows: in the table files the store
 * writes (their size for compression, the filter block's name for the
 * filter) and in the settings describe reports; an option given wins over
 * the profile's default. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

#define FILTER_NAME "filter.leveldb.BuiltinBloomFilter2"

struct tables {
	long long bytes;
	bool filter; /* some table holds a filter block */
};

static bool file_has(const char *path, const char *needle)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	size_t n = strlen(needle), got = 0;
	char *buf = malloc(1 << 22);
	cr_assert_not_null(buf);
	got = fread(buf, 1, 1 << 22, f);
	fclose(f);
	bool hit = false;
	for (size_t i = 0; !hit && i + n <= got; i++)
		hit = memcmp(buf + i, needle, n) == 0;
	free(buf);
	return hit;
}

static struct tables tables_of(const char *dir)
{
	struct tables t = {0, false};
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "%s", dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 4 || strcmp(e->d_name + len - 4, ".ldb"))
			continue;
		char path[512];
		struct stat sb;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		cr_assert_eq(stat(path, &sb), 0, "%s", path);
		t.bytes += sb.st_size;
		t.filter = t.filter || file_has(path, FILTER_NAME);
	}
	closedir(d);
	return t;
}

static const char *fact(const struct rpb_fact *f, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return f[i].value;
	cr_assert_fail("describe has no %s", name);
	return NULL;
}

/* 2,000 values of 1,000 equal bytes in a store opened under profile (and
 * option = value when given), then reopened so LevelDB writes its log to
 * a table file; returns what the table files show and checks describe. */
static struct tables filled(const char *profile, const char *option, const char *value,
			    const char *want_cache)
{
	struct rpbt_store s;
	rpbt_open(&s, "leveldb");
	static struct rpb_kv kv;
	kv = (struct rpb_kv){option, value};
	s.cfg.profile = profile;
	s.cfg.opts = option ? &kv : NULL;
	s.cfg.nopts = option ? 1 : 0;
	rpbt_reopen(&s);
	char val[1001];
	memset(val, 'a', 1000);
	val[1000] = 0;
	struct rpb_session *ss = rpbt_session(&s);
	for (int i = 0; i < 2000; i++) {
		char key[32];
		snprintf(key, sizeof key, "k%06d", i);
		rpbt_begin(&s, ss, RPB_TXN_WRITE);
		rpbt_put(&s, ss, RPB_T_OBJECTS, key, val);
		rpbt_commit(&s, ss);
	}
	s.b->session_close(ss);
	struct rpb_fact f[RPB_FACTS_MAX];
	size_t n = 0;
	struct rpb_err err = {0};
	cr_assert_eq(s.b->describe(s.st, f, &n, &err), RPB_OK, "%s", err.msg);
	cr_assert_str_eq(fact(f, n, "block_cache"), want_cache);
	rpbt_reopen(&s);
	struct tables t = tables_of(s.dir);
	rpbt_close(&s);
	return t;
}

Test(leveldb_profile, fedora45_defaults)
{
	struct tables t = filled("fedora-4.5", NULL, NULL, "none");
	cr_assert_geq(t.bytes, 2000 * 1000, "no compression: %lld bytes of tables", t.bytes);
	cr_assert(!t.filter, "no bloom filter under fedora-4.5");
}

Test(leveldb_profile, durable_defaults)
{
	struct tables t = filled("durable", NULL, NULL, "67108864");
	cr_assert_lt(t.bytes, 2000 * 1000 / 4, "snappy: %lld bytes of tables", t.bytes);
	cr_assert(t.filter, "a bloom filter by default");
}

Test(leveldb_profile, given_option_wins)
{
	struct tables t = filled("fedora-4.5", "compression", "1", "none");
	cr_assert_lt(t.bytes, 2000 * 1000 / 4, "compression = 1 given: %lld bytes", t.bytes);
	t = filled("fedora-4.5", "block_cache", "8M", "8388608");
	cr_assert_geq(t.bytes, 2000 * 1000);
}
