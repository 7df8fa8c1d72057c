/* compare's run lifecycle: --verify checks every run's store after the runs
 * (a PostgreSQL one before the throwaway server goes) and records verify's
 * line per run; a verify that fails gives exit 7 and keeps the store;
 * --clean-stores removes the stores compare made, and without it their
 * footprint is told. */
#include <criterion/criterion.h>
#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_util.h"

#if defined(RPB_HAVE_SQLITE)

enum { EXIT_USAGE = 1, EXIT_VERIFY = 7 };

/* compare.json's verify object of the run named name. */
static const json_t *run_verify(const json_t *cmp, const char *name)
{
	size_t i, j;
	json_t *col, *run;
	json_array_foreach(json_object_get(cmp, "backends"), i, col)
		json_array_foreach(json_object_get(col, "runs"), j, run)
			if (!strcmp(json_string_value(json_object_get(run, "name")), name))
				return json_object_get(run, "verify");
	return NULL;
}

static json_t *compare_json(const char *out)
{
	char path[E2E_PATH];
	snprintf(path, sizeof path, "%s/compare.json", out);
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	cr_assert_not_null(root, "%s: %s", path, jerr.text);
	return root;
}

Test(e2e_compare_stores, verify_then_clean, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "compare", E2E_CI_INGEST, "-b", "sqlite,null", "-s", "ops=200",
		      "--verify", "--clean-stores", "-o", e.out, NULL);
	char *out = e2e_exec_expect(e.cap, &a, 0);
	cr_assert(strstr(out, "verify sqlite: exit 0: verified 400 objects: 0 missing, 0 corrupt, 0 unexpected"),
		  "%s", out);
	cr_assert(strstr(out, "verify null: not verified: the null backend keeps nothing"), "%s", out);
	cr_assert(strstr(out, "stores removed: 1 ("), "%s", out);
	json_t *cmp = compare_json(e.out);
	const json_t *v = run_verify(cmp, "sqlite");
	cr_assert(json_is_integer(json_object_get(v, "exit")));
	cr_assert_eq(json_integer_value(json_object_get(v, "exit")), 0);
	cr_assert(strstr(json_string_value(json_object_get(v, "result")), "verified 400 objects"));
	cr_assert(json_is_null(json_object_get(run_verify(cmp, "null"), "exit")));
	json_decref(cmp);
	char path[E2E_PATH];
	snprintf(path, sizeof path, "%s/stores", e.out);
	cr_assert(!e2e_exists(path), "--clean-stores left %s", path);
	snprintf(path, sizeof path, "%s/runs/sqlite/result.json", e.out);
	cr_assert(e2e_exists(path), "--clean-stores removed the results too");
	snprintf(path, sizeof path, "%s/compare.md", e.out);
	char *md = e2e_slurp(path, NULL);
	cr_assert(strstr(md, "## Verify") && strstr(md, "- `sqlite`: verified 400 objects"), "%s", md);
	free(md);
	free(out);
	e2e_env_fini(&e);
}

/* Without --clean-stores the stores stay and the output says where and how
 * much; a store without rpbench's mark is never removed. */
Test(e2e_compare_stores, stores_kept_and_told, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "compare", E2E_CI_INGEST, "-b", "sqlite", "-s", "ops=50", "-o",
		      e.out, NULL);
	char *out = e2e_exec_expect(e.cap, &a, 0);
	char want[E2E_PATH];
	snprintf(want, sizeof want, " under %s/stores/*; --clean-stores removes them", e.out);
	cr_assert(strstr(out, "stores kept: ") && strstr(out, want), "%s", out);
	snprintf(want, sizeof want, "%s/stores/sqlite/.rpbench-store", e.out);
	cr_assert(e2e_exists(want), "the store was not kept");
	free(out);
	e2e_env_fini(&e);
}

Test(e2e_compare_stores, only_for_runs_compare_makes, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "compare", "--results", e.tmp, e.tmp, "--clean-stores", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, EXIT_USAGE, "--verify and --clean-stores are for compare WORKLOAD.ini",
			   NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* A store damaged between the run and its verify (the store's file
 * removed, then the real verify runs): exit 7, the run named, its store
 * kept by --clean-stores. rpbench runs the binaries beside itself, so a copy
 * of it sits beside a wrapper that damages the store first. */
Test(e2e_compare_stores, failed_verify_exits_7, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char bin[E2E_PATH], path[E2E_PATH], script[2 * E2E_PATH];
	e2e_path(&e, bin, "bin");
	cr_assert_eq(mkdir(bin, 0755), 0);
	struct e2e_args cp = {0};
	snprintf(path, sizeof path, "%s/rpbench", bin);
	e2e_args_add(&cp, "/bin/cp", RPBENCH, path, NULL);
	e2e_exec_ok(e.cap, &cp);
	snprintf(script, sizeof script,
		 "#!/bin/sh\n"
		 "[ \"$1\" = verify ] && rm -f \"$2/../../stores/$(basename \"$2\")\"/rpbench.sqlite*\n"
		 "exec %s/bin/rpbench-sqlite \"$@\"\n", RPB_BINARY_DIR);
	snprintf(path, sizeof path, "%s/rpbench-sqlite", bin);
	e2e_write_file(path, script);
	cr_assert_eq(chmod(path, 0755), 0);
	struct e2e_args a = {0};
	snprintf(path, sizeof path, "%s/rpbench", bin);
	e2e_args_add(&a, path, "compare", E2E_CI_INGEST, "-b", "sqlite", "-s", "ops=50", "--verify",
		      "--clean-stores", "-o", e.out, "-q", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, EXIT_VERIFY);
	cr_assert(strstr(p.err, "the store of the sqlite run failed its verify (exit "), "%s", p.err);
	json_t *cmp = compare_json(e.out);
	json_int_t code = json_integer_value(json_object_get(run_verify(cmp, "sqlite"), "exit"));
	cr_assert(code != 0, "compare.json records verify exit 0 for a damaged store");
	json_decref(cmp);
	snprintf(path, sizeof path, "%s/stores/sqlite/.rpbench-store", e.out);
	cr_assert(e2e_exists(path), "--clean-stores removed the store that failed its verify");
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_POSTGRES
/* --start-servers starts the postgres backend's script (pg-throwaway); the
 * throwaway server's stores are verified before it goes, and it goes. */
Test(e2e_compare_stores, verify_before_the_server_goes, .fini = e2e_cleanup)
{
	glob_t g;
	bool initdb = glob("/usr/lib/postgresql/*/bin/initdb", 0, NULL, &g) == 0;
	globfree(&g);
	if (!initdb)
		cr_skip_test("no PostgreSQL server programs");
	unsetenv("RPB_PG_THROWAWAY");
	struct e2e_env e;
	e2e_env_init(&e, "null");
	struct e2e_args a = {0};
	e2e_args_add(&a, RPBENCH, "compare", E2E_CI_INGEST, "-b", "postgres", "--start-servers",
		      "-s", "ops=40", "--verify", "-o", e.out, NULL);
	char *out = e2e_exec_expect(e.cap, &a, 0);
	cr_assert(strstr(out, "verify postgres: exit 0: verified "), "%s", out);
	cr_assert(strstr(out, "== starting a throwaway postgres server (pg-throwaway)"), "%s", out);
	cr_assert(strstr(out, "== stopped the throwaway postgres server"), "%s", out);
	free(out);
	e2e_env_fini(&e);
}
#endif

#endif
