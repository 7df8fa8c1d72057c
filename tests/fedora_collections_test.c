/* The Fedora model's child lists in one flat container (pairtree_count = 0),
 * counted through the store interface (a counting wrapper around the real
 * backend, the pattern run in-process, durable: one transaction a create),
 * without timing anything:
 *  - collection = flat: a create rewrites the whole child list, so the
 *    bytes it puts grow by a child line per child already there;
 *  - collection = tiny|small|large|huge (ModeShape's unordered
 *    collections): a create rewrites the name's bucket and the parent,
 *    whose bucket ids grow only with new buckets; the growth between two
 *    sizes is exactly that, as the names' SHA-1s predict;
 *  - the parent names as many buckets as the names have distinct SHA-1
 *    prefixes of the type's length (16^N at most), each bucket holds only
 *    names of its prefix;
 *  - end to end: verify finds such a store clean, and list / list-paged
 *    read a bucketed container. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "ingest_fedora.h"
#include "runner.h"
#include "testutil.h"
#include "workload.h"

#define C_SMALL 256
#define C_LARGE 2048

static const struct rpb_backend *inner;
static uint64_t txn_bytes, commits;
static uint64_t per_commit[C_LARGE + 64];

static enum rpb_status c_put(struct rpb_session *s, enum rpb_table t, rpb_slice k, rpb_slice v,
			     struct rpb_err *e)
{
	txn_bytes += v.len;
	return inner->put(s, t, k, v, e);
}

static enum rpb_status c_commit(struct rpb_session *s, struct rpb_err *e)
{
	if (commits < sizeof per_commit / sizeof *per_commit)
		per_commit[commits] = txn_bytes;
	commits++;
	txn_bytes = 0;
	return inner->commit(s, e);
}

static void c_rollback(struct rpb_session *s)
{
	txn_bytes = 0;
	inner->rollback(s);
}

/* What one run's creates put, and the root's document after it. */
struct measured {
	uint64_t at_small, at_large; /* bytes put by the create that found C children */
	struct rpb_buf root;
	uint64_t expect_growth;      /* collections: the bucket and id lines' growth */
	unsigned id_len;
};

/* The names of creates 0..n-1 (the root's children besides "probe"). */
static void name_of(const struct rpb_job *job, uint64_t i, char *out)
{
	struct fed_path p;
	fed_place(&p, ingest_opts(job), job->run.seed, 0, i);
	memcpy(out, p.uuid, FED_UUID_LEN + 1);
}

/* Bytes of the bucket the name of create n goes to, and of the parent's
 * id lines, once creates 0..n are in (the root's first child is probe). */
static uint64_t bucket_model(const struct rpb_job *job, uint64_t n, unsigned id_len)
{
	static char seen[1 << 16];
	memset(seen, 0, sizeof seen);
	char name[FED_UUID_LEN + 1], id[FED_BUCKET_ID_MAX + 1], mine[FED_BUCKET_ID_MAX + 1];
	name_of(job, n, name);
	cr_assert(fed_bucket_id(name, strlen(name), id_len, mine));
	uint64_t bucket = 0, ids = 0;
	for (uint64_t i = 0; i <= n + 1; i++) {
		if (i == n + 1)
			strcpy(name, "probe");
		else
			name_of(job, i, name);
		cr_assert(fed_bucket_id(name, strlen(name), id_len, id));
		unsigned v = (unsigned)strtoul(id, NULL, 16);
		if (!seen[v]++)
			ids++;
		if (!strcmp(id, mine))
			bucket += strlen(name) + 1;
	}
	return bucket + ids * (strlen("bucket=\n") + id_len);
}

static void run_measured(const char *backend, const char *collection, struct measured *m)
{
	struct rpbt_store s;
	rpbt_open_profile(&s, backend, "durable");
	inner = s.b;
	static struct rpb_backend counting;
	counting = *s.b;
	counting.put = c_put;
	counting.commit = c_commit;
	counting.rollback = c_rollback;
	struct rpb_job job;
	char msg[512], cset[64], out[256];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, E2E_CI_INGEST, msg, sizeof msg), 0, "%s", msg);
	snprintf(cset, sizeof cset, "collection=%s", collection);
	const char *sets[] = {"model=fedora", "threads=1", "clients=1", "probe_every=0",
			      "pairtree_count=0", "txn_timeout=0", "size_min=100", "size_max=101",
			      "ops=2048", cset};
	for (size_t k = 0; k < sizeof sets / sizeof *sets; k++)
		cr_assert_eq(rpb_job_set(&job, sets[k], msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	job.run.txn_timeout = 0;
	rpbt_tmpdir(out, sizeof out, "fedcoll");
	struct rpb_runner rn = {.backend = &counting, .store = s.st, .job = &job,
				.pattern = job.pattern, .out_dir = out,
				.store_dir = (s.b->flags & RPB_BF_SERVER) ? NULL : s.dir, .quiet = true};
	snprintf(rn.run_tag, sizeof rn.run_tag, "tcl");
	struct rpb_err err = {0};
	txn_bytes = commits = 0;
	cr_assert_eq(rpb_run(&rn, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(atomic_load(&rn.workers[0].acked), C_LARGE);
	/* The last commit is create C_LARGE - 1's, which found C_LARGE
	 * children (probe too); create C_SMALL - 1 found C_SMALL. */
	cr_assert_geq(commits, C_LARGE);
	cr_assert_leq(commits, sizeof per_commit / sizeof *per_commit);
	m->at_large = per_commit[commits - 1];
	m->at_small = per_commit[commits - 1 - (C_LARGE - C_SMALL)];
	m->id_len = (unsigned)ingest_opts(&job)->collection;
	if (m->id_len)
		m->expect_growth = bucket_model(&job, C_LARGE - 1, m->id_len) -
				   bucket_model(&job, C_SMALL - 1, m->id_len);
	struct rpb_session *ss;
	char key[FED_KEY_MAX];
	memset(&m->root, 0, sizeof m->root);
	cr_assert_eq(s.b->session_open(s.st, &ss, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(s.b->begin(ss, RPB_TXN_READ, &err), RPB_OK, "%s", err.msg);
	cr_assert_eq(s.b->get(ss, RPB_T_DESCRIPTIONS,
			      rpb_slice_make(key, fed_node_key(key, "tcl", "/", 1)), &m->root, &err),
		     RPB_OK, "%s", err.msg);
	/* Each bucket the root names is there and holds only its own names. */
	struct fed_doc d;
	cr_assert(fed_doc_parse(m->root.data, m->root.len, &d));
	const char *p = d.bucket_lines.data, *end = p ? p + d.bucket_lines.len : NULL;
	struct rpb_buf b = {0};
	for (; p && p < end; p = strchr(p, '\n') + 1) {
		char id[FED_BUCKET_ID_MAX + 1] = "", nid[FED_BUCKET_ID_MAX + 1];
		size_t l = (size_t)(strchr(p, '\n') - p) - 7;
		cr_assert_leq(l, FED_BUCKET_ID_MAX);
		memcpy(id, p + 7, l);
		id[l] = '\0';
		cr_assert_eq(s.b->get(ss, RPB_T_MEMBERS,
				      rpb_slice_make(key, fed_bucket_key(key, "tcl", "/", 1, id)), &b,
				      &err),
			     RPB_OK, "bucket %s: %s", id, err.msg);
		for (const char *q = (const char *)b.data, *qe = q + b.len; q < qe;) {
			const char *nl = memchr(q, '\n', (size_t)(qe - q));
			cr_assert(fed_bucket_id(q, (size_t)(nl - q), m->id_len, nid));
			cr_assert_str_eq(nid, id, "bucket %s holds %.*s", id, (int)(nl - q), q);
			q = nl + 1;
		}
	}
	rpb_buf_free(&b);
	s.b->commit(ss, &err);
	s.b->session_close(ss);
	rpb_runner_free(&rn);
	rpb_job_free(&job);
	rpbt_close(&s);
	rpbt_rmtree(out);
}

/* The buckets a name set of C_LARGE creates and "probe" has: distinct prefixes. */
static uint64_t distinct_buckets(unsigned id_len)
{
	struct rpb_job job;
	char msg[256];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, E2E_CI_INGEST, msg, sizeof msg), 0, "%s", msg);
	const char *sets[] = {"model=fedora", "threads=1", "pairtree_count=0"};
	for (size_t k = 0; k < 3; k++)
		cr_assert_eq(rpb_job_set(&job, sets[k], msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	static char seen[1 << 16];
	memset(seen, 0, sizeof seen);
	char name[FED_UUID_LEN + 1], id[FED_BUCKET_ID_MAX + 1];
	uint64_t n = 0;
	for (uint64_t i = 0; i <= C_LARGE; i++) {
		if (i == C_LARGE)
			strcpy(name, "probe");
		else
			name_of(&job, i, name);
		cr_assert(fed_bucket_id(name, strlen(name), id_len, id));
		n += !seen[strtoul(id, NULL, 16)]++;
	}
	rpb_job_free(&job);
	return n;
}

static void t_costs(const char *backend)
{
	struct measured flat, m;
	run_measured(backend, "flat", &flat);
	uint64_t flat_growth = flat.at_large - flat.at_small;
	/* Each child already there is a "child=<36-character UUID>" line. */
	cr_assert_geq(flat_growth, (uint64_t)(C_LARGE - C_SMALL) * 40,
		      "%s, flat: a create at %d children put %llu bytes, at %d %llu: the whole "
		      "list is rewritten", backend, C_SMALL, (unsigned long long)flat.at_small, C_LARGE,
		      (unsigned long long)flat.at_large);
	rpb_buf_free(&flat.root);
	static const char *const types[] = {"tiny", "small", "large", "huge"};
	for (unsigned t = 0; t < 4; t++) {
		run_measured(backend, types[t], &m);
		uint64_t growth = m.at_large > m.at_small ? m.at_large - m.at_small : 0;
		/* The bucket and the parent's id lines, give or take the digits
		 * of children= and the like. */
		cr_assert_leq(growth, m.expect_growth + 64,
			      "%s, %s: growth %llu bytes, its bucket and ids %llu", backend, types[t],
			      (unsigned long long)growth, (unsigned long long)m.expect_growth);
		cr_assert_geq(growth + 64, m.expect_growth,
			      "%s, %s: growth %llu bytes, its bucket and ids %llu", backend, types[t],
			      (unsigned long long)growth, (unsigned long long)m.expect_growth);
		cr_assert_lt(growth, flat_growth / 3, "%s, %s: %llu bytes more against flat's %llu",
			     backend, types[t], (unsigned long long)growth,
			     (unsigned long long)flat_growth);
		struct fed_doc d;
		cr_assert(fed_doc_parse(m.root.data, m.root.len, &d));
		cr_assert_eq(d.bucket_len, t + 1, "%s: ModeShape's bucket id length", types[t]);
		cr_assert_eq(d.blocks, distinct_buckets(t + 1), "%s, %s: %llu buckets", backend,
			     types[t], (unsigned long long)d.blocks);
		cr_assert_leq(d.blocks, 1ull << (4 * (t + 1)));
		cr_assert_eq(d.children, C_LARGE + 1);
		rpb_buf_free(&m.root);
	}
}

/* The real programs: list and list-paged on a bucketed flat container,
 * then verify finds it clean; a bucket made wrong is found. */
static void t_verify(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_CI_INGEST, e.out);
	e2e_args_add(&a, "--set", "model=fedora", "--set", "ops=300", "--set",
		     "pairtree_count=0", "--set", "collection=small", "--set", "probe_every=50",
		     "--set", "read_mix=list:1/50,list-paged:1/10", "--set", "list_page=20",
		     /* LevelDB: a list whose container a create changed meanwhile */
		     "--set", "on_error.conflict=retry:20", NULL);
	e2e_exec_ok(e.cap, &a);
	json_t *r = e2e_result(e.out);
	cr_assert_str_eq(e2e_jstr(r, "pattern.fedora.collection"), "small");
	/* Any error but a retried conflict ends the run (exit status). */
	cr_assert_gt(e2e_jint(r, "labels.list.samples"), 0);
	cr_assert_gt(e2e_jint(r, "labels.list-paged.samples"), 0);
	json_decref(r);
	e2e_verify_clean(&e, e.out, 2 * 300); /* ci-ingest: two threads */
	e2e_env_fini(&e);
}

#define T(backend)                                                        \
	Test(fedora_collections, costs_##backend, .timeout = 900)         \
	{                                                                 \
		t_costs(#backend);                                        \
	}                                                                 \
	Test(fedora_collections, verify_##backend, .fini = e2e_cleanup)   \
	{                                                                 \
		t_verify(#backend);                                       \
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
