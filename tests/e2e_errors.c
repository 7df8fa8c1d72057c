/* End-to-end refusals: bad command lines, bad workload files, stores and
 * results directories rpbench must not touch. Each must exit with the
 * documented code (1 usage or workload, 2 environment, 4 verify), say what
 * is wrong in ONE line on stderr, and delete or change nothing. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_util.h"

/* These runs use the SQLite and LevelDB binaries. */
#if defined(RPB_HAVE_SQLITE) && defined(RPB_HAVE_LEVELDB)

enum { EXIT_USAGE = 1, EXIT_ENV = 2, EXIT_VERIFY = 4 };

/* BIN and the arguments of ap (up to NULL). */
static void bin_args(struct e2e_args *a, const struct e2e_env *e, va_list ap)
{
	a->n = 0;
	e2e_args_add(a, e->bin, NULL);
	e2e_args_addv(a, ap);
}

/* Runs BIN ARGS... (up to NULL) in the test directory. */
static void run(struct e2e_proc *p, const struct e2e_env *e, ...) __attribute__((sentinel));
static void run(struct e2e_proc *p, const struct e2e_env *e, ...)
{
	struct e2e_args a;
	va_list ap;
	va_start(ap, e);
	bin_args(&a, e, ap);
	va_end(ap);
	e2e_exec(p, e->cap, &a);
}

/* run, asserting exit 0 and a quiet stderr. */
static void run_ok(const struct e2e_env *e, ...) __attribute__((sentinel));
static void run_ok(const struct e2e_env *e, ...)
{
	struct e2e_args a;
	va_list ap;
	va_start(ap, e);
	bin_args(&a, e, ap);
	va_end(ap);
	e2e_exec_ok(e->cap, &a);
}

/* A usage refusal creates nothing: not even the results directory. */
static void usage_refused(const char *backend, const char *needle, ...) __attribute__((sentinel));
static void usage_refused(const char *backend, const char *needle, ...)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, NULL);
	va_list ap;
	va_start(ap, needle);
	for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
		e2e_args_add(&a, !strcmp(s, "OUT") ? e.out : s, NULL);
	va_end(ap);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, EXIT_USAGE, needle, NULL);
	cr_assert(!e2e_exists(e.out), "`%s` was refused but created %s", p.cmd, e.out);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* ---- the command line and the workload ---- */

Test(e2e_errors, unknown_option, .fini = e2e_cleanup)
{
	usage_refused("sqlite", "'--bogus'", "run", E2E_CI_INGEST, "--bogus", "--out", "OUT", NULL);
}

Test(e2e_errors, unknown_command, .fini = e2e_cleanup)
{
	usage_refused("sqlite", "'frobnicate'", "frobnicate", E2E_CI_INGEST, "--out", "OUT", NULL);
}

Test(e2e_errors, missing_workload, .fini = e2e_cleanup)
{
	usage_refused("sqlite", "/nonexistent/rpbench-e2e.ini", "run", "/nonexistent/rpbench-e2e.ini",
		      "--out", "OUT", NULL);
}

Test(e2e_errors, workload_unknown_key, .fini = e2e_cleanup)
{
	usage_refused("sqlite", "e2e-unknown-key.ini:8:", "run", E2E_FIXTURE("e2e-unknown-key.ini"),
		      "--out", "OUT", NULL);
	usage_refused("sqlite", "'probe_evry'", "run", E2E_FIXTURE("e2e-unknown-key.ini"), "--out",
		      "OUT", NULL);
}

Test(e2e_errors, workload_malformed_line, .fini = e2e_cleanup)
{
	usage_refused("sqlite", "e2e-malformed.ini:4:", "run", E2E_FIXTURE("e2e-malformed.ini"),
		      "--out", "OUT", NULL);
}

Test(e2e_errors, out_of_range, .fini = e2e_cleanup)
{
	usage_refused("sqlite", "e2e-threads0.ini:3:", "run", E2E_FIXTURE("e2e-threads0.ini"),
		      "--out", "OUT", NULL);
	usage_refused("sqlite", "[1, 1024]", "run", E2E_FIXTURE("e2e-threads0.ini"), "--out", "OUT",
		      NULL);
	usage_refused("sqlite", "[1, 1024]", "run", E2E_CI_INGEST, "--set", "threads=0", "--out",
		      "OUT", NULL);
}

Test(e2e_errors, set_unknown_key, .fini = e2e_cleanup)
{
	usage_refused("sqlite", "'bogus'", "run", E2E_CI_INGEST, "--set", "bogus=3", "--out", "OUT",
		      NULL);
}

#ifdef RPB_HAVE_POSTGRES
Test(e2e_errors, dir_with_postgres, .fini = e2e_cleanup)
{
	usage_refused("postgres", "--dir", "run", E2E_CI_INGEST, "--dir", "/tmp/rpbt-e2e-never",
		      "--out", "OUT", NULL);
	cr_assert(!e2e_exists("/tmp/rpbt-e2e-never"), "--dir with postgres created the directory");
}

Test(e2e_errors, wrong_dsn, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "postgres");
	struct e2e_proc p;
	run(&p, &e, "run", E2E_CI_INGEST, "--quiet", "--out", e.out, "--dsn",
	    "host=/nonexistent/socket dbname=x password=hunter2", "--schema", e.schema, NULL);
	e2e_assert_refusal(&p, EXIT_ENV, "/nonexistent/socket", NULL);
	cr_assert_null(strstr(p.err, "hunter2"), "the message shows the DSN password: %s", p.err);
	e2e_assert_no_secret(p.cmd, e.tmp, NULL, "hunter2");
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}
#endif

/* ---- store directories ---- */

Test(e2e_errors, store_dir_uncreatable, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_proc p;
	run(&p, &e, "run", E2E_CI_INGEST, "--quiet", "--out", e.out, "--dir", "/proc/rpbench-x",
	    NULL);
	e2e_assert_refusal(&p, EXIT_ENV, "/proc/rpbench-x", NULL);
	e2e_proc_free(&p);

	char file[E2E_PATH], under[E2E_PATH + 8], out2[E2E_PATH];
	e2e_write_file(e2e_path(&e, file, "plain"), "a regular file\n");
	snprintf(under, sizeof under, "%s/sub", file);
	char *before = e2e_tree(e.tmp);
	run(&p, &e, "run", E2E_CI_INGEST, "--quiet", "--out", e2e_path(&e, out2, "out2"), "--dir",
	    under, NULL);
	e2e_assert_refusal(&p, EXIT_ENV, under, NULL);
	char *after = e2e_tree(e.tmp);
	e2e_assert_tree_kept(before, after, "a --dir under a regular file");
	free(before);
	free(after);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

/* A directory with a file rpbench did not create: refused, with or without
 * --fresh, and left exactly as it was (no mark added). */
static void unmarked_refused(bool fresh)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char dir[E2E_PATH], precious[E2E_PATH + 16];
	e2e_path(&e, dir, "data");
	cr_assert_eq(mkdir(dir, 0755), 0);
	snprintf(precious, sizeof precious, "%s/precious", dir);
	e2e_write_file(precious, "years of work\n");
	char *before = e2e_tree(dir);
	struct e2e_proc p;
	run(&p, &e, "run", E2E_CI_INGEST, "--quiet", "--out", e.out, "--dir", dir,
	    fresh ? "--fresh" : NULL, NULL);
	e2e_assert_refusal(&p, EXIT_ENV, dir, NULL);
	char *after = e2e_tree(dir);
	cr_assert_str_eq(after, before, "the refused directory changed");
	char *text = e2e_slurp(precious, NULL);
	cr_assert_str_eq(text ? text : "(gone)", "years of work\n", "precious was changed");
	free(text);
	free(before);
	free(after);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

Test(e2e_errors, unmarked_dir_refused, .fini = e2e_cleanup)
{
	unmarked_refused(false);
}

Test(e2e_errors, fresh_unmarked_refused, .fini = e2e_cleanup)
{
	unmarked_refused(true);
}

Test(e2e_errors, fresh_empties_marked_store, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char dir[E2E_PATH], out1[E2E_PATH], out2[E2E_PATH];
	e2e_path(&e, dir, "store");
	e2e_path(&e, out1, "out1");
	e2e_path(&e, out2, "out2");
	run_ok(&e, "run", E2E_CI_INGEST, "--quiet", "--out", out1, "--dir", dir, "--set", "ops=200",
	       NULL);
	json_t *r = e2e_result(out1);
	long long acked = (long long)e2e_jint(r, "totals.acked");
	json_decref(r);

	run_ok(&e, "run", E2E_CI_INGEST, "--quiet", "--out", out2, "--dir", dir, "--fresh", "--set",
	       "ops=10", NULL);

	struct e2e_proc p;
	run(&p, &e, "verify", out1, NULL);
	e2e_assert_code(&p, EXIT_VERIFY);
	char want[128];
	snprintf(want, sizeof want, "verified %lld objects: %lld missing, 0 corrupt, 0 unexpected\n",
		 acked, acked);
	cr_assert(!strncmp(p.out, want, strlen(want)),
		  "verify of the run before --fresh printed \"%s\", expected \"%s\"", p.out, want);
	e2e_proc_free(&p);
	free(e2e_verify(&e, out2, 0));
	e2e_env_fini(&e);
}

/* ---- results directories ---- */

Test(e2e_errors, out_holds_result, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char old[E2E_PATH + 16];
	cr_assert_eq(mkdir(e.out, 0755), 0);
	snprintf(old, sizeof old, "%s/result.json", e.out);
	e2e_write_file(old, "{\"old\": true}\n");
	char *before = e2e_tree(e.out);
	struct e2e_proc p;
	run(&p, &e, "run", E2E_CI_INGEST, "--quiet", "--out", e.out, NULL);
	e2e_assert_refusal(&p, EXIT_ENV, "result.json", NULL);
	char *after = e2e_tree(e.out);
	cr_assert_str_eq(after, before, "the refused results directory changed");
	free(before);
	free(after);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

Test(e2e_errors, verify_without_result, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	cr_assert_eq(mkdir(e.out, 0755), 0);
	struct e2e_proc p;
	run(&p, &e, "verify", e.out, NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "result.json", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

#if defined(RPB_HAVE_LEVELDB) && defined(RPB_HAVE_SQLITE)
Test(e2e_errors, verify_wrong_binary, .fini = e2e_cleanup)
{
	struct e2e_env e, s;
	e2e_env_init(&e, "leveldb");
	e2e_run_ci(&e, "--set", "ops=10", NULL);
	e2e_env_init(&s, "sqlite");
	struct e2e_proc p;
	run(&p, &s, "verify", e.out, NULL);
	e2e_assert_refusal(&p, EXIT_USAGE, "rpbench-leveldb", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&s);
	e2e_env_fini(&e);
}
#endif

/* ---- read-only directories ---- */

/* Root ignores permission bits, so a read-only bind mount makes the
 * directory truly read-only; without the right to mount, chmod does. The
 * fini hook unmounts even when an assertion ended the test. */
static char ro_dir[E2E_PATH];
static bool ro_mounted;

static void ro_release(void)
{
	if (ro_mounted && umount(ro_dir) == 0)
		ro_mounted = false;
	if (ro_dir[0])
		chmod(ro_dir, 0755);
}

static void ro_fini(void)
{
	ro_release();
	e2e_cleanup();
}

static void ro_make(const struct e2e_env *e)
{
	e2e_path(e, ro_dir, "ro");
	cr_assert_eq(mkdir(ro_dir, 0755), 0);
	char file[E2E_PATH + 16];
	snprintf(file, sizeof file, "%s/kept", ro_dir);
	e2e_write_file(file, "must survive\n");
	if (mount(ro_dir, ro_dir, NULL, MS_BIND, NULL) == 0) {
		ro_mounted = true;
		if (mount(NULL, ro_dir, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) == 0)
			return;
		ro_release();
	}
	cr_assert_eq(chmod(ro_dir, 0555), 0, "chmod %s: %s", ro_dir, strerror(errno));
	cr_assert(access(file, W_OK) != 0 || geteuid() != 0,
		  "neither a read-only mount nor chmod makes %s read-only", ro_dir);
}

/* One refused run against the read-only directory, which must not change. */
static void ro_case(const struct e2e_env *e, const char *backend, const char *flag,
		    const char *needle)
{
	struct e2e_env b;
	e2e_env_init(&b, backend);
	char *before = e2e_tree(ro_dir);
	struct e2e_proc p;
	struct e2e_args a = {0};
	char out[E2E_PATH + 16];
	snprintf(out, sizeof out, "%s/out-%s", e->tmp, backend);
	e2e_args_add(&a, b.bin, "run", E2E_CI_INGEST, "--quiet", NULL);
	if (!strcmp(flag, "--dir"))
		e2e_args_add(&a, "--out", out, "--dir", ro_dir, NULL);
	else
		e2e_args_add(&a, "--out", ro_dir, NULL);
	e2e_exec(&p, b.cap, &a);
	char *after = e2e_tree(ro_dir);
	e2e_assert_refusal(&p, EXIT_ENV, ro_dir, NULL);
	cr_assert_str_eq(after, before, "the read-only directory changed");
	cr_assert(strstr(p.err, needle), "`%s`: the message should name %s, the option to change: %s",
		  p.cmd, needle, p.err);
	free(before);
	free(after);
	e2e_proc_free(&p);
	e2e_env_fini(&b);
}

Test(e2e_errors, readonly_store_dir, .fini = ro_fini)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	ro_make(&e);
#ifdef RPB_HAVE_SQLITE
	ro_case(&e, "sqlite", "--dir", "--dir");
#endif
#ifdef RPB_HAVE_LEVELDB
	ro_case(&e, "leveldb", "--dir", "--dir");
#endif
	ro_release();
	e2e_env_fini(&e);
}

Test(e2e_errors, readonly_out_dir, .fini = ro_fini)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	ro_make(&e);
	ro_case(&e, "sqlite", "--out", "--out");
	ro_release();
	e2e_env_fini(&e);
}
#endif
