/* Every backend's gauges, end to end: a CI ingest run reports each of its
 * backend's gauges in result.json with values a run of that size must
 * leave (WAL written, table files, tables grown), and intervals.csv has one
 * column per gauge, filled on every row. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

/* The gauge's "max" in result.json; asserts the gauge is there. */
static double gauge_max(json_t *r, const char *name)
{
	json_t *g = json_object_get(json_object_get(r, "backend_gauges"), name);
	cr_assert(json_is_object(g), "backend_gauges has no %s", name);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(r, "backend_gauges"),
							"failed_readings")),
		     0, "a gauge reading failed");
	return json_number_value(json_object_get(g, "max"));
}

/* intervals.csv: the header ends with gauge_<name> for every name (in
 * order), and every row has as many fields as the header. */
static void assert_columns(const char *out, const char *const *names)
{
	char path[E2E_PATH];
	snprintf(path, sizeof path, "%s/intervals.csv", out);
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text);
	char want[512] = "rss_bytes";
	for (const char *const *n = names; *n; n++)
		snprintf(want + strlen(want), sizeof want - strlen(want), ",gauge_%s", *n);
	strcat(want, "\n");
	char *nl = strchr(text, '\n');
	cr_assert(nl && (size_t)(nl - text + 1) >= strlen(want) &&
		  strncmp(nl + 1 - strlen(want), want, strlen(want)) == 0,
		  "intervals.csv header does not end with %s: %.*s", want, (int)(nl - text), text);
	size_t fields = 1;
	for (const char *p = text; p < nl; p++)
		fields += *p == ',';
	int rows = 0;
	for (char *line = nl + 1; *line; rows++) {
		char *end = strchr(line, '\n');
		cr_assert_not_null(end);
		size_t f = 1;
		for (const char *p = line; p < end; p++)
			f += *p == ',';
		cr_assert_eq(f, fields, "a row of %zu fields under a header of %zu: %.*s", f, fields,
			     (int)(end - line), line);
		line = end + 1;
	}
	cr_assert_gt(rows, 0);
	free(text);
}

static void t_gauges(const char *backend, const char *const *names)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	/* One thread, one client: sizes of the store are then reproducible. */
	e2e_run_ci(&e, "--set", "threads=1", "--set", "clients=1", "--set", "ops=3000",
		   "--set", "probe_every=0", "--set", "interval=100ms", NULL);
	json_t *r = e2e_result(e.out);
	for (const char *const *n = names; *n; n++)
		gauge_max(r, *n);
	if (!strcmp(backend, "leveldb")) {
		/* 3,000 creates of ~2 KiB: a memtable, and the cache behind it. */
		cr_assert_gt(gauge_max(r, "memory_bytes"), 1 << 20);
	} else if (!strcmp(backend, "sqlite")) {
		/* ~6 MiB of pages through a WAL checkpointed every 1000 frames. */
		cr_assert_gt(gauge_max(r, "wal_bytes"), 0);
		cr_assert_geq(gauge_max(r, "checkpoints"), 1);
	} else if (!strcmp(backend, "rocksdb")) {
		/* ~6 MiB of creates in a 64 MiB memtable, never flushed; a
		 * run that small is neither slowed nor stopped and has no
		 * background error. */
		cr_assert_gt(gauge_max(r, "memtable_bytes"), 1 << 20);
		cr_assert_eq(gauge_max(r, "write_stopped"), 0);
		cr_assert_eq(gauge_max(r, "delayed_write_rate_bps"), 0);
		cr_assert_eq(gauge_max(r, "background_errors"), 0);
	} else {
		cr_assert_gt(gauge_max(r, "wal_bytes"), 1 << 20);
		cr_assert_gt(gauge_max(r, "table_bytes"), 1 << 20);
		/* The server's WAL, outside store_bytes, in the totals: the
		 * gauge's reading after the workers stopped. */
		cr_assert_eq(e2e_jint(r, "totals.wal_bytes"),
			     (json_int_t)json_number_value(json_object_get(
				     json_object_get(json_object_get(r, "backend_gauges"), "wal_bytes"),
				     "last")));
	}
	if (strcmp(backend, "postgres"))
		cr_assert_null(json_object_get(json_object_get(r, "totals"), "wal_bytes"),
			       "%s's log is in its store_bytes", backend);
	json_decref(r);
	assert_columns(e.out, names);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_LEVELDB
Test(e2e_leveldb, gauges, .fini = e2e_cleanup)
{
	static const char *const names[] = {"l0_files", "sst_files", "compaction_s",
					    "compaction_write_bytes", "memory_bytes", NULL};
	t_gauges("leveldb", names);
}
#endif
#ifdef RPB_HAVE_ROCKSDB
Test(e2e_rocksdb, gauges, .fini = e2e_cleanup)
{
	static const char *const names[] = {"l0_files", "pending_compaction_bytes",
					    "delayed_write_rate_bps", "write_stopped",
					    "memtable_bytes", "background_errors", NULL};
	t_gauges("rocksdb", names);
}
#endif
#ifdef RPB_HAVE_SQLITE
Test(e2e_sqlite, gauges, .fini = e2e_cleanup)
{
	static const char *const names[] = {"wal_bytes", "checkpoints", "checkpoint_s", NULL};
	t_gauges("sqlite", names);
}
#endif
#ifdef RPB_HAVE_POSTGRES
Test(e2e_postgres, gauges, .fini = e2e_cleanup)
{
	static const char *const names[] = {"wal_bytes", "checkpoints", "table_bytes", "dead_tuples",
					    NULL};
	t_gauges("postgres", names);
}
#endif
