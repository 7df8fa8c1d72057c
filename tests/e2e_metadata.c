/* End-to-end runs of the metadata pattern (tachyon-perf's Connect test)
 * through the real rpbench-<backend> binaries: the operation cycle and the
 * client rotation in trace.csv, report.txt in the original's layout and
 * its two aggregates recomputed from result.json, a failure that ends one
 * thread, and run + verify, also of a tampered namespace. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"

#define CI_METADATA E2E_WORKLOAD("ci-metadata.ini")
#define NODE "n0"
/* ci-metadata: 2 threads x 2001 ops, preload 50. The namespace afterwards:
 * the root, tmp, tachyon-perf-workspace, n0, 2 x 50 preload entries, and
 * each thread's target (2001 = 1 mod 4: the last operation is a mkdir). */
#define CI_OPS 2001
#define CI_ENTRIES (1 + 3 + 2 * 50 + 2)

enum { EXIT_STOPPED = 3, EXIT_VERIFY = 4 };

/* Runs ci-metadata into out with node n0 and extra args (up to NULL). */
static void run_ci(const struct e2e_env *e, const char *out, int want, ...)
	__attribute__((sentinel));
static void run_ci(const struct e2e_env *e, const char *out, int want, ...)
{
	struct e2e_args a;
	e2e_run_args(&a, e, CI_METADATA, out);
	e2e_args_add(&a, "--set", "node=" NODE, NULL);
	va_list ap;
	va_start(ap, want);
	e2e_args_addv(&a, ap);
	va_end(ap);
	free(e2e_exec_expect(e->cap, &a, want));
}

static char *read_text(const char *dir, const char *name)
{
	char path[E2E_PATH + 64];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "cannot read %s", path);
	return text;
}

/* ---- run, verify, and verify of a tampered namespace ---- */

/* Deletes the names entry of thread 1's preload entry 7: sqlite with its
 * own CLI, every other backend through the store interface. */
static void tamper(const struct e2e_env *e, const char *tag)
{
	char key[256];
	snprintf(key, sizeof key, "%s:" NODE ":s:000000000003/1.7", tag);
	if (strcmp(e->backend, "sqlite")) {
		struct e2e_store s;
		e2e_env_store_open(&s, e);
		struct rpb_err err = {0};
		cr_assert_eq(s.b->begin(s.s, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
		enum rpb_status st = s.b->del(s.s, RPB_T_NAMES, rpb_slice_make(key, strlen(key)), &err);
		cr_assert_eq(st, RPB_OK, "delete names %s: %s (%s)", key, rpb_status_name(st), err.msg);
		cr_assert_eq(s.b->commit(s.s, &err), RPB_OK, "%s", err.msg);
		e2e_store_close(&s);
		return;
	}
	char sql[512], db[E2E_PATH + 32];
	struct e2e_args a = {0};
	snprintf(sql, sizeof sql, "DELETE FROM names WHERE k = CAST('%s' AS BLOB); SELECT changes();", key);
	snprintf(db, sizeof db, "%s/rpbench.sqlite", e->store);
	e2e_args_add(&a, "sqlite3", "-bail", db, sql, NULL);
	cr_assert_eq(e2e_query_count(e, &a), 1, "%s deleted no names entry %s", e->backend, key);
}

static void t_metadata_run_verify(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	run_ci(&e, e.out, 0, NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "manifest.pattern"), "metadata");
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "completed");
	cr_assert_eq(e2e_jint(r, "totals.acked"), 2 * CI_OPS);
	e2e_verify_clean(&e, e.out, CI_ENTRIES);

	tamper(&e, e2e_jstr(r, "manifest.run_tag"));
	char *got = e2e_verify(&e, e.out, EXIT_VERIFY);
	cr_assert(strstr(got, "1 missing"), "a deleted names entry must be missing: %s", got);
	cr_assert(strstr(got, "first problem: /tmp/tachyon-perf-workspace/" NODE "/1.7 "),
		  "the first problem names the entry: %s", got);
	free(got);
	json_decref(r);
	e2e_env_fini(&e);
}

#define T(backend, name) \
	Test(e2e_##backend, name, .fini = e2e_cleanup) { t_##name(#backend); }

#ifdef RPB_HAVE_LEVELDB
T(leveldb, metadata_run_verify)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, metadata_run_verify)
#endif
#define RUN_VERIFY(b) T(b, metadata_run_verify)
RPBT_EACH_SERVER(RUN_VERIFY)

Test(e2e_null, metadata_completes, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	run_ci(&e, e.out, 0, NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_eq(e2e_jint(r, "totals.acked"), 2 * CI_OPS,
		     "on a store that keeps nothing every operation still succeeds");
	json_decref(r);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_SQLITE

/* ---- the cycle and the client rotation, from trace.csv ---- */

/* The seed's example for Y = 3: client tfs-N and the operation, in order. */
static const struct {
	unsigned client;
	const char *op;
} seed_example[] = {
	{0, "mkdir"}, {1, "getFileId"}, {2, "rename"}, {0, "delete"}, {1, "mkdir"}, {2, "getFileId"},
};

Test(e2e_sqlite, metadata_trace_order, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	run_ci(&e, e.out, 0, "--set", "trace=on", NULL);
	json_t *r = e2e_result(e.out);
	const char *tag = e2e_jstr(r, "manifest.run_tag");
	char *text = read_text(e.out, "trace.csv");
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	cr_assert_str_eq(line, "op,thread,client,operation,path,id,dest,status");
	static const char *const cycle[] = {"mkdir", "getFileId", "rename", "delete"};
	const char *target = "/tmp/tachyon-perf-workspace/" NODE "/0";
	unsigned rows = 0, thread0 = 0;
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		rows++;
		char f[8][160];
		int n = sscanf(line, "%159[^,],%159[^,],%159[^,],%159[^,],%159[^,],%159[^,],%159[^,],%159s",
			       f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]);
		if (strcmp(f[1], "0") != 0)
			continue;
		/* dest is empty except for rename: sscanf stops at the empty field. */
		unsigned i = thread0++;
		cr_assert_eq(strtoul(f[0], NULL, 10), i, "thread 0's rows are in op order: %s", line);
		cr_assert_eq(strtoul(f[2], NULL, 10), i % 3, "op %u is issued by client %u: %s", i,
			     i % 3, line);
		cr_assert_str_eq(f[3], cycle[i % 4], "op %u is %s: %s", i, cycle[i % 4], line);
		if (i < sizeof seed_example / sizeof seed_example[0]) {
			cr_assert_eq(strtoul(f[2], NULL, 10), seed_example[i].client, "%s", line);
			cr_assert_str_eq(f[3], seed_example[i].op, "%s", line);
		}
		if (i >= 12)
			continue;
		char want_path[128], want_id[128];
		snprintf(want_path, sizeof want_path, "%s%s", target, i % 4 == 3 ? "-" : "");
		cr_assert_str_eq(f[4], want_path, "%s", line);
		/* mkdir makes the id from the thread's counter (preload 50 first);
		 * getFileId finds it; rename and delete act on it. */
		snprintf(want_id, sizeof want_id, "%s:" NODE ":0000:%012u", tag, 50 + i / 4);
		cr_assert_str_eq(f[5], want_id, "op %u acts on the cycle's inode: %s", i, line);
		if (i % 4 == 2) {
			cr_assert_eq(n, 8, "%s", line);
			char want_dest[128];
			snprintf(want_dest, sizeof want_dest, "%s-", target);
			cr_assert_str_eq(f[6], want_dest, "rename moves the target to target-: %s", line);
			cr_assert_str_eq(f[7], "ok", "%s", line);
		} else {
			cr_assert_eq(n, 6, "only rename has a dest: %s", line);
			cr_assert_str_eq(line + strlen(line) - 4, ",,ok", "%s", line);
		}
	}
	cr_assert_eq(thread0, CI_OPS, "thread 0 traced %u of %d operations", thread0, CI_OPS);
	cr_assert_eq(rows, 2 * CI_OPS, "trace.csv has %u rows", rows);
	free(text);
	json_decref(r);
	e2e_env_fini(&e);
}

/* ---- report.txt ---- */

/* The next line of *p (NUL-terminated in place), or an assertion. */
static char *next_line(char **p, const char *what)
{
	cr_assert(**p, "report.txt ends before %s", what);
	char *line = *p, *nl = strchr(line, '\n');
	cr_assert_not_null(nl, "report.txt: unterminated line before %s", what);
	*nl = '\0';
	*p = nl + 1;
	return line;
}

static void expect_line(char **p, const char *want)
{
	char *line = next_line(p, want);
	cr_assert_str_eq(line, want, "report.txt: \"%s\", expected \"%s\"", line, want);
}

/* "<label>\t<number>" */
static double labelled(char **p, const char *label)
{
	char *line = next_line(p, label);
	size_t n = strlen(label);
	cr_assert(!strncmp(line, label, n) && line[n] == '\t', "report.txt: \"%s\", expected %s<TAB>",
		  line, label);
	char *end;
	double v = strtod(line + n + 1, &end);
	cr_assert(end != line + n + 1 && *end == '\0', "report.txt: \"%s\" is no number", line);
	return v;
}

/* The report prints 3 decimals; result.json keeps 10 significant digits. */
static void assert_near(double got, double want, const char *what)
{
	cr_assert(fabs(got - want) <= 0.0005 + 1e-9 * fabs(want), "%s: report %.4f, recomputed %.4f",
		  what, got, want);
}

Test(e2e_sqlite, metadata_report, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	run_ci(&e, e.out, 0, NULL);
	json_t *r = e2e_result(e.out);
	char *text = read_text(e.out, "report.txt"), *p = text;

	char want[256];
	snprintf(want, sizeof want, "Connect Test - ID : %lld", (long long)e2e_jint(r, "pattern.test_id"));
	expect_line(&p, want);
	expect_line(&p, "Finished Successfully");
	cr_assert(json_is_false(json_object_get(json_object_get(r, "pattern"), "node_dropped")));
	expect_line(&p, "********** System Configuratiom **********");
	expect_line(&p, "NodeName\tCores");
	json_int_t cores = e2e_jint(r, "manifest.host.cores");
	cr_assert_eq(labelled(&p, NODE), (double)cores);
	cr_assert_eq(labelled(&p, "Total"), (double)cores);
	expect_line(&p, "********** Connect Test Settings **********");
	char *backend = next_line(&p, "the backend");
	cr_assert(!strncmp(backend, "rpbench.backend\tsqlite (SQLite ", 31), "%s", backend);
	cr_assert_eq(labelled(&p, "clients.per.thread"), 3);
	cr_assert_eq(labelled(&p, "ops.per.thread"), CI_OPS);
	cr_assert_eq(labelled(&p, "threads.num"), 2);
	expect_line(&p, "********** Metadata Operation Performace **********");
	expect_line(&p, "NodeName\tMetadataOperationPerformance(ops/sec)");

	/* tachyon-perf's node figure: the sum of the per-thread rates, each
	 * ops / the thread's own time, recomputed from result.json. */
	json_t *threads = json_object_get(r, "threads");
	cr_assert_eq(json_array_size(threads), 2);
	double rate[2], sum = 0;
	for (size_t t = 0; t < 2; t++) {
		json_t *th = json_array_get(threads, t);
		double acked = (double)json_integer_value(json_object_get(th, "acked"));
		double secs = json_number_value(json_object_get(th, "active_s"));
		cr_assert_gt(secs, 0);
		rate[t] = acked / secs;
		assert_near(json_number_value(json_object_get(th, "ops_per_s")), rate[t], "ops_per_s");
		sum += rate[t];
	}
	double node = labelled(&p, NODE);
	assert_near(node, sum, "node figure = sum of per-thread rates");
	assert_near(labelled(&p, "Total"), sum, "Total");
	expect_line(&p, "********** Node Details **********");
	expect_line(&p, NODE "'s metadata operation performance(ops/sec) for each threads:");
	char *details = next_line(&p, "the per-thread rates");
	double d0, d1;
	int used = 0;
	cr_assert_eq(sscanf(details, "\t[ %lf ][ %lf ]%n", &d0, &d1, &used), 2, "\"%s\"", details);
	cr_assert_eq((size_t)used, strlen(details), "\"%s\" holds more than two brackets", details);
	assert_near(d0, rate[0], "thread 0");
	assert_near(d1, rate[1], "thread 1");

	/* The additions: the honest aggregate, total ops / wall time. It can
	 * only be lower: each thread's own time lies within the wall time. */
	char *add = next_line(&p, "the additions");
	cr_assert(!strncmp(add, "********** Additions", 20), "%s", add);
	while (strncmp(p, "Total operations\t", 17) != 0)
		next_line(&p, "Total operations");
	json_int_t acked = e2e_jint(r, "totals.acked");
	cr_assert_eq(labelled(&p, "Total operations"), (double)acked);
	double elapsed = json_number_value(json_object_get(json_object_get(r, "totals"), "elapsed_s"));
	assert_near(labelled(&p, "Wall time(sec)"), elapsed, "wall time");
	double wall = labelled(&p, "Total ops / wall time(ops/sec)");
	assert_near(wall, (double)acked / elapsed, "total ops / wall time");
	cr_assert_leq(wall, node + 0.001, "total ops / wall time %.3f exceeds the sum of the "
					  "per-thread rates %.3f",
		      wall, node);

	while (strncmp(p, "Latency(us)\t", 12) != 0)
		next_line(&p, "the latency table");
	next_line(&p, "the latency header");
	static const char *const ops[] = {"mkdir", "getFileId", "rename", "delete"};
	for (int k = 0; k < 4; k++) {
		char *row = next_line(&p, ops[k]);
		size_t n = strlen(ops[k]);
		cr_assert(!strncmp(row, ops[k], n) && row[n] == '\t', "\"%s\", expected %s", row, ops[k]);
		char path[64];
		snprintf(path, sizeof path, "labels.%s.measured", ops[k]);
		cr_assert_eq(strtoll(row + n + 1, NULL, 10), e2e_jint(r, path), "%s samples", ops[k]);
	}
	cr_assert_str_empty(p, "report.txt goes on after the latency table: %s", p);
	free(text);
	json_decref(r);
	e2e_env_fini(&e);
}
#endif

#ifdef RPB_HAVE_LEVELDB

/* ---- a failure ends its thread only ---- */

Test(e2e_leveldb, metadata_failure_ends_thread, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	/* Thread 0's 1000th operation (index 999, a delete) fails. */
	run_ci(&e, e.out, EXIT_STOPPED, "--set", "inject_failure_at=1000", NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "error");
	cr_assert_eq(e2e_jint(r, "stop.thread"), 0);
	cr_assert_eq(e2e_jint(r, "stop.op"), 999);
	json_t *workers = json_object_get(json_object_get(r, "ledger"), "workers");
	json_t *w0 = json_array_get(workers, 0), *w1 = json_array_get(workers, 1);
	cr_assert_eq(json_integer_value(json_object_get(w0, "issued")), 1000, "thread 0 ended");
	cr_assert_eq(json_integer_value(json_object_get(w0, "acked")), 999);
	cr_assert_eq(json_array_size(json_object_get(w0, "failures")), 1);
	cr_assert_eq(json_integer_value(json_object_get(w1, "acked")), CI_OPS,
		     "the other thread completes");
	json_t *failed = json_object_get(json_object_get(r, "pattern"), "failed_threads");
	cr_assert_eq(json_array_size(failed), 1, "result.json names the failed thread");
	/* tachyon-perf drops the whole node: no node figure, the threads' own
	 * figures kept in result.json beside the mark. */
	cr_assert(json_is_true(json_object_get(json_object_get(r, "pattern"), "node_dropped")));
	cr_assert_eq(json_number_value(json_object_get(json_object_get(r, "pattern"),
						       "node_ops_per_s")), 0.0);
	json_t *rates = json_object_get(json_object_get(r, "pattern"), "thread_ops_per_s");
	cr_assert_eq(json_array_size(rates), 2);
	cr_assert_gt(json_number_value(json_array_get(rates, 0)), 0, "the failed thread's own rate");
	cr_assert_gt(json_number_value(json_array_get(rates, 1)), 0);

	char *text = read_text(e.out, "report.txt");
	char *l2 = strchr(text, '\n') + 1;
	cr_assert(!strncmp(l2, "Failed: 1 nodes failed ( " NODE " )\n", strlen(NODE) + 28),
		  "line 2, ConnectTotalReport's: %.80s", l2);
	cr_assert(strstr(text, "\n" NODE "\t0.000\nTotal\t0.000\n"), "no node figure: %s", text);
	cr_assert(strstr(text, "for each threads:\n\t\n"), "no per-thread figures there: %s", text);
	char *why = strstr(text, "\nFailed: " NODE " thread 0, operation 1000 of 2001 (delete): io: ");
	cr_assert(why, "the additions name the failed thread: %s", text);
	cr_assert(strstr(why, "injected failure"), "%s", why);
	cr_assert(strstr(text, "\nDropped node " NODE "'s per-thread rates(ops/sec)\t[ "), "%s", text);
	free(text);

	/* Thread 0 stopped after its rename: <target>- is there, <target> not. */
	e2e_verify_clean(&e, e.out, CI_ENTRIES);
	json_decref(r);
	e2e_env_fini(&e);
}

/* on_error = continue overrides: the thread goes on. The delete that failed
 * leaves 0- behind, so every later rename of thread 0 fails (file exists),
 * and verify follows all of that. */
Test(e2e_leveldb, metadata_failure_continue, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "leveldb");
	run_ci(&e, e.out, 0, "--set", "inject_failure_at=1000", "--set", "on_error=continue", NULL);
	json_t *r = e2e_result(e.out);
	json_t *w0 = json_array_get(json_object_get(json_object_get(r, "ledger"), "workers"), 0);
	cr_assert_eq(json_integer_value(json_object_get(w0, "issued")), CI_OPS);
	size_t failures = json_array_size(json_object_get(w0, "failures"));
	cr_assert_eq(failures, 1 + (CI_OPS - 1000) / 4,
		     "the injected delete, then every later rename: %zu failures", failures);
	cr_assert_eq(e2e_jint(r, "errors.exists.count"), (json_int_t)failures - 1);
	char *text = read_text(e.out, "report.txt");
	cr_assert(strstr(text, "\nFinished Successfully\n"), "%s", text);
	free(text);
	e2e_verify_clean(&e, e.out, CI_ENTRIES + 1);
	json_decref(r);
	e2e_env_fini(&e);
}
#endif
