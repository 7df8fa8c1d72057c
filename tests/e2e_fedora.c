/* The ingest pattern's Fedora model, end to end: runs on every backend
 * with binaries in files and probes, verify clean; verify finds each kind
 * of damage (a deleted binary file, a corrupted one, a missing branch node,
 * a dangling child reference); and the model's cost signature, counted
 * through the bytes it passes to put: a parent's rewrite grows with its
 * children when its list is one document (child_block = 0), and stays
 * bounded by the block when it is split. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_util.h"
#include "ingest_fedora.h"
#include "pattern.h"
#include "workload.h"

/* A fedora run of ci-ingest with extra --set options (up to NULL). */
static void fedora_run(const struct e2e_env *e, const char *out, ...)
{
	struct e2e_args a;
	e2e_run_args(&a, e, E2E_CI_INGEST, out);
	e2e_args_add(&a, "--set", "model=fedora", NULL);
	va_list ap;
	va_start(ap, out);
	e2e_args_setv(&a, ap);
	va_end(ap);
	e2e_exec_ok(e->cap, &a);
}

static json_t *fedora_obj(json_t *r)
{
	json_t *f = json_object_get(json_object_get(r, "pattern"), "fedora");
	cr_assert(json_is_object(f), "result.json has no pattern.fedora");
	return f;
}

static json_int_t fint(json_t *r, const char *key)
{
	json_t *v = json_object_get(fedora_obj(r), key);
	cr_assert(json_is_integer(v), "pattern.fedora.%s is missing", key);
	return json_integer_value(v);
}

static void t_fedora_run_verify(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	/* Objects up to 64 KiB: most in the file store, the small ones inline;
	 * probes every 100 creates, whose files are removed with them. */
	fedora_run(&e, e.out, "size_max=64k", "probe_every=100", "ops=600", NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "pattern.model"), "fedora");
	json_int_t acked = e2e_jint(r, "totals.acked");
	cr_assert_eq(acked, 2 * 600);
	json_int_t files = fint(r, "files_written"), inl = fint(r, "inline");
	cr_assert_eq(files + fint(r, "files_shared") + inl, acked, "every create is a file or inline");
	cr_assert_gt(files, acked / 2, "most of 0..64 KiB is above 4 KiB");
	cr_assert_gt(inl, 0);
	cr_assert_gt(fint(r, "branches_created"), acked, "4 levels of 256: most paths are new");
	const char *dir = json_string_value(json_object_get(fedora_obj(r), "binary_dir"));
	cr_assert_not_null(dir);
	cr_assert_eq(e2e_count_files(dir, NULL), files, "one file per written binary, none of the probes'");
	cr_assert_eq(e2e_jint(r, "labels.probe-delete.samples"), 2 * 6);
	cr_assert_eq(e2e_jint(r, "labels.probe-delete.errors"), 0);
	json_decref(r);
	e2e_verify_clean(&e, e.out, 2 * 600);
	e2e_env_fini(&e);
}

#define T(backend)                                                                  \
	Test(e2e_##backend, fedora_run_verify, .fini = e2e_cleanup) \
	{                                                                           \
		t_fedora_run_verify(#backend);                                      \
	}
#ifdef RPB_HAVE_LEVELDB
T(leveldb)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite)
#endif
RPBT_EACH_SERVER(T)

Test(e2e_null, fedora_completes, .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "null");
	fedora_run(&e, e.out, "size_max=64k", "probe_every=100", "ops=300", NULL);
	json_t *r = e2e_result(e.out);
	cr_assert_eq(e2e_jint(r, "totals.acked"), 600);
	cr_assert_str_eq(e2e_jstr(r, "stop.reason"), "completed");
	json_decref(r);
	e2e_env_fini(&e);
}

#ifdef RPB_HAVE_SQLITE

/* The path of thread 0's create op under ci-ingest's fedora model and sets. */
static void fed_place_of(const char *const *sets, int nsets, uint64_t op, struct fed_path *p)
{
	struct rpb_job job;
	char msg[512];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, E2E_CI_INGEST, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_set(&job, "model=fedora", msg, sizeof msg), 0, "%s", msg);
	for (int k = 0; k < nsets; k++)
		cr_assert_eq(rpb_job_set(&job, sets[k], msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	fed_place(p, ingest_opts(&job), job.run.seed, 0, op);
	rpb_job_free(&job);
}

/* A fedora run on SQLite, one thread, then the path of create 7. */
static void damaged_setup(struct e2e_env *e, struct fed_path *p, const char *const *sets)
{
	e2e_env_init(e, "sqlite");
	fedora_run(e, e->out, "threads=1", "clients=1", "ops=200", "probe_every=0", sets[0], sets[1],
		   NULL);
	fed_place_of(sets, 2, 7, p);
}

static const char *run_tag(const struct e2e_env *e, char *buf, size_t n)
{
	json_t *r = e2e_result(e->out);
	snprintf(buf, n, "%s", e2e_jstr(r, "manifest.run_tag"));
	json_decref(r);
	return buf;
}

/* verify exits 4 and its first problem says what it found. */
static void assert_found(const struct e2e_env *e, const char *needle)
{
	char *out = e2e_verify(e, e->out, 4);
	cr_assert(strstr(out, needle), "verify should report \"%s\":\n%s", needle, out);
	free(out);
}

static void binary_file_of(const struct e2e_env *e, const struct fed_path *p, char *file, size_t n)
{
	struct e2e_store st;
	e2e_store_open(&st, "sqlite", e->store);
	char tag[32], key[FED_KEY_MAX];
	struct rpb_err err;
	struct rpb_buf got = {0};
	size_t kl = fed_content_key(key, run_tag(e, tag, sizeof tag), p->at[p->depth], p->len[p->depth]);
	cr_assert_eq(st.b->begin(st.s, RPB_TXN_READ, &err), RPB_OK);
	cr_assert_eq(st.b->get(st.s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, kl), &got, &err), RPB_OK,
		     "create 7's document: %s", err.msg);
	st.b->rollback(st.s);
	struct fed_doc d;
	cr_assert(fed_doc_parse(got.data, got.len, &d));
	cr_assert(d.is_file, "create 7 of size_min=64k is in a file");
	snprintf(file, n, "%s/binaries/%.2s/%.2s/%.2s/%.*s", e->store, (const char *)d.digest.data,
		 (const char *)d.digest.data + 2, (const char *)d.digest.data + 4, (int)d.digest.len,
		 (const char *)d.digest.data);
	rpb_buf_free(&got);
	e2e_store_close(&st);
}

static const char *const file_sets[] = {"size_max=64k", "size_min=64k"};
static const char *const inline_sets[] = {"size_max=1k", "binary_threshold=0"};

Test(fedora_verify, finds_a_deleted_binary_file, .fini = e2e_cleanup)
{
	struct e2e_env e;
	struct fed_path p;
	damaged_setup(&e, &p, file_sets);
	char file[E2E_PATH * 2];
	binary_file_of(&e, &p, file, sizeof file);
	cr_assert_eq(unlink(file), 0, "%s", file);
	assert_found(&e, "its binary file");
	e2e_env_fini(&e);
}

Test(fedora_verify, finds_a_corrupted_binary, .fini = e2e_cleanup)
{
	struct e2e_env e;
	struct fed_path p;
	damaged_setup(&e, &p, file_sets);
	char file[E2E_PATH * 2];
	binary_file_of(&e, &p, file, sizeof file);
	FILE *f = fopen(file, "r+");
	cr_assert_not_null(f);
	fputc('!', f);
	fclose(f);
	assert_found(&e, "a binary file whose content is not the create's");
	e2e_env_fini(&e);
}

/* A create clears its trash marker before it is acknowledged and removes
 * its spooled body at once: after a run in which no create was in doubt,
 * a marker or a spooled body is unexpected, each named. */
Test(fedora_verify, finds_a_stray_trash_marker_and_spooled_body, .fini = e2e_cleanup)
{
	struct e2e_env e;
	struct fed_path p;
	damaged_setup(&e, &p, file_sets);
	char file[E2E_PATH * 2], mark[E2E_PATH * 3], cmd[E2E_PATH * 8];
	binary_file_of(&e, &p, file, sizeof file);
	const char *digest = strrchr(file, '/') + 1;
	snprintf(mark, sizeof mark, "%s/binaries/trash/%.2s/%.2s/%.2s/%s", e.store, digest,
		 digest + 2, digest + 4, digest);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/binaries/tmp' && : > '%s/binaries/tmp/body.tmp.1.1'",
		 e.store, e.store);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	char *out = e2e_verify(&e, e.out, 4);
	cr_assert(strstr(out, "0 missing, 0 corrupt, 1 unexpected"), "%s", out);
	cr_assert(strstr(out, "spooled body body.tmp.1.1"), "the spooled body is named:\n%s", out);
	free(out);
	snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && : > '%s'", mark, mark);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	out = e2e_verify(&e, e.out, 4);
	cr_assert(strstr(out, "0 missing, 0 corrupt, 2 unexpected"), "%s", out);
	cr_assert(strstr(out, "trash marker"), "the marker is named:\n%s", out);
	free(out);
	e2e_env_fini(&e);
}

/* Removes (or, with extra, rewrites) a document of the run through the
 * store interface. */
static void edit_doc(const struct e2e_env *e, const char *path, const char *extra_child)
{
	struct e2e_store st;
	e2e_store_open(&st, "sqlite", e->store);
	char tag[32], key[FED_KEY_MAX];
	struct rpb_err err;
	struct rpb_buf got = {0}, out = {0};
	size_t kl = fed_node_key(key, run_tag(e, tag, sizeof tag), path, strlen(path));
	rpb_slice k = rpb_slice_make(key, kl);
	cr_assert_eq(st.b->begin(st.s, RPB_TXN_WRITE, &err), RPB_OK);
	if (!extra_child) {
		cr_assert_eq(st.b->del(st.s, RPB_T_DESCRIPTIONS, k, &err), RPB_OK, "%s: %s", path, err.msg);
	} else {
		cr_assert_eq(st.b->get(st.s, RPB_T_DESCRIPTIONS, k, &got, &err), RPB_OK, "%s", err.msg);
		struct fed_doc d;
		cr_assert(fed_doc_parse(got.data, got.len, &d));
		struct fed_head h = {.type = d.type, .modified_ms = 1, .children = d.children + 1};
		cr_assert_eq(fed_doc_write(&out, &h, &d, true, extra_child, strlen(extra_child),
					   rpb_slice_make(NULL, 0), &err),
			     RPB_OK);
		cr_assert_eq(st.b->put(st.s, RPB_T_DESCRIPTIONS, k, rpb_slice_make(out.data, out.len),
				       &err),
			     RPB_OK);
	}
	cr_assert_eq(st.b->commit(st.s, &err), RPB_OK, "%s", err.msg);
	rpb_buf_free(&got);
	rpb_buf_free(&out);
	e2e_store_close(&st);
}

Test(fedora_verify, finds_a_missing_branch_node, .fini = e2e_cleanup)
{
	struct e2e_env e;
	struct fed_path p;
	damaged_setup(&e, &p, inline_sets);
	edit_doc(&e, p.at[2], NULL); /* /ab/cd of create 7 */
	assert_found(&e, "branch node");
	e2e_env_fini(&e);
}

Test(fedora_verify, finds_a_dangling_child_reference, .fini = e2e_cleanup)
{
	struct e2e_env e;
	struct fed_path p;
	/* child_block = 0: the names are in the documents themselves. */
	static const char *const sets[] = {"size_max=1k", "child_block=0"};
	damaged_setup(&e, &p, sets);
	edit_doc(&e, p.at[p.depth - 1], "00000000-0000-4000-8000-000000000000");
	assert_found(&e, "a child reference points to a node that is not there");
	e2e_env_fini(&e);
}

/* profile = fedora-4.5 writes a create's documents one transaction at a
 * time: inject = partial:1@10 stops every 10th create after its first
 * document, the first branch it made, which already lists the next branch
 * (a dangling reference) and which its parent does not list yet. verify
 * takes that for the create in doubt the ledger names, not corruption; the
 * same reference from an acknowledged create's node is still found. */
static void partial_run(struct e2e_env *e, struct fed_path *doubtful)
{
	static const char *const sets[] = {"size_max=1k", "binary_threshold=0"};
	e2e_env_init(e, "sqlite");
	fedora_run(e, e->out, "threads=1", "clients=1", "ops=60", "probe_every=0", sets[0], sets[1],
		   "profile=fedora-4.5", "inject=partial:1@10", "on_error.io=continue", NULL);
	json_t *r = e2e_result(e->out);
	cr_assert_eq(e2e_jint(r, "totals.acked"), 54, "6 of 60 creates hit by the fault");
	json_decref(r);
	fed_place_of(sets, 2, 9, doubtful); /* the first hit */
}

Test(fedora_verify, partial_create_is_in_doubt_not_corrupt, .fini = e2e_cleanup)
{
	struct e2e_env e;
	struct fed_path p;
	partial_run(&e, &p);
	char *out = e2e_verify(&e, e.out, 0);
	cr_assert(strstr(out, "6 in doubt"), "the six failed creates are in doubt:\n%s", out);
	cr_assert(strstr(out, "left by creates in doubt"), "their dangling references:\n%s", out);
	free(out);
	e2e_env_fini(&e);
}

Test(fedora_verify, partial_create_accepts_nothing_more, .fini = e2e_cleanup)
{
	struct e2e_env e;
	struct fed_path p, acked;
	partial_run(&e, &p);
	/* Create 0 of thread 0 was acknowledged: its node gone, its parent's
	 * reference dangles, and no create in doubt explains it. */
	static const char *const sets[] = {"size_max=1k", "binary_threshold=0"};
	fed_place_of(sets, 2, 0, &acked);
	edit_doc(&e, acked.at[acked.depth], NULL);
	char *out = e2e_verify(&e, e.out, 4);
	cr_assert(strstr(out, "1 missing, 1 corrupt"), "the node is missing and its parent's "
		  "reference to it dangles, not accepted:\n%s", out);
	cr_assert(strstr(out, "6 records left by creates in doubt"), "%s", out);
	free(out);
	e2e_env_fini(&e);
}

/* ---- the cost signature ---- */

/* pattern.fedora.parent_rewrites: the mean bytes at the bucket whose
 * children_from is from (0 when absent). */
static double mean_at(json_t *r, json_int_t from)
{
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(fedora_obj(r), "parent_rewrites"), i, b)
		if (json_integer_value(json_object_get(b, "children_from")) == from)
			return json_number_value(json_object_get(b, "mean_bytes"));
	return 0;
}

Test(fedora_cost, parent_rewrites_grow_with_one_list_and_not_with_blocks,
     .fini = e2e_cleanup)
{
	struct e2e_env e;
	e2e_env_init(&e, "sqlite");
	char flat[E2E_PATH], blocked[E2E_PATH];
	snprintf(flat, sizeof flat, "%s/flat", e.tmp);
	snprintf(blocked, sizeof blocked, "%s/blocked", e.tmp);
	/* Every create in the root container, one thread: the root had i
	 * children (and the probe container) before create i. */
	fedora_run(&e, flat, "pairtree_count=0", "child_block=0", "threads=1", "clients=1",
		   "ops=2100", "probe_every=0", "size_max=1k", NULL);
	fedora_run(&e, blocked, "pairtree_count=0", "child_block=100", "threads=1", "clients=1",
		   "ops=2100", "probe_every=0", "size_max=1k", NULL);
	json_t *rf = e2e_result(flat), *rb = e2e_result(blocked);
	/* One list: a rewrite puts every name again, ~37 bytes each. */
	double f8 = mean_at(rf, 8), f512 = mean_at(rf, 512), f1024 = mean_at(rf, 1024);
	cr_assert_gt(f8, 0);
	cr_assert(f1024 / f512 > 1.6 && f1024 / f512 < 2.4,
		  "one list: twice the children, twice the bytes: %.0f at [512,1024), %.0f at "
		  "[1024,2048)", f512, f1024);
	cr_assert_gt(f1024, 20 * f8, "one list: %.0f bytes at [8,16), %.0f at [1024,2048)", f8, f1024);
	/* Blocks of 100: the parent's small document and one block at most. */
	double b128 = mean_at(rb, 128), b1024 = mean_at(rb, 1024);
	cr_assert_gt(b128, 0);
	cr_assert_lt(b1024, 100 * 37 + 400, "blocks of 100: %.0f bytes at [1024,2048)", b1024);
	cr_assert_lt(b1024, 1.5 * b128, "blocks: %.0f bytes at [128,256), %.0f at [1024,2048)", b128,
		     b1024);
	json_decref(rf);
	json_decref(rb);
	e2e_env_fini(&e);
}

#endif

/* inject = leak@5: each thread's 5th create abandons its open transaction,
 * its writes made. Every node sits in the root (pairtree_count = 0), so
 * every later create needs the root the leaked transaction holds: it waits
 * until the reaper, at txn_timeout, logs the transaction in state RUN and
 * rolls it back, then succeeds. The leaked creates alone fail, as
 * txn-timeout, and nothing of them stays in the store. The time limit
 * only catches a hang (a leak nobody ends). */
static void t_leak(const char *backend, const char *profile)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_CI_INGEST, e.out);
	static const char *const sets[] = {"model=fedora", "threads=2", "ops=12", "probe_every=0",
					   "size_max=8k", "pairtree_count=0", "txn_timeout=1000",
					   "inject=leak@5", "on_error.txn-timeout=continue"};
	for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++)
		e2e_args_add(&a, "--set", sets[k], NULL);
	e2e_args_add(&a, "--set", profile, NULL);
	struct e2e_proc p;
	e2e_exec(&p, e.cap, &a);
	e2e_assert_code(&p, 0);
	for (int t = 0; t < 2; t++) {
		char line[160];
		snprintf(line, sizeof line, "reaper: timeout for the transaction of operation 4 of "
					     "thread %d in state RUN", t);
		cr_assert(strstr(p.err, line), "no \"%s\" in:\n%s", line, p.err);
		cr_assert(strstr(p.err, "abandoned by its request (inject = leak), it is active: "
					"aborting it"), "%s", p.err);
	}
	e2e_proc_free(&p);
	json_t *r = e2e_result(e.out);
	cr_assert_eq(e2e_jint(r, "totals.acked"), 2 * 11, "every create but the leaked ones");
	cr_assert_eq(e2e_jint(r, "errors.txn-timeout.count"), 2, "the leaked creates");
	json_t *w0 = json_array_get(json_object_get(json_object_get(r, "ledger"), "workers"), 0);
	json_t *f = json_array_get(json_object_get(w0, "failures"), 0);
	cr_assert_eq(json_integer_value(json_array_get(f, 0)), 4, "[op, class, in_doubt]");
	cr_assert_str_eq(json_string_value(json_array_get(f, 1)), "txn-timeout");
	cr_assert(json_is_false(json_array_get(f, 2)), "nothing of it was committed, not in doubt");
	json_decref(r);
	e2e_verify_clean(&e, e.out, 2 * 11);
	e2e_env_fini(&e);
}

#define TL(backend)                                                                 \
	Test(e2e_##backend, fedora_leak_durable, .fini = e2e_cleanup)              \
	{                                                                           \
		t_leak(#backend, "profile=durable");                                \
	}                                                                           \
	Test(e2e_##backend, fedora_leak_fedora45, .fini = e2e_cleanup)             \
	{                                                                           \
		t_leak(#backend, "profile=fedora-4.5");                             \
	}
#ifdef RPB_HAVE_LEVELDB
TL(leveldb)
#endif
#ifdef RPB_HAVE_SQLITE
TL(sqlite)
#endif
RPBT_EACH_SERVER(TL)
