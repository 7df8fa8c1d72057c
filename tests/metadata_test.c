/* The metadata pattern's model (src/patterns/metadata/metadata_ns.c) and options: the cycle,
 * ids and records, the [metadata] options, and the namespace operations on
 * real stores (a recursive delete removes a whole subtree, mkdir and rename
 * refuse a taken name). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "pattern.h"
#include "metadata.h"
#include "testutil.h"

Test(metadata, cycle)
{
	static const char *const want[] = {"mkdir", "getFileId", "rename", "delete"};
	struct rpb_metadata_opts o = {.preload = 50};
	for (uint64_t i = 0; i < 12; i++) {
		cr_assert_str_eq(md_op_names[md_op_of(i)], want[i % 4], "op %llu",
				 (unsigned long long)i);
		cr_assert_eq(md_cycle_seq(&o, i), 50 + i / 4, "one new id per cycle");
	}
}

Test(metadata, ids_and_paths)
{
	char buf[MD_ID_MAX], key[MD_KEY_MAX];
	cr_assert_eq(md_id(buf, "abcd1234", "n0", MD_OWNER_SETUP, 3), 26);
	cr_assert_str_eq(buf, "abcd1234:n0:s:000000000003");
	md_id(buf, "abcd1234", "n0", 7, 51);
	cr_assert_str_eq(buf, "abcd1234:n0:0007:000000000051");
	md_name_key(key, buf, strlen(buf), "x", 1);
	cr_assert_str_eq(key, "abcd1234:n0:0007:000000000051/x");
	md_target_name(buf, 3, false);
	cr_assert_str_eq(buf, "3");
	md_target_name(buf, 3, true);
	cr_assert_str_eq(buf, "3-");
	md_preload_name(buf, 3, 12);
	cr_assert_str_eq(buf, "3.12");

	struct rpb_metadata_opts o = {.workspace = "/tmp/tachyon-perf-workspace", .node = "host1"};
	struct md_path p;
	cr_assert(md_node_dir(&p, &o));
	cr_assert_str_eq(p.text, "/tmp/tachyon-perf-workspace/host1");
	cr_assert_eq(p.n, 3);
	cr_assert_str_eq(p.comp[0], "tmp");
	cr_assert_str_eq(p.comp[1], "tachyon-perf-workspace");
	cr_assert_str_eq(p.comp[2], "host1");
}

Test(metadata, inode_records)
{
	char rec[MD_REC_MAX];
	size_t n = md_inode_format(rec, MD_DIR, "p:1", 3, "0-", 2, 5, 7);
	cr_assert_str_eq(rec, "type=dir\nparent=p:1\nname=0-\ncreated=5\nchanged=7\n");
	struct md_inode in;
	cr_assert(md_inode_parse(rec, n, &in));
	cr_assert(md_slice_eq(in.parent, "p:1", 3));
	cr_assert(md_slice_eq(in.name, "0-", 2));
	cr_assert(md_slice_eq(in.type, "dir", 3));
	cr_assert_not(md_inode_parse(rec, n - 1, &in), "a cut record is refused");
	cr_assert_not(md_inode_parse("type=link\nparent=\nname=\ncreated=1\nchanged=1\n", 44, &in));
}

/* ---- options ---- */

static void set_ok(struct rpb_job *job, const char *a)
{
	char msg[1024] = "";
	cr_assert_eq(rpb_job_set(job, a, msg, sizeof msg), 0, "%s: %s", a, msg);
}

Test(metadata, options)
{
	struct rpb_job job;
	char msg[1024] = "";
	rpb_job_defaults(&job);
	set_ok(&job, "preload=10");
	cr_assert_eq(job.pattern, rpb_pattern_find("metadata"), "a [metadata] key chooses the pattern");
	cr_assert_eq(rpb_job_finish(&job, msg, sizeof msg), 0, "%s", msg);
	cr_assert_str_eq(md_opts(&job)->workspace, "/tmp/tachyon-perf-workspace");
	cr_assert_neq(md_opts(&job)->node[0], '\0', "the node defaults to the host name or node0");
	cr_assert_eq(md_opts(&job)->preload, 10);
	cr_assert_eq(md_opts(&job)->inject_failure_at, 0);
	cr_assert_not(md_opts(&job)->trace);

	/* The resolved strings survive the JSON dump that verify reads. */
	set_ok(&job, "node=alpha-1");
	set_ok(&job, "metadata.workspace=/w/x");
	json_t *j = rpb_job_to_json(&job);
	struct rpb_job back;
	cr_assert_eq(rpb_job_from_json(&back, j, msg, sizeof msg), 0, "%s", msg);
	cr_assert_str_eq(md_opts(&back)->node, "alpha-1");
	cr_assert_str_eq(md_opts(&back)->workspace, "/w/x");
	json_decref(j);
	rpb_job_free(&back);

	static const char *const bad[] = {"workspace=relative", "workspace=/a//b", "workspace=/a/../b",
					  "workspace=/a b", "node=a/b", "workspace=/"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct rpb_job b;
		rpb_job_defaults(&b);
		set_ok(&b, bad[i]);
		cr_assert_neq(rpb_job_finish(&b, msg, sizeof msg), 0, "%s accepted", bad[i]);
		cr_assert(strstr(msg, "[metadata] ") && strstr(msg, "is invalid; give "), "%s: %s",
			  bad[i], msg);
		rpb_job_free(&b);
	}
	char big[200];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	char a[256];
	snprintf(a, sizeof a, "node=%s", big);
	cr_assert_neq(rpb_job_set(&job, a, msg, sizeof msg), 0);
	cr_assert(strstr(msg, "is out of range; give text of at most 48 bytes"), "%s", msg);
	rpb_job_free(&job);
}

/* ---- namespace operations on a real store ---- */

struct fs {
	struct rpbt_store st;
	struct rpb_session *s;
	struct rpb_buf buf;
	struct md_ns ns;
	struct rpb_err err;
};

static void fs_open(struct fs *f, const char *backend)
{
	memset(f, 0, sizeof *f);
	rpbt_open(&f->st, backend);
	f->s = rpbt_session(&f->st);
	f->ns = (struct md_ns){f->st.b, f->s, &f->buf, false};
	cr_assert_eq(rpb_buf_reserve(&f->buf, MD_REC_MAX, &f->err), RPB_OK);
	/* The root "r". */
	char rec[MD_REC_MAX];
	size_t n = md_inode_format(rec, MD_DIR, "", 0, "", 0, 1, 1);
	rpbt_begin(&f->st, f->s, RPB_TXN_WRITE);
	cr_assert_eq(f->st.b->put(f->s, RPB_T_INODES, rpb_slice_make("r", 1), rpb_slice_make(rec, n),
				  &f->err),
		     RPB_OK);
	rpbt_commit(&f->st, f->s);
}

static void fs_close(struct fs *f)
{
	rpb_buf_free(&f->buf);
	f->st.b->session_close(f->s);
	rpbt_close(&f->st);
}

/* Runs one namespace call in a write transaction, setting out: commit on
 * success, rollback otherwise. */
#define IN_TXN(f, out, call)                                 \
	do {                                                 \
		rpbt_begin(&(f)->st, (f)->s, RPB_TXN_WRITE); \
		out = (call);                                \
		if (out == RPB_OK)                           \
			rpbt_commit(&(f)->st, (f)->s);       \
		else                                         \
			(f)->st.b->rollback((f)->s);         \
	} while (0)

static void mk(struct fs *f, const char *parent, const char *name, const char *id,
	       enum md_type type)
{
	enum rpb_status st;
	IN_TXN(f, st, md_create(&f->ns, parent, strlen(parent), name, strlen(name), id, strlen(id),
				type, 1, &f->err));
	cr_assert_eq(st, RPB_OK, "create %s/%s: %s", parent, name, f->err.msg);
}

static int count_cb(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)key, (void)val;
	++*(int *)ctx;
	return 0;
}

static int count(struct fs *f, enum rpb_table t)
{
	int n = 0;
	rpbt_begin(&f->st, f->s, RPB_TXN_READ);
	cr_assert_eq(f->st.b->scan(f->s, t, NULL, NULL, 0, count_cb, &n, &f->err), RPB_OK);
	rpbt_commit(&f->st, f->s);
	return n;
}

static void t_namespace(const char *backend)
{
	struct fs f;
	fs_open(&f, backend);
	/* r/a, r/a/b, r/a/b/c, files r/a/f1, r/a/b/f2, r/a/b/c/f3, and r/keep. */
	mk(&f, "r", "a", "a", MD_DIR);
	mk(&f, "a", "b", "b", MD_DIR);
	mk(&f, "b", "c", "c", MD_DIR);
	mk(&f, "a", "f1", "f1", MD_FILE);
	mk(&f, "b", "f2", "f2", MD_FILE);
	mk(&f, "c", "f3", "f3", MD_FILE);
	mk(&f, "r", "keep", "keep", MD_DIR);
	cr_assert_eq(count(&f, RPB_T_NAMES), 7);
	cr_assert_eq(count(&f, RPB_T_INODES), 8);

	enum rpb_status st;
	IN_TXN(&f, st, md_create(&f.ns, "a", 1, "b", 1, "z", 1, MD_DIR, 1, &f.err));
	cr_assert_eq(st, RPB_EXISTS, "mkdir of a taken name: %s", rpb_status_name(st));

	/* A lookup walks the names from the root. */
	struct md_path p = {.comp = {"a", "b"}, .len = {1, 1}, .n = 2};
	char id[MD_ID_MAX];
	size_t idlen;
	rpbt_begin(&f.st, f.s, RPB_TXN_READ);
	st = md_lookup(&f.ns, "r", 1, &p, 2, "c", 1, id, &idlen, &f.err);
	cr_assert_eq(st, RPB_OK, "%s", f.err.msg);
	cr_assert_str_eq(id, "c");
	st = md_lookup(&f.ns, "r", 1, &p, 2, "nope", 4, id, &idlen, &f.err);
	cr_assert_eq(st, RPB_NOT_FOUND);
	f.st.b->rollback(f.s);

	/* rename: onto a taken name fails; to where it is changes nothing;
	 * otherwise both tables change in one transaction. */
	IN_TXN(&f, st, md_rename(&f.ns, "b", 1, "r", 1, "keep", 4, 2, &f.err));
	cr_assert_eq(st, RPB_EXISTS, "%s", rpb_status_name(st));
	IN_TXN(&f, st, md_rename(&f.ns, "b", 1, "a", 1, "b", 1, 2, &f.err));
	cr_assert_eq(st, RPB_OK, "%s", f.err.msg);
	IN_TXN(&f, st, md_rename(&f.ns, "b", 1, "r", 1, "b-", 2, 2, &f.err));
	cr_assert_eq(st, RPB_OK, "%s", f.err.msg);
	rpbt_begin(&f.st, f.s, RPB_TXN_READ);
	struct md_path root = {.n = 0};
	cr_assert_eq(md_lookup(&f.ns, "r", 1, &root, 0, "b-", 2, id, &idlen, &f.err), RPB_OK);
	cr_assert_str_eq(id, "b");
	cr_assert_eq(f.st.b->get(f.s, RPB_T_INODES, rpb_slice_make("b", 1), &f.buf, &f.err), RPB_OK);
	struct md_inode in;
	cr_assert(md_inode_parse(f.buf.data, f.buf.len, &in));
	cr_assert(md_slice_eq(in.parent, "r", 1) && md_slice_eq(in.name, "b-", 2));
	f.st.b->rollback(f.s);

	/* delete: not recursive refuses a directory with entries; recursive
	 * removes the whole subtree and nothing else. */
	IN_TXN(&f, st, md_delete(&f.ns, "a", 1, false, &f.err));
	cr_assert_eq(st, RPB_EXISTS, "%s", rpb_status_name(st));
	IN_TXN(&f, st, md_delete(&f.ns, "b", 1, true, &f.err));
	cr_assert_eq(st, RPB_OK, "%s", f.err.msg);
	cr_assert_eq(count(&f, RPB_T_NAMES), 3, "r/a, r/a/f1, r/keep remain");
	cr_assert_eq(count(&f, RPB_T_INODES), 4, "r, a, f1, keep remain");
	IN_TXN(&f, st, md_delete(&f.ns, "a", 1, true, &f.err));
	cr_assert_eq(st, RPB_OK, "%s", f.err.msg);
	cr_assert_eq(count(&f, RPB_T_NAMES), 1);
	cr_assert_eq(count(&f, RPB_T_INODES), 2);
	IN_TXN(&f, st, md_delete(&f.ns, "a", 1, true, &f.err));
	cr_assert_eq(st, RPB_NOT_FOUND, "deleting a deleted id: %s", rpb_status_name(st));
	fs_close(&f);
}

#ifdef RPB_HAVE_LEVELDB
Test(metadata, namespace_leveldb) { t_namespace("leveldb"); }
#endif
#ifdef RPB_HAVE_SQLITE
Test(metadata, namespace_sqlite) { t_namespace("sqlite"); }
#endif
#ifdef RPB_HAVE_POSTGRES
Test(metadata, namespace_postgres) { t_namespace("postgres"); }
#endif
