/* The sortmap backend, built only by the tests: the smallest real store
 * behind the interface (docs/architecture.md, "Adding a backend"). Each
 * table is a sorted array of immutable, reference-counted entries; a
 * committed state is a version of ten such arrays, shared by the
 * transactions that read it, so a transaction reads the snapshot it began
 * with. Writers take the store's one writer lock at begin (they block each
 * other: RPB_BF_LOCKS) and stage their writes in sorted arrays of their own,
 * merged into a new version at commit. Every commit appends them as one
 * checksummed batch to the store's one file (sortmap.dat), synced under
 * sync = commit; open replays the batches. The file is never compacted:
 * this backend shows the interface, it is not one to measure. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "sortmap_backend.h"

#define SM_FILE "sortmap.dat"
static const char sm_magic[8] = {'R', 'P', 'B', 'S', 'M', 'A', 'P', '1'};

/* One key and its value (or, staged in a transaction, its deletion). */
struct item {
	atomic_uint refs;
	bool dead;
	size_t klen, vlen;
	unsigned char kv[]; /* key, then value */
};

/* A table's entries in key order; immutable once in a version. */
struct table {
	atomic_uint refs;
	size_t n, cap;
	struct item **items;
};

struct version {
	atomic_uint refs;
	struct table *t[RPB_TABLE_COUNT];
};

struct rpb_store {
	pthread_mutex_t mu; /* guards cur and writer */
	pthread_cond_t cv;  /* the writer lock was released, or an interrupt came */
	struct version *cur;
	bool writer;        /* a write transaction holds the writer lock */
	enum rpb_sync sync;
	int fd;             /* the store's file, open for appending batches */
	uint64_t end;       /* where the next batch goes */
	char path[4096], dir[4096];
};

struct rpb_session {
	struct rpb_store *st;
	bool in_txn, writes;
	struct version *snap;
	struct table ws[RPB_TABLE_COUNT]; /* staged writes, sorted */
	atomic_bool interrupted;
};

enum rpb_status rpb_sortmap_classify(int errnum)
{
	if (errnum == ENOSPC || errnum == EDQUOT)
		return RPB_DISK_FULL;
	if (errnum == ENOMEM)
		return RPB_NOMEM;
	return RPB_IO;
}

/* ---- entries, tables and versions ---- */

static struct item *item_new(rpb_slice key, rpb_slice val, bool dead)
{
	struct item *it = malloc(sizeof *it + key.len + val.len);
	if (!it)
		return NULL;
	atomic_init(&it->refs, 1);
	it->dead = dead;
	it->klen = key.len;
	it->vlen = val.len;
	memcpy(it->kv, key.data, key.len);
	if (val.len)
		memcpy(it->kv + key.len, val.data, val.len);
	return it;
}

static void item_unref(struct item *it)
{
	if (it && atomic_fetch_sub(&it->refs, 1) == 1)
		free(it);
}

/* memcmp order, the shorter key first on a common prefix (store.h). */
static int key_cmp(const struct item *it, rpb_slice k)
{
	size_t n = it->klen < k.len ? it->klen : k.len;
	int c = n ? memcmp(it->kv, k.data, n) : 0;
	return c ? c : (it->klen > k.len) - (it->klen < k.len);
}

/* The first index whose key is >= k (or > k with after). */
static size_t lower_bound(const struct table *t, rpb_slice k, bool after)
{
	size_t lo = 0, hi = t ? t->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(t->items[mid], k);
		if (c < 0 || (after && c == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct item *table_find(const struct table *t, rpb_slice k)
{
	size_t i = lower_bound(t, k, false);
	return t && i < t->n && key_cmp(t->items[i], k) == 0 ? t->items[i] : NULL;
}

static bool table_push(struct table *t, struct item *it)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct item **p = realloc(t->items, cap * sizeof *p);
		if (!p)
			return false;
		t->items = p;
		t->cap = cap;
	}
	t->items[t->n++] = it;
	return true;
}

static void table_clear(struct table *t)
{
	for (size_t i = 0; i < t->n; i++)
		item_unref(t->items[i]);
	free(t->items);
	memset(t, 0, sizeof *t);
}

static void table_unref(struct table *t)
{
	if (t && atomic_fetch_sub(&t->refs, 1) == 1) {
		table_clear(t);
		free(t);
	}
}

static struct table *table_new(void)
{
	struct table *t = calloc(1, sizeof *t);
	if (t)
		atomic_init(&t->refs, 1);
	return t;
}

static void version_unref(struct version *v)
{
	if (v && atomic_fetch_sub(&v->refs, 1) == 1) {
		for (int i = 0; i < RPB_TABLE_COUNT; i++)
			table_unref(v->t[i]);
		free(v);
	}
}

static struct version *version_new(void)
{
	struct version *v = calloc(1, sizeof *v);
	if (!v)
		return NULL;
	atomic_init(&v->refs, 1);
	for (int i = 0; i < RPB_TABLE_COUNT; i++)
		if (!(v->t[i] = table_new())) {
			version_unref(v);
			return NULL;
		}
	return v;
}

/* old's entries with the staged ones merged in (deletions dropped). */
static struct table *table_merge(const struct table *old, const struct table *ws)
{
	struct table *t = table_new();
	size_t i = 0, j = 0;
	while (t && (i < old->n || j < ws->n)) {
		int c = i == old->n ? 1 : j == ws->n ? -1 :
			key_cmp(old->items[i], (rpb_slice){ws->items[j]->kv, ws->items[j]->klen});
		struct item *it = c < 0 ? old->items[i++] : ws->items[j++];
		if (c == 0)
			i++; /* the staged write replaces the committed entry */
		if (it->dead)
			continue;
		atomic_fetch_add(&it->refs, 1);
		if (!table_push(t, it)) {
			item_unref(it);
			table_unref(t);
			t = NULL;
		}
	}
	return t;
}

/* A new version: base with the staged tables ws merged in. */
static struct version *version_apply(const struct version *base, const struct table *ws)
{
	struct version *v = calloc(1, sizeof *v);
	if (!v)
		return NULL;
	atomic_init(&v->refs, 1);
	for (int i = 0; i < RPB_TABLE_COUNT; i++) {
		if (ws[i].n == 0) {
			v->t[i] = base->t[i];
			atomic_fetch_add(&v->t[i]->refs, 1);
		} else if (!(v->t[i] = table_merge(base->t[i], &ws[i]))) {
			version_unref(v);
			return NULL;
		}
	}
	return v;
}

/* ---- the store's file: a header, then one batch per commit ----
 * A batch is [u64 n][n bytes of records][u64 XXH64 of them]; a record is
 * [u8 table][u8 deleted][u64 key length][u64 value length][key][value]. */

static enum rpb_status io_err(struct rpb_err *err, const char *what, const char *path)
{
	int e = errno;
	return rpb_err_set(err, rpb_sortmap_classify(e), e, NULL, "%s %s: %s", what, path,
			   strerror(e));
}

static enum rpb_status corrupt(struct rpb_err *err, const char *path, const char *why)
{
	return rpb_err_set(err, RPB_CORRUPT, 0, NULL,
			   "%s %s; it is not a store this backend wrote (make a new one with --fresh)",
			   path, why);
}

static unsigned char *put_u64(unsigned char *p, uint64_t x)
{
	memcpy(p, &x, sizeof x);
	return p + sizeof x;
}

/* Appends the staged writes as one batch; on failure the file is as before. */
static enum rpb_status append_batch(struct rpb_store *st, const struct table *ws,
				    struct rpb_err *err)
{
	size_t n = 0;
	for (int t = 0; t < RPB_TABLE_COUNT; t++)
		for (size_t i = 0; i < ws[t].n; i++)
			n += 2 + 16 + ws[t].items[i]->klen + ws[t].items[i]->vlen;
	unsigned char *buf = malloc(n + 16), *p = put_u64(buf, n);
	if (!buf)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory committing");
	for (int t = 0; t < RPB_TABLE_COUNT; t++)
		for (size_t i = 0; i < ws[t].n; i++) {
			const struct item *it = ws[t].items[i];
			*p++ = (unsigned char)t;
			*p++ = it->dead;
			p = put_u64(put_u64(p, it->klen), it->vlen);
			memcpy(p, it->kv, it->klen + it->vlen);
			p += it->klen + it->vlen;
		}
	put_u64(p, XXH64(buf + 8, n, 0));
	enum rpb_status rc = RPB_OK;
	for (size_t done = 0; done < n + 16 && !rc;) {
		ssize_t w = pwrite(st->fd, buf + done, n + 16 - done, (off_t)(st->end + done));
		if (w < 0 && errno != EINTR)
			rc = io_err(err, "writing", st->path);
		done += w > 0 ? (size_t)w : 0;
	}
	if (!rc && st->sync == RPB_SYNC_COMMIT && fdatasync(st->fd) != 0)
		rc = io_err(err, "syncing", st->path);
	free(buf);
	if (rc) {
		/* Best effort: a part written is cut short, which replay drops. */
		(void)!ftruncate(st->fd, (off_t)st->end);
		return rc;
	}
	st->end += n + 16;
	return RPB_OK;
}

/* Parses one batch's records into staged tables. */
static enum rpb_status parse_batch(const unsigned char *p, size_t n, struct table *ws,
				   const char *path, struct rpb_err *err)
{
	for (size_t at = 0; at < n;) {
		uint64_t kl, vl;
		if (n - at < 18 || p[at] >= RPB_TABLE_COUNT || p[at + 1] > 1)
			return corrupt(err, path, "has a malformed record");
		unsigned t = p[at];
		bool dead = p[at + 1];
		memcpy(&kl, p + at + 2, sizeof kl);
		memcpy(&vl, p + at + 10, sizeof vl);
		at += 18;
		if (kl == 0 || kl > RPB_KEY_MAX || vl > RPB_VALUE_MAX || n - at < kl + vl)
			return corrupt(err, path, "has a malformed record");
		rpb_slice key = {p + at, kl};
		if (ws[t].n && key_cmp(ws[t].items[ws[t].n - 1], key) >= 0)
			return corrupt(err, path, "has keys out of order");
		struct item *it = item_new(key, (rpb_slice){p + at + kl, vl}, dead);
		if (!it || !table_push(&ws[t], it)) {
			free(it);
			return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory loading %s", path);
		}
		at += kl + vl;
	}
	return RPB_OK;
}

/* Replays the batches of p[0..n) onto st->cur. A last batch cut short (a
 * commit that never returned) is dropped, and cut off the file. */
static enum rpb_status replay(struct rpb_store *st, const unsigned char *p, size_t n,
			      struct rpb_err *err)
{
	if (n < sizeof sm_magic || memcmp(p, sm_magic, sizeof sm_magic) != 0)
		return corrupt(err, st->path, "does not start with the sortmap header");
	size_t at = sizeof sm_magic;
	enum rpb_status rc = RPB_OK;
	while (!rc && n - at >= 16) {
		uint64_t len, sum;
		memcpy(&len, p + at, sizeof len);
		if (len > n - at - 16)
			break; /* cut short */
		memcpy(&sum, p + at + 8 + len, sizeof sum);
		if (XXH64(p + at + 8, len, 0) != sum)
			return corrupt(err, st->path, "has a batch that fails its checksum");
		struct table ws[RPB_TABLE_COUNT] = {0};
		rc = parse_batch(p + at + 8, len, ws, st->path, err);
		struct version *v = rc ? NULL : version_apply(st->cur, ws);
		if (!rc && !v)
			rc = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory loading %s", st->path);
		for (int t = 0; t < RPB_TABLE_COUNT; t++)
			table_clear(&ws[t]);
		if (v) {
			version_unref(st->cur);
			st->cur = v;
		}
		at += 16 + len;
	}
	st->end = at;
	if (!rc && at < n && ftruncate(st->fd, (off_t)at) != 0)
		rc = io_err(err, "cutting the unfinished commit off", st->path);
	return rc;
}

/* Opens (or with create, makes) the file and loads what it holds. */
static enum rpb_status load(struct rpb_store *st, bool create, struct rpb_err *err)
{
	if (create && mkdir(st->dir, 0755) != 0 && errno != EEXIST)
		return io_err(err, "making", st->dir);
	st->fd = open(st->path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0644);
	if (st->fd < 0 && errno == ENOENT)
		return rpb_err_set(err, RPB_INVALID, ENOENT, NULL,
				   "%s holds no sortmap store (no " SM_FILE "); run with --fresh to make one",
				   st->dir);
	if (st->fd < 0)
		return io_err(err, "opening", st->path);
	struct stat sb;
	if (fstat(st->fd, &sb) != 0)
		return io_err(err, "reading", st->path);
	if (sb.st_size == 0) { /* new: the header, synced as a commit is */
		st->end = sizeof sm_magic;
		if (pwrite(st->fd, sm_magic, sizeof sm_magic, 0) != (ssize_t)sizeof sm_magic ||
		    (st->sync == RPB_SYNC_COMMIT && fsync(st->fd) != 0))
			return io_err(err, "writing", st->path);
		return RPB_OK;
	}
	unsigned char *p = malloc((size_t)sb.st_size);
	if (!p)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory loading %s", st->path);
	enum rpb_status rc = RPB_OK;
	size_t got = 0;
	while (got < (size_t)sb.st_size && !rc) {
		ssize_t r = pread(st->fd, p + got, (size_t)sb.st_size - got, (off_t)got);
		if (r <= 0 && !(r < 0 && errno == EINTR))
			rc = r < 0 ? io_err(err, "reading", st->path)
				   : corrupt(err, st->path, "shrank while it was read");
		got += r > 0 ? (size_t)r : 0;
	}
	if (!rc)
		rc = replay(st, p, got, err);
	free(p);
	return rc;
}

/* ---- the interface ---- */

static const char *sm_version(void)
{
	return "sortmap (rpbench's example backend, no library)";
}

static void sm_close(struct rpb_store *st)
{
	if (!st)
		return;
	version_unref(st->cur);
	if (st->fd >= 0)
		close(st->fd);
	pthread_cond_destroy(&st->cv);
	pthread_mutex_destroy(&st->mu);
	free(st);
}

static enum rpb_status sm_open(const struct rpb_store_cfg *cfg, struct rpb_store **out,
			       struct rpb_err *err)
{
	*out = NULL;
	enum rpb_status rc = rpb_cfg_parse(cfg, "sortmap", NULL, NULL, err);
	if (rc)
		return rc;
	if (!cfg->dir || !*cfg->dir)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "sortmap needs a store directory");
	struct rpb_store *st = calloc(1, sizeof *st);
	if (!st || !(st->cur = version_new())) {
		free(st);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	}
	pthread_mutex_init(&st->mu, NULL);
	pthread_cond_init(&st->cv, NULL);
	st->fd = -1;
	st->sync = cfg->sync;
	snprintf(st->dir, sizeof st->dir, "%s", cfg->dir);
	snprintf(st->path, sizeof st->path, "%s/" SM_FILE, cfg->dir);
	rc = load(st, cfg->create, err);
	if (rc) {
		sm_close(st);
		return rc;
	}
	*out = st;
	return RPB_OK;
}

static enum rpb_status sm_session_open(struct rpb_store *st, struct rpb_session **out,
				       struct rpb_err *err)
{
	*out = rpb_calloc_lines(1, sizeof **out);
	if (!*out)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	(*out)->st = st;
	return RPB_OK;
}

/* Ends the transaction: drops the staged writes and the snapshot, releases
 * the writer lock. */
static void sm_rollback(struct rpb_session *s)
{
	if (!s->in_txn)
		return;
	for (int i = 0; i < RPB_TABLE_COUNT; i++)
		table_clear(&s->ws[i]);
	version_unref(s->snap);
	s->snap = NULL;
	if (s->writes) {
		pthread_mutex_lock(&s->st->mu);
		s->st->writer = false;
		pthread_cond_broadcast(&s->st->cv);
		pthread_mutex_unlock(&s->st->mu);
	}
	s->in_txn = s->writes = false;
}

static void sm_session_close(struct rpb_session *s)
{
	if (!s)
		return;
	sm_rollback(s);
	free(s);
}

static bool interrupted(struct rpb_session *s)
{
	return atomic_load_explicit(&s->interrupted, memory_order_relaxed);
}

static enum rpb_status sm_begin(struct rpb_session *s, enum rpb_txn_mode mode,
				struct rpb_err *err)
{
	if (s->in_txn)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "a transaction is already open");
	atomic_store_explicit(&s->interrupted, false, memory_order_relaxed);
	struct rpb_store *st = s->st;
	pthread_mutex_lock(&st->mu);
	/* A writer waits here for the one before it, until an interrupt. */
	s->in_txn = true;
	while (mode == RPB_TXN_WRITE && st->writer && !interrupted(s))
		pthread_cond_wait(&st->cv, &st->mu);
	if (mode == RPB_TXN_WRITE && st->writer) {
		s->in_txn = false;
		pthread_mutex_unlock(&st->mu);
		return rpb_err_set(err, RPB_TXN_TIMEOUT, 0, NULL,
				   "transaction interrupted waiting for the writer lock");
	}
	if (mode == RPB_TXN_WRITE)
		st->writer = s->writes = true;
	s->snap = st->cur;
	atomic_fetch_add(&s->snap->refs, 1);
	pthread_mutex_unlock(&st->mu);
	return RPB_OK;
}

/* Every data call starts here: call order, interrupt, the key. */
static enum rpb_status check(struct rpb_session *s, enum rpb_table t, const rpb_slice *key,
			     struct rpb_err *err)
{
	if (!s->in_txn)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "operation outside a transaction");
	enum rpb_status rc = RPB_OK;
	if (interrupted(s))
		rc = rpb_err_set(err, RPB_TXN_TIMEOUT, 0, NULL, "transaction interrupted");
	else if ((unsigned)t >= RPB_TABLE_COUNT)
		rc = rpb_err_set(err, RPB_INVALID, 0, NULL, "no table %d", (int)t);
	else if (key && (key->len == 0 || key->len > RPB_KEY_MAX))
		rc = rpb_err_set(err, RPB_INVALID, 0, NULL, "a key of %zu bytes is not 1..%d",
				 key->len, RPB_KEY_MAX);
	if (rc)
		sm_rollback(s); /* a failed data call ends the transaction (store.h) */
	return rc;
}

static enum rpb_status stage(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			     rpb_slice val, bool dead, struct rpb_err *err)
{
	if (!s->writes) {
		sm_rollback(s);
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "a write in a read transaction");
	}
	struct item *it = item_new(key, val, dead);
	struct table *ws = &s->ws[t];
	size_t i = lower_bound(ws, key, false);
	if (it && i < ws->n && key_cmp(ws->items[i], key) == 0) {
		item_unref(ws->items[i]);
		ws->items[i] = it;
		return RPB_OK;
	}
	if (!it || !table_push(ws, it)) {
		free(it);
		sm_rollback(s);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	}
	memmove(ws->items + i + 1, ws->items + i, (ws->n - 1 - i) * sizeof *ws->items);
	ws->items[i] = it;
	return RPB_OK;
}

/* The entry a read of this transaction sees: staged, else the snapshot's. */
static const struct item *lookup(struct rpb_session *s, enum rpb_table t, rpb_slice key)
{
	const struct item *it = table_find(&s->ws[t], key);
	if (!it)
		it = table_find(s->snap->t[t], key);
	return it && !it->dead ? it : NULL;
}

static enum rpb_status sm_put(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      rpb_slice val, struct rpb_err *err)
{
	enum rpb_status rc = check(s, t, &key, err);
	if (!rc && val.len > RPB_VALUE_MAX) {
		sm_rollback(s);
		rc = rpb_err_set(err, RPB_INVALID, 0, NULL, "a value of %zu bytes is over %u",
				 val.len, RPB_VALUE_MAX);
	}
	return rc ? rc : stage(s, t, key, val, false, err);
}

static enum rpb_status sm_get(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      struct rpb_buf *out, struct rpb_err *err)
{
	enum rpb_status rc = check(s, t, &key, err);
	if (rc)
		return rc;
	const struct item *it = lookup(s, t, key);
	if (!it)
		return rpb_err_not_found(err);
	rc = rpb_buf_set(out, it->kv + it->klen, it->vlen, err);
	if (rc)
		sm_rollback(s);
	return rc;
}

static enum rpb_status sm_del(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      struct rpb_err *err)
{
	enum rpb_status rc = check(s, t, &key, err);
	if (rc)
		return rc;
	if (s->writes && !lookup(s, t, key))
		return rpb_err_not_found(err);
	return stage(s, t, key, (rpb_slice){NULL, 0}, true, err); /* refused when reading */
}

static enum rpb_status sm_scan(struct rpb_session *s, enum rpb_table t, const rpb_slice *after,
			       const rpb_slice *upto, size_t limit, rpb_scan_fn fn, void *ctx,
			       struct rpb_err *err)
{
	enum rpb_status rc = check(s, t, NULL, err);
	if (rc)
		return rc;
	/* A merge of the staged writes and the snapshot, the staged first. */
	const struct table *a = &s->ws[t], *b = s->snap->t[t];
	size_t i = after ? lower_bound(a, *after, true) : 0;
	size_t j = after ? lower_bound(b, *after, true) : 0;
	for (size_t seen = 0; (i < a->n || j < b->n) && (!limit || seen < limit);) {
		const struct item *x = i < a->n ? a->items[i] : NULL;
		const struct item *y = j < b->n ? b->items[j] : NULL;
		int c = !x ? 1 : !y ? -1 : key_cmp(x, (rpb_slice){y->kv, y->klen});
		const struct item *it = c <= 0 ? x : y;
		i += c <= 0;
		j += c >= 0;
		if (upto && key_cmp(it, *upto) > 0)
			break;
		if (it->dead)
			continue;
		seen++;
		if (fn(ctx, (rpb_slice){it->kv, it->klen}, (rpb_slice){it->kv + it->klen, it->vlen}))
			break;
	}
	return RPB_OK;
}

static enum rpb_status sm_commit(struct rpb_session *s, struct rpb_err *err)
{
	enum rpb_status rc = check(s, 0, NULL, err);
	if (rc)
		return rc;
	bool staged = false;
	for (int i = 0; i < RPB_TABLE_COUNT; i++)
		staged |= s->ws[i].n > 0;
	/* The writer lock is held since begin, so snap is the latest version. */
	struct version *v = staged ? version_apply(s->snap, s->ws) : NULL;
	if (staged && !v)
		rc = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory committing");
	if (v && !(rc = append_batch(s->st, s->ws, err))) {
		pthread_mutex_lock(&s->st->mu);
		struct version *old = s->st->cur;
		s->st->cur = v;
		pthread_mutex_unlock(&s->st->mu);
		version_unref(old);
	} else if (v) {
		version_unref(v); /* the file is as before: nothing is committed */
	}
	sm_rollback(s); /* ends the transaction either way */
	return rc;
}

static void sm_interrupt(struct rpb_session *s)
{
	atomic_store_explicit(&s->interrupted, true, memory_order_relaxed);
	/* Wakes a writer waiting for the writer lock, so it sees the flag. */
	pthread_mutex_lock(&s->st->mu);
	pthread_cond_broadcast(&s->st->cv);
	pthread_mutex_unlock(&s->st->mu);
}

static enum rpb_status sm_usage(struct rpb_store *st, uint64_t *bytes, struct rpb_err *err)
{
	struct stat sb;
	if (stat(st->path, &sb) != 0)
		return io_err(err, "reading", st->path);
	*bytes = (uint64_t)sb.st_blocks * 512u;
	return RPB_OK;
}

static const char *const sm_files[] = {SM_FILE, NULL};

const struct rpb_backend rpb_backend_sortmap = {
	.name = "sortmap",
	.abi = RPB_BACKEND_ABI,
	.flags = RPB_BF_LOCKS,
	.options = NULL,
	.own_files = sm_files,
	.version = sm_version,
	.open = sm_open,
	.close = sm_close,
	.session_open = sm_session_open,
	.session_close = sm_session_close,
	.begin = sm_begin,
	.put = sm_put,
	.get = sm_get,
	.del = sm_del,
	.scan = sm_scan,
	.commit = sm_commit,
	.rollback = sm_rollback,
	.interrupt = sm_interrupt,
	.usage = sm_usage,
};
