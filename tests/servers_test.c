/* rpbench's plan of a server per server backend (src/report/servers.c):
 * which --dsn serves which backend and which get a throwaway server, over
 * a list of two server backends so the rules for more than one are checked
 * whatever this build holds. Starting servers is e2e_compare_stores'. */
#include <criterion/criterion.h>
#include <string.h>

#include "compare_exec.h"
#include "servers_plan.h"

static const struct rpb_backend_kind list[] = {
	{"postgres", RPB_BF_SERVER}, {"otherdb", RPB_BF_SERVER}, {"sqlite", 0}, {NULL, 0}};

static const char *script_of(const char *name)
{
	return strcmp(name, "sqlite") ? "scripts/some-throwaway" : NULL;
}

static void setup(void)
{
	rpb_exec_backends(list, script_of);
}

static int plan(struct rpb_servers *sv, const char *const *dsns, size_t nd, const char *const *b,
		size_t nb, bool start_all, bool start_pg, char *msg, size_t n)
{
	memset(sv, 0, sizeof *sv);
	for (size_t i = 0; i < nd; i++)
		if (rpb_servers_dsn_option(sv, dsns[i], msg, n) != 0)
			return -1;
	return rpb_servers_plan(sv, b, nb, start_all, start_pg ? "postgres" : NULL, msg, n);
}

Test(servers_plan, bare_dsn_needs_one_server, .init = setup)
{
	static struct rpb_servers sv;
	char msg[512];
	const char *both[] = {"sqlite", "postgres", "otherdb"}, *dsn[] = {"host=/tmp dbname=x"};
	cr_assert_eq(plan(&sv, dsn, 1, both, 3, false, false, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "a bare --dsn DSN serves one server backend and 2 are listed"), "%s", msg);
	cr_expect(strstr(msg, "--dsn NAME=DSN"), "%s", msg);
	cr_assert_eq(plan(&sv, dsn, 1, both + 1, 1, false, false, msg, sizeof msg), 0, "%s", msg);
	cr_expect_str_eq(rpb_servers_dsn(&sv, "postgres"), "host=/tmp dbname=x");
	cr_expect_null(rpb_servers_dsn(&sv, "sqlite"));
}

Test(servers_plan, named_dsns_and_started_servers, .init = setup)
{
	static struct rpb_servers sv;
	char msg[512];
	const char *both[] = {"sqlite", "postgres", "otherdb"};
	const char *dsn[] = {"otherdb=host=/tmp/o user=root", "postgres=host=/tmp/p"};
	cr_assert_eq(plan(&sv, dsn, 2, both, 3, false, false, msg, sizeof msg), 0, "%s", msg);
	cr_expect_str_eq(rpb_servers_dsn(&sv, "otherdb"), "host=/tmp/o user=root");
	cr_expect_str_eq(rpb_servers_dsn(&sv, "postgres"), "host=/tmp/p");
	/* One named, the other started; --start-postgres starts postgres alone. */
	cr_assert_eq(plan(&sv, dsn, 1, both, 3, true, false, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(sv.n, 2);
	cr_expect(!sv.s[0].start && sv.s[1].start && !strcmp(sv.s[1].backend, "postgres"));
	cr_assert_eq(plan(&sv, dsn, 1, both, 3, false, true, msg, sizeof msg), 0, "%s", msg);
	cr_expect(sv.s[1].start && !strcmp(sv.s[1].backend, "postgres"));
	cr_assert_eq(plan(&sv, dsn + 1, 1, both, 3, false, false, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "the otherdb backend needs a server: add --dsn otherdb=DSN or --start-servers"),
		  "%s", msg);
	/* postgres named and --start-postgres: which one is meant is unclear. */
	cr_assert_eq(plan(&sv, dsn, 2, both, 3, false, true, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "give --dsn or --start-postgres, not both"), "%s", msg);
}

Test(servers_plan, refusals, .init = setup)
{
	static struct rpb_servers sv;
	char msg[512];
	const char *pg[] = {"postgres"};
	const char *twice[] = {"postgres=dbname=a", "postgres=dbname=b"};
	cr_assert_eq(plan(&sv, twice, 2, pg, 1, false, false, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "--dsn postgres=... is given twice"), "%s", msg);
	const char *bare2[] = {"dbname=a", "dbname=b"};
	cr_assert_eq(plan(&sv, bare2, 2, pg, 1, false, false, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "--dsn DSN is given twice"), "%s", msg);
	const char *flat_dsn[] = {"sqlite=dbname=a"};
	cr_assert_eq(plan(&sv, flat_dsn, 1, pg, 1, false, false, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "sqlite is not a server backend"), "%s", msg);
	const char *unknown[] = {"nosuch=host=/tmp password=hunter2"};
	cr_assert_eq(plan(&sv, unknown, 1, pg, 1, false, false, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "nosuch is not a backend of this build"), "%s", msg);
	cr_expect(!strstr(msg, "hunter2"), "%s", msg);
	/* libpq's own forms stay bare DSNs: key=value, a URI. */
	const char *libpq[] = {"host=/tmp port=5432"}, *uri[] = {"postgresql://u@h/db?sslmode=disable"};
	cr_expect_eq(plan(&sv, libpq, 1, pg, 1, false, false, msg, sizeof msg), 0, "%s", msg);
	cr_expect_str_eq(rpb_servers_dsn(&sv, "postgres"), "host=/tmp port=5432");
	cr_expect_eq(plan(&sv, uri, 1, pg, 1, false, false, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(plan(&sv, NULL, 0, pg, 1, false, false, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "add --dsn DSN or --start-servers"), "%s", msg);
}
