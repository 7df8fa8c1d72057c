/* Verify for the harvest pattern: the corpus in the store is exactly what
 * the seed implies, with every acknowledged writer operation replayed from
 * the seed on top (writers = N). The datestamp index is scanned in full,
 * CHUNK entries per read transaction; each entry must be a record of the
 * corpus (or one a writer created) at its expected datestamp, seen once,
 * and its record must equal the regenerated one byte for byte. The set
 * index must hold exactly each record's sets at that datestamp, so an
 * update that left an entry at the old datestamp is found. Bitmaps find
 * the missing records. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harvest.h"
#include "verify.h"

#define CHUNK 1000

/* The writers' acknowledged operations replayed from the ledger: what each
 * record must be after the run. An operation in doubt (failed inside
 * commit, or running when the run died) leaves its record lenient: its
 * index and header must agree, either content is accepted. */
struct replay {
	uint64_t writers;
	uint64_t *upd;          /* per corpus record: 1 + j of its last update, 0 = none */
	unsigned char *created; /* per j: a create was acknowledged */
	unsigned char *doubt_rec, *doubt_new, *cseen;
	uint64_t jmax;          /* j = i * writers + k < jmax */
};

struct vctx {
	const struct rpb_backend *b;
	struct rpb_session *s;
	struct hv_corpus c;
	struct rpb_verify_result *res;
	unsigned char *seen;
	struct rpb_buf got;
	unsigned char *want;
	size_t wantcap;
	/* The chunk just scanned. */
	int64_t ds[CHUNK];
	uint64_t n[CHUNK];
	unsigned set[CHUNK];
	unsigned len;
	size_t tail;        /* datestamp offset in the key */
	size_t keylen;
	bool bad_key;
	unsigned char last[HV_SET_KEY];
	struct replay rp;
};

static bool bit(const unsigned char *map, uint64_t n)
{
	return map && (map[n >> 3] >> (n & 7) & 1);
}

static void set_bit(unsigned char *map, uint64_t n, bool on)
{
	if (on)
		map[n >> 3] |= (unsigned char)(1u << (n & 7));
	else
		map[n >> 3] &= (unsigned char)~(1u << (n & 7));
}

/* The operation j of the writers. */
static void op_of(const struct vctx *v, uint64_t j, struct hv_write *op)
{
	hv_write_op(&v->c, (unsigned)(j % v->rp.writers), j / v->rp.writers, op);
}

/* What the store must hold for record n: false if nothing. Sets *ds, *j
 * (1 + the writer operation that wrote it, 0 for the corpus record) and
 * *lenient (an operation in doubt touched it). */
static bool expect(const struct vctx *v, uint64_t n, int64_t *ds, uint64_t *j, bool *lenient)
{
	const struct rpb_harvest_opts *o = v->c.o;
	*lenient = false;
	*j = 0;
	if (n < o->records) {
		struct hv_rec r;
		struct rpb_rng rng;
		*j = v->rp.upd ? v->rp.upd[n] : 0;
		*lenient = bit(v->rp.doubt_rec, n);
		if (*j) {
			struct hv_write op;
			op_of(v, *j - 1, &op);
			*ds = op.ds;
		} else {
			hv_rec_attrs(&v->c, n, &r, &rng);
			*ds = r.ds;
		}
		return true;
	}
	uint64_t c = n - o->records;
	if (c >= v->rp.jmax || !(bit(v->rp.created, c) || bit(v->rp.doubt_new, c)))
		return false;
	*j = c + 1;
	*lenient = bit(v->rp.doubt_new, c);
	*ds = hv_write_base(o) + (int64_t)c;
	return true;
}

/* Replays the writers' acknowledged operations (harvest.h, "writers"). */
static enum rpb_status replay(struct vctx *v, const struct rpb_job *job,
			      const struct rpb_ledger *ledger, struct rpb_err *err)
{
	const struct rpb_harvest_opts *o = hv_opts(job);
	struct replay *rp = &v->rp;
	unsigned threads = (unsigned)job->run.threads;
	rp->writers = o->writers;
	if (!rp->writers)
		return RPB_OK;
	/* The core checked the worker count and bounded each issued count by
	 * the run's length; j = i * writers + k must still fit. */
	for (uint64_t k = 0; k < rp->writers; k++) {
		uint64_t to, issued = ledger->workers[threads + k].issued;
		if (__builtin_mul_overflow(issued, rp->writers, &to))
			return rpb_verify_damaged(v->res, err, "a writer's issued", issued,
						  "its operation numbers overflow");
		if (to > rp->jmax)
			rp->jmax = to;
	}
	rp->upd = calloc(o->records, sizeof *rp->upd);
	rp->doubt_rec = calloc(o->records / 8 + 1, 1);
	rp->created = calloc(rp->jmax / 8 + 1, 1);
	rp->doubt_new = calloc(rp->jmax / 8 + 1, 1);
	rp->cseen = calloc(rp->jmax / 8 + 1, 1);
	if (!rp->upd || !rp->doubt_rec || !rp->created || !rp->doubt_new || !rp->cseen)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory replaying the writers");
	for (uint64_t k = 0; k < rp->writers; k++) {
		const struct rpb_ledger_worker *lw = &ledger->workers[threads + k];
		size_t f = 0;
		for (uint64_t i = 0; i < lw->issued; i++) {
			bool failed = false, doubt = false;
			while (f < lw->nfailures && lw->failures[f].op < i)
				f++;
			/* A failure may be listed for each retry; any in doubt counts. */
			for (size_t g = f; g < lw->nfailures && lw->failures[g].op == i; g++) {
				failed = true;
				doubt |= lw->failures[g].in_doubt;
			}
			if (lw->in_flight && i + 1 == lw->issued)
				failed = doubt = true;
			if (failed && !doubt)
				continue;
			struct hv_write op;
			uint64_t j = i * rp->writers + k;
			hv_write_op(&v->c, (unsigned)k, i, &op);
			if (doubt)
				v->res->in_doubt++;
			if (op.create) {
				set_bit(doubt ? rp->doubt_new : rp->created, j, true);
			} else if (doubt) {
				set_bit(rp->doubt_rec, op.n, true);
			} else {
				rp->upd[op.n] = j + 1;
				set_bit(rp->doubt_rec, op.n, false);
			}
		}
	}
	return RPB_OK;
}

/* The first discrepancy is described, every one counted. */
#define problem(v, ...) rpb_verify_problem((v)->res, __VA_ARGS__)

static int collect(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)val;
	struct vctx *v = ctx;
	const unsigned char *k = key.data;
	if (key.len != v->keylen) {
		v->bad_key = true;
		return 1;
	}
	v->set[v->len] = v->tail > HV_PREFIX_LEN ? (unsigned)hv_get_be(k + HV_PREFIX_LEN, 2) : 0;
	v->ds[v->len] = (int64_t)hv_get_be(k + v->tail, 8);
	v->n[v->len] = hv_get_be(k + v->tail + 8, 8);
	memcpy(v->last, k, key.len);
	v->len++;
	return 0;
}

/* Scans the next chunk of table after the last key (or from the prefix). */
static enum rpb_status next_chunk(struct vctx *v, enum rpb_table t, bool first, struct rpb_err *err)
{
	unsigned char hi[HV_PREFIX_LEN];
	memcpy(hi, v->c.prefix, HV_PREFIX_LEN);
	hi[HV_PREFIX_LEN - 1]++; /* "/" + 1: just past every key of the corpus */
	rpb_slice after = first ? rpb_slice_make(v->c.prefix, HV_PREFIX_LEN)
				: rpb_slice_make(v->last, v->keylen);
	rpb_slice upto = rpb_slice_make(hi, HV_PREFIX_LEN);
	v->len = 0;
	enum rpb_status st = v->b->begin(v->s, RPB_TXN_READ, err);
	if (!st)
		st = v->b->scan(v->s, t, &after, &upto, CHUNK, collect, v, err);
	return st;
}

/* The value record n must hold (j as expect() gave it) into v->want. */
static size_t want_value(struct vctx *v, uint64_t n, uint64_t j)
{
	struct hv_rec r;
	if (!j)
		return hv_record(&v->c, n, &r, v->want, v->wantcap);
	struct hv_write op;
	op_of(v, j - 1, &op);
	return hv_write_record(&v->c, &op, &r, v->want, v->wantcap);
}

static void mark_seen(struct vctx *v, uint64_t n)
{
	if (n < v->c.o->records)
		set_bit(v->seen, n, true);
	else
		set_bit(v->rp.cseen, n - v->c.o->records, true);
}

static bool was_seen(const struct vctx *v, uint64_t n)
{
	return n < v->c.o->records ? bit(v->seen, n) : bit(v->rp.cseen, n - v->c.o->records);
}

static enum rpb_status check_records(struct vctx *v, struct rpb_err *err)
{
	enum rpb_status st = RPB_OK;
	unsigned char key[HV_REC_KEY];
	for (unsigned k = 0; !st && k < v->len; k++) {
		uint64_t n = v->n[k], j;
		int64_t ds;
		bool lenient;
		if (!expect(v, n, &ds, &j, &lenient)) {
			v->res->unexpected++;
			problem(v, "the datestamp index holds oai:rpbench:%" PRIu64 ", neither in the "
				   "corpus's %" PRIu64 " records nor created by a writer", n,
				v->c.o->records);
			continue;
		}
		/* In doubt: the datestamp before or after the operation. */
		bool ds_ok = ds == v->ds[k] || (lenient && v->ds[k] >= hv_write_base(v->c.o));
		if (!ds_ok) {
			v->res->corrupt++;
			problem(v, "oai:rpbench:%" PRIu64 " is indexed at datestamp %" PRId64
				   ", expected %" PRId64 "%s", n, v->ds[k], ds,
				j ? " (written by a writer)" : " (the seed's)");
			continue;
		}
		if (was_seen(v, n)) {
			v->res->corrupt++;
			problem(v, "oai:rpbench:%" PRIu64 " is in the datestamp index twice", n);
			continue;
		}
		mark_seen(v, n);
		v->res->checked++;
		size_t wlen = want_value(v, n, j);
		st = v->b->get(v->s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, hv_key_rec(&v->c, key, n)),
			       &v->got, err);
		struct hv_rec got;
		if (st == RPB_NOT_FOUND) {
			st = RPB_OK;
			v->res->missing++;
			problem(v, "oai:rpbench:%" PRIu64 " is indexed but its record is missing", n);
		} else if (!st && lenient) {
			if (!hv_record_header(v->got.data, v->got.len, &got) || got.ds != v->ds[k]) {
				v->res->corrupt++;
				problem(v, "oai:rpbench:%" PRIu64 ": its header disagrees with the index",
					n);
			}
		} else if (!st && (v->got.len != wlen || memcmp(v->got.data, v->want, wlen) != 0)) {
			v->res->corrupt++;
			problem(v, "oai:rpbench:%" PRIu64 ": the record differs from what the seed%s "
				   "makes (%zu bytes stored, %zu expected)", n,
				j ? " and the writers' operations" : "", v->got.len, wlen);
		}
	}
	return st;
}

static void check_sets(struct vctx *v, uint64_t *entries)
{
	for (unsigned k = 0; k < v->len; k++) {
		struct hv_rec r;
		struct rpb_rng rng;
		uint64_t j;
		int64_t ds;
		bool lenient;
		if (expect(v, v->n[k], &ds, &j, &lenient)) {
			hv_rec_attrs(&v->c, v->n[k], &r, &rng);
			bool ds_ok = ds == v->ds[k] || (lenient && v->ds[k] >= hv_write_base(v->c.o));
			if (ds_ok && hv_rec_matches(&r, r.ds, r.ds, v->set[k])) {
				(*entries)++;
				continue;
			}
		}
		v->res->unexpected++;
		problem(v, "the set index holds set%04u for oai:rpbench:%" PRIu64
			   " at datestamp %" PRId64 ", which the seed and the writers do not", v->set[k],
			v->n[k], v->ds[k]);
	}
}

static enum rpb_status walk(struct vctx *v, enum rpb_table t, uint64_t *entries,
			    struct rpb_err *err)
{
	v->tail = HV_PREFIX_LEN + (t == RPB_T_SETS ? 2 : 0);
	v->keylen = v->tail + 16;
	enum rpb_status st = RPB_OK;
	for (bool first = true; !st; first = false) {
		st = next_chunk(v, t, first, err);
		if (!st && v->bad_key)
			st = rpb_err_set(err, RPB_CORRUPT, 0, NULL,
					 "an index key of corpus %s has the wrong length", v->c.prefix);
		if (!st && t == RPB_T_DATESTAMPS)
			st = check_records(v, err);
		else if (!st)
			check_sets(v, entries);
		if (!st)
			st = v->b->commit(v->s, err);
		if (st)
			v->b->rollback(v->s);
		if (v->len < CHUNK)
			break;
	}
	return st;
}

enum rpb_status harvest_verify(const struct rpb_backend *b, struct rpb_store *store,
			       const struct rpb_job *job, const struct rpb_ledger *ledger,
			       struct rpb_verify_result *res, struct rpb_err *err)
{
	memset(res, 0, sizeof *res);
	if (b->flags & RPB_BF_STORES_NOTHING)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "the null backend keeps nothing; verify needs a real backend");
	const struct rpb_harvest_opts *o = hv_opts(job);
	struct vctx *v = calloc(1, sizeof *v);
	if (!v)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for verify");
	v->b = b;
	v->res = res;
	enum rpb_status st = RPB_OK;
	if (!hv_corpus_init(&v->c, o, job->run.seed))
		st = rpb_err_set(err, RPB_INVALID, 0, NULL, "broken record template");
	v->wantcap = HV_HDR + hv_payload_max(&v->c);
	v->want = malloc(v->wantcap);
	v->seen = calloc(o->records / 8 + 1, 1);
	if (!st && (!v->want || !v->seen))
		st = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for verify");
	if (!st)
		st = replay(v, job, ledger, err);
	if (!st)
		st = b->session_open(store, &v->s, err);
	uint64_t set_entries = 0, want_entries = 0;
	if (!st)
		st = walk(v, RPB_T_DATESTAMPS, NULL, err);
	if (!st)
		st = walk(v, RPB_T_SETS, &set_entries, err);
	for (uint64_t n = 0; !st && n < o->records; n++) {
		struct hv_rec r;
		struct rpb_rng rng;
		hv_rec_attrs(&v->c, n, &r, &rng);
		want_entries += r.nsets;
		if (!(v->seen[n >> 3] & (1u << (n & 7)))) {
			res->missing++;
			problem(v, "oai:rpbench:%" PRIu64 " is not in the datestamp index", n);
		}
	}
	for (uint64_t c = 0; !st && c < v->rp.jmax; c++) {
		if (!bit(v->rp.created, c))
			continue;
		struct hv_rec r;
		struct rpb_rng rng;
		hv_rec_attrs(&v->c, o->records + c, &r, &rng);
		want_entries += r.nsets;
		if (!bit(v->rp.cseen, c)) {
			res->missing++;
			problem(v, "oai:rpbench:%" PRIu64 ", created by a writer, is not in the "
				   "datestamp index", o->records + c);
		}
	}
	if (!st && set_entries < want_entries) {
		res->missing += want_entries - set_entries;
		problem(v, "the set index lacks %" PRIu64 " of its %" PRIu64 " entries",
			want_entries - set_entries, want_entries);
	}
	b->session_close(v->s);
	rpb_buf_free(&v->got);
	free(v->want);
	free(v->seen);
	free(v->rp.upd);
	free(v->rp.created);
	free(v->rp.doubt_rec);
	free(v->rp.doubt_new);
	free(v->rp.cseen);
	free(v);
	return st;
}
