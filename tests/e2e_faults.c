/* End-to-end failure modes through the real rpbench-<backend> binaries: the
 * transaction reaper (txn_timeout) against injected stalls and lock waits,
 * the error policies (stop, continue, retry:N) for timeouts, conflicts and
 * a full disk, a run killed with SIGKILL and verified against its live
 * ledger, and a PostgreSQL server killed under a run. Every run must leave
 * complete results and a store that verify finds exactly as acknowledged.
 * Suites are named faults_<backend>. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends.h"
#include "e2e_util.h"
#include "ledger.h"

enum {
	EXIT_OK = 0,
	EXIT_USAGE = 1,
	EXIT_STOPPED = 3,
	EXIT_VERIFY = 4,
	EXIT_KILLED = 128 + SIGKILL,
};

/* A private server of this test, started by its backend's throwaway-server
 * script (start, stop, restart), stopped and removed by .fini. */
static char private_pg[E2E_PATH], private_cap[300], private_script[E2E_PATH];

static void private_server_remove(void)
{
	if (private_pg[0]) {
		struct e2e_args a = {0};
		e2e_args_add(&a, private_script, "stop", private_pg, NULL);
		struct e2e_proc p;
		e2e_exec(&p, private_cap, &a);
		e2e_proc_free(&p);
		rpbt_rmtree(private_pg); /* a start that failed before its marker */
		private_pg[0] = '\0';
	}
}

static void faults_fini(void)
{
	e2e_kill_children(); /* a run still going, before its server goes */
	private_server_remove();
	e2e_cleanup();
}

/* ---- runs and their results ---- */

/* Runs ci-ingest into e->out with one --set per "key=value" (up to NULL),
 * asserts the exit code, a quiet stderr and the result files; returns
 * result.json. */
static json_t *run_ci(const struct e2e_env *e, int want, ...) __attribute__((sentinel));
static json_t *run_ci(const struct e2e_env *e, int want, ...)
{
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_CI_INGEST, e->out);
	va_list ap;
	va_start(ap, want);
	e2e_args_setv(&a, ap);
	va_end(ap);
	free(e2e_exec_expect(e->cap, &a, want));
	const char *files[] = {"summary.txt", "result.json", "intervals.csv", RPB_LEDGER_FILE,
			       RPB_FAILURES_FILE};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[E2E_PATH + 32];
		snprintf(path, sizeof path, "%s/%s", e->out, files[i]);
		cr_assert(e2e_exists(path), "the run (exit %d) wrote no %s", want, path);
	}
	return e2e_result(e->out);
}

/* summary.txt: the Err count of its summariser line, and its Status line,
 * which must equal result.json's status. */
static json_int_t summary_err(const struct e2e_env *e, json_t *r, char *status, size_t n)
{
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/summary.txt", e->out);
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "cannot read %s", path);
	const char *err = strstr(text, " Err: ");
	cr_assert_not_null(err, "%s has no Err count:\n%s", path, text);
	json_int_t errs = strtoll(err + 6, NULL, 10);
	const char *st = strstr(text, "\nStatus: ");
	cr_assert_not_null(st, "%s has no Status line:\n%s", path, text);
	st += 9;
	snprintf(status, n, "%.*s", (int)strcspn(st, "\n"), st);
	cr_assert_str_eq(status, e2e_jstr(r, "status"), "%s's Status line differs from result.json",
			 path);
	free(text);
	return errs;
}

static void assert_stop(json_t *r, const char *reason, const char *cls)
{
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), reason, "stop.reason; status: %s",
			 e2e_jstr(r, "status"));
	if (cls)
		cr_assert_str_eq(e2e_jstr(r, "stop.class"), cls, "stop.class; status: %s",
				 e2e_jstr(r, "status"));
}

/* errors.<class>.count; 0 when the class is absent. */
static json_int_t class_count(json_t *r, const char *cls)
{
	json_t *c = json_object_get(json_object_get(r, "errors"), cls);
	if (!c)
		return 0;
	json_t *v = json_object_get(c, "count");
	cr_assert(json_is_integer(v), "result.json errors.%s.count is not an integer", cls);
	return json_integer_value(v);
}

/* The sum of one integer field over threads[]. */
static json_int_t threads_sum(json_t *r, const char *field)
{
	json_t *th = json_object_get(r, "threads"), *t;
	size_t i;
	json_int_t sum = 0;
	cr_assert(json_is_array(th), "result.json has no threads array");
	json_array_foreach(th, i, t) {
		json_t *v = json_object_get(t, field);
		cr_assert(json_is_integer(v), "threads[%zu].%s is not an integer", i, field);
		sum += json_integer_value(v);
	}
	return sum;
}

/* How many failed operations the ledger of result.json records. */
static json_int_t ledger_failures(json_t *r)
{
	json_t *ws = json_object_get(json_object_get(r, "ledger"), "workers"), *w;
	size_t i;
	json_int_t n = 0;
	cr_assert(json_is_array(ws), "result.json has no ledger.workers");
	json_array_foreach(ws, i, w)
		n += (json_int_t)json_array_size(json_object_get(w, "failures"));
	return n;
}

/* Verify finds nothing missing, corrupt or unexpected; returns the number
 * of acknowledged objects it checked. */
static long long verify_clean(const struct e2e_env *e)
{
	char *text = e2e_verify(e, e->out, EXIT_OK);
	long long n = -1;
	int used = 0;
	int got = sscanf(text, "verified %lld objects: 0 missing, 0 corrupt, 0 unexpected%n", &n, &used);
	cr_assert(got == 1 && used > 0, "verify printed \"%s\", expected \"verified N objects: 0 "
		  "missing, 0 corrupt, 0 unexpected\"", text);
	free(text);
	return n;
}

/* ---- the store itself ---- */

/* The store's count of objects whose key starts with prefix. */
static long long store_count(const struct e2e_env *e, const char *prefix)
{
	struct e2e_store s;
	e2e_env_store_open(&s, e);
	long long n = (long long)e2e_scan_prefix(&s, RPB_T_OBJECTS, prefix, NULL, NULL);
	e2e_store_close(&s);
	return n;
}

/* Deletes one object's content and description behind rpbench's back. */
static void store_delete(const struct e2e_env *e, const char *key)
{
	struct e2e_store s;
	e2e_env_store_open(&s, e);
	struct rpb_err err = {0};
	rpb_slice k = rpb_slice_make(key, strlen(key));
	enum rpb_status st = s.b->begin(s.s, RPB_TXN_WRITE, &err);
	if (!st)
		st = s.b->del(s.s, RPB_T_OBJECTS, k, &err);
	if (!st)
		st = s.b->del(s.s, RPB_T_DESCRIPTIONS, k, &err);
	if (!st)
		st = s.b->commit(s.s, &err);
	cr_assert_eq(st, RPB_OK, "deleting %s from the %s store: %s", key, e->backend, err.msg);
	e2e_store_close(&s);
}

/* "o/<run tag>/": the prefix of every object key of the run. */
static void object_prefix(json_t *r, char *buf, size_t n)
{
	snprintf(buf, n, "o/%s/", e2e_jstr(r, "manifest.run_tag"));
}

/* The store holds exactly the acknowledged objects, and verify agrees. */
static void assert_store_is_acked(const struct e2e_env *e, json_t *r)
{
	json_int_t acked = e2e_jint(r, "totals.acked");
	long long n = verify_clean(e);
	cr_assert_eq(n, acked, "verify checked %lld objects, result.json acked %lld", n,
		     (long long)acked);
	char prefix[32];
	object_prefix(r, prefix, sizeof prefix);
	long long held = store_count(e, prefix);
	cr_assert_eq(held, acked, "the %s store holds %lld objects of the run, result.json acked "
		     "%lld: a failed operation left something visible", e->backend, held,
		     (long long)acked);
}

/* ---- timing of the faults ---- */

/* The reaper tests' txn_timeout: far longer than a healthy transaction
 * takes, even in a sanitizer build on a loaded machine (it scales like
 * every limit), and short enough to keep the tests quick. The faults
 * themselves do not race the reaper: a stall lasts until the reaper has
 * interrupted its transaction, a lock is held until the run stops. */
#define REAP_BASE_MS 1000.0
#define UNTIL_REAPED "3600000" /* ms: a stall or lock only the reaper or the stop ends */

static unsigned reap_ms(void)
{
	return (unsigned)rpbt_limit_s(REAP_BASE_MS);
}

/* "txn_timeout=<reap_ms>" */
static const char *reap_set(char *buf, size_t n)
{
	snprintf(buf, n, "txn_timeout=%u", reap_ms());
	return buf;
}

/* ---- 1. the reaper stops the run ---- */

/* Every 10th op stalls (stall) or meets another session's lock (lock) until
 * the reaper interrupts it. SQLite runs one thread: its single writer
 * would make the other thread time out waiting, at an op of its own; its
 * busy_timeout is the longest, so only the reaper ends a wait for the lock. */
static void t_timeout_stop(const char *backend, const char *kind)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	char inject[64], reap[64];
	snprintf(inject, sizeof inject, "inject=%s:" UNTIL_REAPED "@10", kind);
	bool sqlite = !strcmp(backend, "sqlite");
	json_t *r = run_ci(&e, EXIT_STOPPED, "ops=20", reap_set(reap, sizeof reap), inject,
			   sqlite ? "threads=1" : NULL, sqlite ? "sqlite.busy_timeout=" UNTIL_REAPED : NULL,
			   NULL);
	assert_stop(r, "error", "txn-timeout");
	cr_assert_eq(e2e_jint(r, "stop.op"), 9, "the stalled op is op 9 of its thread");
	char status[2048], want[128];
	json_int_t errs = summary_err(&e, r, status, sizeof status);
	snprintf(want, sizeof want,
		 "Test ended when the transaction reaper aborted a transaction after %u ms (create 10 "
		 "of thread ", reap_ms());
	cr_assert(strstr(status, want), "status: %s", status);
	cr_assert(strstr(status, "the reaper interrupted a transaction open for "), "status: %s",
		  status);
	cr_assert_geq(errs, 1, "summary Err: %lld", (long long)errs);
	cr_assert_geq(e2e_jint(r, "totals.reaped_txns"), 1);
	cr_assert_geq(class_count(r, "txn-timeout"), 1);
	if (!strcmp(backend, "postgres") && !strcmp(kind, "lock"))
		/* Blocked inside the server: the reaper's cancel request ended it. */
		cr_assert_str_eq(e2e_jstr(r, "stop.sqlstate"), "57014", "status: %s", status);
	assert_store_is_acked(&e, r);
	json_decref(r);
	e2e_env_fini(&e);
}

/* ---- 2. continue: every stalled op fails, the rest goes on ---- */

static void t_timeout_continue(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	bool one = !strcmp(backend, "sqlite");
	char reap[64];
	json_t *r = run_ci(&e, EXIT_OK, "ops=20", reap_set(reap, sizeof reap),
			   "inject=stall:" UNTIL_REAPED "@10", "on_error.txn-timeout=continue",
			   one ? "threads=1" : NULL, NULL);
	assert_stop(r, "completed", NULL);
	json_int_t threads = one ? 1 : 2, stalled = threads * (20 / 10);
	cr_assert_eq(class_count(r, "txn-timeout"), stalled, "errors.txn-timeout.count");
	cr_assert_eq(e2e_jint(r, "totals.reaped_txns"), stalled);
	cr_assert_eq(e2e_jint(r, "totals.acked"), threads * 20 - stalled);
	cr_assert_eq(ledger_failures(r), stalled, "the ledger records each stalled op as failed");
	assert_store_is_acked(&e, r);
	json_decref(r);
	e2e_env_fini(&e);
}

/* ---- 3. retry:2: the same op stalls on every attempt ---- */

static void t_timeout_retry(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	char reap[64];
	/* One thread: another would see the stop before its last attempt. */
	json_t *r = run_ci(&e, EXIT_STOPPED, "ops=10", "threads=1", reap_set(reap, sizeof reap),
			   "inject=stall:" UNTIL_REAPED "@5", "on_error.txn-timeout=retry:2", NULL);
	assert_stop(r, "error", "txn-timeout");
	cr_assert_eq(e2e_jint(r, "stop.op"), 4, "op 4 stalls first");
	cr_assert_eq(threads_sum(r, "retries"), 2, "1 stalled op x 2 retries");
	cr_assert_eq(class_count(r, "txn-timeout"), 3, "three attempts, three failed samples");
	cr_assert_eq(e2e_jint(r, "totals.reaped_txns"), 3);
	cr_assert_eq(e2e_jint(r, "totals.acked"), 4);
	assert_store_is_acked(&e, r);
	json_decref(r);
	e2e_env_fini(&e);
}

/* ---- 4. lock conflicts: retry outlasts the lock, stop ends the run ---- */

/* Each backend's short lock wait and the class a wait that runs out has
 * (docs/backends.md): SQLite busy_timeout = 50 ms and PostgreSQL
 * lock_timeout = 50 ms (SQLSTATE 55P03) are conflicts; MariaDB's shortest
 * innodb_lock_wait_timeout, 1 s, is txn-timeout (error 1205). The
 * injected lock is held until the run stops where one failure ends the
 * run; where the run goes on, for hold_ms (scaled), five waits and at least
 * a second: long enough that the worker, woken once the lock is taken,
 * surely meets it and its wait runs out, and retry:N outlasts it ten times
 * over. */
static char lock_dsn[1024];

struct lock_wait {
	const char *opt;    /* --set of the short wait, NULL: in the DSN */
	const char *cls;    /* the class of a wait that ran out */
	const char *status; /* summary.txt's Status when it ends the run */
	unsigned wait_ms, hold_ms;
};

static struct lock_wait conflict_env(struct e2e_env *e, const char *backend)
{
	e2e_env_init(e, backend);
	if (!strcmp(backend, "mariadb"))
		return (struct lock_wait){"mariadb.innodb_lock_wait_timeout=1", "txn-timeout",
					  "Test ended when the store timed a transaction out", 1000, 5000};
	static const char conflicted[] = "Test ended on a failed sample (conflict)";
	if (e->server) {
		snprintf(lock_dsn, sizeof lock_dsn, "%s options='-c lock_timeout=50'", e->dsn);
		e->dsn = lock_dsn;
		return (struct lock_wait){NULL, "conflict", conflicted, 50, 1000};
	}
	return (struct lock_wait){"sqlite.busy_timeout=50", "conflict", conflicted, 50, 1000};
}

/* "inject=lock:<held>@10" with the scaled hold. */
static const char *held_lock(char *buf, size_t n, const struct lock_wait *w)
{
	snprintf(buf, n, "inject=lock:%u@10", (unsigned)rpbt_limit_s(w->hold_ms));
	return buf;
}

static void t_conflict_retry(const char *backend)
{
	struct e2e_env e;
	struct lock_wait w = conflict_env(&e, backend);
	char lock[64], retry[64];
	unsigned tries = (unsigned)(10 * rpbt_limit_s(w.hold_ms) / w.wait_ms);
	snprintf(retry, sizeof retry, "on_error.%s=retry:%u", w.cls, tries);
	json_t *r = run_ci(&e, EXIT_OK, "ops=10", held_lock(lock, sizeof lock, &w), retry, w.opt, NULL);
	assert_stop(r, "completed", NULL);
	json_int_t retries = threads_sum(r, "retries");
	cr_assert_gt(retries, 0, "the lock was never met");
	cr_assert_eq(class_count(r, w.cls), retries,
		     "every failed attempt was retried: none left failed");
	cr_assert_eq(ledger_failures(r), 0);
	cr_assert_eq(e2e_jint(r, "totals.acked"), 20);
	assert_store_is_acked(&e, r);
	json_decref(r);
	e2e_env_fini(&e);
}

static void t_conflict_stop(const char *backend)
{
	struct e2e_env e;
	struct lock_wait w = conflict_env(&e, backend);
	json_t *r = run_ci(&e, EXIT_STOPPED, "ops=10", "inject=lock:" UNTIL_REAPED "@10", w.opt, NULL);
	assert_stop(r, "error", w.cls);
	if (!strcmp(backend, "postgres"))
		cr_assert_str_eq(e2e_jstr(r, "stop.sqlstate"), "55P03");
	char status[2048];
	summary_err(&e, r, status, sizeof status);
	cr_assert(strstr(status, w.status), "status: %s", status);
	assert_store_is_acked(&e, r);
	json_decref(r);
	e2e_env_fini(&e);
}

/* Row locks: only the locked op conflicts, each once. */
static void t_conflict_continue(const char *backend)
{
	struct e2e_env e;
	struct lock_wait w = conflict_env(&e, backend);
	char lock[64], cont[64];
	snprintf(cont, sizeof cont, "on_error.%s=continue", w.cls);
	json_t *r = run_ci(&e, EXIT_OK, "ops=10", held_lock(lock, sizeof lock, &w), cont, w.opt, NULL);
	assert_stop(r, "completed", NULL);
	json_int_t stalled = 2 * (10 / 10);
	cr_assert_eq(class_count(r, w.cls), stalled, "errors.%s.count", w.cls);
	cr_assert_eq(e2e_jint(r, "totals.acked"), 20 - stalled);
	cr_assert_eq(ledger_failures(r), stalled);
	assert_store_is_acked(&e, r);
	json_decref(r);
	e2e_env_fini(&e);
}

/* ---- 5. a full disk, as a page quota ---- */

static void t_disk_full_continue(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	/* 400 creates of up to 4 KiB do not fit into 64 pages; no probes run. */
	json_t *r = run_ci(&e, EXIT_OK, "ops=200", "sqlite.max_pages=64",
			   "on_error.disk-full=continue", NULL);
	assert_stop(r, "completed", NULL);
	json_int_t full = class_count(r, "disk-full"), acked = e2e_jint(r, "totals.acked");
	cr_assert_gt(full, 0, "64 pages held all 400 creates");
	cr_assert_gt(acked, 0);
	cr_assert_eq(acked + full, 2 * 200, "acked %lld + disk-full %lld", (long long)acked,
		     (long long)full);
	cr_assert_eq(ledger_failures(r), full);
	assert_store_is_acked(&e, r);
	json_decref(r);
	e2e_env_fini(&e);
}

static void t_disk_full_stop(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	json_t *r = run_ci(&e, EXIT_STOPPED, "ops=200", "sqlite.max_pages=64", NULL);
	assert_stop(r, "error", "disk-full");
	char status[2048];
	summary_err(&e, r, status, sizeof status);
	cr_assert(strstr(status, "Test ended when the store reported disk full after "), "status: %s",
		  status);
	assert_store_is_acked(&e, r);
	json_decref(r);
	e2e_env_fini(&e);
}

/* ---- runs killed mid-way ---- */


/* ---- 6. SIGKILL: verify checks the killed run against its live ledger ---- */

static void t_sigkill(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	struct e2e_proc p;
	/* probe_every = 7: a probe sequence is often in flight at the kill. */
	e2e_spawn_ingest_until(&p, &e, 60, "probe_every=7", NULL);
	cr_assert_eq(kill(p.pid, SIGKILL), 0);
	e2e_wait(&p);
	e2e_assert_code(&p, EXIT_KILLED);
	e2e_assert_quiet(&p);
	e2e_proc_free(&p);

	json_t *r = e2e_result(e.out);
	const char *status = e2e_jstr(r, "status");
	cr_assert(!strncmp(status, "running", 7), "a killed run's result.json says \"%s\"", status);
	struct e2e_ledger lv;
	cr_assert(e2e_ledger_read(e.out, &lv), "%s/%s is unreadable", e.out, RPB_LEDGER_FILE);
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/%s", e.out, RPB_FAILURES_FILE);
	char *failures = e2e_slurp(path, NULL);
	cr_assert_not_null(failures, "the killed run left no %s", path);
	cr_assert_str_empty(failures, "no operation of this run should have failed");
	free(failures);
	unsigned doubt = 0;
	for (unsigned t = 0; t < lv.n; t++) {
		cr_assert_leq(lv.finished[t], lv.started[t]);
		cr_assert_leq(lv.started[t] - lv.finished[t], 1, "thread %u", t);
		doubt += lv.started[t] > lv.finished[t];
	}

	char *text = e2e_verify(&e, e.out, EXIT_OK);
	long long n = -1;
	int used = 0;
	sscanf(text, "verified %lld objects: 0 missing, 0 corrupt, 0 unexpected%n", &n, &used);
	cr_assert_gt(used, 0, "verify of the killed run printed \"%s\"", text);
	cr_assert_eq((uint64_t)n, e2e_ledger_finished(&lv),
		     "verify checked %lld objects, the ledger says %llu finished: %s", n,
		     (unsigned long long)e2e_ledger_finished(&lv), text);
	if (doubt) {
		char want[64];
		snprintf(want, sizeof want, " (%u in doubt: ", doubt);
		cr_assert(strstr(text, want), "%u operations were running at the kill: %s", doubt, text);
	}
	cr_assert(strstr(text, "\nnote: the run did not finish; checked against its live ledger "
			       "(ledger.bin)\n"),
		  "verify of a killed run: %s", text);
	free(text);

	/* The store holds the acknowledged objects plus, perhaps, those in doubt. */
	char prefix[32];
	object_prefix(r, prefix, sizeof prefix);
	long long held = store_count(&e, prefix);
	cr_assert(held >= n && held <= n + doubt, "the store holds %lld objects: %lld acknowledged, "
		  "%u in doubt", held, n, doubt);

	/* Verify can fail: take one acknowledged object away (op 0 of a thread
	 * that finished one; SQLite's lock may have kept a thread waiting). */
	unsigned t = 0;
	while (t < lv.n && lv.finished[t] == 0)
		t++;
	cr_assert_lt(t, lv.n);
	char key[64];
	snprintf(key, sizeof key, "%s%04u/000000000000", prefix, t);
	store_delete(&e, key);
	text = e2e_verify(&e, e.out, EXIT_VERIFY);
	char want[128];
	snprintf(want, sizeof want, "verified %lld objects: 1 missing, 0 corrupt, 0 unexpected", n);
	cr_assert(!strncmp(text, want, strlen(want)), "after deleting %s verify printed \"%s\", "
		  "expected \"%s\"", key, text, want);
	cr_assert(strstr(text, key), "verify should name %s: %s", key, text);
	free(text);
	json_decref(r);
	e2e_env_fini(&e);
}

/* ---- 7. the PostgreSQL server dies under the run ---- */

/* Runs the backend's throwaway-server script CMD on the private server;
 * returns its DSN line. */
static void private_server(const struct e2e_env *e, const char *cmd, char *dsn, size_t n)
{
	struct e2e_args a = {0};
	e2e_args_add(&a, private_script, cmd, private_pg, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e->cap, &a);
	e2e_assert_code(&p, 0);
	snprintf(dsn, n, "%.*s", (int)strcspn(p.out, "\n"), p.out);
	cr_assert(!strncmp(dsn, "host=", 5), "`%s` printed \"%s\", expected a DSN", p.cmd, p.out);
	e2e_proc_free(&p);
}

/* The server's pid, from the pid file its script has it write. */
static pid_t server_pid(const char *backend)
{
	char path[E2E_PATH + 32];
	snprintf(path, sizeof path, "%s/%s", private_pg,
		 !strcmp(backend, "postgres") ? "data/postmaster.pid" : "mariadbd.pid");
	char *text = e2e_slurp(path, NULL);
	cr_assert_not_null(text, "cannot read %s", path);
	long pid = strtol(text, NULL, 10);
	free(text);
	cr_assert_gt(pid, 1, "%s names no pid", path);
	return (pid_t)pid;
}

static void t_server_lost(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	snprintf(private_cap, sizeof private_cap, "%s", e.cap);
	const char *script = rpb_backend_server_script(backend);
	cr_assert_not_null(script, "%s names no throwaway-server script", backend);
	snprintf(private_script, sizeof private_script, "%s/%s", RPB_SOURCE_DIR, script);
	rpbt_tmpdir(private_pg, sizeof private_pg, "srk");
	char dsn[E2E_PATH + 64];
	private_server(&e, "start", dsn, sizeof dsn);
	e.dsn = dsn;

	struct e2e_proc p;
	e2e_spawn_ingest_until(&p, &e, 40, NULL);
	cr_assert_eq(kill(server_pid(backend), SIGKILL), 0);
	e2e_wait(&p);
	e2e_assert_code(&p, EXIT_STOPPED);
	e2e_assert_quiet(&p);
	e2e_proc_free(&p);
	const char *files[] = {"summary.txt", "result.json", "intervals.csv"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[E2E_PATH + 32];
		snprintf(path, sizeof path, "%s/%s", e.out, files[i]);
		cr_assert(e2e_exists(path), "the run that lost its server wrote no %s", path);
	}
	json_t *r = e2e_result(e.out);
	assert_stop(r, "error", "conn-lost");
	char status[2048];
	summary_err(&e, r, status, sizeof status);
	cr_assert(strstr(status, "Test ended when the connection to the server was lost after "),
		  "status: %s", status);
	cr_assert_gt(e2e_jint(r, "totals.acked"), 0);
	cr_assert(json_is_object(json_object_get(r, "ledger")), "result.json is complete: no ledger");

	/* Crash recovery keeps every commit the run was told of (sync = commit). */
	char again[E2E_PATH + 64];
	private_server(&e, "restart", again, sizeof again);
	cr_assert_str_eq(again, dsn);
	long long n = verify_clean(&e);
	cr_assert_eq(n, e2e_jint(r, "totals.acked"));
	json_decref(r);
	private_server_remove();
	e2e_env_fini(&e);
}

/* ---- 8. inject = lock needs a backend with lock waits ---- */

static void t_lock_refused(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_CI_INGEST, e.out);
	e2e_args_add(&a, "--set", "inject=lock:100@10", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, EXIT_USAGE, "inject = lock", "sqlite", "postgres", "stall", NULL);
	cr_assert(!e2e_exists(e.out), "`%s` was refused but created %s", p.cmd, e.out);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* ---- the suites ---- */

#define T(backend, name, body) \
	Test(faults_##backend, name, .fini = faults_fini) { body; }

#ifdef RPB_HAVE_LEVELDB
T(leveldb, timeout_stall_stop, t_timeout_stop("leveldb", "stall"))
T(leveldb, timeout_stall_continue, t_timeout_continue("leveldb"))
T(leveldb, timeout_stall_retry, t_timeout_retry("leveldb"))
T(leveldb, sigkill, t_sigkill("leveldb"))
T(leveldb, lock_refused, t_lock_refused("leveldb"))
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite, timeout_stall_stop, t_timeout_stop("sqlite", "stall"))
T(sqlite, timeout_lock_stop, t_timeout_stop("sqlite", "lock"))
T(sqlite, timeout_stall_continue, t_timeout_continue("sqlite"))
T(sqlite, timeout_stall_retry, t_timeout_retry("sqlite"))
T(sqlite, conflict_retry, t_conflict_retry("sqlite"))
T(sqlite, conflict_stop, t_conflict_stop("sqlite"))
T(sqlite, disk_full_continue, t_disk_full_continue("sqlite"))
T(sqlite, disk_full_stop, t_disk_full_stop("sqlite"))
T(sqlite, sigkill, t_sigkill("sqlite"))
#endif
#define SERVER_TESTS(b) \
	T(b, timeout_stall_stop, t_timeout_stop(#b, "stall")) \
	T(b, timeout_lock_stop, t_timeout_stop(#b, "lock")) \
	T(b, timeout_stall_continue, t_timeout_continue(#b)) \
	T(b, timeout_stall_retry, t_timeout_retry(#b)) \
	T(b, conflict_retry, t_conflict_retry(#b)) \
	T(b, conflict_stop, t_conflict_stop(#b)) \
	T(b, conflict_continue, t_conflict_continue(#b)) \
	T(b, sigkill, t_sigkill(#b)) \
	T(b, server_lost, t_server_lost(#b))
RPBT_EACH_SERVER(SERVER_TESTS)
T(null, lock_refused, t_lock_refused("null"))
