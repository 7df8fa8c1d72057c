/* The verb preload with ingest.preload_content = sparse: each binary file
 * is a hole of its content's size. The bytes count it as written (a write
 * preload of the same seed has the same binary bytes, give or take the
 * files' last blocks), verify checks its size and says how many it could
 * not read, run --continue carries the setting; a hole in a store that was
 * written, or a sparse file that was written to since, is corruption. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_util.h"
#include "results.h"

#ifdef RPB_HAVE_SQLITE

#define OBJECTS "120"

static void preload(const struct e2e_env *e, const char *out, const char *store,
		    const char *content)
{
	char set[64];
	snprintf(set, sizeof set, "ingest.preload_content=%s", content);
	struct e2e_args a = {0};
	e2e_args_add(&a, e->bin, "preload", E2E_WORKLOAD("fedora-test3.ini"), "--objects", OBJECTS,
		     "--quiet", "--out", out, "--dir", store, "--set", "run.seed=11", "--set",
		     "ingest.probe_every=50", "--set", set, NULL);
	e2e_exec_ok(e->cap, &a);
}

/* The first regular file under dir (the binary store's three levels) whose
 * allocation is (sparse) or is not (!sparse) empty, into path. */
static bool find_file(const char *dir, bool sparse, char *path, size_t n)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	bool found = false;
	for (struct dirent *de; !found && (de = readdir(d));) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "trash") || !strcmp(de->d_name, "tmp"))
			continue;
		char sub[E2E_PATH * 2];
		snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name);
		struct stat sb;
		if (lstat(sub, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode))
			found = find_file(sub, sparse, path, n);
		else if (S_ISREG(sb.st_mode) && sb.st_size > 8192 && (sb.st_blocks == 0) == sparse) {
			snprintf(path, n, "%s", sub);
			found = true;
		}
	}
	closedir(d);
	return found;
}

static json_int_t jint(const char *out, const char *path)
{
	json_t *r = e2e_result(out);
	json_int_t v = e2e_jint(r, path);
	json_decref(r);
	return v;
}

Test(preload_sparse, bytes_verify_and_continue, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char wout[E2E_PATH], wstore[E2E_PATH], sout[E2E_PATH], sstore[E2E_PATH], run[E2E_PATH];
	e2e_path(&e, wout, "written");
	e2e_path(&e, wstore, "written-store");
	e2e_path(&e, sout, "sparse");
	e2e_path(&e, sstore, "sparse-store");
	e2e_path(&e, run, "run");
	preload(&e, wout, wstore, "write");
	preload(&e, sout, sstore, "sparse");

	/* As written: the same bytes within the files' last blocks. */
	json_int_t wb = jint(wout, "pattern.fedora.binary_bytes");
	json_int_t sb = jint(sout, "pattern.fedora.binary_bytes");
	json_int_t elided = jint(sout, "pattern.fedora.binary_elided_bytes");
	cr_assert_eq(jint(wout, "pattern.fedora.binary_elided_bytes"), 0);
	cr_assert_gt(elided, sb / 2, "the sparse store elided %lld of %lld bytes", (long long)elided,
		     (long long)sb);
	cr_assert(sb > wb * 99 / 100 && sb < wb * 101 / 100,
		  "binary bytes: written %lld, sparse counted as written %lld", (long long)wb,
		  (long long)sb);

	/* verify: clean, and says what it could not read. */
	char *v = e2e_verify(&e, sout, 0);
	cr_assert(strstr(v, "0 missing, 0 corrupt, 0 unexpected"), "%s", v);
	cr_assert(strstr(v, "preload_content = sparse"), "verify does not say what it skipped:\n%s", v);
	free(v);
	v = e2e_verify(&e, wout, 0);
	cr_assert_null(strstr(v, "sparse"), "%s", v);
	free(v);

	/* run --continue carries the setting and its own creates are written. */
	struct e2e_args a = {0};
	e2e_run_args(&a, &e, E2E_WORKLOAD("fedora-test3.ini"), run);
	e2e_args_add(&a, "--continue", sout, "--dir", sstore, "--set", "run.ops=30", "--set",
		     "run.seed=11", NULL);
	e2e_exec_ok(e.cap, &a);
	json_t *r = e2e_result(run);
	const json_t *opts = json_object_get(json_object_get(r, "manifest"), "options");
	cr_assert_str_eq(json_string_value(json_object_get(opts, "ingest.preload_content")), "sparse");
	json_decref(r);
	e2e_verify_clean(&e, run, 30);

	/* A sparse file written to is no longer the preload's: corrupt. */
	char file[E2E_PATH * 2];
	char bins[E2E_PATH + 16];
	snprintf(bins, sizeof bins, "%s/binaries", sstore);
	cr_assert(find_file(bins, true, file, sizeof file), "no sparse file under %s", bins);
	int fd = open(file, O_WRONLY);
	cr_assert_geq(fd, 0, "%s", file);
	cr_assert_eq(pwrite(fd, "!", 1, 0), 1);
	close(fd);
	v = e2e_verify(&e, sout, RPB_EXIT_VERIFY);
	cr_assert(strstr(v, "1 corrupt"), "%s", v);
	free(v);

	/* A hole where a written store had content: corrupt, not elided. */
	snprintf(bins, sizeof bins, "%s/binaries", wstore);
	cr_assert(find_file(bins, false, file, sizeof file), "no written file under %s", bins);
	struct stat st;
	cr_assert_eq(stat(file, &st), 0);
	fd = open(file, O_WRONLY);
	cr_assert_geq(fd, 0, "%s", file);
	cr_assert_eq(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, st.st_size), 0,
		     "punching %s", file);
	close(fd);
	v = e2e_verify(&e, wout, RPB_EXIT_VERIFY);
	cr_assert(strstr(v, "1 corrupt"), "%s", v);
	free(v);
	e2e_env_fini(&e);
}

/* Only the Fedora model has a file binary store to leave empty. */
Test(preload_sparse, flat_model_refused, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "run", E2E_CI_INGEST, "--out", e.out, "--set",
		     "ingest.preload_content=sparse", NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_refusal(&p, 1, "preload_content = sparse", "model = fedora", NULL);
	e2e_proc_free(&p);
	e2e_env_fini(&e);
}

#endif
