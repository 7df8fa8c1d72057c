/* The MariaDB backend: its pure error classifier, and native failures
 * provoked against a real server (scripts/mariadb-throwaway run DIR -- ...). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mariadb_backend.h"
#include "e2e_util.h"

static const struct rpb_backend *const B = &rpb_backend_mariadb;

/* ---- classify_mariadb: error number (+ message) -> class, no server ----- */

static const struct {
	unsigned code;
	const char *msg;
	enum rpb_status want;
} cases[] = {
	{1213, "Deadlock found when trying to get lock", RPB_CONFLICT},  /* ER_LOCK_DEADLOCK */
	{1205, "Lock wait timeout exceeded", RPB_TXN_TIMEOUT},           /* ER_LOCK_WAIT_TIMEOUT */
	{1317, "Query execution was interrupted", RPB_TXN_TIMEOUT},      /* ER_QUERY_INTERRUPTED */
	{1969, "Query execution was interrupted (max_statement_time)", RPB_TXN_TIMEOUT},
	{1114, "The table 'objects' is full", RPB_DISK_FULL},            /* ER_RECORD_FILE_FULL */
	{1021, "Disk full (./x); waiting for someone to free some space", RPB_DISK_FULL},
	{3, "Error writing file './t.ibd' (Errcode: 28 \"No space left on device\")", RPB_DISK_FULL},
	{1030, "Got error 28 \"No space left on device\" from storage engine InnoDB", RPB_DISK_FULL},
	{1180, "Got error 122 \"Disk quota exceeded\" during COMMIT", RPB_DISK_FULL},
	{1180, "Got error 5 \"Input/output error\" during COMMIT", RPB_IO},
	{2006, "Server has gone away", RPB_CONN_LOST},                   /* CR_SERVER_GONE_ERROR */
	{2013, "Lost connection to server during query", RPB_CONN_LOST}, /* CR_SERVER_LOST */
	{2002, "Can't connect to local server through socket", RPB_CONN_LOST},
	{1927, "Connection was killed", RPB_CONN_LOST},                  /* ER_CONNECTION_KILLED */
	{1053, "Server shutdown in progress", RPB_CONN_LOST},
	{1062, "Duplicate entry 'k' for key 'PRIMARY'", RPB_EXISTS},
	{1037, "Out of memory", RPB_NOMEM},
	{2008, "Client ran out of memory", RPB_NOMEM},
	{1146, "Table 'x.objects' doesn't exist", RPB_INVALID},
	{1064, "You have an error in your SQL syntax", RPB_INVALID},
	{1045, "Access denied for user", RPB_INVALID},
	{1792, "Cannot execute statement in a READ ONLY transaction", RPB_INVALID},
	{1153, "Got a packet bigger than 'max_allowed_packet' bytes", RPB_INVALID},
	{1712, "Index objects is corrupted", RPB_CORRUPT},                /* ER_INDEX_CORRUPT */
	{1877, "Table is corrupted", RPB_CORRUPT},                        /* ER_TABLE_CORRUPT */
	{1452, "Cannot add or update a child row", RPB_IO},              /* not ours */
	{1213, NULL, RPB_CONFLICT},
	{0, NULL, RPB_IO},
	{1030, "Got error 280 from storage engine", RPB_IO}, /* 280 is not 28 */
};

Test(classify_mariadb, error_numbers)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum rpb_status got = rpb_mariadb_classify(cases[i].code, cases[i].msg);
		cr_expect_eq(got, cases[i].want, "%u (%s): got %s, want %s", cases[i].code,
			     cases[i].msg ? cases[i].msg : "NULL", rpb_status_name(got),
			     rpb_status_name(cases[i].want));
	}
}

/* ---- mariadb_native: against the server in RPB_TEST_MARIADB_DSN --------- */

static const char *test_dsn(void)
{
	return rpbt_server_dsn("mariadb");
}

/* A fresh database per test (tests run in parallel processes). */
static struct rpb_store *test_open(const char *tag, const struct rpb_kv *opts, size_t nopts,
				   enum rpb_store_lock lock)
{
	static char name[64];
	snprintf(name, sizeof name, "rpbt_%s_%ld", tag, (long)getpid());
	struct rpb_store_cfg cfg = {.dsn = test_dsn(), .name = name, .sync = RPB_SYNC_COMMIT,
				    .create = true, .opts = opts, .nopts = nopts, .lock = lock};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	enum rpb_status rc = B->open(&cfg, &st, &err);
	cr_assert_eq(rc, RPB_OK, "open: %s", err.msg);
	return st;
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

Test(mariadb_native, wrong_dsn_is_conn_lost_without_password)
{
	struct rpb_store_cfg cfg = {
		.dsn = "host=/nonexistent/rpb-my-socket dbname=rpbench user=root password=secret",
		.name = "rpbench", .create = true};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	enum rpb_status rc = B->open(&cfg, &st, &err);
	cr_assert_eq(rc, RPB_CONN_LOST, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_assert_null(st);
	cr_expect(strstr(err.msg, "MariaDB connect failed"), "msg: %s", err.msg);
	cr_expect(strstr(err.msg, "--dsn"), "msg names no fix: %s", err.msg);
	cr_expect_null(strchr(err.msg, '\n'), "msg is not one line: %s", err.msg);
	cr_expect_null(strstr(err.msg, "secret"), "msg leaks the password: %s", err.msg);

	/* A malformed string that would echo the secret back. */
	cfg.dsn = "host=/nonexistent dbname=rpbench passwordsecret";
	rc = B->open(&cfg, &st, &err);
	cr_assert_eq(rc, RPB_INVALID, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_expect_null(strstr(err.msg, "secret"), "msg leaks the password: %s", err.msg);
	/* A keyword of libpq's that MariaDB has no use for. */
	cfg.dsn = "host=/nonexistent sslmode=require";
	rc = B->open(&cfg, &st, &err);
	cr_assert_eq(rc, RPB_INVALID, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_expect(strstr(err.msg, "'sslmode'"), "msg: %s", err.msg);
}

Test(mariadb_native, missing_database_without_create)
{
	struct rpb_store_cfg cfg = {.dsn = test_dsn(), .name = "rpbt_never_created"};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	cr_assert_eq(B->open(&cfg, &st, &err), RPB_INVALID, "%s", err.msg);
	cr_expect(strstr(err.msg, "\"rpbt_never_created\" does not exist"), "%s", err.msg);
}

Test(mariadb_native, unknown_option)
{
	struct rpb_kv opts[] = {{"fetch_row", "10"}};
	struct rpb_store_cfg cfg = {.dsn = test_dsn(), .name = "rpbt_opt", .create = true,
				    .opts = opts, .nopts = 1};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	cr_assert_eq(B->open(&cfg, &st, &err), RPB_INVALID, "%s", err.msg);
	cr_expect(err.user_input);
	cr_expect(strstr(err.msg, "fetch_rows"), "did-you-mean: %s", err.msg);
}

static int concat_fn(void *ctx, rpb_slice k, rpb_slice v)
{
	char *out = ctx;
	size_t n = strlen(out);
	if (n + k.len + v.len + 2 < 64)
		snprintf(out + n, 64 - n, "%.*s=%.*s,", (int)k.len, (const char *)k.data, (int)v.len,
			 (const char *)v.data);
	return 0;
}

/* Chunked scans (fetch_rows = 2) stay in key order across chunks; the
 * gauges come with the same names on every reading; usage counts bytes. */
Test(mariadb_native, chunked_scan_gauges_usage)
{
	struct rpb_kv opts[] = {{"fetch_rows", "2"}};
	struct rpb_store *st = test_open("scan", opts, 1, RPB_LOCK_NONE);
	struct rpb_session *s = test_session(st);
	struct rpb_err err = {0};
	cr_assert_eq(B->begin(s, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	const char *keys[] = {"e", "a", "c", "b", "d"};
	for (int i = 0; i < 5; i++)
		cr_assert_eq(B->put(s, RPB_T_NAMES, S(keys[i]), S(keys[i]), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->commit(s, &err), RPB_OK, "%s", err.msg);
	struct rpb_gauge g[RPB_GAUGES_MAX];
	size_t n = 0;
	cr_assert_eq(B->gauges(st, g, &n, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(n, 4);
	cr_expect_str_eq(g[0].name, "redo_bytes");
	cr_expect_gt(g[0].value, 0, "the commit wrote redo");
	cr_expect_str_eq(g[1].name, "dirty_pages");
	cr_expect_str_eq(g[2].name, "data_pages");
	cr_expect_gt(g[2].value, 0);
	cr_expect_str_eq(g[3].name, "history_length");
	cr_assert_eq(B->begin(s, RPB_TXN_READ, &err), RPB_OK, "%s", err.msg);
	char seen[64] = "";
	rpb_slice lo = S("a"), hi = S("d");
	cr_assert_eq(B->scan(s, RPB_T_NAMES, &lo, NULL, 0, concat_fn, seen, &err), RPB_OK, "%s", err.msg);
	cr_expect_str_eq(seen, "b=b,c=c,d=d,e=e,");
	seen[0] = '\0';
	cr_assert_eq(B->scan(s, RPB_T_NAMES, NULL, &hi, 3, concat_fn, seen, &err), RPB_OK, "%s", err.msg);
	cr_expect_str_eq(seen, "a=a,b=b,c=c,");
	struct rpb_fact f[RPB_FACTS_MAX];
	cr_assert_eq(B->describe(st, f, &n, &err), RPB_OK, "%s", err.msg);
	cr_assert_gt(n, 2);
	cr_expect_str_eq(f[1].name, "innodb_flush_log_at_trx_commit");
	/* A global setting: parallel tests with sync = none may have set 2. */
	cr_expect(!strcmp(f[1].value, "1") || !strcmp(f[1].value, "2"), "%s", f[1].value);
	B->rollback(s);
	uint64_t bytes = 0;
	cr_expect_eq(B->usage(st, &bytes, &err), RPB_OK, "%s", err.msg);
	cr_expect_gt(bytes, 0);
	B->session_close(s);
	B->close(st);
}

/* The server's own client, as root over the DSN's socket: one number. */
static long server_count(const char *sql, char *cap)
{
	char sock[256] = "";
	const char *h = strstr(test_dsn(), "host=");
	if (h)
		sscanf(h + 5, "%255[^ ]", sock);
	char opt[300];
	snprintf(opt, sizeof opt, "--socket=%s", sock);
	struct e2e_args a = {.v = {"mariadb", "--no-defaults", opt, "-u", "root", "-N", "-e", sql},
			     .n = 8};
	struct e2e_proc p;
	e2e_exec(&p, cap, &a);
	long n = p.code == 0 ? strtol(p.out, NULL, 10) : -1;
	e2e_proc_free(&p);
	return n;
}

struct waiter {
	struct rpb_session *s;
	char cap[256];
	bool saw_wait;
};

/* Interrupts w->s once InnoDB shows a transaction waiting for a lock (or
 * at the time limit, so the blocked call returns). */
static void *interrupt_when_waiting(void *arg)
{
	struct waiter *w = arg;
	double deadline = e2e_now_s() + rpbt_limit_s(RPBT_CHILD_LIMIT_S);
	while (!(w->saw_wait = server_count("SELECT COUNT(*) FROM information_schema.INNODB_TRX"
					    " WHERE trx_state = 'LOCK WAIT'", w->cap) > 0) &&
	       e2e_now_s() < deadline)
		nanosleep(&(struct timespec){0, 20 * 1000000L}, NULL);
	B->interrupt(w->s);
	return NULL;
}

/* Session b blocks on a row lock held by a; another thread interrupts b:
 * KILL QUERY ends the wait with error 1317, txn-timeout, and b's whole
 * transaction is rolled back. */
Test(mariadb_native, lock_wait_interrupted_is_txn_timeout)
{
	struct rpb_store *st = test_open("lock", NULL, 0, RPB_LOCK_NONE);
	struct rpb_session *a = test_session(st), *b = test_session(st);
	struct rpb_err err = {0};
	struct rpb_buf buf = {0};
	cr_assert_eq(B->begin(a, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(a, RPB_T_RAW, S("key"), S("v1"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->commit(a, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->begin(a, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(a, RPB_T_RAW, S("key"), S("v2"), &err), RPB_OK, "%s", err.msg);

	cr_assert_eq(B->begin(b, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("other"), S("b"), &err), RPB_OK, "%s", err.msg);
	pthread_t th;
	struct waiter w = {.s = b};
	rpbt_tmpdir(w.cap, sizeof w.cap, "mycap");
	pthread_create(&th, NULL, interrupt_when_waiting, &w);
	enum rpb_status rc = B->put(b, RPB_T_RAW, S("key"), S("v3"), &err); /* blocks */
	pthread_join(th, NULL);
	rpbt_rmtree(w.cap);
	cr_assert(w.saw_wait, "the server never showed session b waiting for the lock");
	cr_assert_eq(rc, RPB_TXN_TIMEOUT, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_expect_eq(err.native, 1317, "%s", err.msg);
	cr_expect(strstr(err.msg, "during put on table raw"), "%s", err.msg);
	cr_expect_eq(B->get(b, RPB_T_RAW, S("key"), &buf, &err), RPB_INVALID,
		     "the transaction must be gone");
	B->rollback(a);

	/* Nothing of b is visible, and begin cleared the interrupt. */
	cr_assert_eq(B->begin(b, RPB_TXN_READ, &err), RPB_OK, "%s", err.msg);
	cr_expect_eq(B->get(b, RPB_T_RAW, S("other"), &buf, &err), RPB_NOT_FOUND);
	cr_assert_eq(B->get(b, RPB_T_RAW, S("key"), &buf, &err), RPB_OK, "%s", err.msg);
	cr_expect(buf.len == 2 && memcmp(buf.data, "v1", 2) == 0);
	cr_expect_eq(B->commit(b, &err), RPB_OK, "%s", err.msg);
	rpb_buf_free(&buf);
	B->session_close(a);
	B->session_close(b);
	B->close(st);
}

/* innodb_lock_wait_timeout = 1: a row lock wait that outlasts it is error
 * 1205, txn-timeout; two sessions that wait for each other: one gets 1213,
 * conflict. */
Test(mariadb_native, lock_timeout_and_deadlock)
{
	struct rpb_kv opts[] = {{"innodb_lock_wait_timeout", "1"}};
	struct rpb_store *st = test_open("dl", opts, 1, RPB_LOCK_NONE);
	struct rpb_session *a = test_session(st), *b = test_session(st);
	struct rpb_err err = {0};
	cr_assert_eq(B->begin(a, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(a, RPB_T_RAW, S("x"), S("a"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->begin(b, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	enum rpb_status rc = B->put(b, RPB_T_RAW, S("x"), S("b"), &err);
	cr_assert_eq(rc, RPB_TXN_TIMEOUT, "got %s: %s", rpb_status_name(rc), err.msg);
	cr_expect_eq(err.native, 1205, "%s", err.msg);
	B->rollback(a);
	B->session_close(a);
	B->session_close(b);
	B->close(st);
}

struct crosser {
	struct rpb_session *s;
	const char *key;
	enum rpb_status rc;
	struct rpb_err err;
};

static void *cross_put(void *arg)
{
	struct crosser *c = arg;
	c->rc = B->put(c->s, RPB_T_RAW, S(c->key), S("late"), &c->err);
	return NULL;
}

Test(mariadb_native, deadlock_is_conflict)
{
	struct rpb_store *st = test_open("dead", NULL, 0, RPB_LOCK_NONE);
	struct rpb_session *a = test_session(st), *b = test_session(st);
	struct rpb_err err = {0};
	cr_assert_eq(B->begin(a, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(a, RPB_T_RAW, S("p"), S("a"), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->begin(b, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->put(b, RPB_T_RAW, S("q"), S("b"), &err), RPB_OK, "%s", err.msg);
	struct crosser ca = {.s = a, .key = "q"};
	pthread_t th;
	pthread_create(&th, NULL, cross_put, &ca); /* a waits for b */
	char cap[256];
	rpbt_tmpdir(cap, sizeof cap, "mycap");
	double deadline = e2e_now_s() + rpbt_limit_s(RPBT_CHILD_LIMIT_S);
	while (server_count("SELECT COUNT(*) FROM information_schema.INNODB_TRX"
			    " WHERE trx_state = 'LOCK WAIT'", cap) < 1 && e2e_now_s() < deadline)
		nanosleep(&(struct timespec){0, 20 * 1000000L}, NULL);
	rpbt_rmtree(cap);
	enum rpb_status rb = B->put(b, RPB_T_RAW, S("p"), S("late"), &err); /* b waits for a */
	pthread_join(th, NULL);
	/* InnoDB rolls back one of them; the other then gets its lock. */
	enum rpb_status lost = rb == RPB_OK ? ca.rc : rb;
	struct rpb_err *e = rb == RPB_OK ? &ca.err : &err;
	cr_expect(rb == RPB_OK || ca.rc == RPB_OK, "one of them goes on: %s / %s", err.msg, ca.err.msg);
	cr_assert_eq(lost, RPB_CONFLICT, "got %s: %s", rpb_status_name(lost), e->msg);
	cr_expect_eq(e->native, 1213, "%s", e->msg);
	B->rollback(a);
	B->rollback(b);
	B->session_close(a);
	B->session_close(b);
	B->close(st);
}

/* The store lock: a run refuses a second run and a verify; verifies share. */
Test(mariadb_native, store_lock)
{
	struct rpb_store *run = test_open("slock", NULL, 0, RPB_LOCK_RUN);
	struct rpb_store_cfg cfg = {.dsn = test_dsn(), .name = NULL, .lock = RPB_LOCK_RUN};
	char name[64];
	snprintf(name, sizeof name, "rpbt_slock_%ld", (long)getpid());
	cfg.name = name;
	struct rpb_store *st = NULL, *v1 = NULL, *v2 = NULL;
	struct rpb_err err = {0};
	cr_assert_eq(B->open(&cfg, &st, &err), RPB_CONFLICT, "%s", err.msg);
	char by[64];
	snprintf(by, sizeof by, "is in use by process %ld (started ", (long)getpid());
	cr_expect(strstr(err.msg, by), "%s", err.msg);
	cfg.lock = RPB_LOCK_VERIFY;
	cr_assert_eq(B->open(&cfg, &st, &err), RPB_CONFLICT, "%s", err.msg);
	snprintf(by, sizeof by, "run %ld is still writing this store", (long)getpid());
	cr_expect(strstr(err.msg, by), "%s", err.msg);
	B->close(run);
	cr_assert_eq(B->open(&cfg, &v1, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(B->open(&cfg, &v2, &err), RPB_OK, "a second verify: %s", err.msg);
	cfg.lock = RPB_LOCK_RUN;
	cr_assert_eq(B->open(&cfg, &st, &err), RPB_CONFLICT, "%s", err.msg);
	cr_expect(strstr(err.msg, "in use by a verify (MariaDB connection "), "%s", err.msg);
	B->close(v1);
	B->close(v2);
	cr_assert_eq(B->open(&cfg, &st, &err), RPB_OK, "%s", err.msg);
	B->close(st);
}
