/* The durability level a backend option names is the one the store really
 * runs with, asked of SQLite (PRAGMA synchronous) and of the server (SHOW
 * synchronous_commit) on a session of the store; auto follows sync; a
 * value outside the choices is refused, naming them. */
#include <criterion/criterion.h>
#include <string.h>

#include "postgres_backend.h"
#include "sqlite_backend.h"
#include "testutil.h"

/* Reopens s with sync and, unless value is NULL, option = value. */
static enum rpb_status reopen_with(struct rpbt_store *s, enum rpb_sync sync, const char *option,
				   const char *value, struct rpb_err *err)
{
	static struct rpb_kv kv;
	kv = (struct rpb_kv){option, value};
	s->b->close(s->st);
	s->st = NULL;
	s->cfg.sync = sync;
	s->cfg.opts = value ? &kv : NULL;
	s->cfg.nopts = value ? 1 : 0;
	s->cfg.create = false;
	return s->b->open(&s->cfg, &s->st, err);
}

#ifdef RPB_HAVE_SQLITE
static int sqlite_level(struct rpbt_store *s, enum rpb_sync sync, const char *value)
{
	struct rpb_err err = {0};
	cr_assert_eq(reopen_with(s, sync, "synchronous", value, &err), RPB_OK, "%s", err.msg);
	struct rpb_session *ss = rpbt_session(s);
	int v = rpb_sqlite_synchronous(ss);
	s->b->session_close(ss);
	return v;
}

Test(sync_level, sqlite_synchronous)
{
	struct rpbt_store s;
	rpbt_open(&s, "sqlite");
	cr_assert_eq(sqlite_level(&s, RPB_SYNC_COMMIT, NULL), 2, "sync = commit: FULL");
	cr_assert_eq(sqlite_level(&s, RPB_SYNC_NONE, NULL), 0, "sync = none: OFF");
	cr_assert_eq(sqlite_level(&s, RPB_SYNC_COMMIT, "auto"), 2);
	static const char *const names[] = {"off", "normal", "full", "extra"};
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(sqlite_level(&s, RPB_SYNC_COMMIT, names[i]), i, "%s", names[i]);
		cr_assert_eq(sqlite_level(&s, RPB_SYNC_NONE, names[i]), i, "%s", names[i]);
	}
	struct rpb_err err = {0};
	cr_assert_eq(reopen_with(&s, RPB_SYNC_COMMIT, "synchronous", "NORMAL2", &err), RPB_INVALID);
	cr_assert_str_eq(err.msg, "[sqlite] synchronous = NORMAL2 is invalid; give one of: auto, off, "
			 "normal, full, extra");
	cr_assert_eq(reopen_with(&s, RPB_SYNC_COMMIT, "synchronous", NULL, &err), RPB_OK, "%s", err.msg);
	rpbt_close(&s);
}
#endif

#ifdef RPB_HAVE_POSTGRES
static void pg_level(struct rpbt_store *s, enum rpb_sync sync, const char *value, const char *want)
{
	struct rpb_err err = {0};
	cr_assert_eq(reopen_with(s, sync, "synchronous_commit", value, &err), RPB_OK, "%s", err.msg);
	struct rpb_session *ss = rpbt_session(s);
	char got[64] = "";
	cr_assert(rpb_postgres_synchronous_commit(ss, got, sizeof got));
	cr_assert_str_eq(got, want, "%s", value ? value : "(default)");
	s->b->session_close(ss);
}

Test(sync_level, postgres_synchronous_commit)
{
	struct rpbt_store s;
	rpbt_open(&s, "postgres");
	pg_level(&s, RPB_SYNC_COMMIT, NULL, "on");
	pg_level(&s, RPB_SYNC_NONE, NULL, "off");
	pg_level(&s, RPB_SYNC_NONE, "auto", "off");
	static const char *const names[] = {"off", "local", "remote_write", "on", "remote_apply"};
	for (int i = 0; i < 5; i++) {
		pg_level(&s, RPB_SYNC_COMMIT, names[i], names[i]);
		pg_level(&s, RPB_SYNC_NONE, names[i], names[i]);
	}
	struct rpb_err err = {0};
	cr_assert_eq(reopen_with(&s, RPB_SYNC_COMMIT, "synchronous_commit", "yes", &err),
		     RPB_INVALID);
	cr_assert_str_eq(err.msg, "[postgres] synchronous_commit = yes is invalid; give one of: auto, "
			 "off, local, remote_write, on, remote_apply");
	cr_assert_eq(reopen_with(&s, RPB_SYNC_COMMIT, "synchronous_commit", NULL, &err), RPB_OK,
		     "%s", err.msg);
	rpbt_close(&s);
}
#endif
