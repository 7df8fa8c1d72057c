/* The sortmap backend's own tests (the contract suite covers the rest):
 * its file holds each commit before close, refuses a damaged batch, and a
 * writer waits for another's lock until it is interrupted; and the real
 * driver runs ci-ingest on it and verifies the store (the tests' own
 * program, tests/bin/rpbench-example-sortmap: the backend ships in none). */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e_util.h"
#include "sortmap_backend.h"
#include "testutil.h"

static rpb_slice S(const char *s)
{
	return rpb_slice_make(s, strlen(s));
}

static struct rpb_store *open_dir(const char *dir, bool create, enum rpb_status want)
{
	struct rpb_store_cfg cfg = {.dir = dir, .sync = RPB_SYNC_COMMIT, .create = create};
	struct rpb_store *st = NULL;
	struct rpb_err err = {0};
	enum rpb_status rc = rpb_backend_sortmap.open(&cfg, &st, &err);
	cr_assert_eq(rc, want, "open %s: %s (%s)", dir, err.msg, rpb_status_name(rc));
	return st;
}

static void put_one(struct rpb_store *st, const char *key, const char *val)
{
	const struct rpb_backend *b = &rpb_backend_sortmap;
	struct rpb_session *s = NULL;
	struct rpb_err err = {0};
	cr_assert_eq(b->session_open(st, &s, &err), RPB_OK);
	cr_assert_eq(b->begin(s, RPB_TXN_WRITE, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(b->put(s, RPB_T_RAW, S(key), S(val), &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(b->commit(s, &err), RPB_OK, "%s", err.msg);
	b->session_close(s);
}

Test(sortmap, commit_is_in_the_file_before_close)
{
	char dir[256];
	rpbt_tmpdir(dir, sizeof dir, "sortmap");
	struct rpb_store *a = open_dir(dir, true, RPB_OK);
	put_one(a, "k", "v");
	/* A second store on the same file, while the first stays open. */
	struct rpb_store *b = open_dir(dir, false, RPB_OK);
	struct rpb_session *s = NULL;
	struct rpb_err err = {0};
	struct rpb_buf out = {0};
	cr_assert_eq(rpb_backend_sortmap.session_open(b, &s, &err), RPB_OK);
	cr_assert_eq(rpb_backend_sortmap.begin(s, RPB_TXN_READ, &err), RPB_OK);
	cr_assert_eq(rpb_backend_sortmap.get(s, RPB_T_RAW, S("k"), &out, &err), RPB_OK, "%s", err.msg);
	cr_assert(out.len == 1 && out.data[0] == 'v');
	rpb_backend_sortmap.session_close(s);
	rpb_buf_free(&out);
	rpb_backend_sortmap.close(b);
	rpb_backend_sortmap.close(a);
	rpbt_rmtree(dir);
}

Test(sortmap, no_store_without_create_and_a_damaged_batch_is_refused)
{
	char dir[256], path[300];
	rpbt_tmpdir(dir, sizeof dir, "sortmap");
	open_dir(dir, false, RPB_INVALID);
	struct rpb_store *a = open_dir(dir, true, RPB_OK);
	put_one(a, "key", "a value");
	rpb_backend_sortmap.close(a);
	snprintf(path, sizeof path, "%s/sortmap.dat", dir);
	int fd = open(path, O_RDWR);
	cr_assert_geq(fd, 0);
	off_t end = lseek(fd, 0, SEEK_END);
	char c = 'X';
	cr_assert_eq(pwrite(fd, &c, 1, end - 9), 1); /* the value's last byte */
	close(fd);
	open_dir(dir, false, RPB_CORRUPT);
	rpbt_rmtree(dir);
}

struct waiter {
	struct rpb_session *s;
	enum rpb_status rc;
	atomic_bool done;
};

static void *begin_write(void *p)
{
	struct waiter *w = p;
	struct rpb_err err = {0};
	w->rc = rpb_backend_sortmap.begin(w->s, RPB_TXN_WRITE, &err);
	atomic_store(&w->done, true);
	return NULL;
}

Test(sortmap, a_waiting_writer_is_interrupted)
{
	char dir[256];
	rpbt_tmpdir(dir, sizeof dir, "sortmap");
	struct rpb_store *st = open_dir(dir, true, RPB_OK);
	const struct rpb_backend *b = &rpb_backend_sortmap;
	struct rpb_session *holder = NULL;
	struct waiter w = {NULL, RPB_OK, false};
	struct rpb_err err = {0};
	cr_assert_eq(b->session_open(st, &holder, &err), RPB_OK);
	cr_assert_eq(b->session_open(st, &w.s, &err), RPB_OK);
	cr_assert_eq(b->begin(holder, RPB_TXN_WRITE, &err), RPB_OK);
	pthread_t th;
	cr_assert_eq(pthread_create(&th, NULL, begin_write, &w), 0);
	/* begin clears an interrupt that came before it, so interrupt until the
	 * waiting begin returns: it cannot get the lock the holder keeps. */
	while (!atomic_load(&w.done)) {
		b->interrupt(w.s);
		usleep(1000);
	}
	pthread_join(th, NULL);
	cr_assert_eq(w.rc, RPB_TXN_TIMEOUT, "got %s", rpb_status_name(w.rc));
	b->rollback(holder);
	cr_assert_eq(b->begin(w.s, RPB_TXN_WRITE, &err), RPB_OK, "the lock is free again");
	b->session_close(w.s);
	b->session_close(holder);
	b->close(st);
	rpbt_rmtree(dir);
}

Test(sortmap, ingest_runs_and_verifies, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init_example(&e, "sortmap");
	e2e_run_ci(&e, NULL);
	json_t *r = e2e_result(e.out);
	json_int_t acked = e2e_jint(r, "totals.acked");
	cr_assert_eq(acked, 3000, "ci-ingest is 2 threads x 1500 ops, acked %lld", (long long)acked);
	cr_assert_str_eq(e2e_jstr(r, "manifest.backend"), "sortmap");
	json_decref(r);
	e2e_verify_clean(&e, e.out, acked);
	e2e_env_fini(&e);
}
