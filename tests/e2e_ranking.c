/* The comparison's ranking, on result.json files written here from one
 * real run with the figures set by the test (so nothing depends on how fast
 * the machine was): bytes on disk rank per acknowledged object when the
 * runs stored different numbers of objects; "best" needs two runs or more
 * in the top and runner-up columns and ranges apart; overlapping ranges are
 * "within noise"; one column, or one run per column, names no best. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "e2e_util.h"

#if defined(RPB_HAVE_LEVELDB) && defined(RPB_HAVE_SQLITE)

/* One crafted run: its column and the figures the ranking reads. */
struct fixture {
	const char *backend, *sync;
	double throughput, store_bytes, acked;
};

/* A real run's result.json, the template of every fixture. */
static json_t *template_result(const struct e2e_env *e)
{
	char out[E2E_PATH], bin[E2E_PATH];
	e2e_path(e, out, "template");
	snprintf(bin, sizeof bin, "%s/bin/rpbench-leveldb", RPB_BINARY_DIR);
	struct e2e_args a = {0};
	e2e_args_add(&a, bin, "run", E2E_CI_INGEST, "--quiet", "--out", out, "--set", "ops=20",
		     "--set", "sync=none", NULL);
	e2e_exec_ok(e->cap, &a);
	return e2e_result(out);
}

/* DIR/result.json: the template with f's backend, sync and figures. */
static void write_fixture(const struct e2e_env *e, const json_t *tmpl, const struct fixture *f,
			  const char *name, char *dir)
{
	json_t *r = json_deep_copy(tmpl);
	json_t *man = json_object_get(r, "manifest");
	json_object_set_new(man, "backend", json_string(f->backend));
	json_object_set_new(man, "sync", json_string(f->sync));
	json_object_set_new(json_object_get(man, "options"), "run.sync", json_string(f->sync));
	json_t *labels = json_object_get(r, "labels");
	json_t *main_label = json_object_iter_value(json_object_iter(labels));
	json_object_set_new(main_label, "throughput_per_s", json_real(f->throughput));
	json_t *totals = json_object_get(r, "totals");
	json_object_set_new(totals, "store_bytes", json_real(f->store_bytes));
	json_object_set_new(totals, "acked", json_integer((json_int_t)f->acked));
	json_object_set_new(totals, "acked_bytes", json_integer((json_int_t)f->acked * 100));
	e2e_write_result(e, r, name, dir);
	json_decref(r);
}

/* rpbench compare --results over the fixtures; writes compare.json to
 * e->out and returns it (the terminal's table in *table, to free). */
static json_t *compare(const struct e2e_env *e, const struct fixture *f, size_t n, char **table)
{
	json_t *tmpl = template_result(e);
	char dirs[8][E2E_PATH];
	for (size_t i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof name, "run%zu", i);
		write_fixture(e, tmpl, &f[i], name, dirs[i]);
	}
	json_decref(tmpl);
	return e2e_compare_results(e, dirs, n, table);
}

static bool flag(const json_t *s, const char *key)
{
	return json_is_true(json_object_get(s, key));
}

Test(e2e_ranking, bytes_rank_per_object_when_object_counts_differ, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	/* leveldb holds fewer bytes but stored a tenth of the objects: per
	 * object it is 5 times worse. */
	static const struct fixture f[] = {
		{"leveldb", "none", 1000, 1e6, 100},  {"leveldb", "none", 1000, 1e6, 100},
		{"sqlite", "none", 1000, 2e6, 1000},  {"sqlite", "none", 1000, 2e6, 1000},
	};
	char *table;
	json_t *cmp = compare(&e, f, 4, &table);
	const json_t *raw0 = e2e_col_stat(cmp, 0, "store_wal_bytes"), *raw1 = e2e_col_stat(cmp, 1, "store_wal_bytes");
	cr_assert(!flag(raw0, "best") && !flag(raw1, "best") && !flag(raw0, "top") && !flag(raw1, "top"),
		  "raw bytes of runs with different object counts were ranked");
	cr_assert(json_is_null(json_object_get(raw0, "ratio_to_best")));
	const json_t *per0 = e2e_col_stat(cmp, 0, "bytes_per_object"), *per1 = e2e_col_stat(cmp, 1, "bytes_per_object");
	cr_assert(json_number_value(json_object_get(per0, "median")) == 1e4);
	cr_assert(json_number_value(json_object_get(per1, "median")) == 2e3);
	cr_assert(flag(per1, "best"), "sqlite stores fewer bytes per object, apart from leveldb");
	cr_assert(!flag(per0, "best"));
	cr_assert(json_number_value(json_object_get(per0, "ratio_to_best")) == 5);
	cr_assert(flag(e2e_col_stat(cmp, 1, "space_amplification"), "best"));
	char line[1024];
	e2e_table_row(table, "bytes on disk: tables + WAL, MiB", line, sizeof line);
	cr_assert_null(strstr(line, "best"), "raw bytes ranked: %s", line);
	cr_assert_null(strstr(line, "×"), "raw bytes ranked: %s", line);
	e2e_table_row(table, "bytes on disk per acked object", line, sizeof line);
	cr_assert(strstr(line, "best") && strstr(line, "×5.00"), "per object: %s", line);
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

Test(e2e_ranking, overlapping_repeats_are_within_noise, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	/* Throughput medians 1050 and 1000, ranges [1000, 1100] and [950, 1050]. */
	static const struct fixture f[] = {
		{"leveldb", "none", 1000, 1e6, 100}, {"sqlite", "none", 950, 1e6, 100},
		{"leveldb", "none", 1100, 1e6, 100}, {"sqlite", "none", 1050, 1e6, 100},
	};
	char *table;
	json_t *cmp = compare(&e, f, 4, &table);
	const json_t *a = e2e_col_stat(cmp, 0, "throughput_per_s"), *b = e2e_col_stat(cmp, 1, "throughput_per_s");
	cr_assert(flag(a, "top") && !flag(a, "best") && flag(a, "within_noise"));
	cr_assert(!flag(b, "best") && flag(b, "within_noise"));
	char line[1024];
	e2e_table_row(table, "create throughput, ops/s", line, sizeof line);
	cr_assert(strstr(line, "within noise"), "overlap not said: %s", line);
	cr_assert_null(strstr(line, "best"), "best within noise: %s", line);
	/* Equal bytes in every run: overlapping too, no best. */
	e2e_table_row(table, "bytes on disk: tables + WAL, MiB", line, sizeof line);
	cr_assert_null(strstr(line, "best"), "%s", line);
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

Test(e2e_ranking, apart_repeats_are_best, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	static const struct fixture f[] = {
		{"leveldb", "none", 2000, 1e6, 100}, {"sqlite", "none", 950, 1e6, 100},
		{"leveldb", "none", 2100, 1e6, 100}, {"sqlite", "none", 1050, 1e6, 100},
	};
	char *table;
	json_t *cmp = compare(&e, f, 4, &table);
	cr_assert(flag(e2e_col_stat(cmp, 0, "throughput_per_s"), "best"));
	cr_assert(!flag(e2e_col_stat(cmp, 0, "throughput_per_s"), "within_noise"));
	char line[1024];
	e2e_table_row(table, "create throughput, ops/s", line, sizeof line);
	cr_assert(strstr(line, "2050.0 [2000.0–2100.0] best"), "%s", line);
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

Test(e2e_ranking, one_run_per_column_names_no_best, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	static const struct fixture f[] = {
		{"leveldb", "none", 5000, 1e6, 100}, {"sqlite", "none", 50, 9e6, 100},
	};
	char *table;
	json_t *cmp = compare(&e, f, 2, &table);
	cr_assert(flag(e2e_col_stat(cmp, 0, "throughput_per_s"), "top"));
	cr_assert(json_number_value(json_object_get(e2e_col_stat(cmp, 1, "throughput_per_s"), "ratio_to_best")) == 100);
	for (size_t i = 0; i < 2; i++)
		cr_assert(!flag(e2e_col_stat(cmp, i, "throughput_per_s"), "best"));
	/* The table's cells: a word "best" only in the legend. */
	const char *legend = strstr(table, "\nMedian over the runs");
	cr_assert_not_null(legend);
	cr_assert(memmem(table, (size_t)(legend - table), "best", 4) == NULL,
		  "one run per column gave a best:\n%s", table);
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

Test(e2e_ranking, one_column_ranks_nothing, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	static const struct fixture f[] = {
		{"leveldb", "none", 1000, 1e6, 100}, {"leveldb", "none", 1100, 1e6, 100},
		{"leveldb", "none", 1200, 1e6, 100},
	};
	char *table;
	json_t *cmp = compare(&e, f, 3, &table);
	cr_assert_eq(json_array_size(json_object_get(cmp, "backends")), 1);
	const json_t *s = e2e_col_stat(cmp, 0, "throughput_per_s");
	cr_assert(!flag(s, "best") && !flag(s, "top"));
	cr_assert(json_is_null(json_object_get(s, "ratio_to_best")));
	const char *legend = strstr(table, "\nMedian over the runs");
	cr_assert_not_null(legend);
	cr_assert(memmem(table, (size_t)(legend - table), "best", 4) == NULL, "%s", table);
	cr_assert(memmem(table, (size_t)(legend - table), "×", 2) == NULL, "%s", table);
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

#endif
