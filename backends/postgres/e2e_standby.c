/* The PostgreSQL read/write split (postgres.read_dsn) against a real hot
 * standby: a private server and a standby of it made by pg-throwaway
 * (pg_basebackup -R, streaming over the unix socket). Harvests read from
 * the standby while writers write to the server, with both token
 * strategies: integrity 0 missing / 0 duplicates, the standby's own
 * statistics show it served the reads, the replica lag is in result.json,
 * verify checks the server (it passes with the standby stopped), and a
 * read_dsn that is no standby of the server, or is unreachable, is refused. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e_util.h"
#include "testutil.h"

#define PG_THROWAWAY RPB_SOURCE_DIR "/scripts/pg-throwaway"
#define CI_HARVEST E2E_WORKLOAD("ci-harvest.ini")
#define SECRET "hunter2"

enum { EXIT_ENV = 2 };

static char primary_dir[E2E_PATH], standby_dir[E2E_PATH], other_dir[E2E_PATH], cap_dir[300];
static char primary_dsn[E2E_PATH + 64], standby_dsn[E2E_PATH + 64];

static void throwaway(const char *cmd, const char *dir, const char *dir2, char *dsn, size_t n)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, PG_THROWAWAY, cmd, dir, dir2, NULL);
	struct e2e_proc p;
	e2e_exec(&p, cap_dir, &a);
	e2e_assert_code(&p, 0);
	if (dsn) {
		snprintf(dsn, n, "%.*s", (int)strcspn(p.out, "\n"), p.out);
		cr_assert(!strncmp(dsn, "host=", 5), "`%s` printed \"%s\", expected a DSN", p.cmd,
			  p.out);
	}
	e2e_proc_free(&p);
}

static void servers_stop(void)
{
	/* The standby first: it would keep asking a stopped server for WAL. */
	char *dirs[] = {standby_dir, primary_dir, other_dir};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		if (!dirs[i][0])
			continue;
		struct e2e_args a = {0};
		e2e_args_add(&a, PG_THROWAWAY, "stop", dirs[i], NULL);
		struct e2e_proc p;
		e2e_exec(&p, cap_dir, &a);
		e2e_proc_free(&p);
		rpbt_rmtree(dirs[i]);
		dirs[i][0] = '\0';
	}
}

static void standby_fini(void)
{
	servers_stop();
	e2e_cleanup();
}

/* A private server with one hot standby; e's runs write to the server. */
static void servers_start(struct e2e_env *e)
{
	snprintf(cap_dir, sizeof cap_dir, "%s", e->cap);
	rpbt_tmpdir(primary_dir, sizeof primary_dir, "pgp");
	rpbt_tmpdir(standby_dir, sizeof standby_dir, "pgs");
	throwaway("start", primary_dir, NULL, primary_dsn, sizeof primary_dsn);
	throwaway("standby", primary_dir, standby_dir, standby_dsn, sizeof standby_dsn);
	e->dsn = primary_dsn;
}

/* Runs ci-harvest with writers into out, reading from read_dsn. */
static void run_split(const struct e2e_env *e, const char *out, const char *read_dsn,
		      const char *token, const char *seed)
{
	char rd[E2E_PATH + 128], tk[32], sd[32];
	snprintf(rd, sizeof rd, "postgres.read_dsn=%s", read_dsn);
	snprintf(tk, sizeof tk, "token=%s", token);
	snprintf(sd, sizeof sd, "seed=%s", seed);
	struct e2e_args a;
	e2e_run_args(&a, e, CI_HARVEST, out);
	e2e_args_add(&a, E2E_HARVEST_WRITERS, "--set", rd, "--set", tk, "--set", sd, NULL);
	char *printed = e2e_exec_expect(e->cap, &a, 0);
	cr_assert_null(strstr(printed, SECRET), "the progress output shows the read_dsn password");
	free(printed);
}

static json_int_t pint(json_t *r, const char *path)
{
	char full[128];
	snprintf(full, sizeof full, "pattern.%s", path);
	return e2e_jint(r, full);
}

static double jnum(json_t *r, const char *a, const char *b, const char *c)
{
	json_t *v = json_object_get(json_object_get(json_object_get(r, a), b), c);
	cr_assert(json_is_number(v), "result.json lacks %s.%s.%s", a, b, c);
	return json_number_value(v);
}

/* One integer from a psql query against dsn. */
static long long query(const struct e2e_env *e, const char *dsn, const char *sql)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, "psql", "-X", "-v", "ON_ERROR_STOP=1", dsn, "-Atc", sql, NULL);
	return e2e_query_count(e, &a);
}

/* The standby's own statistics of a table: index scans run there. A
 * backend reports its statistics when its session ends, shortly after the
 * run's connections close, hence the polling. */
static long long standby_scans(const struct e2e_env *e, const char *table, long long want)
{
	char sql[256];
	snprintf(sql, sizeof sql,
		 "SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_tables"
		 " WHERE schemaname = '%s' AND relname = '%s'", e->schema, table);
	long long n = 0;
	double deadline = e2e_now_s() + rpbt_limit_s(RPBT_CHILD_LIMIT_S);
	while ((n = query(e, standby_dsn, sql)) < want && e2e_now_s() < deadline) {
		struct timespec pause = {0, 100 * 1000000L};
		nanosleep(&pause, NULL);
	}
	return n;
}

/* Nothing the run wrote shows the read_dsn password. */
static void assert_no_secret(const char *out)
{
	const char *files[] = {"result.json", "summary.txt", "report.txt"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[E2E_PATH + 32];
		snprintf(path, sizeof path, "%s/%s", out, files[i]);
		char *text = e2e_slurp(path, NULL);
		cr_assert_not_null(text, "the run wrote no %s", path);
		cr_assert_null(strstr(text, SECRET), "%s shows the read_dsn password", path);
		free(text);
	}
}

static void assert_split_run(const struct e2e_env *e, const char *out, long long scans_before)
{
	json_t *r = e2e_result(out);
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "completed");
	cr_assert_eq(pint(r, "totals.missing"), 0);
	cr_assert_eq(pint(r, "totals.duplicates"), 0);
	cr_assert_eq(pint(r, "totals.unexpected"), 0);
	cr_assert_geq(pint(r, "totals.harvests_completed"), 4);
	cr_assert(json_is_true(json_object_get(json_object_get(json_object_get(r, "pattern"),
							       "totals"), "integrity_checked")));
	cr_assert_gt(pint(r, "writers.creates"), 0);
	cr_assert_gt(pint(r, "writers.updates"), 0);

	/* Every returned record was fetched on the standby. */
	long long records = pint(r, "totals.records");
	long long scans = standby_scans(e, "descriptions", scans_before + records);
	cr_assert_geq(scans - scans_before, records,
		      "the standby ran %lld record fetches, the harvests returned %lld records",
		      scans - scans_before, records);

	/* The replica lag, sampled while the run went on. */
	double samples = jnum(r, "backend_gauges", "replica_lag_bytes", "samples");
	cr_assert_geq(samples, 1);
	double lo = jnum(r, "backend_gauges", "replica_lag_bytes", "min"),
	       mean = jnum(r, "backend_gauges", "replica_lag_bytes", "mean"),
	       hi = jnum(r, "backend_gauges", "replica_lag_bytes", "max");
	cr_assert(lo >= 0 && lo <= mean && mean <= hi, "lag min %g mean %g max %g", lo, mean, hi);
	cr_assert_geq(jnum(r, "backend_gauges", "replica_lag_s", "max"), 0);
	assert_no_secret(out);
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/report.txt", out);
	char *report = e2e_slurp(path, NULL);
	cr_assert(report && strstr(report, "\nRead replica\tpages read from a hot standby"),
		  "report.txt does not say the pages came from the standby: %s", report);
	free(report);

	/* verify checks the server, the store of record. */
	e2e_verify_clean(e, out, pint(r, "load.records") + pint(r, "writers.creates"));
	json_decref(r);
}

Test(standby_postgres, harvest_from_standby, .fini = standby_fini)
{
	struct e2e_env e;
	e2e_env_init(&e, "postgres");
	servers_start(&e);
	char read_dsn[E2E_PATH + 96];
	/* Trust authentication ignores the password; results must not show it. */
	snprintf(read_dsn, sizeof read_dsn, "%s password=" SECRET, standby_dsn);

	run_split(&e, e.out, read_dsn, "keyset", "42");
	assert_split_run(&e, e.out, 0);

	/* token = snapshot: each harvest's snapshot is written to the server
	 * and its pages read from the standby, which must wait for it. */
	char out[E2E_PATH];
	snprintf(out, sizeof out, "%s/snapshot", e.tmp);
	long long before = standby_scans(&e, "descriptions", 0);
	run_split(&e, out, read_dsn, "snapshot", "43");
	assert_split_run(&e, out, before);
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s.snapshots", e.schema);
	cr_assert_eq(query(&e, primary_dsn, sql), 0, "snapshot rows left behind");

	/* With the standby gone, verify still checks the server. */
	throwaway("stop", standby_dir, NULL, NULL, 0);
	standby_dir[0] = '\0';
	char *text = e2e_verify(&e, out, 0);
	cr_assert(!strncmp(text, "verified ", 9), "%s", text);
	free(text);
	e2e_env_fini(&e);
}

/* A read_dsn that is not a standby of the server, or cannot be reached, is
 * refused in one line that names the option. */
Test(standby_postgres, read_dsn_refused, .fini = standby_fini)
{
	struct e2e_env e;
	e2e_env_init(&e, "postgres");
	servers_start(&e);
	char other_dsn[E2E_PATH + 64];
	rpbt_tmpdir(other_dir, sizeof other_dir, "pgo");
	const struct {
		const char *read_dsn, *needle;
	} cases[] = {
		{primary_dsn, "not in recovery"},
		{"host=/nonexistent/socket dbname=rpbench password=" SECRET, "postgres.read_dsn"},
		{NULL, "another cluster"}, /* a standby of another server, made below */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *rd = cases[i].read_dsn;
		if (!rd) {
			/* The first server's standby is not one of a second server. */
			throwaway("start", other_dir, NULL, other_dsn, sizeof other_dsn);
			e.dsn = other_dsn;
			rd = standby_dsn;
		}
		char set[E2E_PATH + 128];
		snprintf(set, sizeof set, "postgres.read_dsn=%s", rd);
		struct e2e_args a;
		e2e_run_args(&a, &e, CI_HARVEST, e.out);
		e2e_args_add(&a, "--set", set, NULL);
		struct e2e_proc p;
		e2e_exec(&p, e.cap, &a);
		e2e_assert_refusal(&p, EXIT_ENV, cases[i].needle, NULL);
		cr_assert_null(strstr(p.err, SECRET), "the message shows the password: %s", p.err);
		e2e_proc_free(&p);
	}
	e2e_env_fini(&e);
}
