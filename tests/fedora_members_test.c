/* The Fedora model's "Many Members" resource (members = N), counted
 * through the store interface without timing anything: N creates fill a
 * store, a second run on it (start_at = N, as run --continue sets it)
 * writes /members referencing them, and each members-get reads 1 + N
 * documents in one read transaction: the resource, then every node it
 * references. A run without enough objects in the store is refused. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "e2e_util.h"
#include "ingest_fedora.h"
#include "runner.h"
#include "testutil.h"
#include "workload.h"

#define OBJECTS 60
#define MEMBERS 50
#define GETS 7
#define STR_(x) #x
#define STR(x) STR_(x)

static const struct rpb_backend *inner;
static _Atomic int in_read;
static _Atomic uint64_t read_docs, read_txns;

static enum rpb_status c_begin(struct rpb_session *s, enum rpb_txn_mode m, struct rpb_err *e)
{
	in_read = m == RPB_TXN_READ;
	read_txns += m == RPB_TXN_READ;
	return inner->begin(s, m, e);
}

static enum rpb_status c_get(struct rpb_session *s, enum rpb_table t, rpb_slice k,
			     struct rpb_buf *out, struct rpb_err *e)
{
	if (in_read && t == RPB_T_DESCRIPTIONS)
		read_docs++;
	return inner->get(s, t, k, out, e);
}

static enum rpb_status c_commit(struct rpb_session *s, struct rpb_err *e)
{
	in_read = 0;
	return inner->commit(s, e);
}

static void c_rollback(struct rpb_session *s)
{
	in_read = 0;
	inner->rollback(s);
}

/* One in-process run (threads = 1) on s with the sets; its status. */
static enum rpb_status run_on(struct rpbt_store *s, const char *const *extra, uint64_t *samples,
			      struct rpb_err *err)
{
	static struct rpb_backend counting;
	inner = s->b;
	counting = *s->b;
	counting.begin = c_begin;
	counting.get = c_get;
	counting.commit = c_commit;
	counting.rollback = c_rollback;
	struct rpb_job job;
	char msg[512], out[256];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, E2E_CI_INGEST, msg, sizeof msg), 0, "%s", msg);
	const char *sets[] = {"model=fedora", "threads=1", "clients=1", "probe_every=0",
			      "pairtree_count=2", "pairtree_length=1", "txn_timeout=0"};
	for (size_t k = 0; k < sizeof sets / sizeof *sets; k++)
		cr_assert_eq(rpb_job_set(&job, sets[k], msg, sizeof msg), 0, "%s", msg);
	for (size_t k = 0; extra[k]; k++)
		cr_assert_eq(rpb_job_set(&job, extra[k], msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	job.run.txn_timeout = 0;
	rpbt_tmpdir(out, sizeof out, "fedmembers");
	struct rpb_runner rn = {.backend = &counting, .store = s->st, .job = &job,
				.pattern = job.pattern, .out_dir = out,
				.store_dir = (s->b->flags & RPB_BF_SERVER) ? NULL : s->dir, .quiet = true};
	snprintf(rn.run_tag, sizeof rn.run_tag, "tmb");
	read_docs = read_txns = 0;
	enum rpb_status st = rpb_run(&rn, err);
	if (!st && samples)
		*samples = atomic_load(&rn.workers[0].labels[L_MEMBERS_GET].samples);
	rpb_runner_free(&rn);
	rpb_job_free(&job);
	rpbt_rmtree(out);
	return st;
}

static void t_members(const char *backend)
{
	struct rpbt_store s;
	rpbt_open_profile(&s, backend, "durable");
	struct rpb_err err = {0};
	const char *fill[] = {"ops=" STR(OBJECTS), NULL};
	cr_assert_eq(run_on(&s, fill, NULL, &err), RPB_OK, "%s", err.msg);
	/* Too few objects for the references: refused, nothing written. */
	const char *many[] = {"start_at=" STR(OBJECTS), "members=100", "ops=1", NULL};
	cr_assert_eq(run_on(&s, many, NULL, &err), RPB_INVALID);
	cr_assert(strstr(err.msg, "preload at least 100 objects"), "%s", err.msg);
	const char *get[] = {"start_at=" STR(OBJECTS), "members=" STR(MEMBERS),
			     "read_mix=members-get:1", "ops=" STR(GETS), NULL};
	uint64_t samples = 0;
	cr_assert_eq(run_on(&s, get, &samples, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(samples, GETS);
	cr_assert_eq(read_txns, GETS, "%s: each members-get is one read transaction", backend);
	cr_assert_eq(read_docs, (uint64_t)GETS * (1 + MEMBERS),
		     "%s: %d members-gets read %llu documents; each reads the resource and its %d "
		     "references", backend, GETS, (unsigned long long)read_docs, MEMBERS);
	rpbt_close(&s);
}

/* The real programs: preload, then a run that continues it with the
 * members resource and its reads; verify finds the store clean. */
static void t_e2e(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	struct e2e_args a = {0};
	e2e_args_add(&a, e.bin, "preload", E2E_CI_INGEST, "--objects", "120", "--quiet", "--out",
		     e.out, "--set", "model=fedora", NULL);
	if (e.server)
		e2e_args_add(&a, "--dsn", e.dsn, "--schema", e.schema, NULL);
	else
		e2e_args_add(&a, "--dir", e.store, NULL);
	e2e_exec_ok(e.cap, &a);
	char cont[E2E_PATH];
	e2e_path(&e, cont, "members");
	e2e_run_args(&a, &e, E2E_CI_INGEST, cont);
	e2e_args_add(&a, "--continue", e.out, "--set", "model=fedora", "--set", "members=100",
		     "--set", "read_mix=members-get:1/5", "--set", "ops=10", "--set",
		     "on_error.conflict=retry:20", NULL);
	if (!e.server)
		e2e_args_add(&a, "--dir", e.store, NULL);
	e2e_exec_ok(e.cap, &a);
	json_t *r = e2e_result(cont);
	json_int_t n = e2e_jint(r, "labels.members-get.samples");
	cr_assert_gt(n, 0);
	/* Every members-get that did not fail read 101 documents, and none more. */
	json_int_t failed = e2e_jint(r, "labels.members-get.errors");
	json_int_t docs = e2e_jint(r, "pattern.fedora.reads.members_documents");
	cr_assert_geq(docs, (n - failed) * 101);
	cr_assert_leq(docs, n * 101);
	json_decref(r);
	e2e_verify_clean(&e, cont, 2 * 10);
	e2e_env_fini(&e);
}

#define T(backend)                                                     \
	Test(fedora_members, counts_##backend)                         \
	{                                                              \
		t_members(#backend);                                   \
	}                                                              \
	Test(fedora_members, e2e_##backend, .fini = e2e_cleanup)       \
	{                                                              \
		t_e2e(#backend);                                       \
	}
#ifdef RPB_HAVE_LEVELDB
T(leveldb)
#endif
#ifdef RPB_HAVE_SQLITE
T(sqlite)
#endif
#ifdef RPB_HAVE_POSTGRES
T(postgres)
#endif
