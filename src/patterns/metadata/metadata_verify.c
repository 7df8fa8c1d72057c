/* Verify for the metadata pattern. Two passes over the run's file system:
 *
 * 1. Expected state. The workspace directories and every preload entry must
 *    be there, whole. Each thread's ledger (operations issued, which failed,
 *    which in doubt) is replayed through the four-step cycle to the states
 *    its target can be in: after Z = 1 (mod 4) completed operations the
 *    target exists, after Z = 0 neither it nor "<target>-" does, and so on.
 *    The store's entries for <t> and <t>- must match one of them exactly.
 * 2. Consistency. Every inode of the run has the directory entry that its
 *    record names, under a parent that exists; every directory entry points
 *    to an inode whose parent and name match the entry; nothing else of the
 *    run is there (no "<target>-" leftovers, no stray inodes).
 *
 * Reads go in read transactions of at most CHUNK lookups or scanned entries. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metadata.h"
#include "verify.h"

#define CHUNK 1000
#define SIM_MAX 16 /* states a thread may be in after operations in doubt */

/* One state the replay allows: which of the thread's two entries exist, with
 * which cycle's inode, and which id the thread holds from getFileId. */
struct sim {
	bool tgt, ren, cur;
	uint64_t tgt_seq, ren_seq, cur_seq;
};

struct expect {
	struct sim cand[SIM_MAX];
	unsigned n;
	bool lost;          /* the ledger contradicts the cycle: nothing to expect */
	const struct sim *match; /* the candidate the store matched */
};

struct vctx {
	const struct rpb_backend *b;
	struct rpb_session *s;
	const struct rpb_job *job;
	const struct rpb_metadata_opts *o;
	const struct rpb_ledger *ledger;
	struct rpb_verify_result *res;
	struct expect *ex;          /* per thread */
	struct md_path dir;
	char dirid[MD_ID_MAX];
	size_t dirlen;
	char prefix[MD_ID_MAX];     /* "<tag>:" */
	size_t plen;
	struct rpb_buf buf, rec;
	unsigned reads;             /* in the open read transaction */
};

/* The first discrepancy is described, every one counted. */
#define problem(v, ...) rpb_verify_problem((v)->res, __VA_ARGS__)

/* ---- replaying the ledger ---- */

static bool apply(struct sim *c, const struct rpb_metadata_opts *o, uint64_t i)
{
	switch (md_op_of(i)) {
	case MD_MKDIR:
		if (c->tgt)
			return false;
		c->tgt = true;
		c->tgt_seq = md_cycle_seq(o, i);
		return true;
	case MD_GETFILEID:
		c->cur = c->tgt;
		c->cur_seq = c->tgt_seq;
		return c->tgt;
	case MD_RENAME:
		if (!c->cur)
			return false;
		if (c->ren && c->ren_seq == c->cur_seq)
			return true; /* already there: renaming to itself */
		if (c->ren || !c->tgt || c->tgt_seq != c->cur_seq)
			return false;
		c->tgt = false;
		c->ren = true;
		c->ren_seq = c->cur_seq;
		return true;
	default:
		if (c->cur && c->tgt && c->tgt_seq == c->cur_seq)
			c->tgt = false;
		else if (c->cur && c->ren && c->ren_seq == c->cur_seq)
			c->ren = false;
		else
			return false;
		return true;
	}
}

/* A failed operation changes nothing in the store; a failed getFileId
 * leaves the thread without an id. */
static void fail(struct sim *c, uint64_t i)
{
	if (md_op_of(i) == MD_GETFILEID)
		c->cur = false;
}

static void add(struct sim *set, unsigned *n, bool *overflow, const struct sim *c)
{
	for (unsigned k = 0; k < *n; k++)
		if (set[k].tgt == c->tgt && set[k].ren == c->ren && set[k].cur == c->cur &&
		    (!c->tgt || set[k].tgt_seq == c->tgt_seq) &&
		    (!c->ren || set[k].ren_seq == c->ren_seq) &&
		    (!c->cur || set[k].cur_seq == c->cur_seq))
			return;
	if (*n == SIM_MAX) {
		*overflow = true;
		return;
	}
	set[(*n)++] = *c;
}

static void replay(struct vctx *v, unsigned t, struct expect *ex)
{
	const struct rpb_ledger_worker *lw = &v->ledger->workers[t];
	memset(ex, 0, sizeof *ex);
	ex->n = 1; /* the empty workspace */
	struct sim next[SIM_MAX];
	size_t j = 0;
	for (uint64_t i = 0; i < lw->issued; i++) {
		bool failed = false, doubt = lw->in_flight && i + 1 == lw->issued;
		while (j < lw->nfailures && lw->failures[j].op < i)
			j++;
		for (; j < lw->nfailures && lw->failures[j].op == i; j++) {
			failed = true;
			doubt |= lw->failures[j].in_doubt;
		}
		if (doubt)
			v->res->in_doubt++;
		unsigned n = 0;
		bool overflow = false;
		for (unsigned k = 0; k < ex->n; k++) {
			struct sim c = ex->cand[k];
			if (failed || doubt) {
				struct sim f = c;
				fail(&f, i);
				add(next, &n, &overflow, &f);
			}
			if ((!failed || doubt) && apply(&c, v->o, i))
				add(next, &n, &overflow, &c);
		}
		if (n == 0 || overflow) {
			ex->lost = true;
			v->res->corrupt++;
			if (overflow)
				problem(v, "thread %u: too many operations in doubt to know its workspace", t);
			else
				problem(v, "thread %u: operation %" PRIu64 " (%s) was acknowledged, yet the "
					   "operations before it leave nothing for it to act on",
					t, i, md_op_names[md_op_of(i)]);
			return;
		}
		memcpy(ex->cand, next, n * sizeof next[0]);
		ex->n = n;
	}
}

/* ---- reading ---- */

/* Keeps read transactions bounded: a new one every CHUNK reads. */
static enum rpb_status tick(struct vctx *v, struct rpb_err *err)
{
	if (v->reads && v->reads < CHUNK) {
		v->reads++;
		return RPB_OK;
	}
	enum rpb_status st = RPB_OK;
	if (v->reads)
		st = v->b->commit(v->s, err);
	if (!st)
		st = v->b->begin(v->s, RPB_TXN_READ, err);
	v->reads = st ? 0 : 1;
	return st;
}

static enum rpb_status fetch(struct vctx *v, enum rpb_table t, const char *key, size_t len,
			     struct rpb_buf *out, bool *present, struct rpb_err *err)
{
	enum rpb_status st = tick(v, err);
	if (!st)
		st = v->b->get(v->s, t, rpb_slice_make(key, len), out, err);
	*present = st == RPB_OK;
	return st == RPB_NOT_FOUND ? RPB_OK : st;
}

static bool is_ours(const struct vctx *v, const void *id, size_t len)
{
	return len > v->plen && memcmp(id, v->prefix, v->plen) == 0;
}

/* Checks that inode id is a whole record of type under parent/name. */
static enum rpb_status check_inode(struct vctx *v, const char *id, size_t idlen,
				   enum md_type type, const char *parent, size_t plen,
				   const char *name, size_t nlen, struct rpb_err *err)
{
	bool present;
	enum rpb_status st = fetch(v, RPB_T_INODES, id, idlen, &v->rec, &present, err);
	if (st)
		return st;
	struct md_inode in;
	if (!present) {
		v->res->corrupt++;
		problem(v, "inode %s is missing, though its entry %.*s/%.*s is there", id, (int)plen,
			parent, (int)nlen, name);
	} else if (!md_inode_parse(v->rec.data, v->rec.len, &in)) {
		v->res->corrupt++;
		problem(v, "inode %s holds no inode record", id);
	} else if (!md_slice_eq(in.type, md_type_names[type], strlen(md_type_names[type])) ||
		   !md_slice_eq(in.parent, parent, plen) || !md_slice_eq(in.name, name, nlen)) {
		v->res->corrupt++;
		problem(v, "inode %s is %.*s %.*s in %.*s, expected %s %.*s in %.*s", id,
			(int)in.type.len, (const char *)in.type.data, (int)in.name.len,
			(const char *)in.name.data, (int)in.parent.len, (const char *)in.parent.data,
			md_type_names[type], (int)nlen, name, (int)plen, parent);
	}
	return RPB_OK;
}

/* An entry that must exist: parent/name -> id, and its inode. */
static enum rpb_status check_entry(struct vctx *v, const char *parent, size_t plen,
				   const char *name, size_t nlen, const char *id, size_t idlen,
				   enum md_type type, const char *path, struct rpb_err *err)
{
	char key[MD_KEY_MAX];
	size_t klen = md_name_key(key, parent, plen, name, nlen);
	bool present;
	enum rpb_status st = fetch(v, RPB_T_NAMES, key, klen, &v->buf, &present, err);
	if (st)
		return st;
	v->res->checked++;
	if (!present) {
		v->res->missing++;
		problem(v, "%s (inode %s) is missing: no directory entry %s", path, id, key);
		return RPB_OK;
	}
	if (!md_slice_eq(rpb_slice_make(v->buf.data, v->buf.len), id, idlen)) {
		v->res->corrupt++;
		problem(v, "%s is inode %.*s, expected %s", path,
			(int)(v->buf.len > 100 ? 100 : v->buf.len), (const char *)v->buf.data, id);
		return RPB_OK;
	}
	return check_inode(v, id, idlen, type, parent, plen, name, nlen, err);
}

/* ---- pass 1: what the run must have left ---- */

static enum rpb_status check_dirs(struct vctx *v, struct rpb_err *err)
{
	const char *tag = v->ledger->run_tag, *node = v->o->node;
	char id[MD_ID_MAX], parent[MD_ID_MAX], path[MD_PATH_MAX];
	size_t idlen = md_id(id, tag, node, MD_OWNER_SETUP, 0);
	v->res->checked++;
	enum rpb_status st = check_inode(v, id, idlen, MD_DIR, "", 0, "", 0, err);
	size_t at = 0;
	for (unsigned d = 1; !st && d <= v->dir.n; d++) {
		size_t plen = md_id(parent, tag, node, MD_OWNER_SETUP, d - 1);
		idlen = md_id(id, tag, node, MD_OWNER_SETUP, d);
		at += (size_t)snprintf(path + at, sizeof path - at, "/%s", v->dir.comp[d - 1]);
		st = check_entry(v, parent, plen, v->dir.comp[d - 1], v->dir.len[d - 1], id, idlen,
				 MD_DIR, path, err);
	}
	return st;
}

static enum rpb_status check_preload(struct vctx *v, unsigned t, struct rpb_err *err)
{
	char id[MD_ID_MAX], name[MD_NAME_MAX], path[MD_PATH_MAX + MD_NAME_MAX];
	enum rpb_status st = RPB_OK;
	for (uint64_t k = 0; !st && k < v->o->preload; k++) {
		size_t idlen = md_id(id, v->ledger->run_tag, v->o->node, t, k);
		size_t nlen = md_preload_name(name, t, k);
		snprintf(path, sizeof path, "%s/%s", v->dir.text, name);
		st = check_entry(v, v->dirid, v->dirlen, name, nlen, id, idlen, MD_FILE, path, err);
	}
	return st;
}

/* Whether the store's entries for <t> and <t>- match candidate c. */
static bool matches(const struct vctx *v, unsigned t, const struct sim *c, const bool has[2],
		    const char ids[2][MD_ID_MAX], const size_t lens[2])
{
	const bool want[2] = {c->tgt, c->ren};
	const uint64_t seq[2] = {c->tgt_seq, c->ren_seq};
	for (int k = 0; k < 2; k++) {
		if (has[k] != want[k])
			return false;
		char id[MD_ID_MAX];
		size_t n = md_id(id, v->ledger->run_tag, v->o->node, t, seq[k]);
		if (has[k] && (lens[k] != n || memcmp(ids[k], id, n) != 0))
			return false;
	}
	return true;
}

static enum rpb_status check_target(struct vctx *v, unsigned t, struct rpb_err *err)
{
	struct expect *ex = &v->ex[t];
	char names[2][MD_NAME_MAX], ids[2][MD_ID_MAX], key[MD_KEY_MAX];
	size_t nlens[2], lens[2] = {0, 0};
	bool has[2];
	for (int k = 0; k < 2; k++) {
		nlens[k] = md_target_name(names[k], t, k == 1);
		size_t klen = md_name_key(key, v->dirid, v->dirlen, names[k], nlens[k]);
		enum rpb_status st = fetch(v, RPB_T_NAMES, key, klen, &v->buf, &has[k], err);
		if (st)
			return st;
		if (has[k]) {
			lens[k] = v->buf.len < MD_ID_MAX ? v->buf.len : MD_ID_MAX - 1;
			memcpy(ids[k], v->buf.data, lens[k]);
			ids[k][lens[k]] = '\0';
		}
	}
	if (ex->lost)
		return RPB_OK;
	for (unsigned c = 0; c < ex->n && !ex->match; c++)
		if (matches(v, t, &ex->cand[c], has, ids, lens))
			ex->match = &ex->cand[c];
	const struct sim *c = ex->match ? ex->match : &ex->cand[0];
	const bool want[2] = {c->tgt, c->ren};
	const uint64_t seq[2] = {c->tgt_seq, c->ren_seq};
	uint64_t done = v->ledger->workers[t].issued;
	for (int k = 0; k < 2; k++) {
		char id[MD_ID_MAX], path[MD_PATH_MAX + MD_NAME_MAX];
		size_t idlen = md_id(id, v->ledger->run_tag, v->o->node, t, seq[k]);
		snprintf(path, sizeof path, "%s/%s", v->dir.text, names[k]);
		if (want[k]) {
			enum rpb_status st = check_entry(v, v->dirid, v->dirlen, names[k], nlens[k], id,
							 idlen, MD_DIR, path, err);
			if (st)
				return st;
		} else if (has[k]) {
			v->res->unexpected++;
			problem(v, "%s exists (inode %s), but after thread %u's %" PRIu64
				   " operations it must not",
				path, ids[k], t, done);
		}
	}
	return RPB_OK;
}

/* ---- pass 2: the tables agree, and hold nothing else of the run ---- */

/* Whether inode id (of this run) is one the run must have left. */
static bool expected_inode(const struct vctx *v, const char *id, size_t len)
{
	char want[MD_ID_MAX];
	const char *tag = v->ledger->run_tag, *node = v->o->node;
	/* "<tag>:<node>:<owner>:<seq %012>"; seq is the last 12 bytes. */
	size_t head = (size_t)snprintf(want, sizeof want, "%s:%s:", tag, node);
	if (len < head + 2 + 12 || memcmp(id, want, head) != 0)
		return false;
	uint64_t seq = 0;
	for (size_t i = len - 12; i < len; i++) {
		if (id[i] < '0' || id[i] > '9')
			return false;
		seq = seq * 10 + (uint64_t)(id[i] - '0');
	}
	unsigned owner = MD_OWNER_SETUP;
	if (!(len == head + 2 + 12 && id[head] == 's')) {
		owner = 0;
		for (size_t i = head; i < len - 13; i++)
			owner = owner * 10 + (unsigned)(id[i] - '0');
	}
	if (md_id(want, tag, node, owner, seq) != len || memcmp(want, id, len) != 0)
		return false;
	if (owner == MD_OWNER_SETUP)
		return seq <= v->dir.n;
	if (owner >= v->ledger->nworkers)
		return false;
	if (seq < v->o->preload)
		return true;
	const struct expect *ex = &v->ex[owner];
	if (ex->lost)
		return true; /* already reported; do not count its entries twice */
	const struct sim *c = ex->match ? ex->match : &ex->cand[0];
	return (c->tgt && c->tgt_seq == seq) || (c->ren && c->ren_seq == seq);
}

/* The scanned entries of one chunk, copied out (offsets into data). */
struct chunk {
	struct rpb_buf data;
	size_t koff[CHUNK], klen[CHUNK], voff[CHUNK], vlen[CHUNK];
	size_t n;
	bool nomem, beyond;
	const struct vctx *v;
};

static int collect(void *ctx, rpb_slice key, rpb_slice val)
{
	struct chunk *c = ctx;
	if (!is_ours(c->v, key.data, key.len)) {
		c->beyond = true;
		return 1;
	}
	struct rpb_err e;
	if (rpb_buf_reserve(&c->data, c->data.len + key.len + val.len + 1, &e)) {
		c->nomem = true;
		return 1;
	}
	c->koff[c->n] = c->data.len;
	c->klen[c->n] = key.len;
	memcpy(c->data.data + c->data.len, key.data, key.len);
	c->data.len += key.len;
	c->voff[c->n] = c->data.len;
	c->vlen[c->n] = val.len;
	memcpy(c->data.data + c->data.len, val.data, val.len);
	c->data.len += val.len;
	c->n++;
	return 0;
}

static enum rpb_status check_scanned_inode(struct vctx *v, const char *id, size_t idlen,
					   const char *rec, size_t rlen, struct rpb_err *err)
{
	struct md_inode in;
	if (!md_inode_parse(rec, rlen, &in) || in.parent.len >= MD_ID_MAX ||
	    in.name.len >= MD_NAME_MAX) {
		v->res->corrupt++;
		problem(v, "inode %.*s holds no inode record", (int)idlen, id);
		return RPB_OK;
	}
	if (!expected_inode(v, id, idlen)) {
		v->res->unexpected++;
		problem(v, "inode %.*s (%.*s in %.*s) was not left by any operation of this run",
			(int)idlen, id, (int)in.name.len, (const char *)in.name.data,
			(int)in.parent.len, (const char *)in.parent.data);
	}
	if (in.parent.len == 0)
		return RPB_OK; /* the root: checked in pass 1 */
	char key[MD_KEY_MAX], parent[MD_ID_MAX];
	memcpy(parent, in.parent.data, in.parent.len);
	size_t plen = in.parent.len;
	size_t klen = md_name_key(key, parent, plen, in.name.data, in.name.len);
	bool present;
	enum rpb_status st = fetch(v, RPB_T_NAMES, key, klen, &v->buf, &present, err);
	if (st)
		return st;
	if (!present || !md_slice_eq(rpb_slice_make(v->buf.data, v->buf.len), id, idlen)) {
		v->res->corrupt++;
		problem(v, "inode %.*s has no directory entry: %s %s", (int)idlen, id, key,
			present ? "points to another inode" : "is missing");
		return RPB_OK;
	}
	st = fetch(v, RPB_T_INODES, parent, plen, &v->buf, &present, err);
	if (!st && (!present || !is_ours(v, parent, plen))) {
		v->res->corrupt++;
		problem(v, "inode %.*s is an orphan: its parent %.*s is missing", (int)idlen, id,
			(int)plen, parent);
	}
	return st;
}

static enum rpb_status check_scanned_entry(struct vctx *v, const char *key, size_t klen,
					   const char *id, size_t idlen, struct rpb_err *err)
{
	const char *slash = memchr(key, '/', klen);
	if (!slash || idlen == 0 || idlen >= MD_ID_MAX || !is_ours(v, id, idlen)) {
		v->res->corrupt++;
		problem(v, "directory entry %.*s does not point to an inode of this run", (int)klen,
			key);
		return RPB_OK;
	}
	bool present;
	enum rpb_status st = fetch(v, RPB_T_INODES, id, idlen, &v->rec, &present, err);
	if (st)
		return st;
	struct md_inode in;
	size_t plen = (size_t)(slash - key);
	if (!present) {
		v->res->corrupt++;
		problem(v, "directory entry %.*s points to inode %.*s, which is missing", (int)klen, key,
			(int)idlen, id);
	} else if (md_inode_parse(v->rec.data, v->rec.len, &in) &&
		   (!md_slice_eq(in.parent, key, plen) ||
		    !md_slice_eq(in.name, slash + 1, klen - plen - 1))) {
		v->res->corrupt++;
		problem(v, "directory entry %.*s points to inode %.*s, which is %.*s in %.*s",
			(int)klen, key, (int)idlen, id, (int)in.name.len, (const char *)in.name.data,
			(int)in.parent.len, (const char *)in.parent.data);
	}
	return RPB_OK; /* an unparsable record is reported by the inode scan */
}

/* Streams the run's keys of table, CHUNK per read transaction, and checks
 * each entry after its chunk is read (no store call inside a scan). */
static enum rpb_status scan_run(struct vctx *v, enum rpb_table table, struct rpb_err *err)
{
	struct chunk *c = calloc(1, sizeof *c);
	if (!c)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory starting a verify scan");
	c->v = v;
	/* ':' ends the prefix, ';' is the byte after it. */
	char after[RPB_KEY_MAX], upto[MD_ID_MAX];
	size_t alen = v->plen;
	memcpy(after, v->prefix, alen);
	memcpy(upto, v->prefix, v->plen);
	upto[v->plen - 1] = ';';
	rpb_slice up = rpb_slice_make(upto, v->plen);
	enum rpb_status st = RPB_OK;
	if (v->reads) {
		st = v->b->commit(v->s, err);
		v->reads = 0;
	}
	while (!st) {
		rpb_slice af = rpb_slice_make(after, alen);
		c->n = c->data.len = 0;
		c->beyond = false;
		st = tick(v, err);
		if (!st)
			st = v->b->scan(v->s, table, &af, &up, CHUNK, collect, c, err);
		if (!st && c->nomem)
			st = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory in a verify scan");
		for (size_t k = 0; !st && k < c->n; k++) {
			const char *key = (const char *)c->data.data + c->koff[k];
			const char *val = (const char *)c->data.data + c->voff[k];
			st = table == RPB_T_INODES
				     ? check_scanned_inode(v, key, c->klen[k], val, c->vlen[k], err)
				     : check_scanned_entry(v, key, c->klen[k], val, c->vlen[k], err);
		}
		if (st || c->beyond || c->n < CHUNK)
			break;
		alen = c->klen[c->n - 1];
		memcpy(after, c->data.data + c->koff[c->n - 1], alen);
		/* The next chunk starts in a transaction of its own. */
		if (v->reads) {
			st = v->b->commit(v->s, err);
			v->reads = 0;
		}
	}
	rpb_buf_free(&c->data);
	free(c);
	return st;
}

enum rpb_status metadata_verify(const struct rpb_backend *b, struct rpb_store *store,
				const struct rpb_job *job, const struct rpb_ledger *ledger,
				struct rpb_verify_result *res, struct rpb_err *err)
{
	struct vctx v = {.b = b, .job = job, .o = md_opts(job), .ledger = ledger, .res = res};
	if (!md_node_dir(&v.dir, v.o))
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "the run's [metadata] workspace and node make no valid path");
	v.dirlen = md_id(v.dirid, ledger->run_tag, v.o->node, MD_OWNER_SETUP, v.dir.n);
	v.plen = (size_t)snprintf(v.prefix, sizeof v.prefix, "%s:", ledger->run_tag);
	v.ex = calloc(ledger->nworkers ? ledger->nworkers : 1, sizeof *v.ex);
	if (!v.ex)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for verify");
	for (unsigned t = 0; t < ledger->nworkers; t++)
		replay(&v, t, &v.ex[t]);
	enum rpb_status st = b->session_open(store, &v.s, err);
	if (!st)
		st = check_dirs(&v, err);
	for (unsigned t = 0; !st && t < ledger->nworkers; t++) {
		st = check_preload(&v, t, err);
		if (!st)
			st = check_target(&v, t, err);
	}
	if (!st)
		st = scan_run(&v, RPB_T_INODES, err);
	if (!st)
		st = scan_run(&v, RPB_T_NAMES, err);
	if (!st && v.reads)
		st = b->commit(v.s, err);
	if (st)
		b->rollback(v.s);
	b->session_close(v.s);
	rpb_buf_free(&v.buf);
	rpb_buf_free(&v.rec);
	free(v.ex);
	return st;
}
