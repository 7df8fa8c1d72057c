/* Verify of the Fedora model (ingest_fedora.h): the store holds exactly
 * the repository the run's acknowledged creates made.
 *
 * One scan reads every node document of every run in the store (f/...):
 * the documents of this run are parsed, their paths and their children's
 * paths remembered (64-bit hashes: a false match needs a 64-bit collision),
 * and every run's binary digests, which say which files of the binary
 * store some node references. Then, for every acknowledged create, the
 * node, each branch on its path and its parent's listing of it must be
 * there, and its document must say what the seed says (size, MIME type,
 * digest), with its content inline or in its file, byte for byte. No child
 * reference may point to a node that is not there, unless a create in
 * doubt would have made that node: under profile = fedora-4.5 a create
 * commits its documents one at a time, and a parent it rewrote earlier in
 * that order (a branch it made, then listing the next one) can be written
 * without the child (the ledger says which creates failed or were in
 * flight at their commit). Such a create's nodes may also be there without
 * their parent's reference, which nothing checks. A binary node no
 * acknowledged create made is unexpected (one in doubt may be there or
 * not), and so is a file no node references (an orphan binary), unless an
 * acknowledged or in-doubt create wrote it (a temporary file of an
 * in-doubt create, killed before its rename, too). Under fedora-4.5 a
 * trash marker is left only by a create in doubt, a spooled body only by
 * one running when the run ended. The next run's start
 * removes what a run that died left (ingest_fedora_sweep.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "ingest_fedora.h"
#include "verify.h"

/* An open-addressing set of non-zero 64-bit hashes. */
struct hset {
	uint64_t *slot;
	size_t cap, n;
	bool nomem;
};

static void hset_add(struct hset *s, uint64_t h)
{
	h |= 1;
	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		uint64_t *slot = calloc(cap, sizeof *slot);
		if (!slot) {
			s->nomem = true;
			return;
		}
		for (size_t i = 0; i < s->cap; i++)
			for (size_t j = s->slot[i] & (cap - 1); s->slot[i]; j = (j + 1) & (cap - 1))
				if (!slot[j]) {
					slot[j] = s->slot[i];
					break;
				}
		free(s->slot);
		s->slot = slot;
		s->cap = cap;
	}
	for (size_t j = h & (s->cap - 1);; j = (j + 1) & (s->cap - 1)) {
		if (s->slot[j] == h)
			return;
		if (!s->slot[j]) {
			s->slot[j] = h;
			s->n++;
			return;
		}
	}
}

static bool hset_has(const struct hset *s, uint64_t h)
{
	h |= 1;
	for (size_t j = s->cap ? h & (s->cap - 1) : 0; s->cap; j = (j + 1) & (s->cap - 1)) {
		if (s->slot[j] == h)
			return true;
		if (!s->slot[j])
			return false;
	}
	return false;
}

static uint64_t hash_of(const void *p, size_t n)
{
	return XXH3_64bits(p, n);
}

/* A child's path: the parent's, "/" unless the parent is the root, the name. */
static uint64_t child_hash(const char *parent, size_t plen, const char *name, size_t nlen)
{
	char buf[FED_PATH_MAX * 2];
	size_t n = 0;
	if (plen + nlen + 2 > sizeof buf)
		return 0;
	memcpy(buf, parent, plen);
	n = plen;
	if (!(plen == 1 && parent[0] == '/'))
		buf[n++] = '/';
	memcpy(buf + n, name, nlen);
	return hash_of(buf, n + nlen);
}

struct vctx {
	const struct rpb_backend *b;
	struct rpb_session *s;
	const struct rpb_job *job;
	const struct rpb_ingest_opts *o;
	const struct rpb_ledger *ledger;
	struct rpb_verify_result *res;
	struct fed_binstore bs;
	char prefix[64];           /* f/<tag> */
	size_t plen;
	struct hset nodes, listed, digests;
	struct hset doubt;         /* nodes on the paths of creates in doubt */
	struct hset doubt_marks;   /* digests whose trash marker may be left */
	bool died;                 /* a create was running when the run ended */
	uint64_t elided;           /* binary files of a sparse preload: size checked only */
	/* Children to look for once the scan is done: their paths' hashes and
	 * the container that names them (an offset into parents), and
	 * containers whose names are in blocks. */
	struct want {
		uint64_t h;
		size_t parent;
	} *want;
	size_t nwant, capwant;
	char *parents;             /* NUL-separated paths of the containers */
	size_t nparents, capparents;
	char (*blocked)[FED_PATH_MAX];
	size_t nblocked, capblocked;
	struct rpb_buf got, file;
	unsigned char *content;
	bool nomem;
};

#define problem(v, ...) rpb_verify_problem((v)->res, __VA_ARGS__)

/* The offset of path in parents, added there. */
static size_t add_parent(struct vctx *v, const char *path, size_t len)
{
	if (v->nparents + len + 1 > v->capparents) {
		size_t cap = v->capparents ? v->capparents * 2 : 4096;
		while (cap < v->nparents + len + 1)
			cap *= 2;
		char *p = realloc(v->parents, cap);
		if (!p) {
			v->nomem = true;
			return 0;
		}
		v->parents = p;
		v->capparents = cap;
	}
	size_t at = v->nparents;
	memcpy(v->parents + at, path, len);
	v->parents[at + len] = '\0';
	v->nparents += len + 1;
	return at;
}

static void want_child(struct vctx *v, uint64_t h, size_t parent)
{
	if (v->nwant == v->capwant) {
		size_t cap = v->capwant ? v->capwant * 2 : 1024;
		struct want *w = realloc(v->want, cap * sizeof *w);
		if (!w) {
			v->nomem = true;
			return;
		}
		v->want = w;
		v->capwant = cap;
	}
	v->want[v->nwant++] = (struct want){h, parent};
	hset_add(&v->listed, h);
}

struct child_ctx {
	struct vctx *v;
	const char *path;
	size_t len;
	size_t parent;             /* its offset in parents */
};

static void on_child(void *ctx, const char *name, size_t nlen)
{
	struct child_ctx *c = ctx;
	want_child(c->v, child_hash(c->path, c->len, name, nlen), c->parent);
}

/* Whether probe n of thread t is one a run that died may have left: the
 * probe of the operation it was running (probe n follows create
 * n * probe_every - 1), or of one a stale ledger cannot tell (counted). */
static bool probe_unfinished(struct vctx *v, unsigned t, uint64_t n)
{
	uint64_t every = v->o->probe_every, op;
	if (!every || t >= v->ledger->nworkers || n == 0 || __builtin_mul_overflow(n, every, &op))
		return false;
	const struct rpb_ledger_worker *lw = &v->ledger->workers[t];
	uint64_t first = ingest_first_object(v->job);
	if (op - 1 < first) /* the preload's probe, which this run continues */
		return false;
	op -= first;
	enum rpb_op_state st = rpb_ledger_op_state(lw, op - 1);
	v->res->unprovable += st == RPB_OP_UNPROVABLE;
	return st == RPB_OP_UNPROVABLE || (lw->in_flight && op == lw->issued);
}

/* A binary node of this run: made by an operation the ledger knows? */
static void check_maker(struct vctx *v, const struct fed_doc *d, const char *path)
{
	unsigned t = 0;
	uint64_t n = 0;
	char buf[64] = "";
	rpb_slice who = d->op.data ? d->op : d->probe;
	snprintf(buf, sizeof buf, "%.*s", (int)(who.len < 60 ? who.len : 60), (const char *)who.data);
	bool parsed = sscanf(buf, "%u/%" SCNu64, &t, &n) == 2;
	uint64_t first = ingest_first_object(v->job);
	if (d->op.data && parsed && t < v->ledger->nworkers && n < first)
		return; /* made by the preload this run continues (start_at) */
	if (d->op.data && parsed && t < v->ledger->nworkers) {
		enum rpb_op_state st = rpb_ledger_op_state(&v->ledger->workers[t], n - first);
		v->res->unprovable += st == RPB_OP_UNPROVABLE;
		if (st == RPB_OP_ACKED || st == RPB_OP_IN_DOUBT || st == RPB_OP_UNPROVABLE)
			return;
	}
	if (d->probe.data && parsed && probe_unfinished(v, t, n))
		return;
	if (d->probe.data && parsed && ingest_probe_left(v->job, v->ledger, t, n)) {
		/* A probe a failed step left: expected, counted apart. */
		v->res->left++;
		v->res->left_by = "failed probe steps";
		return;
	}
	v->res->unexpected++;
	problem(v, "node %s was not made by an acknowledged create%s", path,
		d->probe.data ? " (a probe the run did not delete)" : "");
}

static int on_doc(void *ctx, rpb_slice key, rpb_slice val)
{
	struct vctx *v = ctx;
	struct fed_doc d;
	bool ours = key.len > v->plen && !memcmp(key.data, v->prefix, v->plen) &&
		    ((const char *)key.data)[v->plen] == '/';
	if (!fed_doc_parse(val.data, val.len, &d)) {
		if (ours) {
			v->res->corrupt++;
			problem(v, "node %.*s: its document is malformed", (int)key.len,
				(const char *)key.data);
		}
		return 0;
	}
	if (d.type == FED_BINARY && d.is_file && d.digest.data)
		hset_add(&v->digests, hash_of(d.digest.data, d.digest.len));
	if (!ours)
		return 0;
	char path[FED_PATH_MAX];
	size_t len = key.len - v->plen;
	if (len >= sizeof path)
		len = sizeof path - 1;
	memcpy(path, (const char *)key.data + v->plen, len);
	path[len] = '\0';
	hset_add(&v->nodes, hash_of(path, len));
	/* A create's nt:file node and a probe's container that is still there
	 * (not a tombstone) name the operation that made them; a jcr:content
	 * node is checked through its file node. */
	if (d.type == FED_BINARY || d.type == FED_TOMBSTONE)
		return 0;
	if (d.type == FED_FILE || (d.type == FED_CONTAINER && d.probe.data))
		check_maker(v, &d, path);
	struct child_ctx c = {v, path, len, 0};
	if (d.children && !d.blocks)
		c.parent = add_parent(v, path, len);
	fed_doc_children(&d, on_child, &c);
	if (d.blocks) {
		if (v->nblocked == v->capblocked) {
			size_t cap = v->capblocked ? v->capblocked * 2 : 64;
			char(*bl)[FED_PATH_MAX] = realloc(v->blocked, cap * sizeof *bl);
			if (!bl) {
				v->nomem = true;
				return 1;
			}
			v->blocked = bl;
			v->capblocked = cap;
		}
		memcpy(v->blocked[v->nblocked++], path, len + 1);
	}
	return 0;
}

/* A collection's bucket ids, and each bucket's names, which must hash to it. */
struct bucket_check {
	struct child_ctx *c;
	const char *id;
	size_t idlen;
	uint64_t ids, strays;
	char (*list)[FED_BUCKET_ID_MAX + 1];
};

static void collect_id(void *ctx, const char *id, size_t len)
{
	struct bucket_check *bc = ctx;
	if (len > FED_BUCKET_ID_MAX)
		len = FED_BUCKET_ID_MAX; /* not the id length: reported as missing */
	memcpy(bc->list[bc->ids], id, len);
	bc->list[bc->ids++][len] = '\0';
}

static void bucket_child(void *ctx, const char *name, size_t nlen)
{
	struct bucket_check *bc = ctx;
	char id[FED_BUCKET_ID_MAX + 1];
	if (!fed_bucket_id(name, nlen, (unsigned)bc->idlen, id) || memcmp(id, bc->id, bc->idlen))
		bc->strays++;
	on_child(bc->c, name, nlen);
}

static enum rpb_status read_buckets(struct vctx *v, const struct fed_doc *d, struct child_ctx *c,
				    struct rpb_err *err)
{
	/* The ids first: d points into v->got, which the bucket reads reuse. */
	uint64_t lines = d->bucket_lines.len / 8 + 1; /* "bucket=<id>\n": 9 bytes or more */
	struct bucket_check bc = {.c = c, .idlen = (size_t)d->bucket_len};
	bc.list = malloc(lines * sizeof *bc.list);
	if (!bc.list)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	fed_doc_buckets(d, collect_id, &bc);
	if (bc.ids != d->blocks) {
		v->res->corrupt++;
		problem(v, "node %s: %" PRIu64 " bucket ids for blocks=%" PRIu64, c->path, bc.ids,
			d->blocks);
	}
	enum rpb_status st = RPB_OK;
	char key[FED_KEY_MAX];
	for (uint64_t k = 0; !st && k < bc.ids; k++) {
		size_t kl = fed_bucket_key(key, v->ledger->run_tag, c->path, c->len, bc.list[k]);
		st = v->b->get(v->s, RPB_T_MEMBERS, rpb_slice_make(key, kl), &v->got, err);
		if (st == RPB_NOT_FOUND) {
			v->res->corrupt++;
			problem(v, "node %s: bucket %s is missing", c->path, bc.list[k]);
			st = RPB_OK;
			continue;
		}
		bc.id = bc.list[k];
		uint64_t strays = bc.strays;
		if (!st)
			fed_block_names(v->got.data, v->got.len, bucket_child, &bc);
		if (bc.strays > strays) {
			v->res->corrupt++;
			problem(v, "node %s: bucket %s holds %" PRIu64 " names whose SHA-1 does not "
				"begin with it", c->path, bc.list[k], bc.strays - strays);
		}
	}
	free(bc.list);
	return st;
}

/* The names of a container's blocks, read after the scan. */
static enum rpb_status read_blocks(struct vctx *v, const char *path, struct rpb_err *err)
{
	char key[FED_KEY_MAX];
	size_t len = strlen(path);
	struct fed_doc d;
	size_t kl = fed_node_key(key, v->ledger->run_tag, path, len);
	enum rpb_status st = v->b->get(v->s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, kl), &v->got, err);
	if (st || !fed_doc_parse(v->got.data, v->got.len, &d))
		return st;
	uint64_t blocks = d.blocks;
	struct child_ctx c = {v, path, len, add_parent(v, path, len)};
	if (d.bucket_len)
		return read_buckets(v, &d, &c, err);
	for (uint64_t b = 0; !st && b < blocks; b++) {
		kl = fed_block_key(key, v->ledger->run_tag, path, len, b);
		st = v->b->get(v->s, RPB_T_MEMBERS, rpb_slice_make(key, kl), &v->got, err);
		if (st == RPB_NOT_FOUND) {
			v->res->corrupt++;
			problem(v, "node %s: child block %" PRIu64 " of %" PRIu64 " is missing", path, b,
				blocks);
			st = RPB_OK;
			continue;
		}
		if (!st)
			fed_block_names(v->got.data, v->got.len, on_child, &c);
	}
	return st;
}

/* One acknowledged create: its path, its listing, its document, its content. */
/* The digest (the file's name) of create i of thread t, into digest;
 * v->content holds its content after, *size its size. */
static enum rpb_status create_digest(struct vctx *v, unsigned t, uint64_t i,
				     char digest[FED_SHA1_HEX + 1], uint64_t *size,
				     struct rpb_err *err)
{
	*size = ingest_content(v->job, t, i, v->content);
	if (v->o->digest != INGEST_SHA1)
		ingest_digest_hex(v->content, (size_t)*size, digest);
	else if (!fed_sha1_hex(v->content, (size_t)*size, digest))
		return rpb_err_set(err, RPB_IO, 0, NULL, "OpenSSL could not compute a SHA-1");
	return RPB_OK;
}

static enum rpb_status check_create(struct vctx *v, unsigned t, uint64_t i, struct rpb_err *err)
{
	struct fed_path p;
	fed_place(&p, v->o, v->job->run.seed, t, i);
	v->res->checked++;
	/* Its file is this create's whatever its node says: with sync = none
	 * a lost node leaves a file no node references, and that is the loss
	 * counted here, not an orphan. */
	uint64_t size;
	char digest[FED_SHA1_HEX + 1];
	enum rpb_status st = create_digest(v, t, i, digest, &size, err);
	if (st)
		return st;
	hset_add(&v->digests, hash_of(digest, strlen(digest)));
	for (unsigned j = 1; j < p.depth; j++)
		if (!hset_has(&v->nodes, hash_of(p.at[j], p.len[j]))) {
			v->res->missing++;
			problem(v, "branch node %s on the path of create %" PRIu64 " of thread %u is "
				"missing", p.at[j], i, t);
			return RPB_OK;
		}
	if (!hset_has(&v->nodes, hash_of(p.at[p.depth], p.len[p.depth]))) {
		v->res->missing++;
		problem(v, "node %s (create %" PRIu64 " of thread %u) is missing", p.at[p.depth], i, t);
		return RPB_OK;
	}
	if (!hset_has(&v->listed, hash_of(p.at[p.depth], p.len[p.depth]))) {
		v->res->missing++;
		problem(v, "node %s is not listed by its parent %s", p.at[p.depth], p.at[p.depth - 1]);
		return RPB_OK;
	}
	char key[FED_KEY_MAX];
	size_t kl = fed_content_key(key, v->ledger->run_tag, p.at[p.depth], p.len[p.depth]);
	st = v->b->get(v->s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, kl), &v->got, err);
	if (st == RPB_NOT_FOUND) {
		v->res->missing++;
		problem(v, "node %s (create %" PRIu64 " of thread %u) has no " FED_CONTENT_NAME " node",
			p.at[p.depth], i, t);
		return RPB_OK;
	}
	if (st)
		return st;
	struct fed_doc d;
	const char *bad = !fed_doc_parse(v->got.data, v->got.len, &d) ? "a malformed document"
			  : d.type != FED_BINARY			     ? "not a binary"
			  : d.size != size				     ? "the wrong size"
			  : !ingest_field_eq(d.mime, ingest_mime(v->o->content)) ? "the wrong MIME type"
			  : !ingest_field_eq(d.digest, digest)		     ? "the wrong digest"
									     : NULL;
	if (!bad && !d.is_file && memcmp(d.content.data, v->content, (size_t)size) != 0)
		bad = "inline content that is not the create's";
	if (!bad && d.is_file) {
		st = fed_binstore_get(&v->bs, digest, &v->file, err);
		if (st == RPB_NOT_FOUND) {
			v->res->missing++;
			problem(v, "node %s: its binary file %s is missing", p.at[p.depth], digest);
			return RPB_OK;
		}
		if (st)
			return st;
		/* preload_content = sparse: a hole of the content's size stands
		 * for the content (counted, said in the note). */
		bool elided = v->o->preload_content == INGEST_CONTENT_SPARSE &&
			      fed_binstore_elided(&v->bs, digest, (uint64_t)size);
		v->elided += elided;
		if (!elided &&
		    (v->file.len != size || memcmp(v->file.data, v->content, (size_t)size) != 0))
			bad = "a binary file whose content is not the create's";
		/* Its reference document counts it (ModeShape's "<sha1>-ref"). */
		uint64_t count = 0;
		kl = fed_ref_key(key, v->ledger->run_tag, digest);
		st = v->b->get(v->s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, kl), &v->got, err);
		if (st && st != RPB_NOT_FOUND)
			return st;
		if (!bad && (st || !fed_ref_parse(v->got.data, v->got.len, &count) || count == 0))
			bad = "a binary file without a reference document counting it";
		st = RPB_OK;
	}
	if (bad) {
		v->res->corrupt++;
		problem(v, "node %s (create %" PRIu64 " of thread %u) has %s", p.at[p.depth], i, t, bad);
	}
	return RPB_OK;
}

/* A file of the binary store: one a node of any run references, the file
 * of an acknowledged or in-doubt create (a temporary one too: killed
 * before its rename), or, for a stale ledger, possibly one of the
 * operations it cannot prove; anything else is an orphan. */
static void on_file(void *ctx, const char *name, size_t len)
{
	struct vctx *v = ctx;
	size_t dlen = fed_binstore_temp_of(name, len);
	if (hset_has(&v->digests, hash_of(name, dlen ? dlen : len)))
		return;
	if (v->ledger->stale) {
		v->res->unprovable++;
		return;
	}
	v->res->unexpected++;
	problem(v, "%s %.*s in %s: no node references it", dlen ? "temporary binary" : "orphan binary",
		(int)len, name, v->bs.dir);
}

/* A trash marker or a spooled body: accepted when a create in doubt may
 * have left it, possibly one a stale ledger cannot tell, else unexpected. */
static void leftover(struct vctx *v, bool accepted, const char *what, const char *name,
		     size_t len, const char *area, const char *why)
{
	if (accepted)
		return;
	if (v->ledger->stale) {
		v->res->unprovable++;
		return;
	}
	v->res->unexpected++;
	problem(v, "%s %.*s in %s/%s: %s", what, (int)len, name, v->bs.dir, area, why);
}

/* A trash marker (ModeShape's markAsUnused of a new binary): a create
 * clears its marker before it is acknowledged, so one is left only by a
 * create in doubt (failed inside its commit, or running when the run
 * died). */
static void on_mark(void *ctx, const char *name, size_t len)
{
	struct vctx *v = ctx;
	leftover(v, hset_has(&v->doubt_marks, hash_of(name, len)), "trash marker", name, len,
		 FED_BINSTORE_TRASH, "no create in doubt stored that binary");
}

/* A body spooled through a temporary file is removed at once: one is left
 * only by a create running when the run died. */
static void on_spool(void *ctx, const char *name, size_t len)
{
	struct vctx *v = ctx;
	leftover(v, v->died, "spooled body", name, len, FED_BINSTORE_TMP,
		 "no create was running when the run ended");
}

/* What in-doubt create i of thread t (failed inside commit, or running
 * when the run died) may have left: its file, renamed or still temporary,
 * and its trash marker are not orphans of this run, and a reference to
 * one of the nodes on its path may dangle. */
static enum rpb_status accept_in_doubt(struct vctx *v, unsigned t, uint64_t i,
				       struct rpb_err *err)
{
	struct fed_path p;
	fed_place(&p, v->o, v->job->run.seed, t, i);
	for (unsigned j = 1; j <= p.depth; j++)
		hset_add(&v->doubt, hash_of(p.at[j], p.len[j]));
	uint64_t size;
	char digest[FED_SHA1_HEX + 1];
	enum rpb_status st = create_digest(v, t, i, digest, &size, err);
	if (!st) {
		hset_add(&v->digests, hash_of(digest, strlen(digest)));
		hset_add(&v->doubt_marks, hash_of(digest, strlen(digest)));
	}
	return st;
}

enum rpb_status ingest_fedora_verify(const struct rpb_backend *b, struct rpb_store *store,
				     const struct rpb_job *job, const struct rpb_ledger *ledger,
				     struct rpb_verify_result *res, struct rpb_err *err)
{
	struct vctx v = {.b = b, .job = job, .o = ingest_opts(job), .ledger = ledger, .res = res};
	v.plen = (size_t)snprintf(v.prefix, sizeof v.prefix, "f/%s", ledger->run_tag);
	enum rpb_status st = fed_binstore_open(&v.bs, v.o, ledger->store_dir, ledger->results_dir,
					       NULL, false, false, err);
	if (st && st != RPB_NOT_FOUND)
		return st;
	/* A store without a single binary file has no directory: that is fine. */
	bool no_files = st != RPB_OK;
	st = RPB_OK;
	v.content = malloc(ingest_content_cap(v.o));
	if (!v.content)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for verify");
	st = b->session_open(store, &v.s, err);
	if (!st)
		st = b->begin(v.s, RPB_TXN_READ, err);
	rpb_slice lo = rpb_slice_make("f/", 2), hi = rpb_slice_make("f0", 2); /* '0' follows '/' */
	if (!st)
		st = b->scan(v.s, RPB_T_DESCRIPTIONS, &lo, &hi, 0, on_doc, &v, err);
	for (size_t k = 0; !st && k < v.nblocked; k++)
		st = read_blocks(&v, v.blocked[k], err);
	for (unsigned t = 0; !st && t < ledger->nworkers; t++) {
		const struct rpb_ledger_worker *lw = &ledger->workers[t];
		uint64_t first = ingest_first_object(job); /* a continued preload's */
		for (uint64_t i = 0; !st && i < lw->issued; i++) {
			enum rpb_op_state os = rpb_ledger_op_state(lw, i);
			res->in_doubt += os == RPB_OP_IN_DOUBT;
			if (os == RPB_OP_ACKED)
				st = check_create(&v, t, first + i, err);
			else if (os == RPB_OP_IN_DOUBT)
				st = accept_in_doubt(&v, t, first + i, err);
		}
		v.died |= lw->in_flight;
	}
	if (!st)
	for (size_t k = 0; !st && k < v.nwant; k++) {
		if (hset_has(&v.nodes, v.want[k].h))
			continue;
		if (hset_has(&v.doubt, v.want[k].h)) {
			/* A create in doubt wrote the parent, not yet the child. */
			res->left++;
			res->left_by = "creates in doubt";
			continue;
		}
		if (ledger->stale) {
			/* Possibly a create the ledger on disk does not record, cut
			 * between its documents (fedora-4.5 writes each on its own):
			 * the acknowledged creates' own nodes are checked above. */
			res->unprovable++;
			continue;
		}
		res->corrupt++;
		problem(&v, "a child reference points to a node that is not there: one of %s's "
			"children", v.parents + v.want[k].parent);
	}
	if (!st && !no_files) {
		fed_binstore_each(&v.bs, on_file, &v);
		fed_binstore_each_in(&v.bs, FED_AREA_TRASH, on_mark, &v);
		fed_binstore_each_in(&v.bs, FED_AREA_SPOOL, on_spool, &v);
	}
	if (!st && v.elided)
		snprintf(res->note, sizeof res->note,
			 "%" PRIu64 " binary file(s) of a preload with preload_content = sparse hold no "
			 "content: their size, digest name and reference checked, not their bytes",
			 v.elided);
	if (!st && (v.nomem || v.nodes.nomem || v.listed.nomem || v.digests.nomem || v.doubt.nomem ||
		    v.doubt_marks.nomem))
		st = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for verify's node sets");
	if (v.s) {
		b->rollback(v.s);
		b->session_close(v.s);
	}
	free(v.nodes.slot);
	free(v.listed.slot);
	free(v.digests.slot);
	free(v.doubt.slot);
	free(v.doubt_marks.slot);
	free(v.want);
	free(v.parents);
	free(v.blocked);
	rpb_buf_free(&v.got);
	rpb_buf_free(&v.file);
	free(v.content);
	return st;
}
