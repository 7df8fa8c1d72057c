/* The rows of compare's table, on result.json files written here from one
 * real run with the figures the test sets (so nothing depends on how fast
 * the machine was): PostgreSQL's bytes on disk with and without its WAL,
 * the server's version, the warning for a small shared_buffers, and a row
 * for every label of the pattern. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "e2e_util.h"

#if defined(RPB_HAVE_LEVELDB)

#define MIB 1048576.0

/* A real leveldb run of workload (extra --set pairs up to NULL) in e's
 * directory under name: the template of the crafted runs. */
static json_t *template_run(const struct e2e_env *e, const char *workload, const char *name, ...)
{
	char out[E2E_PATH];
	e2e_path(e, out, name);
	struct e2e_args a = {0};
	e2e_args_add(&a, e->bin, "run", workload, "--quiet", "--out", out, "--set", "sync=none", NULL);
	va_list ap;
	va_start(ap, name);
	for (const char *s; (s = va_arg(ap, const char *));)
		e2e_args_add(&a, "--set", s, NULL);
	va_end(ap);
	char store[E2E_PATH + 8];
	snprintf(store, sizeof store, "%s-store", out);
	e2e_args_add(&a, "--dir", store, NULL);
	e2e_exec_ok(e->cap, &a);
	return e2e_result(out);
}

/* DIR/result.json: tmpl with patch (JSON text) merged in. */
static void crafted(const struct e2e_env *e, const json_t *tmpl, const char *name,
		    const char *patch, char *dir)
{
	json_t *r = json_deep_copy(tmpl);
	json_error_t jerr;
	json_t *p = json_loads(patch, 0, &jerr);
	cr_assert_not_null(p, "patch: %s", jerr.text);
	cr_assert_eq(json_object_update_recursive(r, p), 0);
	json_decref(p);
	e2e_write_result(e, r, name, dir);
	json_decref(r);
}

static double median(const json_t *cmp, size_t i, const char *key)
{
	return json_number_value(json_object_get(e2e_col_stat(cmp, i, key), "median"));
}

/* A PostgreSQL run's manifest: the server as describe reports it. */
#define PG_SERVER(shared_buffers)                                                          \
	"\"backend\": \"postgres\", \"backend_version\": \"libpq 15.18\", "                   \
	"\"server\": {\"server_version\": \"15.18 (Debian 15.18-0+deb12u1)\", "               \
	"\"shared_buffers\": \"" shared_buffers "\", \"fsync\": \"on\"}"
#define PG_MANIFEST(shared_buffers) "\"manifest\": {" PG_SERVER(shared_buffers) "}"

Test(e2e_table, postgres_bytes_count_the_wal, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	json_t *tmpl = template_run(&e, E2E_CI_INGEST, "template", "ops=20", NULL);
	char dirs[3][E2E_PATH];
	/* 112 MiB of tables and 123 MiB of WAL against leveldb's 150 MiB:
	 * smaller without the WAL, larger with it. */
	crafted(&e, tmpl, "pg", "{" PG_MANIFEST("4GB") ", \"totals\": {\"store_bytes\": 117440512, "
				 "\"wal_bytes\": 128974848, \"acked\": 1000, \"acked_bytes\": 100000}}",
		dirs[0]);
	crafted(&e, tmpl, "ldb", "{\"totals\": {\"store_bytes\": 157286400, \"acked\": 1000, "
				  "\"acked_bytes\": 100000}}",
		dirs[1]);
	json_decref(tmpl);
	char *table;
	json_t *cmp = e2e_compare_results(&e, dirs, 2, &table);
	cr_assert(median(cmp, 0, "store_bytes") == 112 * MIB);
	cr_assert(median(cmp, 0, "store_wal_bytes") == 235 * MIB);
	cr_assert(median(cmp, 1, "store_wal_bytes") == 150 * MIB, "leveldb's log is in its store");
	cr_assert(median(cmp, 0, "bytes_per_object") == 235 * MIB / 1000);
	cr_assert(median(cmp, 0, "space_amplification") == 235 * MIB / 100000);
	/* Ranked on tables + WAL: leveldb is the top. */
	cr_assert(json_is_true(json_object_get(e2e_col_stat(cmp, 1, "store_wal_bytes"), "top")));
	cr_assert(json_is_null(json_object_get(e2e_col_stat(cmp, 0, "store_bytes"), "ratio_to_best")) ||
		  !json_object_get(e2e_col_stat(cmp, 0, "store_bytes"), "ratio_to_best"));
	char line[1024];
	e2e_table_row(table, "bytes on disk: tables, MiB", line, sizeof line);
	cr_assert(strstr(line, "112.00") && strstr(line, "150.00"), "%s", line);
	cr_assert_null(strstr(line, "×"), "the tables alone are ranked: %s", line);
	e2e_table_row(table, "bytes on disk: tables + WAL, MiB", line, sizeof line);
	cr_assert(strstr(line, "235.00 ×1.57") && strstr(line, "150.00 ×1.00"), "%s", line);
	cr_assert(strstr(table, "leave out its WAL") && strstr(table, "inside its directory"),
		  "no note on where the WAL is counted:\n%s", table);
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

Test(e2e_table, wal_from_the_gauge_or_none, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	json_t *tmpl = template_run(&e, E2E_CI_INGEST, "template", "ops=20", NULL);
	json_object_del(json_object_get(tmpl, "totals"), "wal_bytes");
	char dirs[2][E2E_PATH];
	/* A result from before totals.wal_bytes: the gauge's last reading. */
	crafted(&e, tmpl, "pg-gauge", "{" PG_MANIFEST("4GB") ", \"totals\": {\"store_bytes\": 1048576}, "
				       "\"backend_gauges\": {\"wal_bytes\": {\"samples\": 3, \"mean\": 1, "
				       "\"min\": 0, \"max\": 3145728, \"last\": 3145728}}}",
		dirs[0]);
	/* A server run that does not say its WAL: no total. */
	json_t *t2 = json_deep_copy(tmpl);
	json_object_del(t2, "backend_gauges");
	crafted(&e, t2, "pg-none", "{\"manifest\": {" PG_SERVER("4GB") ", \"sync\": \"commit\", "
				    "\"options\": {\"run.sync\": \"commit\"}}, \"totals\": "
				    "{\"store_bytes\": 1048576}}",
		dirs[1]);
	json_decref(t2);
	json_decref(tmpl);
	char *table;
	json_t *cmp = e2e_compare_results(&e, dirs, 2, &table);
	cr_assert(median(cmp, 0, "store_wal_bytes") == 4 * MIB);
	cr_assert(json_is_null(json_object_get(json_array_get(json_object_get(cmp, "backends"), 1),
					       "store_wal_bytes")));
	char line[1024];
	e2e_table_row(table, "bytes on disk: tables + WAL, MiB", line, sizeof line);
	cr_assert(strstr(line, "4.00") && strstr(line, "n/a"), "%s", line);
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

/* Two PostgreSQL columns (sync none and commit) with the given
 * shared_buffers, compared; returns the terminal's table. */
static char *two_servers(const struct e2e_env *e, const char *buffers_none,
			 const char *buffers_commit, json_t **cmp)
{
	json_t *tmpl = template_run(e, E2E_CI_INGEST, "template", "ops=20", NULL);
	char dirs[2][E2E_PATH], patch[1024];
	snprintf(patch, sizeof patch, "{" PG_MANIFEST("%s") "}", buffers_none);
	crafted(e, tmpl, "pg-none", patch, dirs[0]);
	snprintf(patch, sizeof patch,
		 "{\"manifest\": {" PG_SERVER("%s") ", \"sync\": \"commit\", \"options\": "
		 "{\"run.sync\": \"commit\"}}}",
		 buffers_commit);
	crafted(e, tmpl, "pg-commit", patch, dirs[1]);
	json_decref(tmpl);
	char *table;
	*cmp = e2e_compare_results(e, dirs, 2, &table);
	return table;
}

Test(e2e_table, server_version_beside_the_library, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	json_t *cmp;
	char *table = two_servers(&e, "4GB", "4GB", &cmp);
	char line[1024];
	e2e_table_row(table, "version", line, sizeof line);
	cr_assert(strstr(line, "PostgreSQL 15.18 (libpq 15.18)"), "%s", line);
	cr_assert_null(strstr(line, "Debian"), "%s", line);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(cmp, "backends"), 0),
							   "backend_version")),
			 "PostgreSQL 15.18 (libpq 15.18)");
	cr_assert_null(strstr(table, "shared_buffers"), "4GB is no small default:\n%s", table);
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

Test(e2e_table, small_shared_buffers_warned, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	json_t *cmp;
	char *table = two_servers(&e, "32MB", "129MB", &cmp);
	cr_assert(strstr(table, "\nWarning: postgres / durable / none ran with shared_buffers = 32MB, "
				"no more than PostgreSQL's small default"),
		  "no warning for 32MB:\n%s", table);
	cr_assert(strstr(table, "results understate a tuned server"), "%s", table);
	cr_assert_null(strstr(table, "= 129MB"), "129MB is above the default:\n%s", table);
	const json_t *notes = json_object_get(cmp, "notes");
	cr_assert(json_is_array(notes) && json_array_size(notes) == 2, "the WAL note and one warning");
	cr_assert(strstr(json_string_value(json_array_get(notes, 1)), "shared_buffers = 32MB"));
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

Test(e2e_table, default_and_tiny_shared_buffers_warned, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	json_t *cmp;
	char *table = two_servers(&e, "128kB", "128MB", &cmp);
	cr_assert(strstr(table, "postgres / durable / none ran with shared_buffers = 128kB"), "%s", table);
	cr_assert(strstr(table, "postgres / durable / commit ran with shared_buffers = 128MB"), "%s",
		  table);
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

Test(e2e_table, every_label_headlined, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	json_t *tmpl = template_run(&e, E2E_CI_INGEST, "template", "ops=20", NULL);
	char dirs[2][E2E_PATH];
	/* A second label 10 times slower in one column; one without samples. */
	crafted(&e, tmpl, "a", "{\"labels\": {\"slow-op\": {\"samples\": 10, \"throughput_per_s\": 100, "
			       "\"p99_us\": 5000}, \"idle\": {\"samples\": 0, \"throughput_per_s\": 0}}}",
		dirs[0]);
	crafted(&e, tmpl, "b", "{\"manifest\": {\"backend\": \"sqlite\"}, \"labels\": {\"slow-op\": "
			       "{\"samples\": 10, \"throughput_per_s\": 1000, \"p99_us\": 500}}}",
		dirs[1]);
	json_decref(tmpl);
	char *table;
	json_t *cmp = e2e_compare_results(&e, dirs, 2, &table);
	char line[1024];
	e2e_table_row(table, "slow-op throughput, ops/s", line, sizeof line);
	cr_assert(strstr(line, "100.0 ×10.00") && strstr(line, "1000.0 ×1.00"), "%s", line);
	e2e_table_row(table, "slow-op latency p99, µs", line, sizeof line);
	cr_assert(strstr(line, "5000.0 ×10.00") && strstr(line, "500.0 ×1.00"), "%s", line);
	cr_assert_null(strstr(table, "| idle "), "a label without samples got a row:\n%s", table);
	/* Between the main label's rows and the totals'. */
	cr_assert(strstr(table, "latency max") < strstr(table, "slow-op throughput") &&
		  strstr(table, "slow-op latency p99") < strstr(table, "all labels throughput"));
	const json_t *rows = json_object_get(json_array_get(json_object_get(cmp, "backends"), 1), "rows");
	const json_t *s = json_object_get(rows, "slow-op/throughput_per_s");
	cr_assert(json_number_value(json_object_get(s, "median")) == 1000);
	cr_assert(json_is_true(json_object_get(s, "top")));
	json_decref(cmp);
	free(table);
	e2e_env_fini(&e);
}

#endif
