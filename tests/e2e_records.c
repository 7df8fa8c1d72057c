/* What result.json records is exact and complete: a seed past 2^63 as its
 * number, paths and command lines that are not UTF-8 (kept byte for byte
 * in a *_pct twin, and verify reopens the store through it), and backend
 * option values whole, however long. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "e2e_util.h"
#include "jsontext.h"

#ifdef RPB_HAVE_SQLITE

/* A short ci-ingest run into e->out, with args (up to NULL) added. */
#define RUN_OK(e, ...) e2e_run_ci(e, "--set", "ops=10", "--set", "probe_every=0", __VA_ARGS__)

static const char *option(json_t *root, const char *name)
{
	json_t *opts = json_object_get(json_object_get(root, "manifest"), "options");
	const char *v = json_string_value(json_object_get(opts, name));
	cr_assert_not_null(v, "manifest.options lacks %s", name);
	return v;
}

Test(e2e_records, seed_past_int64, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	RUN_OK(&e, "--set", "seed=18446744073709551615", NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "manifest.seed"), "18446744073709551615");
	cr_assert_str_eq(option(r, "run.seed"), "18446744073709551615");
	char *summary = NULL;
	char path[E2E_PATH + 16];
	snprintf(path, sizeof path, "%s/summary.txt", e.out);
	summary = e2e_slurp(path, NULL);
	cr_assert(summary && strstr(summary, "seed 18446744073709551615"), "%s", summary);
	free(summary);
	json_decref(r);
	/* verify reads it back (it checks manifest.seed against run.seed). */
	e2e_verify_clean(&e, e.out, 20);
	/* compare reads it back exactly. */
	struct e2e_args a = {0};
	e2e_args_add(&a, RPB_BINARY_DIR "/bin/rpbench", "compare", "--results", e.out, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	cr_assert(strstr(p.out, ", seed 18446744073709551615\n"), "%s", p.out);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* A results directory and a store directory whose names are not UTF-8. */
Test(e2e_records, paths_not_utf8, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char dir[E2E_PATH];
	snprintf(e.out, sizeof e.out, "%s/out-caf\xe9", e.tmp);
	const char *out = e.out;
	e2e_path(&e, dir, "store-\xff\xfe");
	RUN_OK(&e, "--dir", dir, NULL);
	json_t *r = e2e_result(out);
	json_t *man = json_object_get(r, "manifest");
	json_t *store = json_object_get(man, "store");
	cr_assert_not_null(json_object_get(man, "command"), "manifest.command was dropped");
	cr_assert_not_null(json_object_get(store, "dir"), "store.dir was dropped");
	char *exact = rpb_json_get_exact(store, "dir");
	cr_assert_str_eq(exact, dir);
	free(exact);
	exact = rpb_json_get_exact(man, "command");
	cr_assert(exact && strstr(exact, dir) && strstr(exact, out), "%s", exact);
	free(exact);
	json_decref(r);
	/* verify reopens the store by its exact name. */
	e2e_verify_clean(&e, out, 20);
	e2e_env_fini(&e);
}

/* A backend option (here the [postgres] section, which SQLite ignores) is
 * recorded whole, not cut at some buffer size. */
Test(e2e_records, backend_values_whole, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char set[5000];
	int k = snprintf(set, sizeof set, "postgres.application_name=");
	memset(set + k, 'a', 4000);
	set[k + 4000] = '\0';
	RUN_OK(&e, "--set", set, NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(option(r, "postgres.application_name"), set + k);
	json_decref(r);
	e2e_env_fini(&e);
}

#endif
