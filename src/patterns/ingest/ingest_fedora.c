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
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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
	uint64_t store_txns, docs_written, doc_bytes, refs;
	/* read_mix: documents and blocks the lists read, documents and
	 * files the filegets read, contents they took from a document. */
	uint64_t list_docs, list_blocks, get_docs, files_read, inline_read;
	uint64_t members_docs; /* members-get: documents read */
};

/* fedora-4.5's document cache, shared by the workers (Infinispan's). */
struct fed_cache_ent {
	uint64_t h;
	enum rpb_table t;
	char key[FED_KEY_MAX];
	size_t klen;
	struct rpb_buf val;
	int prev, next, chain; /* LRU list; bucket chain, or the free list */
};
struct fed_cache {
	pthread_mutex_t mu;
	struct fed_cache_ent *e;
	int *bucket;
	size_t nbuckets;
	unsigned cap, n;
	int head, tail, free;
	uint64_t hits, misses;
};

/* fedora-4.5: the documents a request changed, written at its commit. */
#define FED_WS_MAX 32
struct fed_ws_ent {
	enum rpb_table t;
	char key[FED_KEY_MAX];
	size_t klen;
	struct rpb_buf val;
	bool del;
};

struct fed_shared {
	struct fed_binstore bs;
	struct fed_stats *stats;    /* one per worker */
	unsigned nstats;
	pthread_mutex_t stripe[FED_STRIPES];
	_Atomic uint64_t known[FED_CACHE]; /* hash | 1 of branch paths that exist */
	struct fed_cache cache;             /* fedora-4.5: doc_cache entries */
	bool f45;
	uint64_t swept;             /* leftovers of a run that died, removed at the start */
	_Atomic bool doubtful;      /* a create failed in doubt after writing its file */
	/* inject = leak: 1 + the thread whose abandoned transaction held each
	 * stripe's nodes when it was leaked (0: none); the transaction holds
	 * them until the reaper rolls it back (its leak_state). */
	_Atomic unsigned leak_owner[FED_STRIPES];
	/* The verb preload: creates per store transaction (0: a measured run),
	 * and the turn of the one thread whose batch is open (threads take
	 * turns, batch by batch, so no batch reads what another has not
	 * committed). */
	uint64_t batch;
	pthread_mutex_t turn_mu;
	pthread_cond_t turn_cv;
	bool turn_taken;
};

struct fed_worker {
	struct fed_path path;
	unsigned char *content;     /* ingest_content_cap bytes */
	char digest[FED_SHA1_HEX + 1];
	struct rpb_buf doc_in, doc_out, block;
	struct rpb_buf listed, body; /* read_mix: the listed container's document; a file read */
	struct fed_path target;      /* read_mix: the binary a fileget reads */
	char key[FED_KEY_MAX];
	unsigned locked[FED_LEVELS_MAX + 3];
	unsigned nlocked;
	/* The probe under way. */
	struct fed_path probe;
	struct fed_ws_ent ws[FED_WS_MAX];
	unsigned nws;
	uint64_t made_n;            /* the object the staged create makes (start_at + op) */
	/* The verb preload: the open batch's session, creates and bytes. */
	struct rpb_session *batch_s;
	bool batch_open;
	uint64_t batch_n, batch_bytes;
};

/* One store operation's context: the worker, its session, the time. */
struct fed_ctx {
	struct rpb_worker *w;
	struct fed_shared *sh;
	struct fed_worker *fw;
	struct fed_stats *stats;
	struct rpb_session *s;
	const struct rpb_backend *b;
	const struct rpb_ingest_opts *o;
	const char *tag;
	uint64_t now_ms;
	struct rpb_err *err;
	bool f45;               /* profile = fedora-4.5, reaching the store as it did */
	uint64_t fail_after;    /* inject = partial: fail after this many documents; 0 = no */
};

static uint64_t path_hash(const char *p, size_t n)
{
	return XXH3_64bits(p, n);
}

static enum rpb_status cache_init(struct fed_cache *dc, uint64_t cap, struct rpb_err *err);
static void cache_fini(struct fed_cache *dc);
static enum rpb_status add_child(struct fed_ctx *c, const char *path, size_t len, const char *name,
				 size_t nlen);
static enum rpb_status put_doc(struct fed_ctx *c, const char *path, size_t len);

/* members = N, on a continued store: the /members container referencing
 * the first N objects' nt:file nodes, added to the root once (a later run
 * rewrites its references). Not a measured request. */
static enum rpb_status write_members(struct rpb_runner *rn, struct fed_shared *sh,
				     struct rpb_session *s, struct rpb_err *err)
{
	const struct rpb_ingest_opts *o = ingest_opts(rn->job);
	const struct rpb_backend *b = rn->backend;
	if (o->start_at < o->members)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "[ingest] members = %" PRIu64 " references objects already in the "
				   "store, and it holds %" PRIu64 ": preload at least %" PRIu64
				   " objects, then run --continue", o->members, o->start_at, o->members);
	struct fed_worker *fw = NULL;
	enum rpb_status st = fed_worker_init(&fw, 0, err);
	_Alignas(64) struct fed_stats scratch;
	memset(&scratch, 0, sizeof scratch);
	struct fed_ctx c = {NULL, sh, fw, &scratch, s, b, o, rn->run_tag, rpb_wall_ms(), err,
			    false, 0};
	char key[FED_KEY_MAX];
	size_t kl = fed_node_key(key, rn->run_tag, FED_MEMBERS, strlen(FED_MEMBERS));
	bool there = false;
	if (!st)
		st = b->begin(s, RPB_TXN_WRITE, err);
	if (!st) {
		st = b->get(s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, kl), &fw->doc_in, err);
		there = st == RPB_OK;
		if (st == RPB_NOT_FOUND)
			st = RPB_OK;
	}
	struct fed_head h = {.type = FED_CONTAINER, .created_ms = c.now_ms, .modified_ms = c.now_ms,
			     .tag = c.tag, .path = FED_MEMBERS};
	if (!st)
		st = fed_doc_write(&fw->doc_out, &h, NULL, false, NULL, 0, rpb_slice_make(NULL, 0),
				   err);
	/* The member= lines, before the document's final empty line. */
	uint64_t threads = rn->job->run.threads ? rn->job->run.threads : 1;
	for (uint64_t k = 0; !st && k < o->members; k++) {
		struct fed_path p;
		fed_place(&p, o, rn->job->run.seed, (unsigned)(k % threads), k / threads);
		size_t l = p.len[p.depth];
		st = rpb_buf_reserve(&fw->doc_out, fw->doc_out.len + l + 9, err);
		if (!st) {
			unsigned char *at = fw->doc_out.data + fw->doc_out.len - 1;
			memcpy(at, "member=", 7);
			memcpy(at + 7, p.at[p.depth], l);
			at[7 + l] = '\n';
			at[8 + l] = '\n';
			fw->doc_out.len += l + 8;
		}
	}
	if (!st)
		st = put_doc(&c, FED_MEMBERS, strlen(FED_MEMBERS));
	if (!st && !there)
		st = add_child(&c, "/", 1, &FED_MEMBERS[1], strlen(FED_MEMBERS) - 1);
	if (!st)
		st = b->commit(s, err);
	else
		b->rollback(s);
	fed_worker_fini(fw);
	return st;
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
	pthread_mutex_init(&sh->turn_mu, NULL);
	pthread_cond_init(&sh->turn_cv, NULL);
	sh->batch = o->preload_batch;
	sh->nstats = rn->nworkers;
	if (posix_memalign((void **)&sh->stats, 64, rn->nworkers * sizeof *sh->stats) != 0)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	memset(sh->stats, 0, rn->nworkers * sizeof *sh->stats);
	/* The null backend keeps nothing, and neither does the model beside
	 * it: no file store, every binary inline (to nothing). */
	enum rpb_status st;
	sh->f45 = rn->job->run.profile == RPB_PROFILE_FEDORA45;
	st = cache_init(&sh->cache, sh->f45 ? o->doc_cache : 0, err);
	/* ModeShape never forces a binary file: fedora-4.5 syncs none. */
	if (!st && !(rn->backend->flags & RPB_BF_STORES_NOTHING))
		st = fed_binstore_open(&sh->bs, o, rn->store_dir, rn->out_dir, rn->store_id,
				       !sh->f45 && rn->job->run.sync == RPB_SYNC_COMMIT, true, err);
	if (st)
		return st;
	/* The run's root container and the probes' container under it. */
	struct rpb_session *s = NULL;
	const struct rpb_backend *b = rn->backend;
	st = b->session_open(rn->store, &s, err);
	if (!st && sh->bs.dir[0])
		st = fed_sweep(b, s, &sh->bs, !o->binary_dir[0], &sh->swept, err);
	if (!st && o->members && !sh->batch)
		st = write_members(rn, sh, s, err);
	if (!st && o->start_at) {
		/* A continued preload's root and probe container are there, with
		 * its children. */
		b->session_close(s);
		return RPB_OK;
	}
	struct rpb_buf doc = {0};
	char key[FED_KEY_MAX];
	uint64_t now = rpb_wall_ms();
	const char *pname = &FED_PROBE_CONTAINER[1]; /* without the leading / */
	char root_bucket[FED_BUCKET_ID_MAX + 1] = "";
	if (o->collection && !fed_bucket_id(pname, strlen(pname), (unsigned)o->collection,
					    root_bucket))
		st = rpb_err_set(err, RPB_IO, 0, NULL, "OpenSSL could not compute a SHA-1");
	struct fed_head root = {.type = FED_CONTAINER, .created_ms = now, .modified_ms = now,
				.children = 1, .blocks = o->child_block || o->collection ? 1 : 0,
				.bucket_len = (unsigned)o->collection,
				.new_bucket = o->collection ? root_bucket : NULL};
	struct fed_head probes = {.type = FED_CONTAINER, .created_ms = now, .modified_ms = now,
				  .bucket_len = (unsigned)o->collection};
	if (!st)
		st = b->begin(s, RPB_TXN_WRITE, err);
	if (!st)
		st = fed_doc_write(&doc, &root, NULL, false,
				   o->child_block || o->collection ? NULL : pname,
				   strlen(pname), rpb_slice_make(NULL, 0), err);
	if (!st)
		st = b->put(s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, fed_node_key(key, rn->run_tag, "/", 1)),
			    rpb_slice_make(doc.data, doc.len), err);
	if (!st && (o->child_block || o->collection)) {
		char block[64];
		int n = snprintf(block, sizeof block, "%s\n", pname);
		size_t kl = o->collection ? fed_bucket_key(key, rn->run_tag, "/", 1, root_bucket)
					  : fed_block_key(key, rn->run_tag, "/", 1, 0);
		st = b->put(s, RPB_T_MEMBERS, rpb_slice_make(key, kl), rpb_slice_make(block, (size_t)n),
			    err);
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
	pthread_mutex_destroy(&sh->turn_mu);
	pthread_cond_destroy(&sh->turn_cv);
	cache_fini(&sh->cache);
	/* A preload's one sync of the binary store, whose files it did not
	 * sync one by one (syncfs: a directory elsewhere has its own). */
	if (sh->batch && sh->bs.dir[0]) {
		int fd = open(sh->bs.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || syncfs(fd) != 0)
			fprintf(stderr, "preload: cannot sync the binary store %s: %s\n", sh->bs.dir,
				strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	/* The run ended; a file of a create in doubt may still be an orphan,
	 * for the next run's start to sweep. */
	if (!atomic_load(&sh->doubtful))
		fed_binstore_close(&sh->bs);
	free(sh->stats);
	free(sh);
}

uint64_t fed_binary_bytes(const struct fed_shared *sh, uint64_t *elided)
{
	uint64_t bytes = 0, holes = 0;
	struct rpb_err err;
	if (elided)
		*elided = 0;
	if (!sh || !sh->bs.dir[0] || rpb_dir_usage_written(sh->bs.dir, &bytes, &holes, &err) != RPB_OK)
		return 0;
	if (elided)
		*elided = holes;
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
	if (!st)
		st = rpb_buf_reserve(&fw->listed, FED_HEAD_MAX, err);
	if (!st)
		st = rpb_buf_reserve(&fw->body, content_cap + 1, err);
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
	rpb_buf_free(&fw->listed);
	rpb_buf_free(&fw->body);
	for (unsigned i = 0; i < FED_WS_MAX; i++)
		rpb_buf_free(&fw->ws[i].val);
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

/* Locks the stripes of the nodes from level first to level last of p, and
 * the stripe extra (>= 0: a reference document's), in stripe order, each
 * once. */
static void lock_levels(struct fed_shared *sh, struct fed_worker *fw, const struct fed_path *p,
			unsigned first, unsigned last, int extra)
{
	unsigned n = 0;
	for (unsigned j = first; j <= last; j++)
		fw->locked[n++] = (unsigned)(path_hash(p->at[j], p->len[j]) & (FED_STRIPES - 1));
	if (extra >= 0)
		fw->locked[n++] = (unsigned)extra;
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

/* inject = leak: a create that needs a node a leaked transaction holds
 * waits, with its stripes let go and before its own transaction begins
 * (so no watch of its own runs out meanwhile), until the reaper has rolled
 * that transaction back; then it takes its stripes again and goes on. As
 * ModeShape's node locks are the transaction's, a request that needs them
 * waits for the abort, not for a timeout of its own. */
static void await_leaks(struct fed_shared *sh, struct fed_worker *fw, struct rpb_worker *w)
{
	for (unsigned j = 0; j < fw->nlocked; j++) {
		unsigned owner = atomic_load(&sh->leak_owner[fw->locked[j]]);
		if (!owner ||
		    atomic_load(&w->rn->workers[owner - 1].leak_state) != RPB_LEAK_OPEN)
			continue;
		unsigned n = fw->nlocked;
		unlock_levels(sh, fw);
		rpb_leak_wait(w, owner - 1);
		fw->nlocked = n;
		for (unsigned k = 0; k < n; k++)
			pthread_mutex_lock(&sh->stripe[fw->locked[k]]);
		j = (unsigned)-1; /* another leak may hold one too */
	}
}

/* ---- the store, as each profile reaches it ----
 *
 * durable: every read and write of a request goes to the store inside the
 * request's one transaction. fedora-4.5, as ModeShape 4.5 over Infinispan
 * 7.2 did it: reads go through the write set (the request's own changes),
 * then the document cache (Infinispan's in-memory entries, eviction
 * max-entries 500), then the store, each miss a store transaction of its
 * own (Infinispan's cache store load); writes collect in the write set, and
 * at commit every modified document is written in a store transaction of
 * its own (LevelDBStore.write's db.put, JdbcStringBasedStore.write's SELECT
 * then INSERT or UPDATE), in the order they were first changed: not atomic
 * across documents. */

static uint64_t doc_hash(enum rpb_table t, const char *key, size_t klen)
{
	return XXH3_64bits_withSeed(key, klen, (uint64_t)t) | 1;
}

/* The cache's entry for (t, key), or -1; mu held. */
static int cache_find(const struct fed_cache *dc, uint64_t h, enum rpb_table t, const char *key,
		      size_t klen)
{
	for (int i = dc->bucket[h & (dc->nbuckets - 1)]; i >= 0; i = dc->e[i].chain)
		if (dc->e[i].h == h && dc->e[i].t == t && dc->e[i].klen == klen &&
		    !memcmp(dc->e[i].key, key, klen))
			return i;
	return -1;
}

static void lru_unlink(struct fed_cache *dc, int i)
{
	struct fed_cache_ent *e = &dc->e[i];
	if (e->prev >= 0)
		dc->e[e->prev].next = e->next;
	else
		dc->head = e->next;
	if (e->next >= 0)
		dc->e[e->next].prev = e->prev;
	else
		dc->tail = e->prev;
	e->prev = e->next = -1;
}

static void lru_front(struct fed_cache *dc, int i)
{
	struct fed_cache_ent *e = &dc->e[i];
	e->prev = -1;
	e->next = dc->head;
	if (dc->head >= 0)
		dc->e[dc->head].prev = i;
	dc->head = i;
	if (dc->tail < 0)
		dc->tail = i;
}

static void chain_remove(struct fed_cache *dc, int i)
{
	int *at = &dc->bucket[dc->e[i].h & (dc->nbuckets - 1)];
	while (*at != i)
		at = &dc->e[*at].chain;
	*at = dc->e[i].chain;
}

/* Copies the cached value of (t, key) into out; false on a miss. */
static bool cache_get(struct fed_cache *dc, enum rpb_table t, const char *key, size_t klen,
		      struct rpb_buf *out, struct rpb_err *err, enum rpb_status *st)
{
	if (!dc->cap)
		return false;
	uint64_t h = doc_hash(t, key, klen);
	pthread_mutex_lock(&dc->mu);
	int i = cache_find(dc, h, t, key, klen);
	if (i >= 0) {
		lru_unlink(dc, i);
		lru_front(dc, i);
		*st = rpb_buf_set(out, dc->e[i].val.data, dc->e[i].val.len, err);
		dc->hits++;
	} else {
		dc->misses++;
	}
	pthread_mutex_unlock(&dc->mu);
	return i >= 0;
}

/* Keeps (t, key) = val (del: forgets it), evicting the least recently used. */
static void cache_put(struct fed_cache *dc, enum rpb_table t, const char *key, size_t klen,
		      rpb_slice val, bool del)
{
	if (!dc->cap || klen > FED_KEY_MAX)
		return;
	uint64_t h = doc_hash(t, key, klen);
	struct rpb_err err;
	pthread_mutex_lock(&dc->mu);
	int i = cache_find(dc, h, t, key, klen);
	if (i >= 0 && del) {
		chain_remove(dc, i);
		lru_unlink(dc, i);
		dc->e[i].chain = dc->free;
		dc->free = i;
		dc->n--;
	} else if (!del) {
		if (i < 0) {
			if (dc->free >= 0) {
				i = dc->free;
				dc->free = dc->e[i].chain;
				dc->n++;
			} else {
				i = dc->tail; /* full: the least recently used goes */
				chain_remove(dc, i);
				lru_unlink(dc, i);
			}
			struct fed_cache_ent *e = &dc->e[i];
			e->h = h;
			e->t = t;
			e->klen = klen;
			memcpy(e->key, key, klen);
			e->chain = dc->bucket[h & (dc->nbuckets - 1)];
			dc->bucket[h & (dc->nbuckets - 1)] = i;
		} else {
			lru_unlink(dc, i);
		}
		lru_front(dc, i);
		if (rpb_buf_set(&dc->e[i].val, val.data, val.len, &err) != RPB_OK) {
			/* Out of memory: forget it rather than keep a stale value. */
			chain_remove(dc, i);
			lru_unlink(dc, i);
			dc->e[i].chain = dc->free;
			dc->free = i;
			dc->n--;
		}
	}
	pthread_mutex_unlock(&dc->mu);
}

static enum rpb_status cache_init(struct fed_cache *dc, uint64_t cap, struct rpb_err *err)
{
	memset(dc, 0, sizeof *dc);
	pthread_mutex_init(&dc->mu, NULL);
	dc->head = dc->tail = dc->free = -1;
	if (!cap)
		return RPB_OK;
	dc->nbuckets = 1;
	while (dc->nbuckets < 2 * cap)
		dc->nbuckets <<= 1;
	dc->e = calloc(cap, sizeof *dc->e);
	dc->bucket = malloc(dc->nbuckets * sizeof *dc->bucket);
	if (!dc->e || !dc->bucket)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL,
				   "out of memory for a document cache of %" PRIu64 " entries; lower "
				   "ingest.doc_cache", cap);
	dc->cap = (unsigned)cap;
	for (size_t b = 0; b < dc->nbuckets; b++)
		dc->bucket[b] = -1;
	for (unsigned i = 0; i < dc->cap; i++) {
		dc->e[i].prev = dc->e[i].next = -1;
		dc->e[i].chain = i + 1 < dc->cap ? (int)i + 1 : -1;
	}
	dc->free = 0;
	return RPB_OK;
}

static void cache_fini(struct fed_cache *dc)
{
	for (unsigned i = 0; i < dc->cap; i++)
		rpb_buf_free(&dc->e[i].val);
	free(dc->e);
	free(dc->bucket);
	pthread_mutex_destroy(&dc->mu);
}

/* The write set's entry for (t, key), or NULL. */
static struct fed_ws_ent *ws_find(struct fed_worker *fw, enum rpb_table t, const char *key,
				  size_t klen)
{
	for (unsigned i = 0; i < fw->nws; i++)
		if (fw->ws[i].t == t && fw->ws[i].klen == klen && !memcmp(fw->ws[i].key, key, klen))
			return &fw->ws[i];
	return NULL;
}

/* The reaper aborted the request (fedora-4.5): nothing more is done. */
static enum rpb_status reaped(struct fed_ctx *c)
{
	return rpb_err_set(c->err, RPB_TXN_TIMEOUT, 0, NULL, "transaction interrupted by the reaper");
}

/* Reads (t, key) into out as the profile reads; RPB_NOT_FOUND when absent. */
static enum rpb_status fed_read(struct fed_ctx *c, enum rpb_table t, const char *key, size_t klen,
				struct rpb_buf *out)
{
	rpb_slice k = rpb_slice_make(key, klen);
	if (!c->f45)
		return c->b->get(c->s, t, k, out, c->err);
	struct fed_ws_ent *e = ws_find(c->fw, t, key, klen);
	if (e)
		return e->del ? RPB_NOT_FOUND : rpb_buf_set(out, e->val.data, e->val.len, c->err);
	enum rpb_status st = RPB_OK;
	if (cache_get(&c->sh->cache, t, key, klen, out, c->err, &st))
		return st;
	if (rpb_txn_reaped(c->w))
		return reaped(c);
	st = c->b->begin(c->s, RPB_TXN_READ, c->err);
	if (!st)
		st = c->b->get(c->s, t, k, out, c->err);
	if (st == RPB_OK || st == RPB_NOT_FOUND) {
		enum rpb_status cst = c->b->commit(c->s, c->err);
		if (cst)
			return cst;
	} else {
		c->b->rollback(c->s);
	}
	c->stats->store_txns++;
	if (!st)
		cache_put(&c->sh->cache, t, key, klen, rpb_slice_make(out->data, out->len), false);
	return st;
}

/* Writes (t, key) = val (del: removes it) as the profile writes. */
static enum rpb_status fed_write(struct fed_ctx *c, enum rpb_table t, const char *key,
				 size_t klen, rpb_slice val, bool del)
{
	rpb_slice k = rpb_slice_make(key, klen);
	if (!c->f45)
		return del ? c->b->del(c->s, t, k, c->err) : c->b->put(c->s, t, k, val, c->err);
	struct fed_worker *fw = c->fw;
	struct fed_ws_ent *e = ws_find(fw, t, key, klen);
	if (!e) {
		if (fw->nws == FED_WS_MAX || klen > FED_KEY_MAX)
			return rpb_err_set(c->err, RPB_INVALID, 0, NULL,
					   "a request changed more than %d documents", FED_WS_MAX);
		e = &fw->ws[fw->nws++];
		e->t = t;
		e->klen = klen;
		memcpy(e->key, key, klen);
	}
	e->del = del;
	return del ? RPB_OK : rpb_buf_set(&e->val, val.data, val.len, c->err);
}

/* The request begins (durable: its store transaction). */
static enum rpb_status tx_begin(struct fed_ctx *c, enum rpb_txn_mode mode, uint64_t op)
{
	if (c->sh->batch) /* the preload's batch is open (fed_batch_begin) */
		return RPB_OK;
	if (!c->f45)
		return rpb_txn_begin(c->w, c->s, mode, c->err);
	c->fw->nws = 0;
	rpb_request_begin(c->w, c->s, op);
	return RPB_OK;
}

/* Ends the request as st says: durable, its one commit or rollback;
 * fedora-4.5, every changed document in a store transaction of its own
 * (a failure after the first leaves the earlier ones written: *at_commit,
 * the create is in doubt). Returns st or the commit's outcome. */
static enum rpb_status tx_end(struct fed_ctx *c, enum rpb_status st, bool *at_commit)
{
	*at_commit = false;
	if (c->sh->batch) {
		/* A failed call rolled the whole batch back: it ends there. */
		return st; /* fed_batch_abort rolls the batch back */
	}
	if (!c->f45) {
		if (st) {
			rpb_txn_rollback(c->w, c->s);
			return st;
		}
		st = rpb_txn_commit(c->w, c->s, c->err);
		*at_commit = st != RPB_OK;
		return st;
	}
	struct fed_worker *fw = c->fw;
	if (!st && (rpb_txn_reaped(c->w) || !rpb_request_committing(c->w)))
		st = reaped(c);
	for (unsigned i = 0; !st && i < fw->nws; i++) {
		struct fed_ws_ent *e = &fw->ws[i];
		rpb_slice k = rpb_slice_make(e->key, e->klen);
		if (c->fail_after && i == c->fail_after) {
			*at_commit = true; /* the documents before it stay written */
			st = rpb_err_set(c->err, RPB_IO, 0, NULL,
					 "injected fault (inject = partial): the create stopped after "
					 "%u of its %u documents were written", i, fw->nws);
			break;
		}
		st = c->b->begin(c->s, RPB_TXN_WRITE, c->err);
		if (!st)
			st = e->del ? c->b->del(c->s, e->t, k, c->err)
				    : c->b->put(c->s, e->t, k, rpb_slice_make(e->val.data, e->val.len),
						c->err);
		if (st == RPB_NOT_FOUND && e->del)
			st = RPB_OK; /* Infinispan's remove of an absent entry */
		if (!st) {
			st = c->b->commit(c->s, c->err);
			*at_commit = st != RPB_OK || i + 1 < fw->nws;
		} else {
			c->b->rollback(c->s);
			*at_commit = i > 0;
		}
		if (!st) {
			c->stats->store_txns++;
			c->stats->docs_written++;
			cache_put(&c->sh->cache, e->t, e->key, e->klen,
				  rpb_slice_make(e->val.data, e->val.len), e->del);
		}
	}
	if (!st)
		*at_commit = false;
	fw->nws = 0;
	rpb_request_end(c->w);
	return st;
}

/* inject = leak: instead of ending, the request abandons its transaction,
 * writes made, to the reaper, with the nodes it holds (fedora-4.5: the
 * documents its end would write go into one store transaction first, left
 * open the same way). Nothing of it is committed, so the create is failed,
 * not in doubt, and the reaper's rollback leaves no trace of it. */
static enum rpb_status leak_request(struct fed_ctx *c, uint64_t op)
{
	struct fed_worker *fw = c->fw;
	enum rpb_status st = RPB_OK;
	if (c->f45) {
		st = c->b->begin(c->s, RPB_TXN_WRITE, c->err);
		for (unsigned i = 0; !st && i < fw->nws; i++) {
			struct fed_ws_ent *e = &fw->ws[i];
			rpb_slice k = rpb_slice_make(e->key, e->klen);
			st = e->del ? c->b->del(c->s, e->t, k, c->err)
				    : c->b->put(c->s, e->t, k, rpb_slice_make(e->val.data, e->val.len),
						c->err);
			if (st == RPB_NOT_FOUND && e->del)
				st = RPB_OK;
		}
		fw->nws = 0;
		if (st) {
			c->b->rollback(c->s);
			rpb_request_end(c->w);
			return st;
		}
	}
	st = rpb_txn_abandon(c->w, c->s, op, c->err);
	if (st)
		return st;
	for (unsigned j = 0; j < fw->nlocked; j++)
		atomic_store(&c->sh->leak_owner[fw->locked[j]], c->w->id + 1);
	return rpb_err_set(c->err, RPB_TXN_TIMEOUT, 0, NULL,
			   "injected fault (inject = leak@%llu): the create abandoned its open "
			   "transaction, which the reaper rolls back at txn_timeout = %llu ms",
			   (unsigned long long)op + 1,
			   (unsigned long long)c->w->rn->job->run.txn_timeout);
}

/* ---- documents through the store ---- */

static enum rpb_status get_doc_at(struct fed_ctx *c, const char *key, size_t kl, const char *path,
				  struct fed_doc *d)
{
	enum rpb_status st = fed_read(c, RPB_T_DESCRIPTIONS, key, kl, &c->fw->doc_in);
	if (st)
		return st;
	if (!fed_doc_parse(c->fw->doc_in.data, c->fw->doc_in.len, d))
		return rpb_err_set(c->err, RPB_CORRUPT, 0, NULL, "node %s: its document is malformed",
				   path);
	return RPB_OK;
}

static enum rpb_status get_doc(struct fed_ctx *c, const char *path, size_t len, struct fed_doc *d)
{
	char key[FED_KEY_MAX];
	return get_doc_at(c, key, fed_node_key(key, c->tag, path, len), path, d);
}

static enum rpb_status put_doc_at(struct fed_ctx *c, const char *key, size_t kl)
{
	c->stats->doc_bytes += c->fw->doc_out.len;
	return fed_write(c, RPB_T_DESCRIPTIONS, key, kl,
			 rpb_slice_make(c->fw->doc_out.data, c->fw->doc_out.len), false);
}

static enum rpb_status put_doc(struct fed_ctx *c, const char *path, size_t len)
{
	char key[FED_KEY_MAX];
	return put_doc_at(c, key, fed_node_key(key, c->tag, path, len));
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

/* name and a newline after a block's or a bucket's names. */
static enum rpb_status append_line(struct rpb_buf *b, const char *name, size_t nlen,
				   struct rpb_err *err)
{
	enum rpb_status st = rpb_buf_reserve(b, b->len + nlen + 1, err);
	if (!st) {
		memcpy(b->data + b->len, name, nlen);
		b->data[b->len + nlen] = '\n';
		b->len += nlen + 1;
	}
	return st;
}

/* Adds name to the child list of the node at path: a read-modify-write of
 * its document (child_block = 0), of its last block and its document, or
 * of the name's bucket and the document (collection). */
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
	struct fed_head h = {.type = pd.type, .modified_ms = c->now_ms, .children = before + 1,
			     .tag = c->tag, .path = path};
	size_t bytes = 0;
	if (c->o->collection) {
		/* Its bucket, new when not there (addChildrenToBuckets); the parent
		 * keeps its bucket ids and gains one with a new bucket. */
		char id[FED_BUCKET_ID_MAX + 1], bkey[FED_KEY_MAX];
		if (!fed_bucket_id(name, nlen, (unsigned)c->o->collection, id))
			return rpb_err_set(c->err, RPB_IO, 0, NULL, "OpenSSL could not compute a SHA-1");
		size_t bl = fed_bucket_key(bkey, c->tag, path, len, id);
		st = fed_read(c, RPB_T_MEMBERS, bkey, bl, &fw->block);
		bool fresh = st == RPB_NOT_FOUND;
		if (fresh) {
			fw->block.len = 0;
			st = RPB_OK;
		}
		if (!st)
			st = append_line(&fw->block, name, nlen, c->err);
		if (!st) {
			bytes += fw->block.len;
			st = fed_write(c, RPB_T_MEMBERS, bkey, bl,
				       rpb_slice_make(fw->block.data, fw->block.len), false);
		}
		h.bucket_len = (unsigned)c->o->collection;
		h.blocks = blocks + fresh;
		h.new_bucket = fresh ? id : NULL;
		if (!st)
			st = fed_doc_write(&fw->doc_out, &h, &pd, false, NULL, 0,
					   rpb_slice_make(NULL, 0), c->err);
	} else if (!c->o->child_block) {
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
			st = fed_read(c, RPB_T_MEMBERS, bkey, bl, &fw->block);
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
			st = append_line(&fw->block, name, nlen, c->err);
		if (!st) {
			bytes += fw->block.len;
			st = fed_write(c, RPB_T_MEMBERS, bkey, bl,
				       rpb_slice_make(fw->block.data, fw->block.len), false);
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
			     .modified_ms = c->now_ms, .bucket_len = (unsigned)c->o->collection,
			     .tag = c->tag, .path = p->at[j]};
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

/* The binary's reference document: read, its count incremented, written
 * (ModeShape's incrementBinaryReferenceCount, in the create's save). */
static enum rpb_status count_reference(struct fed_ctx *c, const char *digest)
{
	char key[FED_KEY_MAX], doc[FED_REF_MAX];
	size_t kl = fed_ref_key(key, c->tag, digest);
	uint64_t count = 0;
	enum rpb_status st = fed_read(c, RPB_T_DESCRIPTIONS, key, kl, &c->fw->doc_in);
	if (st == RPB_OK && !fed_ref_parse(c->fw->doc_in.data, c->fw->doc_in.len, &count))
		return rpb_err_set(c->err, RPB_CORRUPT, 0, NULL,
				   "reference document %s is malformed", key);
	if (st && st != RPB_NOT_FOUND)
		return st;
	size_t n = fed_ref_format(doc, digest, count + 1);
	c->stats->refs++;
	c->stats->doc_bytes += n;
	return fed_write(c, RPB_T_DESCRIPTIONS, key, kl, rpb_slice_make(doc, n), false);
}

/* A binary as Fedora 4.5 made it (BinaryServiceImpl.findOrCreate): the
 * nt:file node at p's last level, listed by its parent, and its one child,
 * the jcr:content node holding the data inline or the file's digest; a
 * file binary's reference document counts one more use. */
static enum rpb_status create_binary(struct fed_ctx *c, const struct fed_path *p, uint64_t size,
				     const char *digest, bool is_file, char made, unsigned thread,
				     uint64_t n)
{
	struct fed_worker *fw = c->fw;
	const char *leaf = p->at[p->depth];
	size_t leaf_len = p->len[p->depth];
	char ckey[FED_KEY_MAX], cpath[FED_PATH_MAX + 16];
	snprintf(cpath, sizeof cpath, "%s/" FED_CONTENT_NAME, leaf);
	struct fed_head h = {.type = FED_BINARY, .created_ms = c->now_ms, .modified_ms = c->now_ms,
			     .size = size, .mime = ingest_mime(c->o->content), .digest = digest,
			     .digest_is_sha1 = c->o->digest == INGEST_SHA1, .is_file = is_file,
			     .made_kind = made, .made_thread = thread, .made_n = n, .tag = c->tag,
			     .path = cpath};
	enum rpb_status st = fed_doc_write(&fw->doc_out, &h, NULL, false, NULL, 0,
					   rpb_slice_make(is_file ? NULL : fw->content,
							  is_file ? 0 : (size_t)size),
					   c->err);
	if (!st)
		st = put_doc_at(c, ckey, fed_content_key(ckey, c->tag, leaf, leaf_len));
	struct fed_head fh = {.type = FED_FILE, .created_ms = c->now_ms, .modified_ms = c->now_ms,
			      .made_kind = made, .made_thread = thread, .made_n = n, .children = 1,
			      .tag = c->tag, .path = leaf};
	if (!st)
		st = fed_doc_write(&fw->doc_out, &fh, NULL, false, FED_CONTENT_NAME,
				   strlen(FED_CONTENT_NAME), rpb_slice_make(NULL, 0), c->err);
	if (!st)
		st = put_doc(c, leaf, leaf_len);
	if (!st && is_file)
		st = count_reference(c, digest);
	size_t nlen;
	const char *name = fed_name(leaf, leaf_len, &nlen);
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
	fw->made_n = i;
	fed_place(&fw->path, ingest_opts(job), job->run.seed, w->id, i);
	return ingest_content(job, w->id, i, fw->content);
}

/* The stripe of a binary's reference document, locked with the nodes. */
static unsigned ref_stripe(const char *tag, const char *digest)
{
	char key[FED_KEY_MAX];
	return (unsigned)(path_hash(key, fed_ref_key(key, tag, digest)) & (FED_STRIPES - 1));
}

enum rpb_status fed_create(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			   uint64_t i, uint64_t size, struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	const struct rpb_ingest_opts *o = ingest_opts(rn->job);
	const struct fed_path *p = &fw->path;
	struct fed_ctx c = {w, sh, fw, &sh->stats[w->id],
			    fw->batch_open ? fw->batch_s : rpb_next_session(w), rn->backend, o,
			    rn->run_tag, rpb_wall_ms(), err, sh->f45 && !sh->batch,
			    rpb_inject_partial(w, i)};
	/* What fedora-4.5 leaves beside the documents (the spool, the trash
	 * tree) is the profile's whatever the path to the store. */
	bool f45 = sh->f45;
	/* The server: the binary's digest and, when large, its file first;
	 * fedora-4.5 spools every body through a temporary file on the way. */
	bool is_file = in_files(sh, o, size), file_created = false, at_commit = false;
	enum rpb_status st = digest_of(&c, fw->content, (size_t)size, fw->digest);
	struct kill_at kill = {w, i};
	if (!st && f45 && sh->bs.dir[0] && !sh->batch)
		st = fed_binstore_spool(&sh->bs, fw->content, (size_t)size,
					is_file ? NULL : fw->content, err);
	else if (!st && f45 && sh->bs.dir[0] && fw->batch_n == 0)
		st = fed_binstore_spool(&sh->bs, fw->content, 0, NULL, err); /* its directory */
	if (!st && is_file)
		st = fed_binstore_put(&sh->bs, fw->digest, fw->content, (size_t)size, &file_created,
				      kill_before_rename, &kill, err);
	if (!st && is_file && f45)
		st = fed_binstore_trash_mark(&sh->bs, fw->digest, err);
	if (!st) {
		/* The parent of the first branch not known to exist, and below;
		 * a file binary's reference document too. */
		unsigned first = 1;
		while (first < p->depth && known(sh, p->at[first], p->len[first]))
			first++;
		lock_levels(sh, fw, p, first - 1, p->depth - 1,
			    is_file ? (int)ref_stripe(c.tag, fw->digest) : -1);
		if (rn->job->run.inject.kind == RPB_INJECT_LEAK)
			await_leaks(sh, fw, w);
		char key[FED_KEY_MAX];
		rpb_slice leaf = rpb_slice_make(key, fed_node_key(key, c.tag, p->at[p->depth],
								  p->len[p->depth]));
		rpb_inject_point(w, i, true, RPB_T_DESCRIPTIONS, leaf);
		st = tx_begin(&c, RPB_TXN_WRITE, i);
		for (unsigned j = first; !st && j < p->depth; j++) {
			struct fed_doc d;
			st = get_doc(&c, p->at[j], p->len[j], &d);
			if (st == RPB_NOT_FOUND)
				st = create_branch(&c, p, j);
		}
		if (!st)
			st = create_binary(&c, p, size, fw->digest, is_file, 'o', w->id, fw->made_n);
		if (!st)
			rpb_inject_point(w, i, false, RPB_T_DESCRIPTIONS, leaf);
		if (!st && rpb_inject_leak(w, i))
			st = leak_request(&c, i);
		else
			st = tx_end(&c, st, &at_commit);
		unlock_levels(sh, fw);
	}
	w->in_doubt = at_commit;
	if (!st) {
		for (unsigned j = 1; j < p->depth; j++)
			learn(sh, p->at[j], p->len[j]);
		c.stats->files += is_file && file_created;
		c.stats->deduped += is_file && !file_created;
		c.stats->inlined += !is_file;
		if (is_file && f45)
			fed_binstore_trash_clear(&sh->bs, fw->digest); /* markAsUsed */
	} else if (at_commit && is_file && (file_created || f45)) {
		/* In doubt: its file, and its trash marker, stay for the next
		 * run's sweep. */
		atomic_store_explicit(&sh->doubtful, true, memory_order_relaxed);
	} else if (file_created && !at_commit) {
		/* Certainly not committed: the file would be an orphan. */
		fed_binstore_remove(&sh->bs, fw->digest);
	}
	if (st && !at_commit && is_file && f45)
		fed_binstore_trash_clear(&sh->bs, fw->digest);
	return st;
}

/* ---- the verb preload: many creates per store transaction ---- */

enum rpb_status fed_batch_begin(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
				struct rpb_err *err)
{
	if (!sh->batch || fw->batch_open)
		return RPB_OK;
	struct rpb_runner *rn = w->rn;
	pthread_mutex_lock(&sh->turn_mu);
	while (sh->turn_taken &&
	       atomic_load_explicit(&rn->stop, memory_order_relaxed) == RPB_STOP_NONE) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50000000;
		if (ts.tv_nsec >= 1000000000)
			ts.tv_sec++, ts.tv_nsec -= 1000000000;
		pthread_cond_timedwait(&sh->turn_cv, &sh->turn_mu, &ts);
	}
	bool mine = !sh->turn_taken;
	sh->turn_taken = true;
	pthread_mutex_unlock(&sh->turn_mu);
	if (!mine) /* stopping while another thread's batch is open */
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "the preload stopped");
	fw->batch_s = rpb_next_session(w);
	enum rpb_status st = rn->backend->begin(fw->batch_s, RPB_TXN_WRITE, err);
	if (st) {
		fed_batch_abort(w, sh, fw);
		return st;
	}
	fw->batch_open = true;
	fw->batch_n = fw->batch_bytes = 0;
	return RPB_OK;
}

static void turn_release(struct fed_shared *sh)
{
	pthread_mutex_lock(&sh->turn_mu);
	sh->turn_taken = false;
	pthread_cond_broadcast(&sh->turn_cv);
	pthread_mutex_unlock(&sh->turn_mu);
}

/* A batch holds at most this many bytes of content (the store keeps an
 * open transaction's writes in memory: LevelDB's overlay). */
#define FED_BATCH_BYTES (UINT64_C(64) << 20)

enum rpb_status fed_batch_end(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			      uint64_t bytes, bool last, struct rpb_err *err)
{
	if (!fw->batch_open)
		return RPB_OK;
	fw->batch_n++;
	fw->batch_bytes += bytes;
	if (!last && fw->batch_n < sh->batch && fw->batch_bytes < FED_BATCH_BYTES &&
	    atomic_load_explicit(&w->rn->stop, memory_order_relaxed) == RPB_STOP_NONE)
		return RPB_OK;
	enum rpb_status st = w->rn->backend->commit(fw->batch_s, err);
	if (st) {
		w->in_doubt = true;
		w->rn->backend->rollback(fw->batch_s);
	}
	fw->batch_open = false;
	turn_release(sh);
	return st;
}

void fed_batch_abort(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw)
{
	if (fw->batch_open)
		w->rn->backend->rollback(fw->batch_s);
	fw->batch_open = false;
	turn_release(sh);
}

/* ---- probes: the test plan's performance requests on a container ---- */

uint64_t fed_probe_stage(struct rpb_worker *w, struct fed_worker *fw, uint64_t probe)
{
	fed_probe_place(&fw->probe, w->id, probe);
	return 0; /* fedora.jmx's PUT sends no body */
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
			     .children = pd.children ? pd.children - 1 : 0, .blocks = pd.blocks,
			     .tag = c->tag, .path = path};
	struct name_drop d = {name, nlen, &fw->block, false};
	if (c->o->collection) {
		/* Out of its bucket; an emptied bucket goes, and its id from the
		 * parent (persistBucketRemovalChanges). */
		char id[FED_BUCKET_ID_MAX + 1], bkey[FED_KEY_MAX];
		if (!fed_bucket_id(name, nlen, (unsigned)c->o->collection, id))
			return rpb_err_set(c->err, RPB_IO, 0, NULL, "OpenSSL could not compute a SHA-1");
		size_t bl = fed_bucket_key(bkey, c->tag, path, len, id);
		st = fed_read(c, RPB_T_MEMBERS, bkey, bl, &fw->doc_in);
		if (st == RPB_NOT_FOUND) {
			fw->doc_in.len = 0; /* no bucket: not a child (below) */
			st = RPB_OK;
		} else if (!st)
			st = rpb_buf_reserve(&fw->block, fw->doc_in.len + 1, c->err);
		fw->block.len = 0;
		if (!st && fw->doc_in.len)
			fed_block_names(fw->doc_in.data, fw->doc_in.len, drop_name, &d);
		h.bucket_len = (unsigned)c->o->collection;
		if (!st && d.found && !fw->block.len) {
			st = fed_write(c, RPB_T_MEMBERS, bkey, bl, rpb_slice_make(NULL, 0), true);
			h.drop_bucket = id;
			h.blocks = pd.blocks ? pd.blocks - 1 : 0;
		} else if (!st && d.found) {
			st = fed_write(c, RPB_T_MEMBERS, bkey, bl,
				       rpb_slice_make(fw->block.data, fw->block.len), false);
		}
		/* get_doc again: the bucket read reused its buffer. */
		if (!st && d.found)
			st = get_doc(c, path, len, &pd);
		if (!st && d.found)
			st = fed_doc_write(&fw->doc_out, &h, &pd, false, NULL, 0,
					   rpb_slice_make(NULL, 0), c->err);
	} else if (!c->o->child_block) {
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
			st = fed_read(c, RPB_T_MEMBERS, bkey, bl, &fw->doc_in);
			if (st)
				break;
			st = rpb_buf_reserve(&fw->block, fw->doc_in.len + 1, c->err);
			fw->block.len = 0;
			if (!st)
				fed_block_names(fw->doc_in.data, fw->doc_in.len, drop_name, &d);
			if (!st && d.found) {
				if (!fw->block.len && b + 1 == pd.blocks) {
					st = fed_write(c, RPB_T_MEMBERS, bkey, bl, rpb_slice_make(NULL, 0), true);
					h.blocks--;
				} else {
					st = fed_write(c, RPB_T_MEMBERS, bkey, bl,
						       rpb_slice_make(fw->block.data, fw->block.len), false);
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


/* PUT: an empty RDF container (fedora.jmx sends text/turtle, no body),
 * listed by the probes' container. */
static enum rpb_status probe_put(struct fed_ctx *c, struct fed_shared *sh, uint64_t probe,
				 bool *at_commit)
{
	struct fed_worker *fw = c->fw;
	const struct fed_path *p = &fw->probe;
	lock_levels(sh, fw, p, 1, 1, -1);
	if (c->w->rn->job->run.inject.kind == RPB_INJECT_LEAK)
		await_leaks(sh, fw, c->w);
	struct fed_head h = {.type = FED_CONTAINER, .created_ms = c->now_ms,
			     .modified_ms = c->now_ms, .made_kind = 'p', .made_thread = c->w->id,
			     .made_n = probe, .tag = c->tag, .path = p->at[2]};
	enum rpb_status st = tx_begin(c, RPB_TXN_WRITE, probe);
	if (!st)
		st = fed_doc_write(&fw->doc_out, &h, NULL, false, NULL, 0, rpb_slice_make(NULL, 0),
				   c->err);
	if (!st)
		st = put_doc(c, p->at[2], p->len[2]);
	size_t nlen;
	const char *name = fed_name(p->at[2], p->len[2], &nlen);
	if (!st)
		st = add_child(c, p->at[1], p->len[1], name, nlen);
	st = tx_end(c, st, at_commit);
	unlock_levels(sh, fw);
	return st;
}

/* OPTIONS and GET read the container's document. */
static enum rpb_status probe_read(struct fed_ctx *c, uint64_t probe, uint64_t *bytes)
{
	struct fed_worker *fw = c->fw;
	const struct fed_path *p = &fw->probe;
	struct fed_doc d;
	bool at_commit;
	enum rpb_status st = tx_begin(c, RPB_TXN_READ, probe);
	if (!st)
		st = get_doc(c, p->at[2], p->len[2], &d);
	if (!st)
		*bytes = fw->doc_in.len;
	return tx_end(c, st, &at_commit);
}

/* PATCH (a SPARQL update adding dc:title): the document rewritten with a
 * title; DELETE: a tombstone in its place (Fedora 4.5's
 * FedoraResourceImpl.delete), its name staying in the probes' container. */
static enum rpb_status probe_rewrite(struct fed_ctx *c, struct fed_shared *sh, uint64_t probe,
				     bool tombstone)
{
	struct fed_worker *fw = c->fw;
	const struct fed_path *p = &fw->probe;
	char title[64];
	int tl = snprintf(title, sizeof title, "probe %" PRIu64, probe);
	lock_levels(sh, fw, p, 2, 2, -1);
	if (c->w->rn->job->run.inject.kind == RPB_INJECT_LEAK)
		await_leaks(sh, fw, c->w);
	struct fed_doc d;
	bool at_commit;
	enum rpb_status st = tx_begin(c, RPB_TXN_WRITE, probe);
	if (!st)
		st = get_doc(c, p->at[2], p->len[2], &d);
	if (!st) {
		struct fed_head h = {.type = tombstone ? FED_TOMBSTONE : FED_CONTAINER,
				     .modified_ms = c->now_ms, .made_kind = 'p',
				     .made_thread = c->w->id, .made_n = probe, .tag = c->tag,
				     .path = p->at[2]};
		if (!tombstone)
			h.title = rpb_slice_make(title, (size_t)tl);
		st = fed_doc_write(&fw->doc_out, &h, &d, false, NULL, 0, rpb_slice_make(NULL, 0),
				   c->err);
	}
	if (!st)
		st = put_doc(c, p->at[2], p->len[2]);
	st = tx_end(c, st, &at_commit);
	unlock_levels(sh, fw);
	return st;
}

/* CLEANUP: after a PUT that failed inside commit, untimed, whatever of it
 * is there: the container's document and its name in /probe. */
static enum rpb_status probe_cleanup(struct fed_ctx *c, struct fed_shared *sh, uint64_t probe)
{
	struct fed_worker *fw = c->fw;
	const struct fed_path *p = &fw->probe;
	lock_levels(sh, fw, p, 1, 1, -1);
	if (c->w->rn->job->run.inject.kind == RPB_INJECT_LEAK)
		await_leaks(sh, fw, c->w);
	char key[FED_KEY_MAX];
	size_t kl = fed_node_key(key, c->tag, p->at[2], p->len[2]);
	bool at_commit;
	enum rpb_status st = tx_begin(c, RPB_TXN_WRITE, probe);
	if (!st)
		st = fed_write(c, RPB_T_DESCRIPTIONS, key, kl, rpb_slice_make(NULL, 0), true);
	size_t nlen;
	const char *name = fed_name(p->at[2], p->len[2], &nlen);
	if (!st)
		st = remove_child(c, p->at[1], p->len[1], name, nlen);
	if (st == RPB_NOT_FOUND) {
		/* The create did not happen: nothing to remove. */
		if (c->sh->batch)
			;
		else if (!c->f45)
			rpb_txn_rollback(c->w, c->s);
		else
			rpb_request_end(c->w);
		st = RPB_OK;
	} else {
		st = tx_end(c, st, &at_commit);
	}
	unlock_levels(sh, fw);
	return st;
}

enum rpb_status fed_probe(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			  enum fed_probe_step step, uint64_t probe, uint64_t size, uint64_t *bytes,
			  bool *at_commit, struct rpb_err *err)
{
	(void)size;
	const struct rpb_ingest_opts *o = ingest_opts(w->rn->job);
	struct fed_ctx c = {w, sh, fw, &sh->stats[w->id],
			    fw->batch_open ? fw->batch_s : rpb_next_session(w), w->rn->backend, o,
			    w->rn->run_tag, rpb_wall_ms(), err, sh->f45 && !sh->batch, 0};
	*bytes = 0;
	*at_commit = false;
	switch (step) {
	case FED_PROBE_PUT:
		return probe_put(&c, sh, probe, at_commit);
	case FED_PROBE_OPTIONS:
	case FED_PROBE_GET:
		return probe_read(&c, probe, bytes);
	case FED_PROBE_PATCH:
		return probe_rewrite(&c, sh, probe, false);
	case FED_PROBE_DELETE:
		return probe_rewrite(&c, sh, probe, true);
	case FED_PROBE_CLEANUP:
		return probe_cleanup(&c, sh, probe);
	}
	return RPB_INVALID;
}

/* ---- reads: a container's children, a binary (read_mix) ---- */

uint64_t fed_made(const struct fed_worker *fw)
{
	return fw->made_n;
}

/* A list's walk over the container's child names. */
struct list_walk {
	struct fed_ctx *c;
	const char *path;
	size_t len;
	uint64_t limit, seen, bytes;
	enum rpb_status st;
};

/* Reads one listed child's document (the first limit of them). */
static void read_child(void *ctx, const char *name, size_t nlen)
{
	struct list_walk *lw = ctx;
	struct fed_ctx *c = lw->c;
	if (lw->st || lw->seen >= lw->limit)
		return;
	lw->seen++;
	char path[FED_PATH_MAX];
	size_t pl = lw->len == 1 ? 0 : lw->len; /* the root's children: "/<name>" */
	if (pl + 1 + nlen >= sizeof path) {
		lw->st = rpb_err_set(c->err, RPB_CORRUPT, 0, NULL,
				     "node %s lists a child name of %zu bytes, longer than a path",
				     lw->path, nlen);
		return;
	}
	memcpy(path, lw->path, pl);
	path[pl] = '/';
	memcpy(path + pl + 1, name, nlen);
	path[pl + 1 + nlen] = '\0';
	char key[FED_KEY_MAX];
	size_t kl = fed_node_key(key, c->tag, path, pl + 1 + nlen);
	enum rpb_status st = fed_read(c, RPB_T_DESCRIPTIONS, key, kl, &c->fw->doc_in);
	if (st == RPB_NOT_FOUND && !(c->b->flags & RPB_BF_STORES_NOTHING))
		st = rpb_err_set(c->err, RPB_CORRUPT, 0, NULL,
				 "node %s lists %.*s, which is not there", lw->path, (int)nlen, name);
	if (!st) {
		lw->bytes += c->fw->doc_in.len;
		c->stats->list_docs++;
	}
	lw->st = st;
}

/* Reads one of a collection's buckets and its children's documents, in
 * the order of the parent's bucket ids, until limit children are read. */
static void read_bucket(void *ctx, const char *id, size_t idlen)
{
	struct list_walk *lw = ctx;
	struct fed_ctx *c = lw->c;
	if (lw->st || lw->seen >= lw->limit)
		return;
	char bid[FED_BUCKET_ID_MAX + 1], bkey[FED_KEY_MAX];
	if (idlen > FED_BUCKET_ID_MAX) {
		lw->st = rpb_err_set(c->err, RPB_CORRUPT, 0, NULL,
				     "node %s names a bucket id of %zu digits", lw->path, idlen);
		return;
	}
	memcpy(bid, id, idlen);
	bid[idlen] = '\0';
	size_t bl = fed_bucket_key(bkey, c->tag, lw->path, lw->len, bid);
	lw->st = fed_read(c, RPB_T_MEMBERS, bkey, bl, &c->fw->block);
	if (lw->st == RPB_NOT_FOUND)
		lw->st = rpb_err_set(c->err, RPB_CORRUPT, 0, NULL, "node %s: bucket %s is missing",
				     lw->path, bid);
	if (!lw->st) {
		lw->bytes += c->fw->block.len;
		c->stats->list_blocks++;
		fed_block_names(c->fw->block.data, c->fw->block.len, read_child, lw);
	}
}

enum rpb_status fed_list(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			 uint64_t op, uint64_t limit, uint64_t *bytes, struct rpb_err *err)
{
	const struct rpb_ingest_opts *o = ingest_opts(w->rn->job);
	struct fed_ctx c = {w, sh, fw, &sh->stats[w->id], rpb_next_session(w), w->rn->backend, o,
			    w->rn->run_tag, rpb_wall_ms(), err, sh->f45 && !sh->batch, 0};
	unsigned k = (unsigned)o->read_level;
	struct list_walk lw = {&c, fw->path.at[k], fw->path.len[k], limit, 0, 0, RPB_OK};
	char key[FED_KEY_MAX];
	size_t kl = fed_node_key(key, c.tag, lw.path, lw.len);
	struct fed_doc pd;
	bool at_commit;
	*bytes = 0;
	enum rpb_status st = tx_begin(&c, RPB_TXN_READ, op);
	if (!st)
		st = fed_read(&c, RPB_T_DESCRIPTIONS, key, kl, &fw->listed);
	if (!st && !fed_doc_parse(fw->listed.data, fw->listed.len, &pd))
		st = rpb_err_set(err, RPB_CORRUPT, 0, NULL, "node %s: its document is malformed",
				 lw.path);
	if (!st) {
		lw.bytes = fw->listed.len;
		c.stats->list_docs++;
		if (o->collection)
			fed_doc_buckets(&pd, read_bucket, &lw);
		else if (!o->child_block)
			fed_doc_children(&pd, read_child, &lw);
		for (uint64_t b = 0; o->child_block && b < pd.blocks && !lw.st && lw.seen < limit;
		     b++) {
			char bkey[FED_KEY_MAX];
			size_t bl = fed_block_key(bkey, c.tag, lw.path, lw.len, b);
			lw.st = fed_read(&c, RPB_T_MEMBERS, bkey, bl, &fw->block);
			if (lw.st == RPB_NOT_FOUND)
				lw.st = rpb_err_set(err, RPB_CORRUPT, 0, NULL,
						    "node %s: child block %" PRIu64 " is missing",
						    lw.path, b);
			if (!lw.st) {
				lw.bytes += fw->block.len;
				c.stats->list_blocks++;
				fed_block_names(fw->block.data, fw->block.len, read_child, &lw);
			}
		}
		st = lw.st;
	}
	if (!st)
		*bytes = lw.bytes;
	return tx_end(&c, st, &at_commit);
}

/* Reads one referenced node's document. */
struct member_walk {
	struct fed_ctx *c;
	uint64_t bytes;
	enum rpb_status st;
};

static void read_member(void *ctx, const char *path, size_t len)
{
	struct member_walk *mw = ctx;
	struct fed_ctx *c = mw->c;
	if (mw->st)
		return;
	char key[FED_KEY_MAX];
	if (len >= FED_PATH_MAX) {
		mw->st = rpb_err_set(c->err, RPB_CORRUPT, 0, NULL,
				     FED_MEMBERS " references a path of %zu bytes", len);
		return;
	}
	size_t kl = fed_node_key(key, c->tag, path, len);
	enum rpb_status st = fed_read(c, RPB_T_DESCRIPTIONS, key, kl, &c->fw->doc_in);
	if (st == RPB_NOT_FOUND && !(c->b->flags & RPB_BF_STORES_NOTHING))
		st = rpb_err_set(c->err, RPB_CORRUPT, 0, NULL,
				 FED_MEMBERS " references %.*s, which is not there", (int)len, path);
	if (!st) {
		mw->bytes += c->fw->doc_in.len;
		c->stats->members_docs++;
	}
	mw->st = st;
}

enum rpb_status fed_members_get(struct rpb_worker *w, struct fed_shared *sh,
				struct fed_worker *fw, uint64_t op, uint64_t *bytes,
				struct rpb_err *err)
{
	const struct rpb_ingest_opts *o = ingest_opts(w->rn->job);
	struct fed_ctx c = {w, sh, fw, &sh->stats[w->id], rpb_next_session(w), w->rn->backend, o,
			    w->rn->run_tag, rpb_wall_ms(), err, sh->f45 && !sh->batch, 0};
	char key[FED_KEY_MAX];
	size_t kl = fed_node_key(key, c.tag, FED_MEMBERS, strlen(FED_MEMBERS));
	struct fed_doc d;
	struct member_walk mw = {&c, 0, RPB_OK};
	bool at_commit;
	*bytes = 0;
	enum rpb_status st = tx_begin(&c, RPB_TXN_READ, op);
	if (!st)
		st = fed_read(&c, RPB_T_DESCRIPTIONS, key, kl, &fw->listed);
	if (!st && !fed_doc_parse(fw->listed.data, fw->listed.len, &d))
		st = rpb_err_set(err, RPB_CORRUPT, 0, NULL, FED_MEMBERS ": its document is malformed");
	if (!st) {
		mw.bytes = fw->listed.len;
		c.stats->members_docs++;
		fed_doc_members(&d, read_member, &mw);
		st = mw.st;
	}
	if (!st)
		*bytes = mw.bytes;
	return tx_end(&c, st, &at_commit);
}

enum rpb_status fed_fileget(struct rpb_worker *w, struct fed_shared *sh, struct fed_worker *fw,
			    uint64_t op, uint64_t object, uint64_t *bytes, struct rpb_err *err)
{
	const struct rpb_job *job = w->rn->job;
	const struct rpb_ingest_opts *o = ingest_opts(job);
	struct fed_ctx c = {w, sh, fw, &sh->stats[w->id], rpb_next_session(w), w->rn->backend, o,
			    w->rn->run_tag, rpb_wall_ms(), err, sh->f45 && !sh->batch, 0};
	struct fed_path *p = &fw->target;
	fed_place(p, o, job->run.seed, w->id, object);
	const char *leaf = p->at[p->depth];
	size_t leaf_len = p->len[p->depth];
	struct fed_doc d;
	bool at_commit;
	*bytes = 0;
	/* The description: the nt:file node, then its jcr:content node. */
	enum rpb_status st = tx_begin(&c, RPB_TXN_READ, op);
	if (!st)
		st = get_doc(&c, leaf, leaf_len, &d);
	if (!st && d.type != FED_FILE)
		st = rpb_err_set(err, RPB_CORRUPT, 0, NULL, "node %s is a %s, not a binary's file node",
				 leaf, fed_type_names[d.type]);
	char ckey[FED_KEY_MAX];
	if (!st) {
		c.stats->get_docs++;
		st = get_doc_at(&c, ckey, fed_content_key(ckey, c.tag, leaf, leaf_len), leaf, &d);
	}
	if (!st && d.type != FED_BINARY)
		st = rpb_err_set(err, RPB_CORRUPT, 0, NULL, "node %s/" FED_CONTENT_NAME " is a %s, not "
				 "a binary", leaf, fed_type_names[d.type]);
	if (!st) {
		c.stats->get_docs++;
		if (d.is_file) {
			/* The content: its file, named by the digest. */
			char digest[FED_SHA1_HEX + 1];
			size_t dl = d.digest.len < FED_SHA1_HEX ? d.digest.len : FED_SHA1_HEX;
			memcpy(digest, d.digest.data, dl);
			digest[dl] = '\0';
			st = sh->bs.dir[0] ? fed_binstore_get(&sh->bs, digest, &fw->body, err)
					   : rpb_err_set(err, RPB_CORRUPT, 0, NULL,
							 "node %s: its content is in a file, and "
							 "there is no binary store", leaf);
			if (!st && fw->body.len != d.size)
				st = rpb_err_set(err, RPB_CORRUPT, 0, NULL,
						 "binary %s: its file holds %zu bytes, its node says "
						 "%" PRIu64, leaf, fw->body.len, d.size);
			if (!st) {
				c.stats->files_read++;
				*bytes = fw->body.len;
			}
		} else {
			c.stats->inline_read++;
			*bytes = d.content.len;
		}
	}
	return tx_end(&c, st, &at_commit);
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
	uint64_t elided = 0;
	uint64_t binary_bytes = fed_binary_bytes(sh, &elided);
	json_object_set_new(
		obj, "fedora",
		json_pack("{s:I, s:I, s:I, s:s, s:I, s:s, s:s, s:I, s:s, s:I, s:I, s:I, s:I, s:I, s:o}",
			  "pairtree_length", (json_int_t)o->pairtree_length, "pairtree_count",
			  (json_int_t)o->pairtree_count, "child_block", (json_int_t)o->child_block,
			  "collection", ingest_collection_names[o->collection],
			  "binary_threshold", (json_int_t)o->binary_threshold, "digest",
			  o->digest == INGEST_SHA1 ? "sha1" : "none", "binary_dir", sh->bs.dir,
			  "binary_bytes", (json_int_t)binary_bytes, "preload_content",
			  o->preload_content == INGEST_CONTENT_SPARSE ? "sparse" : "write",
			  "binary_elided_bytes", (json_int_t)elided,
			  "branches_created", (json_int_t)branches, "files_written", (json_int_t)files,
			  "files_shared", (json_int_t)deduped, "inline", (json_int_t)inlined,
			  "parent_rewrites", sig));
	/* Through the store interface: documents put (fedora-4.5: each its own
	 * transaction), their bytes, the reference counts made; and the
	 * document cache's hits and misses. */
	uint64_t txns = 0, docs = 0, dbytes = 0, refs = 0;
	for (unsigned t = 0; t < sh->nstats; t++) {
		txns += sh->stats[t].store_txns;
		docs += sh->stats[t].docs_written;
		dbytes += sh->stats[t].doc_bytes;
		refs += sh->stats[t].refs;
	}
	json_t *f = json_object_get(obj, "fedora");
	json_object_set_new(f, "profile", json_string(rpb_profile_names[rn->job->run.profile]));
	json_object_set_new(f, "doc_bytes_put", json_integer((json_int_t)dbytes));
	json_object_set_new(f, "references_counted", json_integer((json_int_t)refs));
	if (sh->f45) {
		json_object_set_new(f, "store_transactions", json_integer((json_int_t)txns));
		json_object_set_new(f, "documents_written", json_integer((json_int_t)docs));
		json_object_set_new(f, "doc_cache", json_integer((json_int_t)sh->cache.cap));
		json_object_set_new(f, "doc_cache_hits", json_integer((json_int_t)sh->cache.hits));
		json_object_set_new(f, "doc_cache_misses", json_integer((json_int_t)sh->cache.misses));
	}
	if (ingest_reads_any(o)) {
		uint64_t r[6] = {0};
		for (unsigned t = 0; t < sh->nstats; t++) {
			r[0] += sh->stats[t].list_docs;
			r[1] += sh->stats[t].list_blocks;
			r[2] += sh->stats[t].get_docs;
			r[3] += sh->stats[t].files_read;
			r[4] += sh->stats[t].inline_read;
			r[5] += sh->stats[t].members_docs;
		}
		json_object_set_new(f, "reads",
				    json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
					      "read_mix",
					      o->read_mix, "read_at", o->read_at, "list_page",
					      (json_int_t)o->list_page, "list_documents",
					      (json_int_t)r[0], "list_blocks", (json_int_t)r[1],
					      "fileget_documents", (json_int_t)r[2], "files_read",
					      (json_int_t)r[3], "inline_read", (json_int_t)r[4],
					      "members", (json_int_t)o->members, "members_documents",
					      (json_int_t)r[5]));
	}
	if (sh->swept) /* a run before this one died: what it left in doubt */
		json_object_set_new(f, "leftovers_removed",
				    json_integer((json_int_t)sh->swept));
}
