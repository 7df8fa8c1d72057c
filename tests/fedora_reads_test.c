/* The Fedora model's reads (read_mix), counted without timing anything:
 *  - through the store interface (a counting wrapper around the real
 *    backend, the pattern run in-process, durable: every read one read
 *    transaction): a list reads 1 + children documents, a list-paged
 *    1 + min(list_page, children), a fileget its nt:file and jcr:content
 *    documents, and its content from its file (file store) or from the
 *    jcr:content document (inline); the children are counted from the
 *    minted paths alone;
 *  - end to end (the real programs): the labels in result.json,
 *    summary.txt and samples.jtl, and verify finds the store as it was. */
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

static const struct rpb_backend *inner;
static _Atomic int in_read; /* threads = 1: one transaction at a time */
static _Atomic uint64_t read_gets[RPB_TABLE_COUNT], read_txns;

static enum rpb_status c_begin(struct rpb_session *s, enum rpb_txn_mode m, struct rpb_err *e)
{
	in_read = m == RPB_TXN_READ;
	read_txns += m == RPB_TXN_READ;
	return inner->begin(s, m, e);
}

static enum rpb_status c_get(struct rpb_session *s, enum rpb_table t, rpb_slice k,
			     struct rpb_buf *out, struct rpb_err *e)
{
	if (in_read)
		read_gets[t]++;
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

/* What the run's reads did: the store's gets in read transactions, the
 * labels' samples and errors, result.json's pattern.fedora.reads. */
struct counted {
	uint64_t docs, blocks, txns;
	uint64_t samples[L_COUNT], errors[L_COUNT], bytes[L_COUNT];
	json_int_t files_read, inline_read;
};

/* One in-process run of `creates` creates (threads = 1) with the sets. */
static void run_counted(const char *backend, uint64_t creates, const char *const *extra,
			struct counted *c, struct rpb_job *job_out)
{
	struct rpbt_store s;
	rpbt_open_profile(&s, backend, "durable");
	inner = s.b;
	static struct rpb_backend counting;
	counting = *s.b;
	counting.begin = c_begin;
	counting.get = c_get;
	counting.commit = c_commit;
	counting.rollback = c_rollback;
	struct rpb_job job;
	char msg[512], set[64], out[256];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, E2E_CI_INGEST, msg, sizeof msg), 0, "%s", msg);
	const char *sets[] = {"model=fedora", "threads=1", "clients=1", "probe_every=0",
			      "pairtree_count=1", "pairtree_length=1", "txn_timeout=0"};
	for (size_t k = 0; k < sizeof sets / sizeof *sets; k++)
		cr_assert_eq(rpb_job_set(&job, sets[k], msg, sizeof msg), 0, "%s", msg);
	for (size_t k = 0; extra[k]; k++)
		cr_assert_eq(rpb_job_set(&job, extra[k], msg, sizeof msg), 0, "%s", msg);
	snprintf(set, sizeof set, "ops=%llu", (unsigned long long)creates);
	cr_assert_eq(rpb_job_set(&job, set, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	job.run.txn_timeout = 0;
	rpbt_tmpdir(out, sizeof out, "fedreads");
	struct rpb_runner rn = {.backend = &counting, .store = s.st, .job = &job,
				.pattern = job.pattern, .out_dir = out,
				.store_dir = (s.b->flags & RPB_BF_SERVER) ? NULL : s.dir, .quiet = true};
	snprintf(rn.run_tag, sizeof rn.run_tag, "trd");
	struct rpb_err err = {0};
	memset(read_gets, 0, sizeof read_gets);
	read_txns = 0;
	cr_assert_eq(rpb_run(&rn, &err), RPB_OK, "%s", err.msg);
	memset(c, 0, sizeof *c);
	c->docs = read_gets[RPB_T_DESCRIPTIONS];
	c->blocks = read_gets[RPB_T_MEMBERS];
	c->txns = read_txns;
	for (unsigned l = 0; l < L_COUNT; l++) {
		c->samples[l] = atomic_load(&rn.workers[0].labels[l].samples);
		c->errors[l] = atomic_load(&rn.workers[0].labels[l].errors);
		c->bytes[l] = atomic_load(&rn.workers[0].labels[l].bytes);
	}
	cr_assert_eq(atomic_load(&rn.workers[0].acked), creates);
	json_t *obj = json_object();
	rn.pattern->report_json(&rn, obj);
	json_t *reads = json_object_get(json_object_get(obj, "fedora"), "reads");
	cr_assert(json_is_object(reads), "pattern.fedora.reads is missing");
	c->files_read = json_integer_value(json_object_get(reads, "files_read"));
	c->inline_read = json_integer_value(json_object_get(reads, "inline_read"));
	json_decref(obj);
	rpb_runner_free(&rn);
	*job_out = job; /* its options, for the expected counts; freed by the caller */
	rpbt_close(&s);
	rpbt_rmtree(out);
}

/* The children of the container at level `level` of create n's path once
 * creates 0..n are in (the root also lists /probe), from the paths alone. */
static uint64_t children_at(const struct rpb_job *job, uint64_t n, unsigned level)
{
	struct fed_path p, q;
	fed_place(&p, ingest_opts(job), job->run.seed, 0, n);
	uint64_t kids = level == 0; /* /probe */
	char seen[64][FED_PATH_MAX];
	size_t nseen = 0;
	for (uint64_t i = 0; i <= n; i++) {
		fed_place(&q, ingest_opts(job), job->run.seed, 0, i);
		if (strcmp(q.at[level], p.at[level]))
			continue;
		const char *child = q.at[level + 1];
		bool known = false;
		for (size_t k = 0; k < nseen && !known; k++)
			known = !strcmp(seen[k], child);
		if (!known) {
			cr_assert_lt(nseen, 64);
			strcpy(seen[nseen++], child);
			kids++;
		}
	}
	return kids;
}

#define CREATES 60

static void t_list(const char *backend, const char *mix, const char *at, unsigned level,
		   uint64_t page)
{
	char mset[96], aset[64], pset[64];
	snprintf(mset, sizeof mset, "read_mix=%s", mix);
	snprintf(aset, sizeof aset, "read_at=%s", at);
	snprintf(pset, sizeof pset, "list_page=%llu", (unsigned long long)page);
	const char *extra[] = {mset, aset, pset, NULL};
	struct counted c;
	struct rpb_job job;
	run_counted(backend, CREATES, extra, &c, &job);
	bool paged = !strncmp(mix, "list-paged", 10);
	unsigned label = paged ? L_LIST_PAGED : L_LIST;
	uint64_t want = 0;
	for (uint64_t n = 0; n < CREATES; n++) {
		uint64_t kids = children_at(&job, n, level);
		want += 1 + (paged && kids > page ? page : kids);
	}
	cr_assert_eq(c.samples[label], CREATES, "%s: one %s per create", backend, mix);
	cr_assert_eq(c.errors[label], 0);
	cr_assert_eq(c.txns, CREATES, "%s: each read is one read transaction", backend);
	cr_assert_eq(c.docs, want, "%s: %s at %s read %llu documents; the container and its "
		     "children are %llu", backend, mix, at, (unsigned long long)c.docs,
		     (unsigned long long)want);
	cr_assert_eq(c.blocks, 0, "child_block = 0: no block documents");
	cr_assert_gt(c.bytes[label], 0);
	rpb_job_free(&job);
}

static void t_fileget(const char *backend, const char *threshold, bool files)
{
	const char *extra[] = {"read_mix=fileget:3", "size_min=8k", "size_max=64k", threshold, NULL};
	struct counted c;
	struct rpb_job job;
	run_counted(backend, CREATES, extra, &c, &job);
	cr_assert_eq(c.samples[L_FILEGET], 3 * CREATES);
	cr_assert_eq(c.errors[L_FILEGET], 0);
	cr_assert_eq(c.txns, 3 * CREATES, "each fileget is one read transaction");
	cr_assert_eq(c.docs, 2 * 3 * CREATES, "a fileget reads the nt:file and jcr:content documents");
	cr_assert_eq(c.files_read, files ? 3 * CREATES : 0, "%s: files opened and read: %lld",
		     backend, (long long)c.files_read);
	cr_assert_eq(c.inline_read, files ? 0 : 3 * CREATES);
	/* Every content is 8..64 KiB, and a fileget gets all of it. */
	cr_assert_geq(c.bytes[L_FILEGET], 3 * CREATES * 8192ull);
	cr_assert_lt(c.bytes[L_FILEGET], 3 * CREATES * 65536ull);
	rpb_job_free(&job);
}

static void t_counts(const char *backend)
{
	t_list(backend, "list:1", "parent", 1, 1000);
	t_list(backend, "list:1", "root", 0, 1000);
	t_list(backend, "list-paged:1", "root", 0, 5);
	t_list(backend, "list-paged:1", "level:1", 1, 2);
	t_fileget(backend, "binary_threshold=4096", true);
	t_fileget(backend, "binary_threshold=0", false);
}

/* With child_block, a list reads the container's blocks too, and a
 * list-paged only as many as hold its page. */
static void t_blocks(const char *backend)
{
	const char *extra[] = {"read_mix=list-paged:1", "read_at=root", "list_page=5",
			       "child_block=4", NULL};
	struct counted c;
	struct rpb_job job;
	run_counted(backend, CREATES, extra, &c, &job);
	uint64_t docs = 0, blocks = 0;
	for (uint64_t n = 0; n < CREATES; n++) {
		uint64_t kids = children_at(&job, n, 0), got = kids > 5 ? 5 : kids;
		docs += 1 + got;
		blocks += (got + 3) / 4;
	}
	cr_assert_eq(c.docs, docs);
	cr_assert_eq(c.blocks, blocks, "blocks read: %llu, holding the page: %llu",
		     (unsigned long long)c.blocks, (unsigned long long)blocks);
	rpb_job_free(&job);
}

/* The real programs: the labels in every output, the store unchanged. */
static void t_outputs(const char *backend)
{
	struct e2e_env e;
	e2e_env_init(&e, backend);
	struct e2e_args a;
	e2e_run_args(&a, &e, E2E_CI_INGEST, e.out);
	e2e_args_add(&a, "--set", "model=fedora", "--set", "ops=200", "--set", "jtl=on", "--set",
		     "read_mix=list:1/10,list-paged:1,fileget:2", "--set", "list_page=3", "--set",
		     "size_max=16k", "--set", "on_error.conflict=retry:20", NULL);
	e2e_exec_ok(e.cap, &a);
	json_t *r = e2e_result(e.out);
	cr_assert_eq(e2e_jint(r, "labels.list.samples"), 2 * 20);
	cr_assert_eq(e2e_jint(r, "labels.list-paged.samples"), 2 * 200);
	cr_assert_eq(e2e_jint(r, "labels.fileget.samples"), 2 * 2 * 200);
	cr_assert_eq(e2e_jint(r, "labels.fileget.errors"), 0);
	cr_assert_eq(e2e_jint(r, "pattern.fedora.reads.list_page"), 3);
	json_decref(r);
	char path[E2E_PATH];
	snprintf(path, sizeof path, "%s/summary.txt", e.out);
	char *sum = e2e_slurp(path, NULL);
	snprintf(path, sizeof path, "%s/samples.jtl", e.out);
	char *jtl = e2e_slurp(path, NULL);
	cr_assert(sum && jtl);
	static const char *const labels[] = {"list", "list-paged", "fileget"};
	for (size_t k = 0; k < 3; k++) {
		char row[64], col[64];
		snprintf(row, sizeof row, "\n%s ", labels[k]);
		snprintf(col, sizeof col, ",%s,", labels[k]);
		cr_assert(strstr(sum, row), "%s: summary.txt has no %s row:\n%s", backend, labels[k], sum);
		cr_assert(strstr(jtl, col), "%s: samples.jtl has no %s sample", backend, labels[k]);
	}
	free(sum);
	free(jtl);
	e2e_verify_clean(&e, e.out, 2 * 200);
	e2e_env_fini(&e);
}

#define T(backend)                                               \
	Test(fedora_reads, counts_##backend, .timeout = 600)     \
	{                                                        \
		t_counts(#backend);                              \
		t_blocks(#backend);                              \
	}                                                        \
	Test(fedora_reads, outputs_##backend, .fini = e2e_cleanup) \
	{                                                        \
		t_outputs(#backend);                             \
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
