/* manifest.quota: what bench/quota-run tells a run about the file system
 * under its store. The environment is untrusted: only quota-run's own
 * values are recorded, anything else is left out with one warning. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_util.h"

/* Runs ci-ingest on null with RPB_QUOTA_FS=fs (and RPB_QUOTA_SIZE=size
 * unless NULL); returns the exit-0 run's manifest.quota (NULL: absent) and
 * its stderr in *err. */
static json_t *quota_of(struct e2e_env *e, const char *fs, const char *size, char **err)
{
	setenv("RPB_QUOTA_FS", fs, 1);
	if (size)
		setenv("RPB_QUOTA_SIZE", size, 1);
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_CI_INGEST, e->out);
	e2e_args_add(&a, "--set", "ops=20", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e->cap, &a);
	unsetenv("RPB_QUOTA_FS");
	unsetenv("RPB_QUOTA_SIZE");
	e2e_assert_code(&p, 0);
	*err = strdup(p.err);
	e2e_proc_free(&p);
	json_t *r = e2e_result(e->out);
	json_t *q = json_incref(json_object_get(json_object_get(r, "manifest"), "quota"));
	json_decref(r);
	return q;
}

Test(e2e_null, quota_recorded, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char *err;
	json_t *q = quota_of(&e, "ext4", "8388608", &err);
	cr_assert_str_empty(err, "stderr: %s", err);
	cr_assert(json_is_object(q), "no manifest.quota");
	cr_assert_str_eq(json_string_value(json_object_get(q, "fs")), "ext4");
	cr_assert_eq(json_integer_value(json_object_get(q, "size_bytes")), 8388608);
	cr_assert_eq(json_object_size(q), 2);
	json_decref(q);
	free(err);
	e2e_env_fini(&e);
}

Test(e2e_null, quota_bogus_left_out, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char *err;
	/* A value quota-run never writes, with bytes a terminal would act on. */
	json_t *q = quota_of(&e, "ext4\n\x1b[2Jbtrfs", NULL, &err);
	cr_assert_null(q, "a bogus RPB_QUOTA_FS was recorded");
	cr_assert(strstr(err, "RPB_QUOTA_FS") && strchr(err, '\n') == err + strlen(err) - 1 &&
		  !strchr(err, '\x1b'), "not one warning line naming the variable: %s", err);
	free(err);

	/* A good file system with a bad size keeps the file system only. */
	e2e_env_fini(&e);
	e2e_env_init(&e, "null");
	q = quota_of(&e, "xfs", "-1", &err);
	cr_assert(strstr(err, "RPB_QUOTA_SIZE") && strchr(err, '\n') == err + strlen(err) - 1,
		  "not one warning line naming the variable: %s", err);
	cr_assert(json_is_object(q), "no manifest.quota");
	cr_assert_str_eq(json_string_value(json_object_get(q, "fs")), "xfs");
	cr_assert_null(json_object_get(q, "size_bytes"));
	json_decref(q);
	free(err);
	e2e_env_fini(&e);
}

/* bench/quota-run's refusals: one line naming the problem and the fix, exit
 * 125, before it makes a mount point or an image (nothing left behind). */
#define QUOTA_RUN RPB_SOURCE_DIR "/bench/quota-run"

static void quota_refused(struct e2e_env *e, const char *needle, ...)
{
	struct e2e_args a = {.n = 0};
	e2e_args_add(&a, "bash", QUOTA_RUN, NULL);
	va_list ap;
	va_start(ap, needle);
	e2e_args_addv(&a, ap);
	va_end(ap);
	struct e2e_proc p;
	e2e_exec(&p, e->cap, &a);
	e2e_assert_refusal(&p, 125, needle, NULL);
	e2e_proc_free(&p);
}

Test(e2e_null, quota_run_status_directory_refused, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char dir[E2E_PATH];
	e2e_path(&e, dir, "statusdir");
	cr_assert_eq(mkdir(dir, 0755), 0);
	quota_refused(&e, "is a directory; give a file's path", "--size", "8M", "--fs", "tmpfs",
		      "--status", dir, "--", "true", NULL);
}

Test(e2e_null, quota_run_size_beyond_bash_refused, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	quota_refused(&e, "is not a size like 8M", "--size", "99999999999999999999G", "--", "true",
		      NULL);
}

/* ext4's root holds lost+found: a store there would be refused by rpbench
 * after the mount; quota-run says so first. Needs root (a loop device). */
Test(e2e_null, quota_run_store_at_ext4_root_refused, .fini = e2e_cleanup)
{
	if (geteuid() != 0)
		cr_skip_test("ext4 under quota-run needs root");
	struct e2e_env e;
	e2e_env_init(&e, "null");
	char keep[E2E_PATH];
	e2e_path(&e, keep, "keep");
	quota_refused(&e, "holds lost+found; give --dir {quota}/store", "--size", "8M", "--fs", "ext4",
		      "--keep", keep, "--", e.bin, "run", E2E_CI_INGEST, "--dir", keep, "--out", e.out,
		      NULL);
	cr_assert(!e2e_exists(keep), "--keep %s was made before the refusal", keep);
	quota_refused(&e, "holds lost+found", "--size", "8M", "--fs", "ext4", "--", e.bin, "run",
		      E2E_CI_INGEST, "--dir={quota}", "--out", e.out, NULL);
}

#ifdef RPB_HAVE_SQLITE
/* A disk full under quota-run fills the file system, not sqlite.max_pages:
 * the hint says so, and does not offer to raise max_pages. */
Test(e2e_null, quota_run_disk_full_names_the_file_system, .fini = e2e_cleanup)
{
	if (geteuid() != 0)
		cr_skip_test("ext4 under quota-run needs root");
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {.n = 0};
	e2e_args_add(&a, "bash", QUOTA_RUN, "--size", "8M", "--", e.bin, "run", E2E_CI_INGEST,
		      "--set", "ops=0", "--out", e.out, "--quiet", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 3);
	json_t *r = e2e_result(e.out);
	const char *msg = e2e_jstr(r, "errors.disk-full.first_message");
	cr_assert(msg && strstr(msg, "the file system holding the store is full"), "%s", msg);
	cr_assert(!strstr(msg, "max_pages"), "%s", msg);
	json_decref(r);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}
#endif
