/* The Fedora model's run (ingest_fedora.h): one create in one transaction,
 * as Fedora 4.5 and ModeShape did it: the minted node's missing branch
 * nodes, its document, and its name added to its parent's child list (a
 * read-modify-write of the parent's document, or of its last child block);
 * a binary of binary_threshold bytes or more written to the file binary
 * store first, with its digest.
 *
 * Concurrency: two creates under one parent both rewrite the parent's
 * document, and a store that does not lock (LevelDB) would lose one of the
 * names. ModeShape takes a lock on every node it changes, inside its one
 * process; so does this pattern: a stripe of mutexes keyed by node path,
 * taken in stripe order before the transaction begins (never while a
 * backend lock is held, so no deadlock with SQLite's or PostgreSQL's
 * locks). Which nodes a create may change it knows from a cache of branch
 * nodes known to exist (branches are never deleted): the parent of the
 * first unknown branch and everything below it, or only the new node's
 * parent once its whole path is known, as ModeShape's node cache knows
 * it. */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "clock.h"
#include "fmt.h"
#include "fsutil.h"
#include "ingest_fedora_run.h"
#include "runner.h"

#define FED_STRIPES 4096u
#define FED_CACHE (1u << 16)
#define FED_BUCKETS 65

/* One worker's figures, on cache lines of its own (the worker writes them
 * on every create); kept in the shared state, so they outlive the worker
 * until result.json is written. */
struct fed_stats {
	_Alignas(64) uint64_t rewrite_bytes[FED_BUCKETS];
	uint64_t rewrites[FED_BUCKETS];
	uint64_t branches, files, deduped, inlined;
};

struct fed_shared {
	struct fed_binstore bs;
	struct fed_stats *stats;    /* one per worker */
	unsigned nstats;
	pthread_mutex_t stripe[FED_STRIPES];
	_Atomic uint64_t known[FED_CACHE]; /* hash | 1 of branch paths that exist */
	uint64_t swept;             /* leftovers of a run that died, removed at the start */
	_Atomic bool doubtful;      /* a create failed in doubt after writing its file */
};

struct fed_worker {
	struct fed_path path;
	unsigned char *content;     /* ingest_content_cap bytes */
	char digest[FED_SHA1_HEX + 1];
	struct rpb_buf doc_in, doc_out, block;
	char key[FED_KEY_MAX];
	unsigned locked[FED_LEVELS_MAX + 2];
	unsigned nlocked;
	/* The probe under way. */
	struct fed_path probe;
	char probe_digest[FED_SHA1_HEX + 1];
	bool probe_is_file, probe_file_created;
};

/* One store operation's context: the worker, its session, the time. */
struct fed_ctx {
	struct rpb_worker *w;
	struct fed_worker *fw;
	struct fed_stats *stats;
	struct rpb_session *s;
	const struct rpb_backend *b;
	const struct rpb_ingest_opts *o;
	const char *tag;
	uint64_t now_ms;
	struct rpb_err *err;
};

static uint64_t path_hash(const char *p, size_t n)
{
	return XXH3_64bits(p, n);
}

/* ---- shared state ---- */

enum rpb_status fed_prepare(struct rpb_runner *rn, struct fed_shared **out, struct rpb_err *err)
{
	const struct rpb_ingest_opts *o = ingest_opts(rn->job);
	struct fed_shared *sh = calloc(1, sizeof *sh);
	if (!sh)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	*out = sh;
	for (unsigned i = 0; i < FED_STRIPES; i++)
		pthread_mutex_init(&sh->stripe[i], NULL);
	sh->nstats = rn->nworkers;
	if (posix_memalign((void **)&sh->stats, 64, rn->nworkers * sizeof *sh->stats) != 0)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	memset(sh->stats, 0, rn->nworkers * sizeof *sh->stats);
	/* The null backend keeps nothing, and neither does the model beside
	 * it: no file store, every binary inline (to nothing). */
	enum rpb_status st = RPB_OK;
	if (!(rn->backend->flags & RPB_BF_STORES_NOTHING))
		st = fed_binstore_open(&sh->bs, o, rn->store_dir, rn->out_dir,
				       rn->job->run.sync == RPB_SYNC_COMMIT, true, err);
	if (st)
		return st;
	/* The run's root container and the probes' container under it. */
	struct rpb_session *s = NULL;
	const struct rpb_backend *b = rn->backend;
	st = b->session_open(rn->store, &s, err);
	if (!st && sh->bs.dir[0])
		st = fed_sweep(b, s, &sh->bs, !o->binary_dir[0], &sh->swept, err);
	struct rpb_buf doc = {0};
	char key[FED_KEY_MAX];
	uint64_t now = rpb_wall_ms();
	struct fed_head root = {.type = FED_CONTAINER, .created_ms = now, .modified_ms = now,
				.children = 1, .blocks = o->child_block ? 1 : 0};
	struct fed_head probes = {.type = FED_CONTAINER, .created_ms = now, .modified_ms = now};
	const char *pname = &FED_PROBE_CONTAINER[1]; /* without the leading / */
	if (!st)
		st = b->begin(s, RPB_TXN_WRITE, err);
	if (!st)
		st = fed_doc_write(&doc, &root, NULL, false, o->child_block ? NULL : pname,
				   strlen(pname), rpb_slice_make(NULL, 0), err);
	if (!st)
		st = b->put(s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, fed_node_key(key, rn->run_tag, "/", 1)),
			    rpb_slice_make(doc.data, doc.len), err);
	if (!st && o->child_block) {
		char block[64];
		int n = snprintf(block, sizeof block, "%s\n", pname);
		st = b->put(s, RPB_T_MEMBERS,
			    rpb_slice_make(key, fed_block_key(key, rn->run_tag, "/", 1, 0)),
			    rpb_slice_make(block, (size_t)n), err);
	}
	if (!st)
		st = fed_doc_write(&doc, &probes, NULL, false, NULL, 0, rpb_slice_make(NULL, 0), err);
	if (!st)
		st = b->put(s, RPB_T_DESCRIPTIONS,
			    rpb_slice_make(key, fed_node_key(key, rn->run_tag, FED_PROBE_CONTAINER,
							     strlen(FED_PROBE_CONTAINER))),
			    rpb_slice_make(doc.data, doc.len), err);
	if (!st)
		st = b->commit(s, err);
	if (st && s)
		b->rollback(s);
	b->session_close(s);
	rpb_buf_free(&doc);
	return st;
}

void fed_fini(struct fed_shared *sh)
{
	if (!sh)
		return;
	for (unsigned i = 0; i < FED_STRIPES; i++)
		pthread_mutex_destroy(&sh->stripe[i]);
	/* The run ended; a file of a create in doubt may still be an orphan,
	 * for the next run's start to sweep. */
	if (!atomic_load(&sh->doubtful))
		fed_binstore_close(&sh->bs);
	free(sh->stats);
	free(sh);
}

uint64_t fed_binary_bytes(const struct fed_shared *sh)
{
	uint64_t bytes = 0;
	struct rpb_err err;
	if (!sh || !sh->bs.dir[0] || rpb_dir_usage(sh->bs.dir, &bytes, &err) != RPB_OK)
		return 0;
	return bytes;
}

/* ---- per worker ---- */

enum rpb_status fed_worker_init(struct fed_worker **out, size_t content_cap, struct rpb_err *err)
{
	struct fed_worker *fw = calloc(1, sizeof *fw);
	if (!fw || !(fw->content = malloc(content_cap))) {
		free(fw);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for a Fedora worker");
	}
	enum rpb_status st = rpb_buf_reserve(&fw->doc_out, content_cap + FED_HEAD_MAX, err);
	if (!st)
		st = rpb_buf_reserve(&fw->doc_in, content_cap + FED_HEAD_MAX, err);
	if (!st)
		st = rpb_buf_reserve(&fw->block, 4096, err);
	*out = fw;
	return st;
}

void fed_worker_fini(struct fed_worker *fw)
{
	if (!fw)
		return;
	rpb_buf_free(&fw->doc_in);
	rpb_buf_free(&fw->doc_out);
	rpb_buf_free(&fw->block);
	free(fw->content);
	free(fw);
}

/* ---- locks and the branch cache ---- */

static bool known(const struct fed_shared *sh, const char *p, size_t n)
{
	uint64_t h = path_hash(p, n) | 1;
	return atomic_load_explicit(&sh->known[h & (FED_CACHE - 1)], memory_order_acquire) == h;
}

static void learn(struct fed_shared *sh, const char *p, size_t n)
{
	uint64_t h = path_hash(p, n) | 1;
	atomic_store_explicit(&sh->known[h & (FED_CACHE - 1)], h, memory_order_release);
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

/* Locks the stripes of the nodes from level first to level last of p, in
 * stripe order, each once. */
static void lock_levels(struct fed_shared *sh, struct fed_worker *fw, const struct fed_path *p,
			unsigned first, unsigned last)
{
	unsigned n = 0;
	for (unsigned j = first; j <= last; j++)
		fw->locked[n++] = (unsigned)(path_hash(p->at[j], p->len[j]) & (FED_STRIPES - 1));
	qsort(fw->locked, n, sizeof fw->locked[0], cmp_unsigned);
	unsigned u = 0;
	for (unsigned j = 0; j < n; j++)
		if (!u || fw->locked[u - 1] != fw->locked[j])
			fw->locked[u++] = fw->locked[j];
	fw->nlocked = u;
	for (unsigned j = 0; j < u; j++)
		pthread_mutex_lock(&sh->stripe[fw->locked[j]]);
}

static void unlock_levels(struct fed_shared *sh, struct fed_worker *fw)
{
	for (unsigned j = fw->nlocked; j-- > 0;)
		pthread_mutex_unlock(&sh->stripe[fw->locked[j]]);
	fw->nlocked = 0;
}

/* ---- documents through the store ---- */

static enum rpb_status get_doc(struct fed_ctx *c, const char *path, size_t len, struct fed_doc *d)
{
	size_t kl = fed_node_key(c->fw->key, c->tag, path, len);
	enum rpb_status st = c->b->get(c->s, RPB_T_DESCRIPTIONS, rpb_slice_make(c->fw->key, kl),
				       &c->fw->doc_in, c->err);
	if (st)
		return st;
	if (!fed_doc_parse(c->fw->doc_in.data, c->fw->doc_in.len, d))
		return rpb_err_set(c->err, RPB_CORRUPT, 0, NULL, "node %s: its document is malformed",
				   path);
	return RPB_OK;
}

static enum rpb_status put_doc(struct fed_ctx *c, const char *path, size_t len)
{
	size_t kl = fed_node_key(c->fw->key, c->tag, path, len);
	return c->b->put(c->s, RPB_T_DESCRIPTIONS, rpb_slice_make(c->fw->key, kl),
			 rpb_slice_make(c->fw->doc_out.data, c->fw->doc_out.len), c->err);
}

static unsigned bit_length(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

static void count_name(void *ctx, const char *name, size_t len)
{
	(void)name;
	(void)len;
	(*(uint64_t *)ctx)++;
}

/* Adds name to the child list of the node at path: a read-modify-write of
 * its document (child_block = 0), or of its last block and its document. */
static enum rpb_status add_child(struct fed_ctx *c, const char *path, size_t len, const char *name,
				 size_t nlen)
{
	struct fed_worker *fw = c->fw;
	struct fed_doc pd;
	enum rpb_status st = get_doc(c, path, len, &pd);
	if (st == RPB_NOT_FOUND && (c->b->flags & RPB_BF_STORES_NOTHING)) {
		/* The null backend keeps nothing: every parent is a new one. */
		memset(&pd, 0, sizeof pd);
		pd.type = FED_PAIRTREE;
		st = RPB_OK;
	}
	if (st == RPB_NOT_FOUND)
		return rpb_err_set(c->err, RPB_CORRUPT, 0, NULL, "node %.*s is missing its parent %s",
				   (int)nlen, name, path);
	if (st)
		return st;
	uint64_t before = pd.children, blocks = pd.blocks;
	struct fed_head h = {.type = pd.type, .modified_ms = c->now_ms, .children = before + 1};
	size_t bytes = 0;
	if (!c->o->child_block) {
		st = fed_doc_write(&fw->doc_out, &h, &pd, true, name, nlen, rpb_slice_make(NULL, 0),
				   c->err);
	} else {
		/* The last block, unless it is full (or there is none yet). */
		uint64_t in_last = c->o->child_block;
		char bkey[FED_KEY_MAX];
		size_t bl = 0;
		fw->block.len = 0;
		if (blocks) {
			bl = fed_block_key(bkey, c->tag, path, len, blocks - 1);
			st = c->b->get(c->s, RPB_T_MEMBERS, rpb_slice_make(bkey, bl), &fw->block, c->err);
			if (st == RPB_NOT_FOUND)
				st = rpb_err_set(c->err, RPB_CORRUPT, 0, NULL,
						 "node %s: child block %" PRIu64 " is missing", path,
						 blocks - 1);
			in_last = 0;
			if (!st)
				fed_block_names(fw->block.data, fw->block.len, count_name, &in_last);
		}
		if (!st && in_last >= c->o->child_block) {
			bl = fed_block_key(bkey, c->tag, path, len, blocks++);
			fw->block.len = 0;
		}
		if (!st)
			st = rpb_buf_reserve(&fw->block, fw->block.len + nlen + 1, c->err);
		if (!st) {
			memcpy(fw->block.data + fw->block.len, name, nlen);
			fw->block.data[fw->block.len + nlen] = '\n';
			fw->block.len += nlen + 1;
			bytes += fw->block.len;
			st = c->b->put(c->s, RPB_T_MEMBERS, rpb_slice_make(bkey, bl),
				       rpb_slice_make(fw->block.data, fw->block.len), c->err);
		}
		h.blocks = blocks;
		if (!st)
			st = fed_doc_write(&fw->doc_out, &h, &pd, false, NULL, 0,
					   rpb_slice_make(NULL, 0), c->err);
	}
	if (!st)
		st = put_doc(c, path, len);
	if (!st) {
		bytes += fw->doc_out.len;
		unsigned k = bit_length(before);
		c->stats->rewrite_bytes[k] += bytes;
		c->stats->rewrites[k]++;
	}
	return st;
}

/* A branch node of the pairtree at level j of p, and its name in its
 * parent's list. */
static enum rpb_status create_branch(struct fed_ctx *c, const struct fed_path *p, unsigned j)
{
	struct fed_head h = {.type = FED_PAIRTREE, .created_ms = c->now_ms,
			     .modified_ms = c->now_ms};
	enum rpb_status st = fed_doc_write(&c->fw->doc_out, &h, NULL, false, NULL, 0,
					   rpb_slice_make(NULL, 0), c->err);
	if (!st)
		st = put_doc(c, p->at[j], p->len[j]);
	size_t nlen;
	const char *name = fed_name(p->at[j], p->len[j], &nlen);
	if (!st)
		st = add_child(c, p->at[j - 1], p->len[j - 1], name, nlen);
	if (!st)
		c->stats->branches++;
	return st;
}

/* The binary node's document at p's last level, added to its parent. */
static enum rpb_status create_binary(struct fed_ctx *c, const struct fed_path *p, uint64_t size,
				     const char *digest, bool is_file, char made, unsigned thread,
				     uint64_t n)
{
	struct fed_worker *fw = c->fw;
	struct fed_head h = {.type = FED_BINARY, .created_ms = c->now_ms, .modified_ms = c->now_ms,
			     .size = size, .mime = ingest_mime(c->o->content), .digest = digest,
			     .digest_is_sha1 = c->o->digest == INGEST_SHA1, .is_file = is_file,
			     .made_kind = made, .made_thread = thread, .made_n = n};
	enum rpb_status st = fed_doc_write(&fw->doc_out, &h, NULL, false, NULL, 0,
					   rpb_slice_make(is_file ? NULL : fw->content,
							  is_file ? 0 : (size_t)size),
					   c->err);
	if (!st)
		st = put_doc(c, p->at[p->depth], p->len[p->depth]);
	size_t nlen;
	const char *name = fed_name(p->at[p->depth], p->len[p->depth], &nlen);
	if (!st)
		st = add_child(c, p->at[p->depth - 1], p->len[p->depth - 1], name, nlen);
	return st;
}

/* The content's digest into fw->digest: SHA-1, or XXH3-128 with digest =
 * none (the file store still needs a name). */
static enum rpb_status digest_of(struct fed_ctx *c, const void *p, size_t n, char *out)
{
	if (c->o->digest == INGEST_SHA1) {
		if (!fed_sha1_hex(p, n, out))
			return rpb_err_set(c->err, RPB_IO, 0, NULL, "OpenSSL could not compute a SHA-1");
		return RPB_OK;
	}
	ingest_digest_hex(p, n, out);
	return RPB_OK;
}

static bool in_files(const struct fed_shared *sh, const struct rpb_ingest_opts *o, uint64_t size)
{
	return sh->bs.dir[0] && o->binary_threshold && size >= o->binary_threshold;
}

/* inject = kill:file@N, between a create's temporary file and its rename. */
struct kill_at {
	struct rpb_worker *w;
	uint64_t i;
};

static void kill_before_rename(void *arg)
{
	struct kill_at *k = arg;
	rpb_inject_kill(k->w, k->i, RPB_KILL_FILE);
}

uint64_t fed_stage(struct rpb_worker *w, struct fed_worker *fw, uint64_t i)
{
	const struct rpb_job *job = w->rn->job;
	fed_place(&fw->path, ingest_opts(job), job->run.seed, w->id, i);
	return ingest_content(job, w->id, i, fw->content);
}

enum rpb_status fed_create(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			   uint64_t i, uint64_t size, struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	const struct rpb_ingest_opts *o = ingest_opts(rn->job);
	const struct fed_path *p = &fw->path;
	struct fed_ctx c = {w, fw, &sh->stats[w->id], rpb_next_session(w), rn->backend, o,
			    rn->run_tag, rpb_wall_ms(), err};
	/* The server: the binary's digest and, when large, its file first. */
	bool is_file = in_files(sh, o, size), file_created = false, at_commit = false;
	enum rpb_status st = digest_of(&c, fw->content, (size_t)size, fw->digest);
	struct kill_at kill = {w, i};
	if (!st && is_file)
		st = fed_binstore_put(&sh->bs, fw->digest, fw->content, (size_t)size, &file_created,
				      kill_before_rename, &kill, err);
	if (!st) {
		/* The parent of the first branch not known to exist, and below. */
		unsigned first = 1;
		while (first < p->depth && known(sh, p->at[first], p->len[first]))
			first++;
		lock_levels(sh, fw, p, first - 1, p->depth - 1);
		char key[FED_KEY_MAX];
		rpb_slice leaf = rpb_slice_make(key, fed_node_key(key, c.tag, p->at[p->depth],
								  p->len[p->depth]));
		rpb_inject_point(w, i, true, RPB_T_DESCRIPTIONS, leaf);
		st = rpb_txn_begin(w, c.s, RPB_TXN_WRITE, err);
		for (unsigned j = first; !st && j < p->depth; j++) {
			struct fed_doc d;
			st = get_doc(&c, p->at[j], p->len[j], &d);
			if (st == RPB_NOT_FOUND)
				st = create_branch(&c, p, j);
		}
		if (!st)
			st = create_binary(&c, p, size, fw->digest, is_file, 'o', w->id, i);
		if (!st)
			rpb_inject_point(w, i, false, RPB_T_DESCRIPTIONS, leaf);
		if (!st) {
			st = rpb_txn_commit(w, c.s, err);
			at_commit = st != RPB_OK;
		} else {
			rpb_txn_rollback(w, c.s);
		}
		unlock_levels(sh, fw);
	}
	w->in_doubt = at_commit;
	if (!st) {
		for (unsigned j = 1; j < p->depth; j++)
			learn(sh, p->at[j], p->len[j]);
		c.stats->files += is_file && file_created;
		c.stats->deduped += is_file && !file_created;
		c.stats->inlined += !is_file;
	} else if (file_created && at_commit) {
		atomic_store_explicit(&sh->doubtful, true, memory_order_relaxed);
	} else if (file_created && !at_commit) {
		/* Certainly not committed: the file would be an orphan. */
		fed_binstore_remove(&sh->bs, fw->digest);
	}
	return st;
}

/* ---- probes: the test plan's performance requests on a node ---- */

uint64_t fed_probe_stage(struct rpb_worker *w, struct fed_worker *fw, uint64_t probe)
{
	fed_probe_place(&fw->probe, w->id, probe);
	return ingest_probe_content(w->rn->job, w->id, probe, fw->content);
}

struct name_drop {
	const char *name;
	size_t len;
	struct rpb_buf *out; /* the list without it */
	bool found;
};

static void drop_name(void *ctx, const char *name, size_t len)
{
	struct name_drop *d = ctx;
	if (!d->found && len == d->len && !memcmp(name, d->name, len)) {
		d->found = true;
		return;
	}
	memcpy(d->out->data + d->out->len, name, len);
	d->out->data[d->out->len + len] = '\n';
	d->out->len += len + 1;
}

/* Removes name from the child list of the node at path (its last block
 * holding it, searched from the last one back). */
static enum rpb_status remove_child(struct fed_ctx *c, const char *path, size_t len,
				    const char *name, size_t nlen)
{
	struct fed_worker *fw = c->fw;
	struct fed_doc pd;
	enum rpb_status st = get_doc(c, path, len, &pd);
	if (st)
		return st;
	struct fed_head h = {.type = pd.type, .modified_ms = c->now_ms,
			     .children = pd.children ? pd.children - 1 : 0, .blocks = pd.blocks};
	struct name_drop d = {name, nlen, &fw->block, false};
	if (!c->o->child_block) {
		/* child= lines without the name: rebuilt as a block, then back. */
		st = rpb_buf_reserve(&fw->block, pd.child_lines.len + 1, c->err);
		fw->block.len = 0;
		if (!st)
			fed_doc_children(&pd, drop_name, &d);
		if (!st && d.found) {
			/* The document keeps the lines that are left, as child= lines. */
			struct fed_doc kept = pd;
			kept.child_lines = rpb_slice_make(NULL, 0);
			st = fed_doc_write(&fw->doc_out, &h, &kept, false, NULL, 0,
					   rpb_slice_make(NULL, 0), c->err);
			const char *q = (const char *)fw->block.data, *end = q + fw->block.len;
			/* Re-add the kept names one line at a time, in order. */
			while (!st && q < end) {
				const char *nl = memchr(q, '\n', (size_t)(end - q));
				size_t l = (size_t)(nl - q);
				st = rpb_buf_reserve(&fw->doc_out, fw->doc_out.len + l + 8, c->err);
				if (!st) {
					/* before the document's final empty line */
					unsigned char *at = fw->doc_out.data + fw->doc_out.len - 1;
					memcpy(at, "child=", 6);
					memcpy(at + 6, q, l);
					at[6 + l] = '\n';
					at[7 + l] = '\n';
					fw->doc_out.len += l + 7;
				}
				q = nl + 1;
			}
		}
	} else {
		char bkey[FED_KEY_MAX];
		for (uint64_t b = pd.blocks; !st && !d.found && b-- > 0;) {
			size_t bl = fed_block_key(bkey, c->tag, path, len, b);
			st = c->b->get(c->s, RPB_T_MEMBERS, rpb_slice_make(bkey, bl), &fw->doc_in, c->err);
			if (st)
				break;
			st = rpb_buf_reserve(&fw->block, fw->doc_in.len + 1, c->err);
			fw->block.len = 0;
			if (!st)
				fed_block_names(fw->doc_in.data, fw->doc_in.len, drop_name, &d);
			if (!st && d.found) {
				if (!fw->block.len && b + 1 == pd.blocks) {
					st = c->b->del(c->s, RPB_T_MEMBERS, rpb_slice_make(bkey, bl), c->err);
					h.blocks--;
				} else {
					st = c->b->put(c->s, RPB_T_MEMBERS, rpb_slice_make(bkey, bl),
						       rpb_slice_make(fw->block.data, fw->block.len), c->err);
				}
			}
		}
		/* get_doc again: the block reads reused its buffer. */
		if (!st && d.found)
			st = get_doc(c, path, len, &pd);
		if (!st && d.found)
			st = fed_doc_write(&fw->doc_out, &h, &pd, false, NULL, 0,
					   rpb_slice_make(NULL, 0), c->err);
	}
	if (!st && !d.found)
		return rpb_err_set(c->err, RPB_NOT_FOUND, 0, NULL, "%.*s is not a child of %s",
				   (int)nlen, name, path);
	return st ? st : put_doc(c, path, len);
}

static enum rpb_status probe_put(struct fed_ctx *c, struct fed_shared *sh, uint64_t probe,
				 uint64_t size, bool *at_commit)
{
	struct fed_worker *fw = c->fw;
	const struct fed_path *p = &fw->probe;
	fw->probe_is_file = in_files(sh, c->o, size);
	fw->probe_file_created = false;
	enum rpb_status st = digest_of(c, fw->content, (size_t)size, fw->probe_digest);
	if (!st && fw->probe_is_file)
		st = fed_binstore_put(&sh->bs, fw->probe_digest, fw->content, (size_t)size,
				      &fw->probe_file_created, NULL, NULL, c->err);
	if (st)
		return st;
	lock_levels(sh, fw, p, 1, 1);
	st = rpb_txn_begin(c->w, c->s, RPB_TXN_WRITE, c->err);
	if (!st)
		st = create_binary(c, p, size, fw->probe_digest, fw->probe_is_file, 'p', c->w->id, probe);
	if (!st) {
		st = rpb_txn_commit(c->w, c->s, c->err);
		*at_commit = st != RPB_OK;
	} else {
		rpb_txn_rollback(c->w, c->s);
	}
	unlock_levels(sh, fw);
	if (st && !*at_commit && fw->probe_file_created)
		fed_binstore_remove(&sh->bs, fw->probe_digest);
	return st;
}

/* OPTIONS reads the document; GET the document and a file's content. */
static enum rpb_status probe_read(struct fed_ctx *c, struct fed_shared *sh, bool get,
				  uint64_t *bytes)
{
	struct fed_worker *fw = c->fw;
	const struct fed_path *p = &fw->probe;
	struct fed_doc d;
	enum rpb_status st = rpb_txn_begin(c->w, c->s, RPB_TXN_READ, c->err);
	if (!st)
		st = get_doc(c, p->at[2], p->len[2], &d);
	if (!st) {
		*bytes = get ? d.size : fw->doc_in.len;
		if (get && d.is_file) {
			char name[FED_SHA1_HEX + 1];
			snprintf(name, sizeof name, "%.*s", (int)d.digest.len, (const char *)d.digest.data);
			st = fed_binstore_get(&sh->bs, name, &fw->block, c->err);
		}
	}
	return rpb_txn_finish(c->w, c->s, st, c->err);
}

static enum rpb_status probe_patch(struct fed_ctx *c, struct fed_shared *sh, uint64_t probe)
{
	struct fed_worker *fw = c->fw;
	const struct fed_path *p = &fw->probe;
	char title[64];
	int tl = snprintf(title, sizeof title, "probe %" PRIu64, probe);
	lock_levels(sh, fw, p, 2, 2);
	struct fed_doc d;
	enum rpb_status st = rpb_txn_begin(c->w, c->s, RPB_TXN_WRITE, c->err);
	if (!st)
		st = get_doc(c, p->at[2], p->len[2], &d);
	if (!st) {
		/* The digest names the same content: copy it out of the old
		 * document before the new one is written. */
		char digest[FED_SHA1_HEX + 1];
		snprintf(digest, sizeof digest, "%.*s", (int)d.digest.len, (const char *)d.digest.data);
		unsigned thread = 0;
		uint64_t n = 0;
		sscanf(d.probe.data ? (const char *)d.probe.data : "", "%u/%" SCNu64, &thread, &n);
		struct fed_head h = {.type = FED_BINARY, .modified_ms = c->now_ms, .size = d.size,
				     .mime = ingest_mime(c->o->content), .digest = digest,
				     .digest_is_sha1 = d.digest_is_sha1, .is_file = d.is_file,
				     .made_kind = 'p', .made_thread = thread, .made_n = n,
				     .title = rpb_slice_make(title, (size_t)tl)};
		st = rpb_buf_reserve(&fw->block, fw->doc_in.len, c->err);
		if (!st) {
			/* The base and the content must not live in doc_out. */
			memcpy(fw->block.data, fw->doc_in.data, fw->doc_in.len);
			fw->block.len = fw->doc_in.len;
			st = fed_doc_parse(fw->block.data, fw->block.len, &d)
				     ? fed_doc_write(&fw->doc_out, &h, &d, false, NULL, 0, d.content, c->err)
				     : rpb_err_set(c->err, RPB_CORRUPT, 0, NULL, "probe document malformed");
		}
	}
	if (!st)
		st = put_doc(c, p->at[2], p->len[2]);
	st = rpb_txn_finish(c->w, c->s, st, c->err);
	unlock_levels(sh, fw);
	return st;
}

/* DELETE: the node's document, its name in the probe container, and the
 * binary's file when this probe wrote it. cleanup: the same after a PUT
 * that failed inside commit, untimed, whatever of it is there. */
static enum rpb_status probe_delete(struct fed_ctx *c, struct fed_shared *sh, bool cleanup)
{
	struct fed_worker *fw = c->fw;
	const struct fed_path *p = &fw->probe;
	lock_levels(sh, fw, p, 1, 1);
	size_t kl = fed_node_key(fw->key, c->tag, p->at[2], p->len[2]);
	enum rpb_status st = rpb_txn_begin(c->w, c->s, RPB_TXN_WRITE, c->err);
	if (!st)
		st = c->b->del(c->s, RPB_T_DESCRIPTIONS, rpb_slice_make(fw->key, kl), c->err);
	size_t nlen;
	const char *name = fed_name(p->at[2], p->len[2], &nlen);
	if (!st)
		st = remove_child(c, p->at[1], p->len[1], name, nlen);
	if (cleanup && st == RPB_NOT_FOUND) {
		/* The create did not happen: nothing to remove. */
		rpb_txn_rollback(c->w, c->s);
		st = RPB_OK;
	} else {
		st = rpb_txn_finish(c->w, c->s, st, c->err);
	}
	unlock_levels(sh, fw);
	if (!st && fw->probe_file_created)
		fed_binstore_remove(&sh->bs, fw->probe_digest);
	return st;
}

enum rpb_status fed_probe(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			  enum fed_probe_step step, uint64_t probe, uint64_t size, uint64_t *bytes,
			  bool *at_commit, struct rpb_err *err)
{
	const struct rpb_ingest_opts *o = ingest_opts(w->rn->job);
	struct fed_ctx c = {w, fw, &sh->stats[w->id], rpb_next_session(w), w->rn->backend, o,
			    w->rn->run_tag, rpb_wall_ms(), err};
	*bytes = 0;
	*at_commit = false;
	switch (step) {
	case FED_PROBE_PUT:
		*bytes = size;
		return probe_put(&c, sh, probe, size, at_commit);
	case FED_PROBE_OPTIONS:
		return probe_read(&c, sh, false, bytes);
	case FED_PROBE_GET:
		return probe_read(&c, sh, true, bytes);
	case FED_PROBE_PATCH:
		return probe_patch(&c, sh, probe);
	case FED_PROBE_DELETE:
		return probe_delete(&c, sh, false);
	case FED_PROBE_CLEANUP:
		return probe_delete(&c, sh, true);
	}
	return RPB_INVALID;
}

/* ---- result.json ---- */

void fed_report_json(const struct rpb_runner *rn, const struct fed_shared *sh, json_t *obj)
{
	const struct rpb_ingest_opts *o = ingest_opts(rn->job);
	uint64_t bytes[FED_BUCKETS] = {0}, count[FED_BUCKETS] = {0};
	uint64_t branches = 0, files = 0, deduped = 0, inlined = 0;
	for (unsigned t = 0; t < sh->nstats; t++) {
		const struct fed_stats *fs = &sh->stats[t];
		for (unsigned k = 0; k < FED_BUCKETS; k++) {
			bytes[k] += fs->rewrite_bytes[k];
			count[k] += fs->rewrites[k];
		}
		branches += fs->branches;
		files += fs->files;
		deduped += fs->deduped;
		inlined += fs->inlined;
	}
	/* The cost signature: mean bytes a parent rewrite put, by how many
	 * children the parent had before ([2^(k-1), 2^k) for bucket k). */
	json_t *sig = json_array();
	for (unsigned k = 0; k < FED_BUCKETS; k++)
		if (count[k])
			json_array_append_new(
				sig, json_pack("{s:I, s:I, s:I, s:f}", "children_from",
					       (json_int_t)(k ? UINT64_C(1) << (k - 1) : 0),
					       "children_below", (json_int_t)(UINT64_C(1) << k),
					       "rewrites", (json_int_t)count[k], "mean_bytes",
					       (double)bytes[k] / (double)count[k]));
	json_object_set_new(
		obj, "fedora",
		json_pack("{s:I, s:I, s:I, s:I, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:o}",
			  "pairtree_length", (json_int_t)o->pairtree_length, "pairtree_count",
			  (json_int_t)o->pairtree_count, "child_block", (json_int_t)o->child_block,
			  "binary_threshold", (json_int_t)o->binary_threshold, "digest",
			  o->digest == INGEST_SHA1 ? "sha1" : "none", "binary_dir", sh->bs.dir,
			  "binary_bytes", (json_int_t)fed_binary_bytes(sh),
			  "branches_created", (json_int_t)branches, "files_written", (json_int_t)files,
			  "files_shared", (json_int_t)deduped, "inline", (json_int_t)inlined,
			  "parent_rewrites", sig));
	if (sh->swept) /* a run before this one died: what it left in doubt */
		json_object_set_new(json_object_get(obj, "fedora"), "leftovers_removed",
				    json_integer((json_int_t)sh->swept));
}
