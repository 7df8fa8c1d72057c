/* Verify for the ingest pattern: every acknowledged create is in the store,
 * whole and byte-exact (its content regenerated from the seed); every failed
 * one left nothing behind; nothing else of this run is there.
 *
 * Reads go in bounded read transactions (CHUNK ops or scan entries each), so
 * no backend holds one snapshot over millions of rows, and scans stream. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"
#include "verify.h"

#define CHUNK 1000

struct vctx {
	const struct rpb_backend *b;
	struct rpb_session *s;
	const struct rpb_job *job;
	const struct rpb_ledger *ledger;
	struct rpb_verify_result *res;
	unsigned char *regen;          /* regenerated content */
	struct rpb_buf obj, desc, mem; /* what the store holds */
	char id[INGEST_KEY_MAX], parent[INGEST_KEY_MAX], member[2 * INGEST_KEY_MAX];
	size_t idlen, parentlen, memberlen;
};

/* The first discrepancy is described, every one counted. */
#define problem(v, ...) rpb_verify_problem((v)->res, __VA_ARGS__)

/* A get whose NOT_FOUND is an answer (*present = false), not a failure. */
static enum rpb_status fetch(struct vctx *v, enum rpb_table t, const char *key, size_t len,
			     struct rpb_buf *out, bool *present, struct rpb_err *err)
{
	enum rpb_status st = v->b->get(v->s, t, rpb_slice_make(key, len), out, err);
	*present = st == RPB_OK;
	return st == RPB_NOT_FOUND ? RPB_OK : st;
}

/* Whether the fetched object matches op of thread t; else why. */
static bool record_ok(struct vctx *v, unsigned t, uint64_t op, char *why, size_t n)
{
	uint64_t size = ingest_content(v->job, t, op, v->regen);
	if (v->obj.len != size) {
		snprintf(why, n, "content is %zu bytes, expected %" PRIu64, v->obj.len, size);
		return false;
	}
	char want[INGEST_HEX_LEN + 1], got[INGEST_HEX_LEN + 1];
	ingest_digest_hex(v->regen, (size_t)size, want);
	ingest_digest_hex(v->obj.data, v->obj.len, got);
	if (strcmp(want, got) != 0) {
		snprintf(why, n, "content digest %s, expected %s", got, want);
		return false;
	}
	struct ingest_desc d;
	if (!ingest_desc_parse(v->desc.data, v->desc.len, &d)) {
		snprintf(why, n, "description lacks a field (id, parent, size, xxh3, mime, created)");
		return false;
	}
	char sz[24];
	snprintf(sz, sizeof sz, "%" PRIu64, size);
	const struct {
		rpb_slice f;
		const char *name, *want;
	} checks[] = {
		{d.id, "id", v->id},
		{d.parent, "parent", v->parent},
		{d.size, "size", sz},
		{d.xxh3, "xxh3", want},
		{d.mime, "mime", ingest_mime(ingest_opts(v->job)->content)},
	};
	for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
		if (!ingest_field_eq(checks[i].f, checks[i].want)) {
			snprintf(why, n, "description %s=%.*s, expected %s", checks[i].name,
				 (int)(checks[i].f.len > 80 ? 80 : checks[i].f.len),
				 (const char *)checks[i].f.data, checks[i].want);
			return false;
		}
	}
	return true;
}

/* Checks op of thread t; failed/in_doubt say what the ledger recorded. */
static enum rpb_status check_op(struct vctx *v, unsigned t, uint64_t op, bool failed,
				bool in_doubt, struct rpb_err *err)
{
	const char *tag = v->ledger->run_tag;
	v->idlen = ingest_obj_key(v->id, tag, t, op);
	v->parentlen = ingest_container_key(v->parent, tag, op, ingest_opts(v->job)->containers);
	v->memberlen = ingest_member_key(v->member, v->parent, v->parentlen, v->id, v->idlen);

	bool has_obj, has_desc, has_mem;
	enum rpb_status st = fetch(v, RPB_T_OBJECTS, v->id, v->idlen, &v->obj, &has_obj, err);
	if (!st)
		st = fetch(v, RPB_T_DESCRIPTIONS, v->id, v->idlen, &v->desc, &has_desc, err);
	if (!st)
		st = fetch(v, RPB_T_MEMBERS, v->member, v->memberlen, &v->mem, &has_mem, err);
	if (st)
		return st;
	int present = has_obj + has_desc + has_mem;
	struct rpb_verify_result *res = v->res;
	char why[300];

	if (failed && !in_doubt) {
		if (present) {
			res->unexpected++;
			problem(v, "%s: its create failed, yet %d of its 3 records (content, "
				   "description, membership) are in the store", v->id, present);
		}
		return RPB_OK;
	}
	if (in_doubt) {
		/* A stale ledger's unprovable operation: whole or absent too. */
		bool unprovable = rpb_ledger_op_state(&v->ledger->workers[t], op) == RPB_OP_UNPROVABLE;
		res->in_doubt += !unprovable;
		res->unprovable += unprovable && present;
		if (present == 0)
			return RPB_OK;
		if (present < 3) {
			res->corrupt++;
			problem(v, "%s: in doubt and partly written: %d of its 3 records present",
				v->id, present);
		} else if (!record_ok(v, t, op, why, sizeof why)) {
			res->corrupt++;
			problem(v, "%s: in doubt, present but %s", v->id, why);
		}
		return RPB_OK;
	}
	res->checked++;
	if (!has_obj) {
		res->missing++;
		problem(v, "%s: acknowledged but its content is not in the store", v->id);
	} else if (!has_desc) {
		res->corrupt++;
		problem(v, "%s: acknowledged but its description is missing", v->id);
	} else if (!has_mem) {
		res->corrupt++;
		problem(v, "%s: acknowledged but its membership %s is missing", v->id, v->member);
	} else if (!record_ok(v, t, op, why, sizeof why)) {
		res->corrupt++;
		problem(v, "%s: %s", v->id, why);
	}
	return RPB_OK;
}

/* Every issued op of thread t, CHUNK per read transaction. The ledger's
 * failures are sorted by op, each op once (checked when it was read). */
static enum rpb_status check_thread(struct vctx *v, unsigned t, struct rpb_err *err)
{
	const struct rpb_ledger_worker *lw = &v->ledger->workers[t];
	size_t j = 0;
	for (uint64_t base = 0; base < lw->issued; base += CHUNK) {
		uint64_t stop = lw->issued - base > CHUNK ? base + CHUNK : lw->issued;
		enum rpb_status st = v->b->begin(v->s, RPB_TXN_READ, err);
		for (uint64_t op = base; !st && op < stop; op++) {
			bool failed = false, in_doubt = false;
			while (j < lw->nfailures && lw->failures[j].op < op)
				j++;
			for (; j < lw->nfailures && lw->failures[j].op == op; j++) {
				failed = true;
				in_doubt |= lw->failures[j].in_doubt;
			}
			if (lw->in_flight && op + 1 == lw->issued)
				failed = in_doubt = true; /* the run died during it */
			if (rpb_ledger_op_state(lw, op) == RPB_OP_UNPROVABLE)
				failed = in_doubt = true;
			st = check_op(v, t, op, failed, in_doubt, err);
		}
		if (!st)
			st = v->b->commit(v->s, err);
		if (st) {
			v->b->rollback(v->s);
			return st;
		}
	}
	return RPB_OK;
}

/* ---- scans for records this run never acknowledged ---- */

enum scan_kind { SCAN_OBJECTS, SCAN_PROBES, SCAN_MEMBERS };

struct scan_ctx {
	struct vctx *v;
	enum rpb_table table;
	enum scan_kind kind;
	char prefix[INGEST_KEY_MAX];
	size_t plen;
	char last[RPB_KEY_MAX];
	size_t lastlen;
	size_t seen;
	bool beyond; /* reached a key outside the prefix */
};

/* Parses "<digits>" of at most max digits from [*p, end) up to stop (or end
 * when stop is 0). */
static bool parse_u64(const char **p, const char *end, char stop, unsigned max, uint64_t *out)
{
	uint64_t x = 0;
	unsigned n = 0;
	const char *q = *p;
	for (; q < end && *q >= '0' && *q <= '9' && n < max; q++, n++)
		x = x * 10 + (uint64_t)(*q - '0');
	if (n == 0 || (stop ? q >= end || *q != stop : q != end))
		return false;
	*p = stop ? q + 1 : q;
	*out = x;
	return true;
}

/* Parses "<kind>/<tag>/<thread>/<n>" (exactly as ingest_obj_key and
 * ingest_probe_key write it). */
static bool parse_thread_key(char kind, const char *tag, const char *k, size_t len, unsigned *t,
			     uint64_t *n)
{
	char canon[INGEST_KEY_MAX];
	size_t plen = (size_t)snprintf(canon, sizeof canon, "%c/%s/", kind, tag);
	if (len < plen || memcmp(k, canon, plen) != 0)
		return false;
	const char *p = k + plen, *end = k + len;
	uint64_t tt;
	if (!parse_u64(&p, end, '/', 9, &tt) || !parse_u64(&p, end, 0, 19, n))
		return false;
	*t = (unsigned)tt;
	size_t got = kind == 'o' ? ingest_obj_key(canon, tag, *t, *n) : ingest_probe_key(canon, tag, *t, *n);
	return got == len && memcmp(canon, k, len) == 0;
}

/* Whether op of thread t was issued, as far as the ledger can tell: a
 * stale one (read as it reached the disk) cannot tell of the operations
 * after its end, whose records are accepted (and counted) whole. */
static bool issued(const struct vctx *v, unsigned t, uint64_t op, bool count)
{
	const struct rpb_ledger *l = v->ledger;
	if (t >= l->nworkers)
		return false;
	if (op >= l->workers[t].issued && l->workers[t].stale) {
		v->res->unprovable += count;
		return true;
	}
	return op < l->workers[t].issued;
}

/* Whether a probe resource key belongs to the operation a run died in: its
 * probe sequence may not have reached the delete. */
static bool probe_in_flight(const struct vctx *v, const char *k, size_t len)
{
	const struct rpb_ledger *l = v->ledger;
	uint64_t every = ingest_opts(v->job)->probe_every;
	if (!l->interrupted || !every)
		return false;
	unsigned pt;
	uint64_t probe, op;
	if (l->stale && parse_thread_key('p', l->run_tag, k, len, &pt, &probe) && pt < l->nworkers &&
	    probe && !__builtin_mul_overflow(probe, every, &op) &&
	    rpb_ledger_op_state(&l->workers[pt], op - 1) == RPB_OP_UNPROVABLE)
		return true; /* of an operation a stale ledger cannot tell */
	for (unsigned t = 0; t < l->nworkers; t++) {
		const struct rpb_ledger_worker *lw = &l->workers[t];
		if (!lw->in_flight || lw->issued % every != 0)
			continue;
		char want[INGEST_KEY_MAX];
		size_t n = ingest_probe_key(want, l->run_tag, t, lw->issued / every);
		if (n == len && memcmp(want, k, n) == 0)
			return true;
	}
	return false;
}

bool ingest_probe_left(const struct rpb_job *job, const struct rpb_ledger *l, unsigned t,
		       uint64_t probe)
{
	uint64_t every = ingest_opts(job)->probe_every, op;
	if (!every || t >= l->nworkers || probe == 0 || __builtin_mul_overflow(probe, every, &op))
		return false;
	op -= 1; /* probe p follows create p * every - 1 */
	uint64_t first = ingest_first_object(job); /* a continued preload's */
	if (op < first)
		return false;
	op -= first;
	const struct rpb_ledger_worker *lw = &l->workers[t];
	size_t lo = 0, hi = lw->nsteps; /* the first step of op: steps are sorted */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (lw->steps[mid].op < op)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < lw->nsteps && lw->steps[lo].op == op; lo++) {
		const struct rpb_failure *f = &lw->steps[lo];
		if (f->label == L_PROBE_DELETE || (f->label == L_PROBE_CREATE && f->in_doubt))
			return true;
	}
	return false;
}

/* The same for a probe key of the flat model. */
static bool probe_left_by_failure(const struct vctx *v, const char *k, size_t len)
{
	const struct rpb_ledger *l = v->ledger;
	uint64_t probe;
	unsigned t;
	return parse_thread_key('p', l->run_tag, k, len, &t, &probe) &&
	       ingest_probe_left(v->job, l, t, probe);
}

/* Whether a key under the scanned prefix belongs to an issued op (whose
 * state check_op judged already), or to a probe the run died in; a probe
 * that a failed step left behind is counted apart, as expected. */
static bool key_known(struct scan_ctx *sc, const char *k, size_t len)
{
	const char *tag = sc->v->ledger->run_tag;
	unsigned t;
	uint64_t op;
	if (sc->kind == SCAN_OBJECTS)
		return parse_thread_key('o', tag, k, len, &t, &op) &&
		       issued(sc->v, t, op, sc->table == RPB_T_OBJECTS);
	const char *probe = k;
	if (sc->kind == SCAN_MEMBERS) {
		/* Members: "c/<tag>/<k>/" + object id, k the op's container. */
		const char *slash = memchr(k + sc->plen, '/', len - sc->plen);
		if (!slash)
			return false;
		size_t clen = (size_t)(slash - k);
		if (!parse_thread_key('o', tag, slash + 1, len - clen - 1, &t, &op)) {
			probe = slash + 1;
		} else {
			char c[INGEST_KEY_MAX];
			size_t n = ingest_container_key(c, tag, op, ingest_opts(sc->v->job)->containers);
			return n == clen && memcmp(c, k, n) == 0 && issued(sc->v, t, op, false);
		}
	}
	/* Every probe resource is deleted by its sequence, unless the run died
	 * in it or a failed step left it. */
	size_t plen = len - (size_t)(probe - k);
	if (probe_in_flight(sc->v, probe, plen))
		return true;
	if (!probe_left_by_failure(sc->v, probe, plen))
		return false;
	sc->v->res->left++;
	return true;
}

static int scan_cb(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)val;
	struct scan_ctx *sc = ctx;
	const char *k = key.data;
	sc->seen++;
	if (key.len < sc->plen || memcmp(k, sc->prefix, sc->plen) != 0) {
		sc->beyond = true;
		return 1;
	}
	memcpy(sc->last, k, key.len);
	sc->lastlen = key.len;
	if (!key_known(sc, k, key.len)) {
		sc->v->res->unexpected++;
		bool probe = sc->kind == SCAN_PROBES ||
			     (key.len - sc->plen > 6 && memcmp(k + sc->plen, "probe/", 6) == 0);
		problem(sc->v, "%s: %.*s: %s", rpb_table_name(sc->table),
			(int)(key.len > 200 ? 200 : key.len), k,
			probe ? "a probe resource left behind"
			      : "not written by any operation of this run");
	}
	return 0;
}

/* Streams the keys of table under prefix, CHUNK per read transaction. */
static enum rpb_status scan_prefix(struct vctx *v, enum rpb_table table, enum scan_kind kind,
				   const char *prefix, struct rpb_err *err)
{
	struct scan_ctx *sc = calloc(1, sizeof *sc);
	if (!sc)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory starting a verify scan");
	sc->v = v;
	sc->table = table;
	sc->kind = kind;
	sc->plen = (size_t)snprintf(sc->prefix, sizeof sc->prefix, "%s", prefix);
	/* The prefix ends in '/'; '0' is the next byte, so upto bounds the
	 * range and the callback stops at the rare key equal to it. */
	char after[RPB_KEY_MAX], upto[INGEST_KEY_MAX];
	size_t alen = sc->plen;
	memcpy(after, sc->prefix, alen);
	memcpy(upto, sc->prefix, sc->plen);
	upto[sc->plen - 1] = '0';
	rpb_slice up = rpb_slice_make(upto, sc->plen);
	enum rpb_status st;
	for (;;) {
		rpb_slice af = rpb_slice_make(after, alen);
		sc->seen = 0;
		st = v->b->begin(v->s, RPB_TXN_READ, err);
		if (!st)
			st = v->b->scan(v->s, table, &af, &up, CHUNK, scan_cb, sc, err);
		if (!st)
			st = v->b->commit(v->s, err);
		if (st) {
			v->b->rollback(v->s);
			break;
		}
		if (sc->beyond || sc->seen < CHUNK)
			break;
		memcpy(after, sc->last, sc->lastlen);
		alen = sc->lastlen;
	}
	free(sc);
	return st;
}

static enum rpb_status scan_all(struct vctx *v, struct rpb_err *err)
{
	const char *tag = v->ledger->run_tag;
	char o[INGEST_KEY_MAX], p[INGEST_KEY_MAX], c[INGEST_KEY_MAX];
	snprintf(o, sizeof o, "o/%s/", tag);
	snprintf(p, sizeof p, "p/%s/", tag);
	snprintf(c, sizeof c, "c/%s/", tag);
	enum rpb_status st = scan_prefix(v, RPB_T_OBJECTS, SCAN_OBJECTS, o, err);
	if (!st)
		st = scan_prefix(v, RPB_T_DESCRIPTIONS, SCAN_OBJECTS, o, err);
	if (!st)
		st = scan_prefix(v, RPB_T_OBJECTS, SCAN_PROBES, p, err);
	if (!st)
		st = scan_prefix(v, RPB_T_DESCRIPTIONS, SCAN_PROBES, p, err);
	if (!st)
		st = scan_prefix(v, RPB_T_MEMBERS, SCAN_MEMBERS, c, err);
	return st;
}

enum rpb_status ingest_verify(const struct rpb_backend *b, struct rpb_store *store,
			      const struct rpb_job *job, const struct rpb_ledger *ledger,
			      struct rpb_verify_result *res, struct rpb_err *err)
{
	struct vctx v = {.b = b, .job = job, .ledger = ledger, .res = res};
	res->left_by = "failed probe steps";
	size_t cap = ingest_content_cap(ingest_opts(job));
	v.regen = malloc(cap);
	if (!v.regen)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL,
				   "out of memory allocating a %zu-byte verify buffer", cap);
	enum rpb_status st = b->session_open(store, &v.s, err);
	for (unsigned t = 0; !st && t < ledger->nworkers; t++)
		st = check_thread(&v, t, err);
	if (!st)
		st = scan_all(&v, err);
	b->session_close(v.s);
	rpb_buf_free(&v.obj);
	rpb_buf_free(&v.desc);
	rpb_buf_free(&v.mem);
	free(v.regen);
	return st;
}
