/* profile = fedora-4.5 against durable, counted without timing anything:
 *  - through the store interface (a counting wrapper around the real
 *    backend, the pattern run in-process): under fedora-4.5 every write
 *    transaction puts one document, and a create writes exactly the
 *    documents it changed (the parent it adds to, each new branch, the
 *    nt:file and jcr:content nodes, the binary's reference document);
 *    under durable a create is one transaction;
 *  - in the store and on disk: two nodes per binary and one -ref document
 *    per file binary, the binary files three levels deep, the trash tree's
 *    directories there and its markers gone;
 *  - fsyncs on the file system (strace of the real program): none per
 *    create on LevelDB under fedora-4.5 with sync = native, at least one
 *    per create under durable with sync = commit. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest_fedora.h"
#include "runner.h"
#include "testutil.h"
#include "workload.h"

static const struct rpb_backend *inner;
static _Atomic uint64_t n_put, n_del, n_wbegin, n_commit_w;
static _Atomic int in_write; /* threads = 1: one session writes at a time */
static _Atomic uint64_t puts_in_txn, max_puts_in_txn;

static enum rpb_status c_begin(struct rpb_session *s, enum rpb_txn_mode m, struct rpb_err *e)
{
	if (m == RPB_TXN_WRITE) {
		/* The first is prepare's (the root and probe containers). */
		if (n_wbegin++ == 1) {
			n_put = 0;
			n_commit_w = 0;
			max_puts_in_txn = 0;
		}
		in_write = 1;
		puts_in_txn = 0;
	}
	return inner->begin(s, m, e);
}

static enum rpb_status c_put(struct rpb_session *s, enum rpb_table t, rpb_slice k, rpb_slice v,
			     struct rpb_err *e)
{
	n_put++;
	if (++puts_in_txn > max_puts_in_txn)
		max_puts_in_txn = puts_in_txn;
	return inner->put(s, t, k, v, e);
}

static enum rpb_status c_del(struct rpb_session *s, enum rpb_table t, rpb_slice k,
			     struct rpb_err *e)
{
	n_del++;
	return inner->del(s, t, k, e);
}

static enum rpb_status c_commit(struct rpb_session *s, struct rpb_err *e)
{
	if (in_write)
		n_commit_w++;
	in_write = 0;
	return inner->commit(s, e);
}

static struct rpb_backend counting;

/* Documents create i changes, from the paths alone: the nearest existing
 * ancestor (rewritten), each missing branch, the file and content nodes,
 * the reference document (every create here is a file binary). */
static uint64_t expected_docs(const struct rpb_job *job, uint64_t creates)
{
	char (*seen)[FED_PATH_MAX] = calloc(creates * FED_LEVELS_MAX + 1, FED_PATH_MAX);
	size_t nseen = 0;
	uint64_t docs = 0;
	for (uint64_t i = 0; i < creates; i++) {
		struct fed_path p;
		fed_place(&p, ingest_opts(job), job->run.seed, 0, i);
		unsigned made = 0;
		for (unsigned j = 1; j < p.depth; j++) {
			bool known = false;
			for (size_t k = 0; k < nseen && !known; k++)
				known = !strcmp(seen[k], p.at[j]);
			if (!known) {
				strcpy(seen[nseen++], p.at[j]);
				made++;
			}
		}
		docs += 1 + made + 3;
	}
	free(seen);
	return docs;
}

struct doc_count {
	uint64_t files, contents, refs;
};

static int count_doc(void *ctx, rpb_slice key, rpb_slice val)
{
	struct doc_count *c = ctx;
	struct fed_doc d;
	if (key.len > 2 && !memcmp(key.data, "r/", 2)) {
		uint64_t n;
		c->refs += fed_ref_parse(val.data, val.len, &n) && n == 1;
		return 0;
	}
	if (!fed_doc_parse(val.data, val.len, &d) || !d.op.data)
		return 0;
	c->files += d.type == FED_FILE;
	c->contents += d.type == FED_BINARY && d.is_file;
	return 0;
}

static long count_cmd(const char *cmd)
{
	FILE *f = popen(cmd, "r");
	cr_assert_not_null(f);
	long n = -1;
	cr_assert_eq(fscanf(f, "%ld", &n), 1, "%s", cmd);
	pclose(f);
	return n;
}

/* One in-process run of `creates` creates on the counting wrapper. */
static void run_counted(const char *backend, const char *profile, uint64_t creates,
			struct doc_count *dc, char *bindir, size_t bn)
{
	struct rpbt_store s;
	rpbt_open_profile(&s, backend, profile);
	inner = s.b;
	counting = *s.b;
	counting.begin = c_begin;
	counting.put = c_put;
	counting.del = c_del;
	counting.commit = c_commit;
	n_put = n_del = n_wbegin = n_commit_w = max_puts_in_txn = 0;

	struct rpb_job job;
	char msg[512], set[64], out[256];
	rpb_job_defaults(&job);
	cr_assert_eq(rpb_job_load(&job, RPB_SOURCE_DIR "/data/workloads/ci-ingest.ini", msg, sizeof msg), 0, "%s", msg);
	const char *sets[] = {"model=fedora", "threads=1", "clients=1", "probe_every=0",
			      "size_min=8k", "size_max=64k", "txn_timeout=0"};
	for (size_t k = 0; k < sizeof sets / sizeof *sets; k++)
		cr_assert_eq(rpb_job_set(&job, sets[k], msg, sizeof msg), 0, "%s", msg);
	snprintf(set, sizeof set, "profile=%s", profile);
	cr_assert_eq(rpb_job_set(&job, set, msg, sizeof msg), 0, "%s", msg);
	snprintf(set, sizeof set, "ops=%llu", (unsigned long long)creates);
	cr_assert_eq(rpb_job_set(&job, set, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	job.run.txn_timeout = 0;
	rpbt_tmpdir(out, sizeof out, "f45out");
	struct rpb_runner rn = {.backend = &counting, .store = s.st, .job = &job,
				.pattern = job.pattern, .out_dir = out,
				.store_dir = (s.b->flags & RPB_BF_SERVER) ? NULL : s.dir, .quiet = true};
	snprintf(rn.run_tag, sizeof rn.run_tag, "t45");
	struct rpb_err err = {0};
	n_put = n_del = n_wbegin = n_commit_w = max_puts_in_txn = 0;
	cr_assert_eq(rpb_run(&rn, &err), RPB_OK, "%s", err.msg);
	uint64_t acked = 0;
	for (unsigned t = 0; t < rn.nworkers; t++)
		acked += atomic_load(&rn.workers[t].acked);
	cr_assert_eq(acked, creates);
	snprintf(bindir, bn, "%s/binaries", rn.store_dir ? rn.store_dir : out);
	/* What the store holds, through the interface. */
	struct rpb_session *ss = rpbt_session(&s);
	memset(dc, 0, sizeof *dc);
	rpbt_begin(&s, ss, RPB_TXN_READ);
	cr_assert_eq(s.b->scan(ss, RPB_T_DESCRIPTIONS, NULL, NULL, 0, count_doc, dc, &err), RPB_OK,
		     "%s", err.msg);
	rpbt_commit(&s, ss);
	s.b->session_close(ss);
	uint64_t expect = expected_docs(&job, creates);
	if (!strcmp(profile, "fedora-4.5")) {
		cr_assert_eq(max_puts_in_txn, 1, "fedora-4.5: one document per store transaction");
		cr_assert_eq(n_put, n_commit_w, "every put is committed on its own");
		cr_assert_eq(n_put, expect, "puts: %llu, documents the creates changed: %llu",
			     (unsigned long long)n_put, (unsigned long long)expect);
	} else {
		cr_assert_eq(n_commit_w, creates, "durable: one commit per create");
		cr_assert_gt(max_puts_in_txn, 4);
	}
	if (!strcmp(profile, "fedora-4.5")) {
		char cmd[1200];
		snprintf(cmd, sizeof cmd, "find '%s' -mindepth 4 -maxdepth 4 -type f -not -path "
			 "'%s/trash/*' -not -path '%s/tmp/*' | wc -l", bindir, bindir, bindir);
		long nfiles = count_cmd(cmd);
		cr_assert_eq(nfiles, (long)creates, "binary files three levels deep: %ld in %s", nfiles, bindir);
		snprintf(cmd, sizeof cmd, "find '%s/trash' -mindepth 3 -type d | wc -l", bindir);
		cr_assert_geq(count_cmd(cmd), (long)creates, "the trash tree's three levels stay");
		snprintf(cmd, sizeof cmd, "find '%s/trash' -type f | wc -l", bindir);
		cr_assert_eq(count_cmd(cmd), 0, "every trash marker is gone once its create committed");
	}
	rpb_runner_free(&rn);
	rpb_job_free(&job);
	rpbt_close(&s);
	(void)n_del;
}

static void t_counts(const char *backend)
{
	char bindir[512];
	struct doc_count dc;
	run_counted(backend, "fedora-4.5", 150, &dc, bindir, sizeof bindir);
	cr_assert_eq(dc.files, 150, "one nt:file node per create");
	cr_assert_eq(dc.contents, 150, "one jcr:content node per create, holding the file's digest");
	cr_assert_eq(dc.refs, 150, "one -ref document per file binary, counting 1");
	run_counted(backend, "durable", 50, &dc, bindir, sizeof bindir);
	cr_assert_eq(dc.files, 50);
}

#ifdef RPB_HAVE_LEVELDB
Test(fedora45, counts_leveldb, .timeout = 600)
{
	t_counts("leveldb");
}

/* fsync, fdatasync and friends of one run of the program, counted by strace. */
static long fsyncs(const char *profile, unsigned creates)
{
	char tmp[256], cmd[2048];
	rpbt_tmpdir(tmp, sizeof tmp, "f45sync");
	/* LeakSanitizer cannot run under ptrace: the sanitizer build's leak
	 * check is off for the traced child (the suite checks leaks elsewhere). */
	snprintf(cmd, sizeof cmd,
		 "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
		 "strace -f -qq -o '%s/trace' -e trace=fsync,fdatasync,syncfs,sync_file_range,msync "
		 "'%s/bin/rpbench-leveldb' run '%s/data/workloads/ci-ingest.ini' -q -o '%s/out' "
		 "-s model=fedora -s profile=%s -s sync=%s -s ops=%u -s probe_every=0 "
		 "-s size_min=8k -s size_max=64k -s threads=1 >/dev/null 2>&1 && "
		 "grep -cE '(fsync|fdatasync|syncfs|sync_file_range|msync)\\(' '%s/trace'",
		 tmp, RPB_BINARY_DIR, RPB_SOURCE_DIR, tmp, profile,
		 strcmp(profile, "durable") ? "native" : "commit", creates, tmp);
	long n = count_cmd(cmd);
	rpbt_rmtree(tmp);
	return n;
}

Test(fedora45, leveldb_fsyncs_per_create, .timeout = 600)
{
	if (system("strace -V >/dev/null 2>&1") != 0)
		cr_skip_test("strace is not installed (scripts/deps.sh installs it)");
	long few = fsyncs("fedora-4.5", 20), many = fsyncs("fedora-4.5", 220);
	cr_assert_eq(many, few, "fedora-4.5 on LevelDB: no fsync per create (%ld for 20 creates, "
		     "%ld for 220)", few, many);
	long dfew = fsyncs("durable", 20), dmany = fsyncs("durable", 220);
	cr_assert_geq(dmany - dfew, 200, "durable: at least one fsync per create (%ld, %ld)", dfew,
		      dmany);
}
#endif

#ifdef RPB_HAVE_POSTGRES
/* Under fedora-4.5 the store is Infinispan's JDBC layout: each document a
 * commit of its own (pg_layout_test.c counts its statements). */
Test(fedora45, counts_postgres, .timeout = 600)
{
	t_counts("postgres");
}
#endif

#ifdef RPB_HAVE_SQLITE
Test(fedora45, counts_sqlite, .timeout = 600)
{
	t_counts("sqlite");
}
#endif
