/* The SQLite backend's error mapping: the pure classifier fed real result
 * codes, and real native errors provoked through the interface. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sqlite_backend.h"
#include "testutil.h"

Test(classify_sqlite, result_codes)
{
	static const struct {
		int code;
		enum rpb_status cls;
	} cases[] = {
		{SQLITE_OK, RPB_OK},
		{SQLITE_FULL, RPB_DISK_FULL},
		{SQLITE_INTERRUPT, RPB_TXN_TIMEOUT},
		{SQLITE_BUSY, RPB_CONFLICT},
		{SQLITE_BUSY_SNAPSHOT, RPB_CONFLICT},
		{SQLITE_BUSY_RECOVERY, RPB_CONFLICT},
		{SQLITE_LOCKED, RPB_CONFLICT},
		{SQLITE_LOCKED_SHAREDCACHE, RPB_CONFLICT},
		{SQLITE_CORRUPT, RPB_CORRUPT},
		{SQLITE_CORRUPT_INDEX, RPB_CORRUPT},
		{SQLITE_CORRUPT_SEQUENCE, RPB_CORRUPT},
		{SQLITE_NOTADB, RPB_CORRUPT},
		{SQLITE_NOMEM, RPB_NOMEM},
		{SQLITE_IOERR_NOMEM, RPB_NOMEM},
		{SQLITE_CONSTRAINT, RPB_EXISTS},
		{SQLITE_CONSTRAINT_PRIMARYKEY, RPB_EXISTS},
		{SQLITE_CONSTRAINT_NOTNULL, RPB_EXISTS},
		{SQLITE_TOOBIG, RPB_INVALID},
		{SQLITE_MISUSE, RPB_INVALID},
		{SQLITE_RANGE, RPB_INVALID},
		{SQLITE_READONLY, RPB_INVALID},
		{SQLITE_READONLY_DBMOVED, RPB_INVALID},
		{SQLITE_CANTOPEN, RPB_INVALID},
		{SQLITE_CANTOPEN_ISDIR, RPB_INVALID},
		{SQLITE_PERM, RPB_INVALID},
		{SQLITE_AUTH, RPB_INVALID},
		{SQLITE_NOTFOUND, RPB_IO},
		{SQLITE_IOERR, RPB_IO},
		{SQLITE_IOERR_WRITE, RPB_IO},
		{SQLITE_IOERR_FSYNC, RPB_IO},
		{SQLITE_IOERR_SHORT_READ, RPB_IO},
		{SQLITE_ERROR, RPB_IO},
		{SQLITE_PROTOCOL, RPB_IO},
		{SQLITE_ABORT_ROLLBACK, RPB_IO},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum rpb_status got = rpb_sqlite_classify(cases[i].code);
		cr_expect_eq(got, cases[i].cls, "code %d (%s): got %s, want %s", cases[i].code,
			     sqlite3_errstr(cases[i].code), rpb_status_name(got),
			     rpb_status_name(cases[i].cls));
	}
}

/* Opens a fresh sqlite store with tuning options. */
static void open_with(struct rpbt_store *s, const struct rpb_kv *opts, size_t nopts)
{
	memset(s, 0, sizeof *s);
	s->b = rpb_backend_find("sqlite");
	cr_assert_not_null(s->b);
	rpbt_tmpdir(s->dir, sizeof s->dir, "sqlite");
	s->cfg.dir = s->dir;
	s->cfg.sync = RPB_SYNC_NONE;
	s->cfg.create = true;
	s->cfg.opts = opts;
	s->cfg.nopts = nopts;
	struct rpb_err err = {0};
	enum rpb_status st = s->b->open(&s->cfg, &s->st, &err);
	cr_assert_eq(st, RPB_OK, "open: %s", err.msg);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

Test(sqlite_native, max_pages_gives_disk_full)
{
	static const struct rpb_kv opts[] = {{"max_pages", "16"}};
	struct rpbt_store s;
	open_with(&s, opts, 1);
	struct rpb_session *a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_RAW, "small", "fits");
	static unsigned char big[1 << 20];
	struct rpb_err err = {0};
	enum rpb_status st = s.b->put(a, RPB_T_OBJECTS, rpb_slice_make("big", 3),
				      rpb_slice_make(big, sizeof big), &err);
	cr_assert_eq(st, RPB_DISK_FULL, "got %s: %s", rpb_status_name(st), err.msg);
	cr_assert_eq(err.native & 0xff, SQLITE_FULL, "native %d", err.native);
	cr_assert(strstr(err.msg, "database or disk is full"), "%s", err.msg);
	/* max_pages filled, not the file system: the fix is the limit. */
	cr_assert(strstr(err.msg, "the store reached sqlite.max_pages; raise it"), "%s", err.msg);
	cr_assert(!strstr(err.msg, "free"), "%s", err.msg);
	/* The failure rolled the transaction back. */
	st = s.b->commit(a, &err);
	cr_assert_eq(st, RPB_INVALID, "commit after a failed put: %s", rpb_status_name(st));
	rpbt_begin(&s, a, RPB_TXN_READ);
	struct rpb_buf out = {0};
	st = s.b->get(a, RPB_T_RAW, rpb_slice_make("small", 5), &out, &err);
	cr_assert_eq(st, RPB_NOT_FOUND, "the rolled-back put is visible: %s", rpb_status_name(st));
	/* Writes in a read transaction are refused and roll it back. */
	st = s.b->put(a, RPB_T_RAW, rpb_slice_make("w", 1), rpb_slice_make("v", 1), &err);
	cr_assert_eq(st, RPB_INVALID, "put in a read txn: %s", rpb_status_name(st));
	cr_assert_eq(s.b->commit(a, &err), RPB_INVALID);
	rpb_buf_free(&out);
	s.b->session_close(a);
	rpbt_close(&s);
}

Test(sqlite_native, second_writer_gets_conflict)
{
	static const struct rpb_kv opts[] = {{"busy_timeout", "50"}};
	struct rpbt_store s;
	open_with(&s, opts, 1);
	struct rpb_session *a = rpbt_session(&s), *b = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_RAW, "k", "v");
	struct rpb_err err = {0};
	struct rpb_buf out = {0};
	/* Reading the put back applies it (lazy BEGIN): a holds the write lock. */
	cr_assert_eq(s.b->get(a, RPB_T_RAW, rpb_slice_make("k", 1), &out, &err), RPB_OK);
	rpb_buf_free(&out);
	/* b's one put runs at its commit, and waits there. */
	rpbt_begin(&s, b, RPB_TXN_WRITE);
	rpbt_put(&s, b, RPB_T_RAW, "k2", "v");
	double t0 = now_ms();
	enum rpb_status st = s.b->commit(b, &err);
	double waited = now_ms() - t0;
	cr_assert_eq(st, RPB_CONFLICT, "got %s: %s", rpb_status_name(st), err.msg);
	cr_assert_eq(err.native & 0xff, SQLITE_BUSY, "native %d", err.native);
	cr_assert(waited >= 45 && waited < 5000, "waited %.1f ms for a 50 ms busy_timeout", waited);
	/* A reader is not blocked by the writer (WAL). */
	rpbt_begin(&s, b, RPB_TXN_READ);
	rpbt_commit(&s, b);
	rpbt_commit(&s, a);
	rpbt_begin(&s, b, RPB_TXN_WRITE);
	rpbt_commit(&s, b);
	s.b->session_close(a);
	s.b->session_close(b);
	rpbt_close(&s);
}

struct blocked {
	struct rpbt_store *s;
	struct rpb_session *ss;
	enum rpb_status st;
	double waited;
	atomic_bool done;
};

static void *blocked_begin(void *arg)
{
	struct blocked *bl = arg;
	struct rpb_err err = {0};
	double t0 = now_ms();
	/* The second put sends BEGIN IMMEDIATE (lazy BEGIN), which waits. */
	bl->st = bl->s->b->begin(bl->ss, RPB_TXN_WRITE, &err);
	for (int i = 0; i < 2 && bl->st == RPB_OK; i++)
		bl->st = bl->s->b->put(bl->ss, RPB_T_RAW, rpb_slice_make(i ? "b2" : "b1", 2),
				       rpb_slice_make("v", 1), &err);
	bl->waited = now_ms() - t0;
	atomic_store(&bl->done, true);
	return NULL;
}

Test(sqlite_native, interrupt_frees_a_session_waiting_for_the_lock)
{
	/* Only an interrupt can end this wait before the test's time limit. */
	static const struct rpb_kv opts[] = {{"busy_timeout", "3600000"}};
	struct rpbt_store s;
	open_with(&s, opts, 1);
	struct rpb_session *a = rpbt_session(&s);
	struct blocked bl = {.s = &s, .ss = rpbt_session(&s)};
	atomic_init(&bl.done, false);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_RAW, "a1", "v");
	rpbt_put(&s, a, RPB_T_RAW, "a2", "v"); /* sends BEGIN IMMEDIATE: a holds the lock */
	pthread_t th;
	cr_assert_eq(pthread_create(&th, NULL, blocked_begin, &bl), 0);
	/* Interrupted until begin returns: begin clears an interrupt that came
	 * before it (a stale one), so a single one could land too early. */
	struct timespec nap = {0, 20 * 1000 * 1000};
	while (!atomic_load(&bl.done)) {
		s.b->interrupt(bl.ss);
		nanosleep(&nap, NULL);
	}
	pthread_join(th, NULL);
	cr_assert_eq(bl.st, RPB_TXN_TIMEOUT, "got %s after %.1f ms", rpb_status_name(bl.st),
		     bl.waited);
	rpbt_commit(&s, a);
	rpbt_begin(&s, bl.ss, RPB_TXN_WRITE); /* begin clears the stale interrupt */
	rpbt_commit(&s, bl.ss);
	s.b->session_close(a);
	s.b->session_close(bl.ss);
	rpbt_close(&s);
}

Test(sqlite_native, open_errors)
{
	char dir[256];
	rpbt_tmpdir(dir, sizeof dir, "sqlite");
	const struct rpb_backend *b = rpb_backend_find("sqlite");
	struct rpb_store_cfg cfg = {.dir = dir, .sync = RPB_SYNC_NONE};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	/* An existing directory without the database and without create. */
	cr_assert_eq(b->open(&cfg, &st, &err), RPB_INVALID, "%s", err.msg);
	cr_assert_null(st);
	cr_assert(strstr(err.msg, "rpbench.sqlite"), "%s", err.msg);
	/* Unknown and out-of-range options. */
	static const struct rpb_kv bad[] = {{"page_size", "1000"}};
	cfg.create = true;
	cfg.opts = bad;
	cfg.nopts = 1;
	cr_assert_eq(b->open(&cfg, &st, &err), RPB_INVALID);
	cr_assert(strstr(err.msg, "page_size"), "%s", err.msg);
	static const struct rpb_kv unknown[] = {{"journal", "wal"}};
	cfg.opts = unknown;
	cr_assert_eq(b->open(&cfg, &st, &err), RPB_INVALID);
	cr_assert(strstr(err.msg, "journal"), "%s", err.msg);
	/* Not an SQLite database. */
	char path[300];
	snprintf(path, sizeof path, "%s/rpbench.sqlite", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	for (int i = 0; i < 2048; i++)
		fputs("not a database ", f);
	fclose(f);
	cfg.opts = NULL;
	cfg.nopts = 0;
	cr_assert_eq(b->open(&cfg, &st, &err), RPB_CORRUPT, "%s", err.msg);
	cr_assert_null(st);
	cr_assert_eq(err.native & 0xff, SQLITE_NOTADB, "native %d", err.native);
	rpbt_rmtree(dir);
}
