/* The metadata pattern: tachyon-perf's "Connect" test run in-process
 * against the store interface (docs/workloads.md, "metadata").
 *
 * Each thread owns one target path and loops mkdir(target) ->
 * getFileId(target) -> rename(id, target + "-") -> delete(id, recursive)
 * -> mkdir ...: runner operation i is step i % 4, each one a transaction
 * of its own, issued by the thread's next client (rpb_next_session turns
 * the clients round-robin on every operation, whatever the step). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "paths.h"
#include "metadata.h"
#include "runner.h"

struct md_worker {
	struct md_path dir;            /* <workspace>/<node>, the target's parent */
	char root[MD_ID_MAX];
	size_t rootlen;
	char name[MD_NAME_MAX], rname[MD_NAME_MAX]; /* "<t>" and "<t>-" */
	size_t namelen, rnamelen;
	char path[MD_PATH_MAX + MD_NAME_MAX], rpath[MD_PATH_MAX + MD_NAME_MAX];
	char key[MD_KEY_MAX], rkey[MD_KEY_MAX]; /* their names keys, for inject */
	size_t keylen, rkeylen;
	char parent[MD_ID_MAX];        /* the target's parent, as looked up */
	char newid[MD_ID_MAX];         /* the id this cycle's mkdir gives */
	size_t newidlen;
	char cur[MD_ID_MAX];           /* the id getFileId found; curlen 0: none */
	size_t curlen;
	struct rpb_buf buf;
	uint64_t last_i;               /* to tell a retry of the same operation */
	bool tried;
};

/* What prepare sets up for the whole run. */
struct md_shared {
	FILE *trace;
};

static bool blind(const struct rpb_runner *rn)
{
	return (rn->backend->flags & RPB_BF_STORES_NOTHING) != 0;
}

static enum rpb_status md_worker_init(struct rpb_worker *w, struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	const struct rpb_metadata_opts *o = md_opts(rn->job);
	struct md_worker *mw = calloc(1, sizeof *mw);
	if (!mw)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for a metadata worker");
	w->state = mw;
	if (!md_node_dir(&mw->dir, o))
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "[metadata] workspace %s and node %s make a path too long or too "
				   "deep; shorten the workspace",
				   o->workspace, o->node);
	mw->rootlen = md_id(mw->root, rn->run_tag, o->node, MD_OWNER_SETUP, 0);
	char dirid[MD_ID_MAX];
	size_t dirlen = md_id(dirid, rn->run_tag, o->node, MD_OWNER_SETUP, mw->dir.n);
	mw->namelen = md_target_name(mw->name, w->id, false);
	mw->rnamelen = md_target_name(mw->rname, w->id, true);
	snprintf(mw->path, sizeof mw->path, "%s/%s", mw->dir.text, mw->name);
	snprintf(mw->rpath, sizeof mw->rpath, "%s/%s", mw->dir.text, mw->rname);
	mw->keylen = md_name_key(mw->key, dirid, dirlen, mw->name, mw->namelen);
	mw->rkeylen = md_name_key(mw->rkey, dirid, dirlen, mw->rname, mw->rnamelen);
	return rpb_buf_reserve(&mw->buf, MD_REC_MAX + 64, err);
}

static void md_worker_fini(struct rpb_worker *w)
{
	struct md_worker *mw = w->state;
	if (!mw)
		return;
	rpb_buf_free(&mw->buf);
	free(mw);
	w->state = NULL;
}

/* ---- prepare: the workspace directories and the preload entries ---- */

#define PRELOAD_BATCH 500 /* entries per transaction */

static enum rpb_status commit_or_rollback(const struct rpb_backend *b, struct rpb_session *s,
					  enum rpb_status st, struct rpb_err *err)
{
	if (!st)
		st = b->commit(s, err);
	if (st)
		b->rollback(s);
	return st;
}

/* The root and every directory down to <workspace>/<node>, one transaction. */
static enum rpb_status make_dirs(struct rpb_runner *rn, const struct md_ns *ns,
				 const struct md_path *dir, struct rpb_err *err)
{
	const char *tag = rn->run_tag, *node = md_opts(rn->job)->node;
	char id[MD_ID_MAX], parent[MD_ID_MAX], rec[MD_REC_MAX];
	uint64_t now = rpb_wall_ms();
	size_t idlen = md_id(id, tag, node, MD_OWNER_SETUP, 0);
	size_t n = md_inode_format(rec, MD_DIR, "", 0, "", 0, now, now);
	enum rpb_status st = ns->b->begin(ns->s, RPB_TXN_WRITE, err);
	if (!st)
		st = ns->b->put(ns->s, RPB_T_INODES, rpb_slice_make(id, idlen), rpb_slice_make(rec, n),
				err);
	for (unsigned d = 1; !st && d <= dir->n; d++) {
		size_t plen = md_id(parent, tag, node, MD_OWNER_SETUP, d - 1);
		idlen = md_id(id, tag, node, MD_OWNER_SETUP, d);
		st = md_create(ns, parent, plen, dir->comp[d - 1], dir->len[d - 1], id, idlen, MD_DIR,
			       now, err);
	}
	return commit_or_rollback(ns->b, ns->s, st, err);
}

/* Each thread's preload entries, files beside its target, ids from the
 * thread's own counter; PRELOAD_BATCH per transaction. */
static enum rpb_status preload(struct rpb_runner *rn, const struct md_ns *ns,
			       const struct md_path *dir, struct rpb_err *err)
{
	const struct rpb_metadata_opts *o = md_opts(rn->job);
	char parent[MD_ID_MAX], id[MD_ID_MAX], name[MD_NAME_MAX];
	size_t plen = md_id(parent, rn->run_tag, o->node, MD_OWNER_SETUP, dir->n);
	enum rpb_status st = RPB_OK;
	for (unsigned t = 0; !st && t < rn->nworkers; t++) {
		for (uint64_t k = 0; !st && k < o->preload; k += PRELOAD_BATCH) {
			uint64_t end = o->preload - k > PRELOAD_BATCH ? k + PRELOAD_BATCH : o->preload;
			uint64_t now = rpb_wall_ms();
			st = ns->b->begin(ns->s, RPB_TXN_WRITE, err);
			for (uint64_t j = k; !st && j < end; j++) {
				size_t idlen = md_id(id, rn->run_tag, o->node, t, j);
				size_t nlen = md_preload_name(name, t, j);
				st = md_create(ns, parent, plen, name, nlen, id, idlen, MD_FILE, now, err);
			}
			st = commit_or_rollback(ns->b, ns->s, st, err);
		}
	}
	return st;
}

/* Creates a result file that must not exist yet: rpbench never overwrites
 * what it did not create. */
static FILE *create_new(const char *dir, const char *name, struct rpb_err *err)
{
	char path[PATH_MAX];
	int fd = rpb_path_join(path, sizeof path, dir, name) == 0
			 ? open(path, O_WRONLY | O_CREAT | O_EXCL, 0644)
			 : -1;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		rpb_err_set(err, RPB_IO, errno, NULL, "cannot create %s/%s: %s; choose a new --out", dir,
			    name, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

static enum rpb_status md_prepare(struct rpb_runner *rn, struct rpb_err *err)
{
	struct md_shared *sh = calloc(1, sizeof *sh);
	if (!sh)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the metadata pattern");
	rn->pattern_state = sh;
	if (md_opts(rn->job)->trace) {
		if (!(sh->trace = create_new(rn->out_dir, MD_TRACE_FILE, err)))
			return err->status;
		fputs("op,thread,client,operation,path,id,dest,status\n", sh->trace);
	}
	struct md_path dir;
	if (!md_node_dir(&dir, md_opts(rn->job)))
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "[metadata] workspace path too long");
	struct rpb_buf buf = {0};
	struct md_ns ns = {rn->backend, NULL, &buf, blind(rn)};
	enum rpb_status st = rpb_buf_reserve(&buf, MD_REC_MAX + 64, err);
	if (!st)
		st = rn->backend->session_open(rn->store, &ns.s, err);
	if (!st)
		st = make_dirs(rn, &ns, &dir, err);
	if (!st)
		st = preload(rn, &ns, &dir, err);
	rn->backend->session_close(ns.s);
	rpb_buf_free(&buf);
	return st;
}

static void md_fini(struct rpb_runner *rn)
{
	struct md_shared *sh = rn->pattern_state;
	if (!sh)
		return;
	if (sh->trace)
		fclose(sh->trace);
	free(sh);
	rn->pattern_state = NULL;
}

/* ---- the four operations ---- */

/* One operation's transaction: begin, body, inject point, commit; on a
 * failure the backend has rolled back, or the rollback here ends a
 * transaction a not-found left open. */
struct txn {
	struct rpb_worker *w;
	struct rpb_session *s;
	struct md_ns ns;
	uint64_t i;
	bool at_commit;
};

static enum rpb_status txn_end(struct txn *tx, enum rpb_status st, struct rpb_err *err)
{
	if (!st) {
		rpb_inject_point(tx->w, tx->i, false, RPB_T_NAMES, rpb_slice_make("", 0));
		st = rpb_txn_commit(tx->w, tx->s, err);
		tx->at_commit = st != RPB_OK;
	}
	if (st)
		rpb_txn_rollback(tx->w, tx->s);
	return st;
}

/* "No such file": a class the on_error policies cover (not-found has none). */
static enum rpb_status no_such(struct rpb_err *err, const char *op, const char *what)
{
	return rpb_err_set(err, RPB_INVALID, 0, NULL, "%s %s: no such file or directory", op, what);
}

static enum rpb_status do_mkdir(struct txn *tx, struct md_worker *mw, struct rpb_err *err)
{
	struct rpb_worker *w = tx->w;
	size_t plen, idlen = mw->newidlen;
	enum rpb_status st = rpb_txn_begin(w, tx->s, RPB_TXN_WRITE, err);
	if (!st)
		st = md_lookup(&tx->ns, mw->root, mw->rootlen, &mw->dir, mw->dir.n, NULL, 0, mw->parent,
			       &plen, err);
	if (!st)
		st = md_create(&tx->ns, mw->parent, plen, mw->name, mw->namelen, mw->newid, idlen,
			       MD_DIR, rpb_wall_ms(), err);
	if (st == RPB_EXISTS && mw->buf.len == idlen && memcmp(mw->buf.data, mw->newid, idlen) == 0) {
		/* This operation's own directory: an earlier attempt of it
		 * committed after all (its commit failed in doubt). */
		rpb_txn_rollback(w, tx->s);
		return RPB_OK;
	}
	st = txn_end(tx, st, err);
	if (st == RPB_NOT_FOUND)
		return no_such(err, "mkdir", mw->dir.text);
	if (st == RPB_EXISTS)
		rpb_err_set(err, st, 0, NULL, "mkdir %s: file exists", mw->path);
	return st;
}

static enum rpb_status do_getfileid(struct txn *tx, struct md_worker *mw, struct rpb_err *err)
{
	size_t len = 0;
	enum rpb_status st = rpb_txn_begin(tx->w, tx->s, RPB_TXN_READ, err);
	if (!st)
		st = md_lookup(&tx->ns, mw->root, mw->rootlen, &mw->dir, mw->dir.n, mw->name,
			       mw->namelen, mw->cur, &len, err);
	st = txn_end(tx, st, err);
	tx->at_commit = false; /* a read: nothing can be in doubt */
	mw->curlen = st ? 0 : len;
	return st == RPB_NOT_FOUND ? no_such(err, "getFileId", mw->path) : st;
}

static enum rpb_status do_rename(struct txn *tx, struct md_worker *mw, struct rpb_err *err)
{
	if (!mw->curlen)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "rename to %s: no file id, the getFileId before it failed", mw->rpath);
	size_t plen;
	enum rpb_status st = rpb_txn_begin(tx->w, tx->s, RPB_TXN_WRITE, err);
	if (!st)
		st = md_lookup(&tx->ns, mw->root, mw->rootlen, &mw->dir, mw->dir.n, NULL, 0, mw->parent,
			       &plen, err);
	if (!st)
		st = md_rename(&tx->ns, mw->cur, mw->curlen, mw->parent, plen, mw->rname, mw->rnamelen,
			       rpb_wall_ms(), err);
	st = txn_end(tx, st, err);
	if (st == RPB_NOT_FOUND)
		return no_such(err, "rename", mw->cur);
	if (st == RPB_EXISTS)
		rpb_err_set(err, st, 0, NULL, "rename %s -> %s: file exists", mw->cur, mw->rpath);
	return st;
}

static enum rpb_status do_delete(struct txn *tx, struct md_worker *mw, bool retry,
				 struct rpb_err *err)
{
	if (!mw->curlen)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "delete: no file id, the getFileId before it failed");
	enum rpb_status st = rpb_txn_begin(tx->w, tx->s, RPB_TXN_WRITE, err);
	if (!st)
		st = md_delete(&tx->ns, mw->cur, mw->curlen, true, err);
	st = txn_end(tx, st, err);
	/* Gone on a retry: the failed attempt committed after all. */
	if (st == RPB_NOT_FOUND && retry)
		return RPB_OK;
	return st == RPB_NOT_FOUND ? no_such(err, "delete", mw->cur) : st;
}

static void trace_row(FILE *f, const struct rpb_worker *w, const struct md_worker *mw, uint64_t i,
		      unsigned client, enum rpb_status st)
{
	enum md_op op = md_op_of(i);
	const char *path = op == MD_DELETE ? mw->rpath : mw->path;
	const char *id = op == MD_MKDIR ? mw->newid : mw->curlen ? mw->cur : "";
	fprintf(f, "%" PRIu64 ",%u,%u,%s,%s,%s,%s,%s\n", i, w->id, client, md_op_names[op], path, id,
		op == MD_RENAME ? mw->rpath : "", st ? rpb_status_name(st) : "ok");
}

static enum rpb_status md_op(struct rpb_worker *w, uint64_t i, struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	struct md_worker *mw = w->state;
	const struct rpb_metadata_opts *o = md_opts(rn->job);
	enum md_op op = md_op_of(i);
	unsigned client = w->next_client;
	struct txn tx = {w, rpb_next_session(w), {rn->backend, NULL, &mw->buf, blind(rn)}, i, false};
	tx.ns.s = tx.s;
	if (op == MD_MKDIR)
		mw->newidlen = md_id(mw->newid, rn->run_tag, o->node, w->id, md_cycle_seq(o, i));
	bool retry = mw->tried && mw->last_i == i;
	mw->tried = true;
	mw->last_i = i;
	bool renames = op == MD_RENAME || op == MD_DELETE;
	rpb_inject_point(w, i, true, RPB_T_NAMES,
			 renames ? rpb_slice_make(mw->rkey, mw->rkeylen)
				 : rpb_slice_make(mw->key, mw->keylen));

	uint64_t start = rpb_now_ns();
	enum rpb_status st;
	if (o->inject_failure_at && w->id == 0 && i + 1 == o->inject_failure_at) {
		st = rpb_err_set(err, RPB_IO, 0, NULL,
				 "%s: injected failure (metadata.inject_failure_at = %" PRIu64 ", a test aid)",
				 md_op_names[op], o->inject_failure_at);
		if (op == MD_GETFILEID)
			mw->curlen = 0; /* as a failed lookup */
	} else {
		switch (op) {
		case MD_MKDIR:
			st = do_mkdir(&tx, mw, err);
			break;
		case MD_GETFILEID:
			st = do_getfileid(&tx, mw, err);
			break;
		case MD_RENAME:
			st = do_rename(&tx, mw, err);
			break;
		default:
			st = do_delete(&tx, mw, retry, err);
			break;
		}
	}
	uint64_t end = rpb_now_ns();
	w->in_doubt = tx.at_commit;
	rpb_sample(w, op, start, end, st, 0, st ? err : NULL);
	struct md_shared *sh = rn->pattern_state;
	if (sh && sh->trace)
		trace_row(sh->trace, w, mw, i, client, st);
	return st;
}

/* ---- result.json ---- */

static void md_report_json(struct rpb_runner *rn, json_t *obj)
{
	const struct rpb_metadata_opts *o = md_opts(rn->job);
	json_object_set_new(obj, "workspace", json_string(o->workspace));
	json_object_set_new(obj, "node", json_string(o->node));
	json_object_set_new(obj, "preload", json_integer((json_int_t)o->preload));
	json_object_set_new(obj, "inject_failure_at", json_integer((json_int_t)o->inject_failure_at));
	json_object_set_new(obj, "test_id", json_integer((json_int_t)rn->wall_start_ms));
	/* tachyon-perf's figures: each thread's ops / its own time (the same
	 * as threads[].ops_per_s), and the node's as their sum. A node with a
	 * failed thread is dropped whole, as ConnectTaskContext and
	 * ConnectTotalReport drop it: its node figure is 0 (the sum over no
	 * threads); its threads' own figures stay here, marked by node_dropped. */
	json_t *rates = json_array(), *failed = json_array();
	double sum = 0;
	uint64_t acked = 0;
	for (unsigned t = 0; t < rn->nworkers; t++) {
		struct rpb_worker *w = &rn->workers[t];
		double secs = (double)(w->t_end - w->t_start) / 1e9;
		uint64_t a = atomic_load(&w->acked);
		double rate = secs > 0 ? (double)a / secs : 0.0;
		json_array_append_new(rates, json_real(rate));
		sum += rate;
		acked += a;
		if (w->ended_on_error)
			json_array_append_new(
				failed, json_pack("{s:i, s:I, s:s, s:s, s:s}", "thread", (int)t, "op",
						  (json_int_t)w->end_op, "operation",
						  md_op_names[md_op_of(w->end_op)], "class",
						  rpb_status_name(w->end_err.status), "message",
						  w->end_err.msg));
	}
	double wall = (double)(rn->t_end - rn->t_start) / 1e9;
	json_object_set_new(obj, "thread_ops_per_s", rates);
	bool dropped = json_array_size(failed) > 0;
	json_object_set_new(obj, "node_ops_per_s", json_real(dropped ? 0.0 : sum));
	json_object_set_new(obj, "node_dropped", json_boolean(dropped));
	json_object_set_new(obj, "wall_ops_per_s", json_real(wall > 0 ? (double)acked / wall : 0.0));
	json_object_set_new(obj, "failed_threads", failed);
}

static const char *const md_labels[MD_NOPS] = {"mkdir", "getFileId", "rename", "delete"};
/* Namespace operations move no payload: their samples carry no bytes. */
static const enum rpb_bytes_dir md_label_dirs[MD_NOPS] = {RPB_BYTES_NONE, RPB_BYTES_NONE,
							  RPB_BYTES_NONE, RPB_BYTES_NONE};

static unsigned md_op_label(const struct rpb_job *job, unsigned w, uint64_t i)
{
	(void)job;
	(void)w;
	return (unsigned)md_op_of(i);
}

static const char *const md_files[] = {"trace.csv", NULL};

const struct rpb_pattern rpb_pattern_metadata = {
	.name = "metadata",
	.noun = "operations",
	.labels = md_labels,
	.nlabels = MD_NOPS,
	.label_dirs = md_label_dirs,
	.options = metadata_options,
	.config_size = sizeof(struct rpb_metadata_opts),
	.finish = metadata_finish,
	.files = md_files,
	.prepare = md_prepare,
	.worker_init = md_worker_init,
	.worker_fini = md_worker_fini,
	.op = md_op,
	.op_label = md_op_label,
	.report_json = md_report_json,
	.write_report = metadata_write_report,
	.fini = md_fini,
	.error_ends_thread = true,
	.verify = metadata_verify,
};
