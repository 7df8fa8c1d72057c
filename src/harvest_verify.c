/* Verify for the harvest pattern: the corpus in the store is exactly what
 * the seed implies. The datestamp index is scanned in full, CHUNK entries
 * per read transaction; each entry must be a record of the corpus with
 * that datestamp, seen once, and its record must equal the regenerated
 * one byte for byte. The set index must hold exactly each record's sets.
 * A bitmap of records/8 bytes finds the missing records. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harvest.h"
#include "verify.h"

#define CHUNK 1000

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
};

__attribute__((format(printf, 2, 3)))
static void problem(struct vctx *v, const char *fmt, ...)
{
	if (v->res->first_problem[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->res->first_problem, sizeof v->res->first_problem, fmt, ap);
	va_end(ap);
}

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

static enum rpb_status check_records(struct vctx *v, struct rpb_err *err)
{
	const struct rpb_harvest_opts *o = v->c.o;
	enum rpb_status st = RPB_OK;
	unsigned char key[HV_REC_KEY];
	for (unsigned k = 0; !st && k < v->len; k++) {
		uint64_t n = v->n[k];
		struct hv_rec r;
		if (n >= o->records) {
			v->res->unexpected++;
			problem(v, "the datestamp index holds oai:rpbench:%" PRIu64 ", beyond the corpus's "
				   "%" PRIu64 " records", n, o->records);
			continue;
		}
		size_t wlen = hv_record(&v->c, n, &r, v->want, v->wantcap);
		if (r.ds != v->ds[k]) {
			v->res->corrupt++;
			problem(v, "oai:rpbench:%" PRIu64 " is indexed at datestamp %" PRId64
				   ", the seed says %" PRId64, n, v->ds[k], r.ds);
			continue;
		}
		if (v->seen[n >> 3] & (1u << (n & 7))) {
			v->res->corrupt++;
			problem(v, "oai:rpbench:%" PRIu64 " is in the datestamp index twice", n);
			continue;
		}
		v->seen[n >> 3] |= (unsigned char)(1u << (n & 7));
		v->res->checked++;
		st = v->b->get(v->s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, hv_key_rec(&v->c, key, n)),
			       &v->got, err);
		if (st == RPB_NOT_FOUND) {
			st = RPB_OK;
			v->res->missing++;
			problem(v, "oai:rpbench:%" PRIu64 " is indexed but its record is missing", n);
		} else if (!st && (v->got.len != wlen || memcmp(v->got.data, v->want, wlen) != 0)) {
			v->res->corrupt++;
			problem(v, "oai:rpbench:%" PRIu64 ": the record differs from what the seed makes "
				   "(%zu bytes stored, %zu expected)", n, v->got.len, wlen);
		}
	}
	return st;
}

static void check_sets(struct vctx *v, uint64_t *entries)
{
	const struct rpb_harvest_opts *o = v->c.o;
	for (unsigned k = 0; k < v->len; k++) {
		struct hv_rec r;
		struct rpb_rng rng;
		if (v->n[k] < o->records) {
			hv_rec_attrs(&v->c, v->n[k], &r, &rng);
			if (r.ds == v->ds[k] && hv_rec_matches(&r, r.ds, r.ds, v->set[k])) {
				(*entries)++;
				continue;
			}
		}
		v->res->unexpected++;
		problem(v, "the set index holds set%04u for oai:rpbench:%" PRIu64
			   " at datestamp %" PRId64 ", which the seed does not", v->set[k], v->n[k],
			v->ds[k]);
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
	(void)ledger;
	memset(res, 0, sizeof *res);
	if (b->flags & RPB_BF_STORES_NOTHING)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "the null backend keeps nothing; verify needs a real backend");
	const struct rpb_harvest_opts *o = &job->harvest;
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
	if (!st && set_entries < want_entries) {
		res->missing += want_entries - set_entries;
		problem(v, "the set index lacks %" PRIu64 " of its %" PRIu64 " entries",
			want_entries - set_entries, want_entries);
	}
	b->session_close(v->s);
	rpb_buf_free(&v->got);
	free(v->want);
	free(v->seen);
	free(v);
	return st;
}
