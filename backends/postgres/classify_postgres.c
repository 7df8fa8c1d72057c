/* The PostgreSQL backend: its pure SQLSTATE classifier, and native failures
 * provoked against a real server (scripts/pg-throwaway run DIR -- ...). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "postgres_backend.h"
#include "e2e_util.h"

static const struct rpb_backend *const B = &rpb_backend_postgres;

/* ---- classify_postgres: SQLSTATE -> class, no server needed ------------- */

static const struct {
	const char *state;
	bool bad;
	enum rpb_status want;
} cases[] = {
	{"53100", false, RPB_DISK_FULL},   /* disk_full */
	{"53200", false, RPB_NOMEM},       /* out_of_memory */
	{"53000", false, RPB_NOMEM},       /* insufficient_resources */
	{"57014", false, RPB_TXN_TIMEOUT}, /* query_canceled */
	{"25P03", false, RPB_TXN_TIMEOUT}, /* idle_in_transaction_session_timeout */
	{"40001", false, RPB_CONFLICT},    /* serialization_failure */
	{"40P01", false, RPB_CONFLICT},    /* deadlock_detected */
	{"55P03", false, RPB_CONFLICT},    /* lock_not_available */
	{"08006", false, RPB_CONN_LOST},   /* connection_failure */
	{"08003", false, RPB_CONN_LOST},   /* connection_does_not_exist */
	{"57P01", false, RPB_CONN_LOST},   /* admin_shutdown */
	{"57P02", false, RPB_CONN_LOST},   /* crash_shutdown */
	{"57P03", false, RPB_CONN_LOST},   /* cannot_connect_now */
	{"23505", false, RPB_EXISTS},      /* unique_violation */
	{"XX001", false, RPB_CORRUPT},     /* data_corrupted */
	{"XX002", false, RPB_CORRUPT},     /* index_corrupted */
	{"58030", false, RPB_IO},          /* io_error */
	{"22001", false, RPB_INVALID},     /* string_data_right_truncation */
	{"42P01", false, RPB_INVALID},     /* undefined_table */
	{"42501", false, RPB_INVALID},     /* insufficient_privilege */
	{"28P01", false, RPB_INVALID},     /* invalid_password */
	{"25006", false, RPB_INVALID},     /* read_only_sql_transaction */
	{"54000", false, RPB_INVALID},     /* program_limit_exceeded */
	{"P0001", false, RPB_IO},          /* raise_exception: anything else */
	{"23503", false, RPB_IO},          /* foreign_key_violation: not ours */
	{"40001", true, RPB_CONN_LOST},    /* a bad connection wins */
	{"53100", true, RPB_DISK_FULL},    /* but not over disk full: a PANIC on a full WAL disk */
	{NULL, true, RPB_CONN_LOST},
	{"", true, RPB_CONN_LOST},
	{NULL, false, RPB_IO},
	{"", false, RPB_IO},
	{"5310", false, RPB_IO}, /* malformed */
};

Test(classify_postgres, sqlstates)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum rpb_status got = rpb_postgres_classify(cases[i].state, cases[i].bad);
		cr_expect_eq(got, cases[i].want, "%s (bad=%d): got %s, want %s",
			     cases[i].state ? cases[i].state : "NULL", cases[i].bad,
			     rpb_status_name(got), rpb_status_name(cases[i].want));
	}
}

/* ---- postgres_native: against the server in RPB_TEST_PG_DSN ------------- */

static const char *test_dsn(void)
{
	const char *dsn = getenv("RPB_TEST_PG_DSN");
	cr_assert(dsn && *dsn,
		  "RPB_TEST_PG_DSN is not set; run: scripts/pg-throwaway run /tmp/pgt$$ -- "
		  "tests/rpbench-tests --filter 'postgres*/*'");
	return dsn;
}

/* A fresh schema per test (tests run in parallel processes), on dsn. */
static struct rpb_store *test_open_dsn(const char *tag, const char *dsn,
				       const struct rpb_kv *opts, size_t nopts)
{
	static char name[64];
	snprintf(name, sizeof name, "rpbt_%s_%ld", tag, (long)getpid());
	struct rpb_store_cfg cfg = {.dsn = dsn, .name = name, .sync = RPB_SYNC_COMMIT,
				    .create = true, .opts = opts, .nopts = nopts};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	enum rpb_status rc = B->open(&cfg, &st, &err);
	cr_assert_eq(rc, RPB_OK, "open: %s", err.msg);
	return st;
}

static struct rpb_store *test_open(const char *tag, const struct rpb_kv *opts, size_t nopts)
{
	return test_open_dsn(tag, test_dsn(), opts, nopts);
}

static struct rpb_session *test_session(struct rpb_store *st)
{
	struct rpb_session *s = NULL;
	struct rpb_err err = {0};
	cr_assert_eq(B->session_open(st, &s, &err), RPB_OK, "session_open: %s", err.msg);
	return s;
}

static rpb_slice S(const char *s)
{
	return rpb_slice_make(s, strlen(s));
}

Test(postgres_native, wrong_dsn_is_conn_lost_without_password)
{
	struct rpb_store_cfg cfg = {
		.dsn = "host=/nonexistent/rpb-pg-socket dbname=rpbench user=postgres password=secret",
		.name = "rpbench", .create = true};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	enum rpb_status rc = B->open(&cfg, &st, &err);
	cr_assert_eq(rc, RPB_CONN_LOST, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_assert_null(st);
	cr_expect(strstr(err.msg, "cannot connect to PostgreSQL"), "msg: %s", err.msg);
	cr_expect(strstr(err.msg, "--dsn"), "msg names no fix: %s", err.msg);
	cr_expect_null(strchr(err.msg, '\n'), "msg is not one line: %s", err.msg);
	cr_expect_null(strstr(err.msg, "secret"), "msg leaks the password: %s", err.msg);

	/* A malformed string that would echo the secret back. */
	cfg.dsn = "host=/nonexistent dbname=rpbench passwordsecret";
	rc = B->open(&cfg, &st, &err);
	cr_assert_eq(rc, RPB_CONN_LOST, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_expect_null(strstr(err.msg, "secret"), "msg leaks the password: %s", err.msg);
	cfg.dsn = "postgresql://postgres:secret@/rpbench?host=/nonexistent";
	rc = B->open(&cfg, &st, &err);
	cr_assert_eq(rc, RPB_CONN_LOST, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_expect_null(strstr(err.msg, "secret"), "msg leaks the password: %s", err.msg);
}

Test(postgres_native, missing_schema_without_create)
{
	struct rpb_store_cfg cfg = {.dsn = test_dsn(), .name = "rpbt_never_created"};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	enum rpb_status rc = B->open(&cfg, &st, &err);
	cr_assert_eq(rc, RPB_INVALID, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_expect(strstr(err.msg, "rpbt_never_created") && strstr(err.msg, "create"), "msg: %s",
		  err.msg);
}

Test(postgres_native, unknown_option)
{
	struct rpb_kv opts[] = {{"fetch_rowz", "5"}};
	struct rpb_store_cfg cfg = {.dsn = test_dsn(), .name = "x", .opts = opts, .nopts = 1};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	cr_expect_eq(B->open(&cfg, &st, &err), RPB_INVALID, "%s", err.msg);
}

struct collect {
	char keys[64][8];
	size_t n, stop_at;
};

static int collect_fn(void *ctx, rpb_slice k, rpb_slice v)
{
	struct collect *c = ctx;
	(void)v;
	snprintf(c->keys[c->n], sizeof c->keys[0], "%.*s", (int)k.len, (const char *)k.data);
	return ++c->n == c->stop_at;
}

/* Keys "k00".."k19" in a table with 3-row scan chunks. */
Test(postgres_native, ops_and_chunked_scan)
{
	struct rpb_kv opts[] = {{"fetch_rows", "3"}};
	struct rpb_store *st = test_open("ops", opts, 1);
	struct rpb_session *s = test_session(st);
	struct rpb_err err = {0};
	struct rpb_buf buf = {0};
	char k[8];

	cr_assert_eq(B->put(s, RPB_T_RAW, S("k"), S("v"), &err), RPB_INVALID);
	cr_assert_eq(B->begin(s, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	for (int i = 19; i >= 0; i--) {
		snprintf(k, sizeof k, "k%02d", i);
		cr_assert_eq(B->put(s, RPB_T_RAW, S(k), S(k), &err), RPB_OK, "%s", err.msg);
	}
	cr_assert_eq(B->put(s, RPB_T_OBJECTS, S("e"), rpb_slice_make(NULL, 0), &err), RPB_OK);
	cr_assert_eq(B->commit(s, &err), RPB_OK, "%s", err.msg);

	cr_assert_eq(B->begin(s, RPB_TXN_READ, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->get(s, RPB_T_OBJECTS, S("e"), &buf, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(buf.len, 0);
	cr_assert_eq(B->get(s, RPB_T_RAW, S("k07"), &buf, &err), RPB_OK, "%s", err.msg);
	cr_expect(buf.len == 3 && memcmp(buf.data, "k07", 3) == 0);
	cr_expect_eq(B->get(s, RPB_T_RAW, S("k7"), &buf, &err), RPB_NOT_FOUND);

	struct collect c = {0};
	cr_assert_eq(B->scan(s, RPB_T_RAW, NULL, NULL, 0, collect_fn, &c, &err), RPB_OK, "%s",
		     err.msg);
	cr_assert_eq(c.n, 20);
	for (size_t i = 0; i < 20; i++) {
		snprintf(k, sizeof k, "k%02zu", i);
		cr_expect_str_eq(c.keys[i], k);
	}
	rpb_slice lo = S("k04"), hi = S("k15");
	c = (struct collect){0};
	cr_assert_eq(B->scan(s, RPB_T_RAW, &lo, &hi, 7, collect_fn, &c, &err), RPB_OK);
	cr_expect(c.n == 7 && strcmp(c.keys[0], "k05") == 0 && strcmp(c.keys[6], "k11") == 0);
	c = (struct collect){0};
	cr_assert_eq(B->scan(s, RPB_T_RAW, &lo, &hi, 0, collect_fn, &c, &err), RPB_OK);
	cr_expect(c.n == 11 && strcmp(c.keys[10], "k15") == 0, "n=%zu", c.n);
	c = (struct collect){.stop_at = 4};
	cr_assert_eq(B->scan(s, RPB_T_RAW, NULL, &hi, 0, collect_fn, &c, &err), RPB_OK);
	cr_expect_eq(c.n, 4);
	/* A write in a read transaction is a call-order error and rolls back. */
	cr_expect_eq(B->put(s, RPB_T_RAW, S("x"), S("x"), &err), RPB_INVALID, "%s", err.msg);
	cr_expect_eq(B->get(s, RPB_T_RAW, S("k01"), &buf, &err), RPB_INVALID);

	/* Shorter first on a common prefix; every byte value. */
	cr_assert_eq(B->begin(s, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(s, RPB_T_NAMES, rpb_slice_make("a\0", 2), S("2"), &err), RPB_OK);
	cr_assert_eq(B->put(s, RPB_T_NAMES, rpb_slice_make("\xff", 1), S("3"), &err), RPB_OK);
	cr_assert_eq(B->put(s, RPB_T_NAMES, S("a"), S("1"), &err), RPB_OK);
	c = (struct collect){0};
	cr_assert_eq(B->scan(s, RPB_T_NAMES, NULL, NULL, 0, collect_fn, &c, &err), RPB_OK);
	cr_expect(c.n == 3 && strcmp(c.keys[0], "a") == 0 && strcmp(c.keys[2], "\xff") == 0);
	cr_expect_eq(B->del(s, RPB_T_NAMES, S("a"), &err), RPB_OK);
	cr_expect_eq(B->del(s, RPB_T_NAMES, S("a"), &err), RPB_NOT_FOUND);
	B->rollback(s);

	uint64_t bytes = 0;
	cr_expect_eq(B->usage(st, &bytes, &err), RPB_OK, "%s", err.msg);
	cr_expect_gt(bytes, 0);
	rpb_buf_free(&buf);
	B->session_close(s);
	B->close(st);
}

struct waiter {
	struct rpb_session *s;
	const char *app; /* the application_name of the session's connection */
	char cap[256];   /* psql's output */
	bool saw_wait;
};

/* Whether the server shows a session of w->app waiting for a lock. No
 * assertions: it runs beside the blocked call. */
static bool lock_waiting(struct waiter *w)
{
	char sql[256];
	snprintf(sql, sizeof sql,
		 "SELECT count(*) FROM pg_stat_activity WHERE application_name = '%s'"
		 " AND wait_event_type = 'Lock'", w->app);
	struct e2e_args a = {.v = {"psql", "-X", test_dsn(), "-Atc", sql}, .n = 5};
	struct e2e_proc p;
	e2e_exec(&p, w->cap, &a);
	bool yes = p.code == 0 && strtol(p.out, NULL, 10) > 0;
	e2e_proc_free(&p);
	return yes;
}

/* Interrupts w->s once the server shows it waiting for the lock (or at the
 * time limit, so the blocked call returns): an interrupt before the wait
 * began would fail the call at once, without the server's SQLSTATE. */
static void *interrupt_when_waiting(void *arg)
{
	struct waiter *w = arg;
	double deadline = e2e_now_s() + rpbt_limit_s(RPBT_CHILD_LIMIT_S);
	while (!(w->saw_wait = lock_waiting(w)) && e2e_now_s() < deadline)
		nanosleep(&(struct timespec){0, 20 * 1000000L}, NULL);
	B->interrupt(w->s);
	return NULL;
}

/* Session b blocks on a row lock held by a; another thread interrupts b:
 * a real SQLSTATE 57014 from the server, classed as txn-timeout. Without
 * pipelining the blocked call is the put; with it (a later put is only
 * queued) it is commit, which reports the put's failure. */
static void lock_wait_interrupted(const char *pipeline)
{
	struct rpb_kv opts[] = {{"pipeline", pipeline}};
	bool piped = strcmp(pipeline, "on") == 0;
	static char app[64], dsn[512];
	snprintf(app, sizeof app, "rpbt_lock_%s_%ld", pipeline, (long)getpid());
	snprintf(dsn, sizeof dsn, "%s application_name=%s", test_dsn(), app);
	struct rpb_store *st = test_open_dsn(piped ? "lockp" : "lock", dsn, opts, 1);
	struct rpb_session *a = test_session(st), *b = test_session(st);
	struct rpb_err err = {0};
	struct rpb_buf buf = {0};

	cr_assert_eq(B->begin(a, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(a, RPB_T_RAW, S("key"), S("v1"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->commit(a, &err), RPB_OK, "%s", err.msg);

	/* A put read back holds its row lock (in pipeline mode a put is only
	 * queued; the get sends it and waits). */
	cr_assert_eq(B->begin(a, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(a, RPB_T_RAW, S("key"), S("v2"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->get(a, RPB_T_RAW, S("key"), &buf, &err), RPB_OK, "%s", err.msg);

	cr_assert_eq(B->begin(b, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("other"), S("b"), &err), RPB_OK, "%s", err.msg);
	pthread_t th;
	struct waiter w = {.s = b, .app = app};
	rpbt_tmpdir(w.cap, sizeof w.cap, "pgcap");
	pthread_create(&th, NULL, interrupt_when_waiting, &w);
	enum rpb_status rc = B->put(b, RPB_T_RAW, S("key"), S("v3"), &err); /* blocks */
	if (piped) {
		cr_expect_eq(rc, RPB_OK, "a later put is queued: %s", err.msg);
		rc = B->commit(b, &err); /* blocks */
	}
	pthread_join(th, NULL);
	rpbt_rmtree(w.cap);
	cr_assert(w.saw_wait, "the server never showed session b waiting for the lock");
	cr_assert_eq(rc, RPB_TXN_TIMEOUT, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_expect_str_eq(err.sqlstate, "57014");
	cr_expect(strstr(err.msg, "during put on table raw"), "%s", err.msg);
	cr_expect_null(strchr(err.msg, '\n'));
	cr_expect_eq(B->get(b, RPB_T_RAW, S("key"), &buf, &err), RPB_INVALID,
		     "the transaction must be gone");
	B->rollback(a);

	/* Nothing of b is visible, and begin cleared the interrupt. */
	cr_assert_eq(B->begin(b, RPB_TXN_READ, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(B->get(b, RPB_T_RAW, S("other"), &buf, &err), RPB_NOT_FOUND);
	cr_assert_eq(B->get(b, RPB_T_RAW, S("key"), &buf, &err), RPB_OK, "%s", err.msg);
	cr_expect(buf.len == 2 && memcmp(buf.data, "v1", 2) == 0);
	cr_expect_eq(B->commit(b, &err), RPB_OK, "%s", err.msg);

	/* An interrupt between calls fails the next call. */
	cr_assert_eq(B->begin(b, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("other"), S("b"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("more"), S("b"), &err), RPB_OK, "%s", err.msg);
	B->interrupt(b);
	cr_expect_eq(B->commit(b, &err), RPB_TXN_TIMEOUT, "%s", err.msg);
	cr_assert_eq(B->begin(b, RPB_TXN_READ, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(B->get(b, RPB_T_RAW, S("other"), &buf, &err), RPB_NOT_FOUND, "%s", err.msg);
	cr_expect_eq(B->get(b, RPB_T_RAW, S("more"), &buf, &err), RPB_NOT_FOUND, "%s", err.msg);
	B->rollback(b);

	/* An interrupt while a queued put waits for a lock: the rollback cancels
	 * it instead of waiting for the lock. */
	cr_assert_eq(B->begin(a, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(a, RPB_T_RAW, S("key"), S("v4"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->get(a, RPB_T_RAW, S("key"), &buf, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->begin(b, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("other"), S("b"), &err), RPB_OK, "%s", err.msg);
	if (piped) {
		cr_assert_eq(B->put(b, RPB_T_RAW, S("key"), S("v5"), &err), RPB_OK, "%s", err.msg);
		B->interrupt(b);
		cr_expect_eq(B->commit(b, &err), RPB_TXN_TIMEOUT, "%s", err.msg);
	}
	B->rollback(b);
	B->rollback(a);

	rpb_buf_free(&buf);
	B->session_close(a);
	B->session_close(b);
	B->close(st);
}

Test(postgres_native, lock_wait_interrupted_is_txn_timeout)
{
	lock_wait_interrupted("off");
}

Test(postgres_native, lock_wait_interrupted_pipelined_is_txn_timeout)
{
	lock_wait_interrupted("on");
}

/* A queued put that fails (lock_timeout: 55P03) is reported by commit with
 * its own class and statement, and the whole transaction is rolled back. */
Test(postgres_native, pipelined_put_failure_reported_at_commit)
{
	static char dsn[512], name[64];
	snprintf(dsn, sizeof dsn, "%s options='-c lock_timeout=200'", test_dsn());
	snprintf(name, sizeof name, "rpbt_pipefail_%ld", (long)getpid());
	struct rpb_store_cfg cfg = {.dsn = dsn, .name = name, .sync = RPB_SYNC_NONE, .create = true};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	struct rpb_buf buf = {0};
	cr_assert_eq(B->open(&cfg, &st, &err), RPB_OK, "open: %s", err.msg);
	struct rpb_session *a = test_session(st), *b = test_session(st);

	cr_assert_eq(B->begin(a, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(a, RPB_T_RAW, S("key"), S("a"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->get(a, RPB_T_RAW, S("key"), &buf, &err), RPB_OK, "%s", err.msg);

	cr_assert_eq(B->begin(b, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("first"), S("b"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_OBJECTS, S("key"), S("b"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("key"), S("b"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("last"), S("b"), &err), RPB_OK, "%s", err.msg);
	enum rpb_status rc = B->commit(b, &err);
	cr_assert_eq(rc, RPB_CONFLICT, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_expect_str_eq(err.sqlstate, "55P03");
	cr_expect(strstr(err.msg, "put on table raw failed"), "%s", err.msg);
	B->rollback(a);

	cr_assert_eq(B->begin(b, RPB_TXN_READ, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(B->get(b, RPB_T_RAW, S("first"), &buf, &err), RPB_NOT_FOUND, "%s", err.msg);
	cr_expect_eq(B->get(b, RPB_T_OBJECTS, S("key"), &buf, &err), RPB_NOT_FOUND, "%s", err.msg);
	cr_expect_eq(B->get(b, RPB_T_RAW, S("last"), &buf, &err), RPB_NOT_FOUND, "%s", err.msg);
	cr_expect_eq(B->commit(b, &err), RPB_OK, "%s", err.msg);

	/* The session goes on: a queued put, a synchronous del and get see it. */
	cr_assert_eq(B->begin(b, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("x"), S("1"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("y"), S("2"), &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(B->del(b, RPB_T_RAW, S("y"), &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(B->del(b, RPB_T_RAW, S("y"), &err), RPB_NOT_FOUND, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("z"), S("3"), &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(B->get(b, RPB_T_RAW, S("z"), &buf, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->commit(b, &err), RPB_OK, "%s", err.msg);

	rpb_buf_free(&buf);
	B->session_close(a);
	B->session_close(b);
	B->close(st);
}
