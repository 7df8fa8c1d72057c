/* postgres.layout: under profile = fedora-4.5 the store is Infinispan's
 * string-keyed JDBC store as Fedora 4.5 configured it (tables
 * ispn_entry_<table> with id, datum and version; a put is a SELECT of the
 * id, then an INSERT or an UPDATE), seen in the server's catalog and rows
 * and in the statements a put waits for; a store is one layout, and
 * opening it as the other is refused with the fix. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "postgres_backend.h"
#include "testutil.h"

/* The first line psql prints for sql against the test server. */
static char *psql(const char *sql)
{
	char dir[256], file[320], cmd[800];
	rpbt_tmpdir(dir, sizeof dir, "pgsql");
	snprintf(file, sizeof file, "%s/q.sql", dir);
	FILE *q = fopen(file, "w");
	cr_assert_not_null(q, "%s", file);
	fprintf(q, "%s;\n", sql);
	fclose(q);
	snprintf(cmd, sizeof cmd, "psql \"$RPB_TEST_PG_DSN\" -XAtq -f '%s' 2>&1", file);
	FILE *f = popen(cmd, "r");
	cr_assert_not_null(f);
	static char line[1024];
	size_t n = fread(line, 1, sizeof line - 1, f);
	line[n] = 0;
	pclose(f);
	rpbt_rmtree(dir);
	line[strcspn(line, "\n")] = 0;
	return line;
}

static void put1(struct rpbt_store *s, struct rpb_session *ss, const char *k, const char *v,
		 uint64_t *trips)
{
	rpbt_begin(s, ss, RPB_TXN_WRITE);
	uint64_t before = rpb_postgres_round_trips(ss);
	rpbt_put(s, ss, RPB_T_DESCRIPTIONS, k, v);
	*trips = rpb_postgres_round_trips(ss) - before;
	rpbt_commit(s, ss);
}

Test(pg_layout, fedora45_is_infinispans_jdbc_store)
{
	(void)rpbt_pg_dsn();
	struct rpbt_store s;
	rpbt_open_profile(&s, "postgres", "fedora-4.5");
	char sql[512];
	snprintf(sql, sizeof sql,
		 "SELECT string_agg(column_name || ' ' || data_type, ',' ORDER BY ordinal_position)"
		 " FROM information_schema.columns WHERE table_schema = '%s'"
		 " AND table_name = 'ispn_entry_descriptions'", s.name);
	cr_assert_str_eq(psql(sql), "id bytea,datum bytea,version bigint");
	snprintf(sql, sizeof sql,
		 "SELECT count(*) FROM pg_tables WHERE schemaname = '%s' AND tablename NOT LIKE "
		 "'ispn_entry_%%'", s.name);
	cr_assert_str_eq(psql(sql), "0", "no table of the kv layout beside them");

	struct rpb_session *ss = rpbt_session(&s);
	uint64_t insert_trips, update_trips;
	/* Each statement is prepared the first time it runs (a round trip of
	 * its own): once both have run, a put's round trips are its own. */
	put1(&s, ss, "warm", "up", &insert_trips);
	put1(&s, ss, "warm", "up", &update_trips);
	put1(&s, ss, "doc", "first", &insert_trips);
	put1(&s, ss, "doc", "second", &update_trips);
	/* The put waits for its SELECT, then for its INSERT or UPDATE (BEGIN
	 * goes with the SELECT in pipeline mode, or alone without it). */
	cr_assert_geq(insert_trips, 2, "a put is a SELECT and then an INSERT: %llu round trips",
		      (unsigned long long)insert_trips);
	cr_assert_eq(insert_trips, update_trips);
	snprintf(sql, sizeof sql,
		 "SELECT count(*), min(version), string_agg(convert_from(datum, 'UTF8'), ',') FROM "
		 "\"%s\".ispn_entry_descriptions WHERE id = 'doc'", s.name);
	cr_assert_str_eq(psql(sql), "1|-1|second", "one row, updated in place, version -1");
	struct rpb_buf b = {0};
	struct rpb_err err = {0};
	rpbt_begin(&s, ss, RPB_TXN_READ);
	cr_assert_eq(s.b->get(ss, RPB_T_DESCRIPTIONS, (rpb_slice){"doc", 3}, &b, &err), RPB_OK,
		     "%s", err.msg);
	cr_assert_eq(b.len, 6);
	cr_assert_eq(memcmp(b.data, "second", 6), 0);
	rpbt_commit(&s, ss);
	rpb_buf_free(&b);
	s.b->session_close(ss);
	rpbt_close(&s);
}

/* A store keeps the layout it was made with: opening it as the other
 * layout (an option or a profile) names the layout to give. */
Test(pg_layout, one_layout_per_store)
{
	(void)rpbt_pg_dsn();
	struct rpbt_store s;
	rpbt_open(&s, "postgres"); /* durable: kv */
	s.b->close(s.st);
	s.st = NULL;
	s.cfg.profile = "fedora-4.5";
	s.cfg.create = true;
	struct rpb_err err = {0};
	cr_assert_eq(s.b->open(&s.cfg, &s.st, &err), RPB_INVALID);
	cr_assert(strstr(err.msg, "holds a store of postgres.layout = kv, not ispn; give the layout "
			 "it was made with (--set postgres.layout=kv)"), "%s", err.msg);
	static struct rpb_kv kv = {"layout", "kv"};
	s.cfg.opts = &kv;
	s.cfg.nopts = 1;
	cr_assert_eq(s.b->open(&s.cfg, &s.st, &err), RPB_OK, "the option wins: %s", err.msg);
	s.b->close(s.st);
	kv.value = "ispn2";
	cr_assert_eq(s.b->open(&s.cfg, &s.st, &err), RPB_INVALID);
	cr_assert_str_eq(err.msg, "[postgres] layout = ispn2 is invalid; give one of: auto, kv, ispn");
	s.st = NULL;
	s.cfg.opts = NULL;
	s.cfg.nopts = 0;
	s.cfg.profile = NULL;
	rpbt_reopen(&s);
	rpbt_close(&s);
}
