#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

const char *rpbt_pg_dsn(void)
{
	const char *dsn = getenv("RPB_TEST_PG_DSN");
	if (!dsn || !*dsn)
		cr_assert_fail("RPB_TEST_PG_DSN is not set: run the suite through scripts/test.sh, "
			 "which starts a throwaway PostgreSQL server");
	return dsn;
}

const char *rpbt_server_dsn(const char *backend)
{
	if (strcmp(backend, "postgres") == 0)
		return rpbt_pg_dsn();
	/* RPB_TEST_<NAME>_DSN, set by the backend's throwaway server script. */
	char var[96] = "RPB_TEST_";
	size_t n = strlen(var);
	for (const char *c = backend; *c && n + 5 < sizeof var; c++)
		var[n++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
	memcpy(var + n, "_DSN", 5);
	const char *dsn = getenv(var);
	if (!dsn || !*dsn)
		cr_assert_fail("%s is not set: run the suite through scripts/test.sh, which starts "
			       "a throwaway server for every server backend", var);
	return dsn;
}

const char *rpbt_pg_standby_dsn(void)
{
	const char *dsn = getenv("RPB_TEST_PG_STANDBY_DSN");
	if (!dsn || !*dsn)
		cr_assert_fail("RPB_TEST_PG_STANDBY_DSN is not set: run the suite through "
			       "scripts/test.sh (pg-throwaway run DIR --standby -- ...)");
	return dsn;
}

void rpbt_tmpdir(char *buf, size_t n, const char *tag)
{
	snprintf(buf, n, "/tmp/rpbt-%s-XXXXXX", tag);
	cr_assert_not_null(mkdtemp(buf), "mkdtemp %s", buf);
}

void rpbt_rmtree(const char *dir)
{
	if (strncmp(dir, "/tmp/rpbt-", 10) != 0 || strstr(dir, ".."))
		return;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		cr_log_warn("could not remove %s", dir);
}

static void open_store(struct rpbt_store *s, bool create)
{
	struct rpb_err err = {0};
	s->cfg.create = create;
	enum rpb_status st = s->b->open(&s->cfg, &s->st, &err);
	cr_assert_eq(st, RPB_OK, "%s open: %s (%s)", s->b->name, err.msg, rpb_status_name(st));
	cr_assert_not_null(s->st);
}

void rpbt_open(struct rpbt_store *s, const char *backend)
{
	rpbt_open_profile(s, backend, NULL);
}

void rpbt_open_profile(struct rpbt_store *s, const char *backend, const char *profile)
{
	static unsigned counter;
	memset(s, 0, sizeof *s);
	s->cfg.profile = profile;
	bool replica = strcmp(backend, "postgres_replica") == 0;
	if (replica) {
		backend = "postgres";
		s->read_dsn = (struct rpb_kv){"read_dsn", rpbt_pg_standby_dsn()};
		s->cfg.opts = &s->read_dsn;
		s->cfg.nopts = 1;
	}
	s->b = rpb_backend_find(backend);
	cr_assert_not_null(s->b, "backend %s is not built in", backend);
	struct rpb_err err = {0};
	cr_assert_eq(rpb_backend_validate(s->b, &err), RPB_OK, "%s", err.msg);
	s->cfg.sync = RPB_SYNC_NONE;
	if (s->b->flags & RPB_BF_SERVER) {
		snprintf(s->name, sizeof s->name, "t_%d_%u", (int)getpid(), counter++);
		s->cfg.dsn = rpbt_server_dsn(backend);
		s->cfg.name = s->name;
	} else {
		rpbt_tmpdir(s->dir, sizeof s->dir, backend);
		s->cfg.dir = s->dir;
	}
	open_store(s, true);
}

void rpbt_reopen(struct rpbt_store *s)
{
	s->b->close(s->st);
	s->st = NULL;
	open_store(s, false);
}

void rpbt_close(struct rpbt_store *s)
{
	if (s->b)
		s->b->close(s->st);
	s->st = NULL;
	if (s->dir[0])
		rpbt_rmtree(s->dir);
}

struct rpb_session *rpbt_session(struct rpbt_store *s)
{
	struct rpb_session *ss = NULL;
	struct rpb_err err = {0};
	enum rpb_status st = s->b->session_open(s->st, &ss, &err);
	cr_assert_eq(st, RPB_OK, "%s session_open: %s", s->b->name, err.msg);
	return ss;
}

void rpbt_begin(struct rpbt_store *s, struct rpb_session *ss, enum rpb_txn_mode mode)
{
	struct rpb_err err = {0};
	enum rpb_status st = s->b->begin(ss, mode, &err);
	cr_assert_eq(st, RPB_OK, "%s begin: %s", s->b->name, err.msg);
}

void rpbt_commit(struct rpbt_store *s, struct rpb_session *ss)
{
	struct rpb_err err = {0};
	enum rpb_status st = s->b->commit(ss, &err);
	cr_assert_eq(st, RPB_OK, "%s commit: %s (%s)", s->b->name, err.msg, rpb_status_name(st));
}

void rpbt_put(struct rpbt_store *s, struct rpb_session *ss, enum rpb_table t,
	      const char *key, const char *val)
{
	struct rpb_err err = {0};
	enum rpb_status st = s->b->put(ss, t, rpb_slice_make(key, strlen(key)),
				       rpb_slice_make(val, strlen(val)), &err);
	cr_assert_eq(st, RPB_OK, "%s put %s: %s", s->b->name, key, err.msg);
}
