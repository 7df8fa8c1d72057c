/* Paths options name are recorded absolute and canonical: a run started
 * with relative paths (--dir, --out, ingest.binary_dir) from one working
 * directory is verified from another with nothing missing, and its
 * result.json holds only absolute paths. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "e2e_util.h"

#ifdef RPB_HAVE_SQLITE
/* The command a, run with cwd as its working directory. */
static void in_dir(struct e2e_args *a, const char *cwd, const char *bin)
{
	a->n = 0;
	e2e_args_add(a, "/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", cwd, bin, NULL);
}

Test(e2e_paths, relative_paths_recorded_absolute, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char one[E2E_PATH], two[E2E_PATH], res[E2E_PATH], bins[E2E_PATH];
	e2e_path(&e, one, "one");
	e2e_path(&e, two, "two");
	cr_assert_eq(mkdir(one, 0755), 0);
	cr_assert_eq(mkdir(two, 0755), 0);
	struct e2e_args a;
	in_dir(&a, one, e.bin);
	/* Binaries up to 64 KiB: most go to files in the binary store. */
	e2e_args_add(&a, "run", E2E_WORKLOAD("fedora-seed-run.ini"), "--set", "ops=40", "--set",
		     "binary_dir=rel/bins", "--dir", "st", "--out", "res", "--quiet", NULL);
	e2e_exec_ok(e.cap, &a);
	snprintf(res, sizeof res, "%s/res", one);
	snprintf(bins, sizeof bins, "%s/rel/bins", one);
	json_t *r = e2e_result(res);
	json_t *opt = json_object_get(json_object_get(json_object_get(r, "manifest"), "options"),
				      "ingest.binary_dir");
	cr_assert_str_eq(json_string_value(opt), bins);
	cr_assert_str_eq(e2e_jstr(r, "pattern.fedora.binary_dir"), bins);
	cr_assert_eq(e2e_jstr(r, "manifest.store.dir")[0], '/');
	cr_assert_eq(e2e_jstr(r, "manifest.out")[0], '/');
	cr_assert_gt(e2e_count_files(bins, NULL), 0, "the run wrote binary files");
	json_decref(r);
	/* verify from the other directory finds every file. */
	in_dir(&a, two, e.bin);
	e2e_args_add(&a, "verify", "../one/res", NULL);
	char *out = e2e_exec_expect(e.cap, &a, 0);
	cr_assert(strstr(out, "verified 40 objects: 0 missing, 0 corrupt"), "verify said: %s", out);
	free(out);
	e2e_env_fini(&e);
}
#endif
