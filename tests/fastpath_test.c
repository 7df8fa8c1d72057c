/* The backends' fast paths keep the contract: what each skips is counted by
 * a debug counter (backends/backends.h), so a change that silently takes
 * the slow path again, or a fast path that breaks a rule, fails here.
 *  - LevelDB takes no snapshot for a transaction of one get or of plain
 *    writes, one for two reads or a scan; a first read that a commit
 *    changed before the snapshot was taken fails the transaction with
 *    conflict instead of mixing two states.
 *  - SQLite runs a write transaction of one put as that one statement in
 *    autocommit (no BEGIN, no COMMIT), and every other transaction as
 *    before; locking_mode = exclusive allows one session at a time.
 *  - PostgreSQL sends a write transaction (BEGIN, its puts, their first
 *    PREPAREs and COMMIT) in one round trip with pipeline = on. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "leveldb_backend.h"
#include "postgres_backend.h"
#include "sqlite_backend.h"
#include "testutil.h"

static rpb_slice S(const char *s)
{
	return rpb_slice_make(s, strlen(s));
}

/* A fresh store of the backend, opened with one tuning option. */
static void open_with(struct rpbt_store *s, const char *backend, struct rpb_kv *opt)
{
	rpbt_open(s, backend);
	s->cfg.opts = opt;
	s->cfg.nopts = 1;
	rpbt_reopen(s);
}

static enum rpb_status get(struct rpbt_store *s, struct rpb_session *ss, const char *key,
			   struct rpb_buf *out)
{
	struct rpb_err err = {0};
	enum rpb_status st = s->b->get(ss, RPB_T_RAW, S(key), out, &err);
	cr_assert(st == RPB_OK || st == RPB_NOT_FOUND || st == RPB_CONFLICT, "%s get %s: %s",
		  s->b->name, key, err.msg);
	return st;
}

#ifdef RPB_HAVE_LEVELDB
static int count_fn(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)key;
	(void)val;
	++*(int *)ctx;
	return 0;
}

Test(fastpath, leveldb_snapshot_only_when_needed)
{
	struct rpbt_store s;
	rpbt_open(&s, "leveldb");
	struct rpb_session *a = rpbt_session(&s);
	struct rpb_buf out = {0};
	uint64_t base = rpb_leveldb_snapshots(s.st);

	rpbt_begin(&s, a, RPB_TXN_WRITE); /* plain writes */
	rpbt_put(&s, a, RPB_T_RAW, "k1", "v1");
	rpbt_put(&s, a, RPB_T_RAW, "k2", "v2");
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_READ); /* one get */
	cr_assert_eq(get(&s, a, "k1", &out), RPB_OK);
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_READ); /* one get of an absent key */
	cr_assert_eq(get(&s, a, "nope", &out), RPB_NOT_FOUND);
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_WRITE); /* a write read back from the overlay, one get */
	rpbt_put(&s, a, RPB_T_RAW, "k3", "v3");
	cr_assert_eq(get(&s, a, "k3", &out), RPB_OK);
	cr_assert(out.len == 2 && memcmp(out.data, "v3", 2) == 0, "reads its own write");
	cr_assert_eq(get(&s, a, "k1", &out), RPB_OK);
	rpbt_commit(&s, a);
	cr_assert_eq(rpb_leveldb_snapshots(s.st), base, "no transaction above needs a snapshot");

	rpbt_begin(&s, a, RPB_TXN_READ); /* two gets */
	cr_assert_eq(get(&s, a, "k1", &out), RPB_OK);
	cr_assert_eq(get(&s, a, "k2", &out), RPB_OK);
	rpbt_commit(&s, a);
	cr_assert_eq(rpb_leveldb_snapshots(s.st), base + 1, "two reads take one snapshot");
	rpbt_begin(&s, a, RPB_TXN_READ); /* a scan */
	int n = 0;
	struct rpb_err err = {0};
	cr_assert_eq(s.b->scan(a, RPB_T_RAW, NULL, NULL, 0, count_fn, &n, &err), RPB_OK);
	cr_assert_eq(n, 3);
	rpbt_commit(&s, a);
	cr_assert_eq(rpb_leveldb_snapshots(s.st), base + 2, "a scan takes one snapshot");

	/* A write transaction that read after writing still commits every write,
	 * the ones staged before the overlay was built included. */
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_RAW, "k4", "v4");
	cr_assert_eq(s.b->del(a, RPB_T_RAW, S("k1"), &err), RPB_OK, "%s", err.msg);
	rpbt_put(&s, a, RPB_T_RAW, "k5", "v5");
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_READ);
	n = 0;
	cr_assert_eq(s.b->scan(a, RPB_T_RAW, NULL, NULL, 0, count_fn, &n, &err), RPB_OK);
	cr_assert_eq(n, 4, "k2..k5 after k1's delete");
	cr_assert_eq(get(&s, a, "k1", &out), RPB_NOT_FOUND);
	rpbt_commit(&s, a);
	rpb_buf_free(&out);
	s.b->session_close(a);
	rpbt_close(&s);
}

Test(fastpath, leveldb_reads_fit_one_state)
{
	struct rpbt_store s;
	rpbt_open(&s, "leveldb");
	struct rpb_session *a = rpbt_session(&s), *b = rpbt_session(&s);
	struct rpb_buf out = {0};
	rpbt_begin(&s, b, RPB_TXN_WRITE);
	rpbt_put(&s, b, RPB_T_RAW, "x", "1");
	rpbt_put(&s, b, RPB_T_RAW, "y", "1");
	rpbt_commit(&s, b);

	/* Another key changes between the reads: the snapshot then is consistent
	 * with the first read, the transaction goes on and sees the new y. */
	rpbt_begin(&s, a, RPB_TXN_READ);
	cr_assert_eq(get(&s, a, "x", &out), RPB_OK);
	rpbt_begin(&s, b, RPB_TXN_WRITE);
	rpbt_put(&s, b, RPB_T_RAW, "y", "2");
	rpbt_commit(&s, b);
	cr_assert_eq(get(&s, a, "y", &out), RPB_OK);
	cr_assert(out.len == 1 && out.data[0] == '2');
	rpbt_commit(&s, a);

	/* The key read first changes, with y, before the second read: x = 1 and
	 * y = 3 never held together, so the transaction fails as a conflict. */
	rpbt_begin(&s, a, RPB_TXN_READ);
	cr_assert_eq(get(&s, a, "x", &out), RPB_OK);
	rpbt_begin(&s, b, RPB_TXN_WRITE);
	rpbt_put(&s, b, RPB_T_RAW, "x", "3");
	rpbt_put(&s, b, RPB_T_RAW, "y", "3");
	rpbt_commit(&s, b);
	cr_assert_eq(get(&s, a, "y", &out), RPB_CONFLICT, "x = 1 and y = 3 are not one state");
	s.b->rollback(a);

	/* The same with a scan second, and with an absent key read first. */
	rpbt_begin(&s, a, RPB_TXN_READ);
	cr_assert_eq(get(&s, a, "z", &out), RPB_NOT_FOUND);
	rpbt_begin(&s, b, RPB_TXN_WRITE);
	rpbt_put(&s, b, RPB_T_RAW, "z", "1");
	rpbt_commit(&s, b);
	struct rpb_err err = {0};
	cr_assert_eq(s.b->scan(a, RPB_T_RAW, NULL, NULL, 0, count_fn, &(int){0}, &err), RPB_CONFLICT);
	s.b->rollback(a);
	rpb_buf_free(&out);
	s.b->session_close(a);
	s.b->session_close(b);
	rpbt_close(&s);
}
#endif

#ifdef RPB_HAVE_SQLITE
/* Statements the session steps for body. */
#define STATEMENTS(s, ss, body)                                  \
	({                                                       \
		uint64_t before_ = rpb_sqlite_statements(ss);     \
		body;                                            \
		rpb_sqlite_statements(ss) - before_;              \
	})

static void sqlite_lazy_begin(const char *locking_mode)
{
	struct rpbt_store s;
	struct rpb_kv opt = {"locking_mode", locking_mode};
	open_with(&s, "sqlite", &opt);
	struct rpb_session *a = rpbt_session(&s);
	struct rpb_buf out = {0};
	struct rpb_err err = {0};

	cr_assert_eq(STATEMENTS(s, a, {
			     rpbt_begin(&s, a, RPB_TXN_WRITE);
			     rpbt_put(&s, a, RPB_T_RAW, "k1", "v1");
			     rpbt_commit(&s, a);
		     }),
		     1, "a transaction of one put is that one statement");
	cr_assert_eq(STATEMENTS(s, a, {
			     rpbt_begin(&s, a, RPB_TXN_WRITE);
			     rpbt_put(&s, a, RPB_T_RAW, "k2", "v2");
			     rpbt_put(&s, a, RPB_T_RAW, "k3", "v3");
			     rpbt_commit(&s, a);
		     }),
		     4, "two puts: BEGIN IMMEDIATE, the puts, COMMIT");
	cr_assert_eq(STATEMENTS(s, a, {
			     rpbt_begin(&s, a, RPB_TXN_WRITE);
			     rpbt_put(&s, a, RPB_T_RAW, "k4", "v4");
			     cr_assert_eq(get(&s, a, "k4", &out), RPB_OK, "reads its kept put");
			     rpbt_commit(&s, a);
		     }),
		     4, "a put and a get: BEGIN IMMEDIATE, put, get, COMMIT");
	cr_assert_eq(STATEMENTS(s, a, {
			     rpbt_begin(&s, a, RPB_TXN_READ);
			     cr_assert_eq(get(&s, a, "k1", &out), RPB_OK);
			     rpbt_commit(&s, a);
		     }),
		     3, "a read transaction: BEGIN, get, COMMIT");
	cr_assert_eq(STATEMENTS(s, a, {
			     rpbt_begin(&s, a, RPB_TXN_WRITE);
			     rpbt_put(&s, a, RPB_T_RAW, "gone", "x");
			     s.b->rollback(a);
		     }),
		     0, "a rolled-back put never ran");
	rpbt_begin(&s, a, RPB_TXN_READ);
	cr_assert_eq(get(&s, a, "gone", &out), RPB_NOT_FOUND, "nothing of a rolled-back put stays");
	cr_assert_eq(get(&s, a, "k3", &out), RPB_OK);
	rpbt_commit(&s, a);
	if (strcmp(locking_mode, "exclusive") == 0) {
		struct rpb_session *b = NULL;
		cr_assert_eq(s.b->session_open(s.st, &b, &err), RPB_INVALID);
		cr_assert(strstr(err.msg, "locking_mode = exclusive allows one session"), "%s",
			  err.msg);
		cr_assert_null(b);
	} else { /* another session sees the autocommitted put */
		struct rpb_session *b = rpbt_session(&s);
		rpbt_begin(&s, b, RPB_TXN_READ);
		cr_assert_eq(get(&s, b, "k1", &out), RPB_OK);
		rpbt_commit(&s, b);
		s.b->session_close(b);
	}
	s.b->session_close(a);
	/* Everything is there for the next session (exclusive: once a closed). */
	a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_READ);
	static const char *const kept[] = {"k1", "k2", "k3", "k4"};
	for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
		cr_assert_eq(get(&s, a, kept[i], &out), RPB_OK, "%s", kept[i]);
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpb_buf_free(&out);
	rpbt_close(&s);
}

Test(fastpath, sqlite_lazy_begin) { sqlite_lazy_begin("normal"); }
Test(fastpath, sqlite_lazy_begin_exclusive) { sqlite_lazy_begin("exclusive"); }

Test(fastpath, sqlite_locking_mode_checked)
{
	struct rpbt_store s;
	rpbt_open(&s, "sqlite");
	struct rpb_kv opt = {"locking_mode", "shared"};
	s.cfg.opts = &opt;
	s.cfg.nopts = 1;
	s.b->close(s.st);
	struct rpb_err err = {0};
	cr_assert_eq(s.b->open(&s.cfg, &s.st, &err), RPB_INVALID);
	cr_assert(strstr(err.msg, "[sqlite] locking_mode = shared is invalid; give one of: normal, exclusive"),
		  "%s", err.msg);
	s.st = NULL;
	rpbt_close(&s);
}
#endif

/* The TSC clock (src/core/clock.c) tells CLOCK_MONOTONIC's time: every
 * reading lies between two CLOCK_MONOTONIC readings around it, give or take
 * the calibration's error (1 ms is thousands of times that), and never goes
 * back. With the TSC unreliable it is CLOCK_MONOTONIC itself. */
Test(fastpath, clock_follows_monotonic)
{
	const char *src = rpb_clock_source();
	cr_assert(strcmp(src, "tsc") == 0 || strcmp(src, "clock_gettime") == 0, "%s", src);
	uint64_t last = 0;
	for (int i = 0; i < 100000; i++) {
		uint64_t a = rpb_mono_ns(), t = rpb_now_ns(), b = rpb_mono_ns();
		cr_assert(t + 1000000 >= a && t <= b + 1000000,
			  "%s read %llu outside [%llu, %llu]", src, (unsigned long long)t,
			  (unsigned long long)a, (unsigned long long)b);
		cr_assert_geq(t, last, "%s went back", src);
		last = t;
	}
}

#ifdef RPB_HAVE_POSTGRES
/* Round trips of a write transaction of three puts. */
static uint64_t pg_write_trips(struct rpbt_store *s, struct rpb_session *a, const char *tag)
{
	uint64_t before = rpb_postgres_round_trips(a);
	rpbt_begin(s, a, RPB_TXN_WRITE);
	char key[32];
	for (int i = 0; i < 3; i++) {
		snprintf(key, sizeof key, "%s-%d", tag, i);
		rpbt_put(s, a, RPB_T_RAW, key, "value");
	}
	rpbt_commit(s, a);
	return rpb_postgres_round_trips(a) - before;
}

static void pg_round_trips(const char *pipeline, uint64_t first, uint64_t later)
{
	struct rpbt_store s;
	struct rpb_kv opt = {"pipeline", pipeline};
	open_with(&s, "postgres", &opt);
	struct rpb_session *a = rpbt_session(&s);
	cr_assert_eq(pg_write_trips(&s, a, "a"), first, "pipeline = %s, first transaction", pipeline);
	cr_assert_eq(pg_write_trips(&s, a, "b"), later, "pipeline = %s, next transaction", pipeline);
	/* What was written in one round trip is there for another session. */
	struct rpb_session *b = rpbt_session(&s);
	struct rpb_buf out = {0};
	rpbt_begin(&s, b, RPB_TXN_READ);
	static const char *const keys[] = {"a-0", "a-2", "b-1"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		cr_assert_eq(get(&s, b, keys[i], &out), RPB_OK, "%s", keys[i]);
	rpbt_commit(&s, b);
	rpb_buf_free(&out);
	s.b->session_close(b);
	s.b->session_close(a);
	rpbt_close(&s);
}

/* One round trip whether the statements are prepared yet or not; without
 * the pipeline, BEGIN, each put and COMMIT wait on their own (and the
 * first transaction prepares the put once). */
Test(fastpath, postgres_write_transaction_is_one_round_trip) { pg_round_trips("on", 1, 1); }
Test(fastpath, postgres_without_pipeline_waits_per_statement) { pg_round_trips("off", 6, 5); }
#endif
