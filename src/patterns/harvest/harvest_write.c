/* The harvest's writers (writers = N): records created and updated while
 * the harvesters page, as in FOLIO's runs where the inventory kept changing
 * during a harvest. One record per write transaction, its datestamp and set
 * index entries maintained in the same transaction: an update reads the
 * record, deletes its index entries at the old datestamp and puts them at
 * the new one. Everything an operation writes follows from (seed, writer,
 * op index) (harvest.h), so verify replays the acknowledged ones. */
#include <string.h>

#include "clock.h"
#include "harvest_run.h"

#define HV_WRITE_STREAM UINT64_C(0x77726974)   /* "writ": which record, create or update */
#define HV_CONTENT_STREAM UINT64_C(0x636f6e74) /* "cont": the new content */

int64_t hv_write_base(const struct rpb_harvest_opts *o)
{
	return RPB_HV_EPOCH + (int64_t)o->period * 86400;
}

int64_t hv_harvest_until(const struct rpb_harvest_opts *o)
{
	int64_t last = hv_write_base(o) - 1;
	return o->writers && o->until_s > last ? last : o->until_s;
}

void hv_write_op(const struct hv_corpus *c, unsigned k, uint64_t i, struct hv_write *op)
{
	const struct rpb_harvest_opts *o = c->o;
	uint64_t writers = o->writers ? o->writers : 1;
	uint64_t j = i * writers + k;
	struct rpb_rng rng;
	rpb_rng_seed(&rng, c->seed, HV_WRITE_STREAM, j);
	/* The corpus records writer k owns: k, k + writers, ... */
	uint64_t owned = k < o->records ? (o->records - k + writers - 1) / writers : 0;
	op->create = rpb_rng_range(&rng, 0, 100) < HV_CREATE_PCT || owned == 0;
	op->n = op->create ? o->records + j : k + writers * rpb_rng_range(&rng, 0, owned);
	op->ds = hv_write_base(o) + (int64_t)j;
}

size_t hv_write_record(const struct hv_corpus *c, const struct hv_write *op, struct hv_rec *r,
		       unsigned char *buf, size_t cap)
{
	struct rpb_rng rng;
	hv_rec_attrs(c, op->n, r, &rng);
	/* Same sets; a live record at the new datestamp with content of its own. */
	rpb_rng_seed(&rng, c->seed, HV_CONTENT_STREAM, (uint64_t)op->ds);
	r->ds = op->ds;
	if (r->deleted)
		r->size = c->o->size_median;
	r->deleted = false;
	hv_put_header(buf, r);
	return HV_HDR + hv_payload(c, r, &rng, buf + HV_HDR, cap - HV_HDR);
}

static enum rpb_status del_ok(enum rpb_status st)
{
	return st == RPB_NOT_FOUND ? RPB_OK : st;
}

/* Moves record n's index entries from its stored datestamp to op->ds. */
static enum rpb_status unindex_old(struct hv_worker *hw, const struct rpb_backend *b,
				   struct rpb_session *s, const struct hv_write *op,
				   struct rpb_err *err)
{
	const struct hv_corpus *c = &hw->corpus;
	unsigned char key[HV_SET_KEY];
	struct hv_rec old;
	enum rpb_status st = b->get(s, RPB_T_DESCRIPTIONS,
				    rpb_slice_make(key, hv_key_rec(c, key, op->n)), &hw->rec, err);
	if (st == RPB_NOT_FOUND)
		return rpb_err_set(err, RPB_CORRUPT, 0, NULL,
				   "oai:rpbench:%llu, to be updated, is missing; reload the corpus "
				   "(reuse = off)", (unsigned long long)op->n);
	if (!st && !hv_record_header(hw->rec.data, hw->rec.len, &old))
		return rpb_err_set(err, RPB_CORRUPT, 0, NULL,
				   "oai:rpbench:%llu has a malformed header; reload the corpus "
				   "(reuse = off)", (unsigned long long)op->n);
	/* The same datestamp: a retry of an operation that did commit. */
	if (st || old.ds == op->ds)
		return st;
	st = del_ok(b->del(s, RPB_T_DATESTAMPS, rpb_slice_make(key, hv_key_ds(c, key, old.ds, op->n)),
			   err));
	for (unsigned k = 0; !st && k < old.nsets; k++)
		st = del_ok(b->del(s, RPB_T_SETS,
				   rpb_slice_make(key, hv_key_set(c, key, old.set[k], old.ds, op->n)),
				   err));
	return st;
}

static enum rpb_status write_txn(struct rpb_worker *w, struct hv_worker *hw,
				 const struct hv_write *op, size_t *len, struct rpb_err *err)
{
	const struct rpb_backend *b = w->rn->backend;
	const struct hv_corpus *c = &hw->corpus;
	struct rpb_session *s = rpb_next_session(w);
	unsigned char key[HV_SET_KEY];
	struct hv_rec r;
	*len = hv_write_record(c, op, &r, hw->resp.data, hw->resp.cap);
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_WRITE, err);
	if (!st && !op->create && !(b->flags & RPB_BF_STORES_NOTHING))
		st = unindex_old(hw, b, s, op, err);
	if (!st)
		st = b->put(s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, hv_key_rec(c, key, op->n)),
			    rpb_slice_make(hw->resp.data, *len), err);
	if (!st)
		st = b->put(s, RPB_T_DATESTAMPS, rpb_slice_make(key, hv_key_ds(c, key, op->ds, op->n)),
			    rpb_slice_make("", 0), err);
	for (unsigned k = 0; !st && k < r.nsets; k++)
		st = b->put(s, RPB_T_SETS,
			    rpb_slice_make(key, hv_key_set(c, key, r.set[k], op->ds, op->n)),
			    rpb_slice_make("", 0), err);
	if (!st) {
		st = rpb_txn_commit(w, s, err);
		w->in_doubt = st != RPB_OK;
	} else {
		rpb_txn_rollback(w, s);
	}
	return st;
}

enum rpb_status hv_write(struct rpb_worker *w, uint64_t i, struct rpb_err *err)
{
	struct hv_worker *hw = w->state;
	struct rpb_runner *rn = w->rn;
	const struct rpb_harvest_opts *o = hv_opts(rn->job);
	if (o->writer_rate > 0) {
		/* Paced before the sample: the wait is no part of the operation. */
		double gap = 1e9 / o->writer_rate;
		uint64_t at = rn->t_start + (uint64_t)(gap * ((double)i + (double)hw->wk / (double)o->writers));
		if (at > rpb_now_ns())
			rpb_sleep_until(at);
	}
	struct hv_write op;
	hv_write_op(&hw->corpus, hw->wk, i, &op);
	size_t len = 0;
	uint64_t t0 = rpb_now_ns();
	enum rpb_status st = write_txn(w, hw, &op, &len, err);
	rpb_sample(w, op.create ? HV_L_CREATE : HV_L_UPDATE, t0, rpb_now_ns(), st, st ? 0 : len,
		   st ? err : NULL);
	if (st)
		return st;
	w->op_bytes = len;
	struct hv_shared *sh = rn->pattern_state;
	if (op.create)
		sh->res[w->id].creates++;
	else
		sh->res[w->id].updates++;
	return RPB_OK;
}
