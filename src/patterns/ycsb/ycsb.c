/* The ycsb pattern: YCSB's CoreWorkload through the store interface
 * (docs/workloads.md, "ycsb").
 *
 * load (phase = load): operation i of thread w inserts key number
 * ycsb_thread_first(w) + i, so the threads share insertstart..+insertcount
 * as YCSB's do. run: each operation draws its kind from the operation
 * chooser and its key from the key chooser, then runs as one transaction:
 * read (get), update (put of every field, or get + put of the record with
 * one field replaced), insert (put of the next number of the acknowledged
 * insert counter), scan (get of the start key, then the next records in key
 * order), read-modify-write (get, then put, in one write transaction, timed
 * as READ, UPDATE and READ-MODIFY-WRITE as YCSB times it). Every operation
 * is measured twice: as an rpbench sample of its label (rpb_sample), and as
 * YCSB's DBWrapper measures it (ycsb_meas.h), with dataintegrity's check
 * after a read as YCSB's VERIFY. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "paths.h"
#include "runner.h"
#include "ledger.h"
#include "ycsb.h"
#include "ycsb_run.h"

#define RAND_BYTES (64u << 10)

static const struct rpb_ycsb_opts *opts_of(const struct rpb_worker *w)
{
	return ycsb_opts(w->rn->job);
}

static bool stores_nothing(const struct rpb_runner *rn)
{
	return (rn->backend->flags & RPB_BF_STORES_NOTHING) != 0;
}

/* ---- set-up ---- */

/* A run needs the records of a load: the first and last of the range. */
static enum rpb_status check_loaded(struct rpb_runner *rn, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = ycsb_opts(rn->job);
	const struct rpb_backend *b = rn->backend;
	struct rpb_session *s = NULL;
	struct rpb_buf buf = {0};
	char key[64];
	enum rpb_status st = b->session_open(rn->store, &s, err);
	if (!st)
		st = b->begin(s, RPB_TXN_READ, err);
	uint64_t ends[2] = {o->insertstart, o->insertstart + o->inserts - 1};
	for (int i = 0; i < 2 && !st; i++) {
		size_t kl = ycsb_key(key, sizeof key, o, ends[i]);
		st = b->get(s, YCSB_TABLE, rpb_slice_make(key, kl), &buf, err);
		if (st == RPB_NOT_FOUND)
			st = rpb_err_set(err, RPB_INVALID, 0, NULL,
					 "the store holds no YCSB records (%s, key number %" PRIu64
					 ", is missing); run `load` with the same workload and --dir/--schema "
					 "first", key, ends[i]);
	}
	if (s)
		b->rollback(s);
	b->session_close(s);
	rpb_buf_free(&buf);
	return st;
}

/* The YCSB measurements a worker's operations make in the timed loop (any
 * other, a failure's name, gets its storage on the error path). */
static void needed(const struct rpb_ycsb_opts *o, const struct ycsb_mconf *c, bool need[YM_COUNT])
{
	memset(need, 0, YM_COUNT * sizeof *need);
	if (o->phase == YCSB_LOAD) {
		need[YM_INSERT] = true;
		return;
	}
	for (int k = 0; k < YCSB_NOPS; k++)
		need[k] = o->proportion[k] > 0;
	if (need[YM_RMW])
		need[YM_READ] = need[YM_UPDATE] = true;
	need[YM_VERIFY] = o->dataintegrity && need[YM_READ];
	need[YM_SCANREC] = c->master && need[YM_SCAN];
}

static enum rpb_status ycsb_prepare(struct rpb_runner *rn, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = ycsb_opts(rn->job);
	char msg[1024] = "out of memory for the insert counter";
	if (ycsb_output_check(rn, msg, sizeof msg) != 0)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "%s", msg);
	if (o->phase == YCSB_RUN && !stores_nothing(rn)) {
		enum rpb_status st = check_loaded(rn, err);
		if (st)
			return st;
	}
	struct ycsb_shared *sh = calloc(1, sizeof *sh);
	if (sh)
		sh->wm = calloc(rn->nworkers, sizeof *sh->wm);
	if (!sh || !sh->wm || ycsb_status_init(&sh->status)) {
		if (sh)
			free(sh->wm);
		free(sh);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the status lines");
	}
	ycsb_mconf_of(rn, &sh->mc);
	sh->nw = rn->nworkers;
	for (unsigned t = 0; t < rn->nworkers; t++)
		sh->wm[t] = &((struct ycsb_worker *)rn->workers[t].state)->meas;
	/* A run's inserts keep their counter in the results directory, where
	 * verify finds it also after the process was killed. */
	int rc = o->phase == YCSB_RUN && o->proportion[YCSB_INSERT] > 0 && rn->out_dir
			 ? ycsb_ack_init_file(&sh->ack, o->records, rn->out_dir, msg, sizeof msg)
			 : ycsb_ack_init(&sh->ack, o->records);
	if (rc != 0) {
		ycsb_status_free(&sh->status);
		free(sh->wm);
		free(sh);
		return rpb_err_set(err, RPB_IO, 0, NULL, "%s", msg);
	}
	/* The counter is part of the ledger: durable at its durable points. */
	if (sh->ack.mapped && rn->live) {
		rpb_live_ledger_track_map(rn->live, sh->ack.h, sh->ack.len);
		rpb_live_ledger_track_fd(rn->live, sh->ack.given_up_fd);
	}
	rn->pattern_state = sh;
	return RPB_OK;
}

static void ycsb_fini(struct rpb_runner *rn)
{
	struct ycsb_shared *sh = rn->pattern_state;
	if (!sh)
		return;
	ycsb_ack_free(&sh->ack);
	ycsb_status_free(&sh->status);
	ycsb_result_free(&sh->res);
	free(sh->wm);
	free(sh);
	rn->pattern_state = NULL;
}

/* The samples a worker's raw or timeseries measurements keep: up to 8
 * per operation (READ-MODIFY-WRITE's READ, UPDATE, itself and VERIFY, in
 * both maps), reserved and filled as they come; a run without an end
 * reserves 2^28. */
static uint64_t points_cap(const struct rpb_worker *w)
{
	uint64_t ops = ycsb_thread_ops(w->rn->job, w->id), lim = w->rn->job->run.ops;
	if (lim && lim < ops)
		ops = lim;
	const uint64_t most = UINT64_C(1) << 28;
	return ops >= most / 8 ? most : ops * 8 + 64;
}

static enum rpb_status ycsb_worker_init(struct rpb_worker *w, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = opts_of(w);
	struct ycsb_worker *yw = calloc(1, sizeof *yw);
	if (!yw)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the ycsb worker");
	w->state = yw;
	size_t rec = ycsb_record_max(o);
	yw->randsize = o->values == YCSB_VALUES_WINDOWS
			       ? (RAND_BYTES > 2 * o->maxfieldlength ? RAND_BYTES : 2 * (size_t)o->maxfieldlength)
			       : 0;
	yw->rec = malloc(rec);
	yw->rand = yw->randsize ? malloc(yw->randsize) : NULL;
	yw->scratch = malloc((size_t)o->fieldlength);
	if (!yw->rec || (yw->randsize && !yw->rand) || !yw->scratch ||
	    rpb_buf_reserve(&yw->got, rec, err))
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the ycsb records");
	struct ycsb_mconf c;
	bool need[YM_COUNT];
	ycsb_mconf_of(w->rn, &c);
	needed(o, &c, need);
	if (ycsb_wmeas_init(&yw->meas, &c, need, ycsb_mtype_points(c.type) ? points_cap(w) : 0))
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for YCSB's measurements");
	/* The shared insert counter comes with prepare, after the workers'
	 * init: the first operation binds it (ycsb_op). */
	ycsb_gen_init(&yw->gen, o, NULL, w->rn->job->run.seed, w->id);
	/* values = windows: field values are windows of one printable buffer. */
	for (size_t i = 0; i < yw->randsize; i++)
		yw->rand[i] = (unsigned char)(' ' + rpb_rng_range(&yw->gen.rng, 0, 95));
	yw->load_first = ycsb_thread_first(o, w->id);
	return RPB_OK;
}

static void give_up_pending(struct ycsb_shared *sh, struct ycsb_worker *yw)
{
	if (!yw->pending)
		return;
	/* YCSB acknowledges an insert number also when the insert failed. */
	if (yw->nfailed < YCSB_FAILED_MAX)
		yw->failed[yw->nfailed++] = yw->pending_key;
	else
		yw->failed_overflow = true;
	ycsb_ack_given_up(&sh->ack, yw->pending_key);
	ycsb_ack_done(&sh->ack, yw->pending_key);
	yw->pending = false;
}

static void ycsb_worker_fini(struct rpb_worker *w)
{
	struct ycsb_worker *yw = w->state;
	if (!yw)
		return;
	if (w->rn->pattern_state)
		give_up_pending(w->rn->pattern_state, yw);
	rpb_buf_free(&yw->got);
	free(yw->rec);
	free(yw->rand);
	free(yw->scratch);
	/* The measurements stay until the results are written (ycsb_free_state). */
}

/* ---- records ---- */

static void set_key(struct ycsb_worker *yw, const struct rpb_ycsb_opts *o, uint64_t k)
{
	yw->keylen = ycsb_key(yw->key, sizeof yw->key, o, k);
}

/* Encodes field f with a new value of len bytes at out: YCSB's
 * deterministic value with dataintegrity, else random bytes (values).
 * Returns its size. */
static size_t new_field(struct ycsb_worker *yw, const struct rpb_ycsb_opts *o, unsigned f,
			unsigned char *out)
{
	char name[YCSB_NAME_MAX];
	size_t nl = ycsb_field_name(name, sizeof name, o, f);
	size_t len = (size_t)ycsb_next_fieldlen(&yw->gen);
	if (o->dataintegrity) {
		ycsb_integrity_value(yw->scratch, len, yw->key, yw->keylen, name, nl);
		return ycsb_encode_field(out, name, nl, yw->scratch, len);
	}
	if (o->values == YCSB_VALUES_WINDOWS)
		return ycsb_encode_field(out, name, nl,
					 yw->rand + rpb_rng_range(&yw->gen.rng, 0, yw->randsize - len + 1),
					 len);
	/* YCSB's RandomByteIterator, drawn straight into the record. */
	size_t head = ycsb_encode_field(out, name, nl, NULL, 0);
	out[1 + nl] = (unsigned char)len;
	out[2 + nl] = (unsigned char)(len >> 8);
	out[3 + nl] = (unsigned char)(len >> 16);
	out[4 + nl] = (unsigned char)(len >> 24);
	ycsb_random_bytes(&yw->gen.rng, out + head, len);
	return head + len;
}

/* A whole new record of the current key in yw->rec; returns its size. */
static size_t build_record(struct ycsb_worker *yw, const struct rpb_ycsb_opts *o)
{
	size_t at = 0;
	for (unsigned f = 0; f < o->fieldcount; f++)
		at += new_field(yw, o, f, yw->rec + at);
	return at;
}

/* The record read into yw->got with field f replaced, in yw->rec. */
static enum rpb_status replace_field(struct ycsb_worker *yw, const struct rpb_ycsb_opts *o,
				     unsigned f, size_t *size, struct rpb_err *err)
{
	struct ycsb_field fl;
	size_t pos = 0, at = 0;
	uint64_t i = 0;
	int rc;
	/* The new record must fit yw->rec: names and lengths within the options. */
	while ((rc = ycsb_field_next(yw->got.data, yw->got.len, &pos, &fl)) > 0 && i < o->fieldcount &&
	       fl.namelen < YCSB_NAME_MAX && fl.len <= o->maxfieldlength) {
		at += i == f ? new_field(yw, o, f, yw->rec + at)
			     : ycsb_encode_field(yw->rec + at, (const char *)fl.name, fl.namelen, fl.val,
						 fl.len);
		i++;
	}
	if (rc != 0 || i != o->fieldcount)
		return rpb_err_set(err, RPB_CORRUPT, 0, NULL, "%s: the stored value is not a record "
				   "of %" PRIu64 " fields of at most %" PRIu64 " bytes", yw->key,
				   o->fieldcount, o->maxfieldlength);
	*size = at;
	return RPB_OK;
}

/* Whether what a read returned is a record of fieldcount fields. */
static enum rpb_status check_shape(struct ycsb_worker *yw, const struct rpb_ycsb_opts *o,
				   struct rpb_err *err)
{
	if (ycsb_count_fields(yw->got.data, yw->got.len) == (int64_t)o->fieldcount)
		return RPB_OK;
	return rpb_err_set(err, RPB_CORRUPT, 0, NULL, "%s: the stored value is not a record of %" PRIu64
			   " fields", yw->key, o->fieldcount);
}

/* dataintegrity: every field the read returns (all, or field f) against
 * the value derived from key and field; false at the first that differs. */
static bool values_intact(struct ycsb_worker *yw, const struct rpb_ycsb_opts *o, int f)
{
	struct ycsb_field fl;
	size_t pos = 0;
	for (int i = 0; ycsb_field_next(yw->got.data, yw->got.len, &pos, &fl) > 0; i++) {
		if (f >= 0 && f != i)
			continue;
		if (fl.len != o->fieldlength) /* scratch holds fieldlength bytes */
			return false;
		ycsb_integrity_value(yw->scratch, fl.len, yw->key, yw->keylen, (const char *)fl.name,
				     fl.namelen);
		if (memcmp(yw->scratch, fl.val, fl.len) != 0)
			return false;
	}
	return true;
}

/* ---- YCSB's view of an operation ---- */

static enum ycsb_st ycsb_status_of(enum rpb_status st)
{
	return st == RPB_OK ? YS_OK : st == RPB_NOT_FOUND ? YS_NOT_FOUND : YS_ERROR;
}

static struct ycsb_mconf *mconf(struct rpb_worker *w)
{
	return &((struct ycsb_shared *)w->rn->pattern_state)->mc;
}

/* One DBWrapper call as YCSB measures it (after the warm-up). */
static void ymeasure(struct rpb_worker *w, struct ycsb_worker *yw, enum ycsb_mname op,
		     enum rpb_status st, uint64_t start, uint64_t end)
{
	if (w->warm)
		ycsb_meas_op(&yw->meas, mconf(w), op, ycsb_status_of(st), rpb_intended_start(w, start),
			     start, end);
}

/* CoreWorkload.verifyRow after a read of field f (-1: all): VERIFY's
 * latency and status (OK, UNEXPECTED_STATE, or ERROR for a read that
 * returned nothing). A mismatch fails the operation as corrupt. */
static enum rpb_status verify_row(struct rpb_worker *w, struct ycsb_worker *yw, int f,
				  enum rpb_status st, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = opts_of(w);
	if (!o->dataintegrity || stores_nothing(w->rn))
		return st;
	uint64_t t0 = rpb_now_ns();
	enum ycsb_st vs = st ? YS_ERROR : values_intact(yw, o, f) ? YS_OK : YS_UNEXPECTED_STATE;
	uint64_t t1 = rpb_now_ns();
	if (w->warm) {
		ycsb_meas_value(&yw->meas, mconf(w), YM_VERIFY, (int32_t)((t1 - t0) / 1000), t1);
		ycsb_meas_status(&yw->meas, mconf(w), YM_VERIFY, vs, t1);
	}
	if (vs == YS_UNEXPECTED_STATE)
		return rpb_err_set(err, RPB_CORRUPT, 0, NULL, "%s: a field is not the value derived from "
				   "key and field (dataintegrity)", yw->key);
	return st;
}

/* ---- operations ---- */

static enum rpb_status get_record(struct rpb_worker *w, struct rpb_session *s,
				  struct ycsb_worker *yw, struct rpb_err *err)
{
	enum rpb_status st = w->rn->backend->get(s, YCSB_TABLE, rpb_slice_make(yw->key, yw->keylen),
						 &yw->got, err);
	if (st == RPB_NOT_FOUND) {
		if (stores_nothing(w->rn))
			return RPB_NOT_FOUND; /* the null backend: nothing to check */
		return rpb_err_set(err, RPB_NOT_FOUND, 0, NULL, "%s: not found, though its insert "
				   "was acknowledged", yw->key);
	}
	return st ? st : check_shape(yw, opts_of(w), err);
}

static enum rpb_status put_record(struct rpb_worker *w, struct rpb_session *s,
				  struct ycsb_worker *yw, size_t size, struct rpb_err *err)
{
	w->op_bytes = yw->keylen + size;
	return w->rn->backend->put(s, YCSB_TABLE, rpb_slice_make(yw->key, yw->keylen),
				   rpb_slice_make(yw->rec, size), err);
}

/* Ends a transaction: commit after st == OK, else roll back; a write whose
 * commit failed is in doubt. */
static enum rpb_status end_txn(struct rpb_worker *w, struct rpb_session *s, enum rpb_status st,
			       bool writes, struct rpb_err *err)
{
	if (!st) {
		const struct ycsb_worker *yw = w->state;
		rpb_inject_point(w, yw->cur, false, YCSB_TABLE, rpb_slice_make(yw->key, yw->keylen));
		st = rpb_txn_commit(w, s, err);
		if (st) {
			w->in_doubt = writes;
			rpb_txn_rollback(w, s);
		}
		return st;
	}
	rpb_txn_rollback(w, s);
	return st;
}

static enum rpb_status do_read(struct rpb_worker *w, struct ycsb_worker *yw, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = opts_of(w);
	set_key(yw, o, ycsb_next_keynum(&yw->gen));
	int f = o->readallfields ? -1 : (int)ycsb_next_field(&yw->gen);
	struct rpb_session *s = rpb_next_session(w);
	uint64_t t0 = rpb_now_ns();
	size_t received = 0; /* the record read, key and value, as an insert sends it */
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_READ, err);
	if (!st) {
		st = get_record(w, s, yw, err);
		if (!st)
			received = yw->keylen + yw->got.len;
		if (st == RPB_NOT_FOUND && stores_nothing(w->rn))
			st = RPB_OK;
		st = end_txn(w, s, st, false, err);
	}
	uint64_t t1 = rpb_now_ns();
	ymeasure(w, yw, YM_READ, st, t0, t1);
	st = verify_row(w, yw, f, st, err);
	rpb_sample(w, YCSB_READ, t0, t1, st, st ? 0 : received, st ? err : NULL);
	return st;
}

/* update and read-modify-write: with rmw, the get is timed as READ and the
 * put with the commit as UPDATE, the whole as READ-MODIFY-WRITE; the
 * dataintegrity check between them is VERIFY's and left out of the three,
 * as YCSB checks after the write. */
static enum rpb_status do_update(struct rpb_worker *w, struct ycsb_worker *yw, bool rmw,
				 struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = opts_of(w);
	set_key(yw, o, ycsb_next_keynum(&yw->gen));
	/* YCSB draws the fields a read-modify-write reads, then the one an update writes. */
	int f = !rmw || o->readallfields ? -1 : (int)ycsb_next_field(&yw->gen);
	unsigned wf = o->writeallfields ? 0 : ycsb_next_field(&yw->gen);
	bool needs_read = rmw || !o->writeallfields;
	struct rpb_session *s = rpb_next_session(w);
	uint64_t t0 = rpb_now_ns(), t1 = t0, checked = 0;
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_WRITE, err);
	size_t size = 0;
	if (!st && needs_read) {
		st = get_record(w, s, yw, err);
		t1 = rpb_now_ns();
		bool nothing = st == RPB_NOT_FOUND && stores_nothing(w->rn);
		if (rmw) {
			ymeasure(w, yw, YM_READ, nothing ? RPB_OK : st, t0, t1);
			rpb_sample(w, YCSB_READ, t0, t1, nothing ? RPB_OK : st,
				   st ? 0 : yw->keylen + yw->got.len, st && !nothing ? err : NULL);
			if (!nothing) {
				st = verify_row(w, yw, f, st, err);
				uint64_t t = rpb_now_ns();
				checked = t - t1;
				t1 = t;
			}
		} else if (!st && o->dataintegrity && !values_intact(yw, o, -1)) {
			st = rpb_err_set(err, RPB_CORRUPT, 0, NULL, "%s: a field is not the value derived "
					 "from key and field (dataintegrity)", yw->key);
		}
		if (nothing) { /* the null backend: write a whole record */
			st = RPB_OK;
			size = build_record(yw, o);
		} else if (!st) {
			if (o->writeallfields)
				size = build_record(yw, o);
			else
				st = replace_field(yw, o, wf, &size, err);
		}
	} else if (!st) {
		size = build_record(yw, o);
	}
	bool wrote = !st;
	if (!st)
		st = put_record(w, s, yw, size, err);
	st = end_txn(w, s, st, true, err);
	uint64_t t2 = rpb_now_ns();
	if (!rmw || wrote)
		ymeasure(w, yw, YM_UPDATE, st, t1, t2);
	if (rmw) {
		rpb_sample(w, YCSB_UPDATE, t1, t2, st, w->op_bytes, st ? err : NULL);
		rpb_sample(w, YCSB_RMW, t0, t2, st, w->op_bytes, st ? err : NULL);
		if (w->warm) /* measured without the check, as YCSB measures it */
			ycsb_meas_both(&yw->meas, mconf(w), YM_RMW, rpb_intended_start(w, t0), t0,
				       t2 - checked);
	} else {
		rpb_sample(w, YCSB_UPDATE, t0, t2, st, w->op_bytes, st ? err : NULL);
	}
	return st;
}

static enum rpb_status do_insert(struct rpb_worker *w, struct ycsb_worker *yw, uint64_t k,
				 unsigned label, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = opts_of(w);
	set_key(yw, o, k);
	struct rpb_session *s = rpb_next_session(w);
	rpb_inject_point(w, yw->cur, true, YCSB_TABLE, rpb_slice_make(yw->key, yw->keylen));
	uint64_t t0 = rpb_now_ns();
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_WRITE, err);
	if (!st) {
		size_t size = build_record(yw, o);
		st = put_record(w, s, yw, size, err);
		st = end_txn(w, s, st, true, err);
	}
	uint64_t t1 = rpb_now_ns();
	ymeasure(w, yw, YM_INSERT, st, t0, t1);
	rpb_sample(w, label, t0, t1, st, w->op_bytes, st ? err : NULL);
	return st;
}

static int scan_entry(void *ctx, rpb_slice key, rpb_slice val)
{
	struct ycsb_worker *yw = ctx;
	yw->scanned++;
	yw->scan_bytes += key.len + val.len;
	return 0;
}

static enum rpb_status do_scan(struct rpb_worker *w, struct ycsb_worker *yw, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = opts_of(w);
	set_key(yw, o, ycsb_next_keynum(&yw->gen));
	uint64_t len = ycsb_next_scanlen(&yw->gen);
	if (!o->readallfields)
		(void)ycsb_next_field(&yw->gen); /* YCSB draws the field; the record is read whole */
	struct rpb_session *s = rpb_next_session(w);
	const struct rpb_backend *b = w->rn->backend;
	yw->scanned = yw->scan_bytes = 0;
	uint64_t t0 = rpb_now_ns();
	rpb_slice start = rpb_slice_make(yw->key, yw->keylen);
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_READ, err);
	if (!st) {
		/* The store's scan starts after a key; the start key itself is a get. */
		st = b->get(s, YCSB_TABLE, start, &yw->got, err);
		if (st == RPB_NOT_FOUND)
			st = RPB_OK;
		else if (!st)
			scan_entry(yw, start, rpb_slice_make(yw->got.data, yw->got.len));
		if (!st && len > yw->scanned)
			st = b->scan(s, YCSB_TABLE, &start, NULL, (size_t)(len - yw->scanned), scan_entry,
				     yw, err);
		st = end_txn(w, s, st, false, err);
	}
	uint64_t t1 = rpb_now_ns();
	ymeasure(w, yw, YM_SCAN, st, t0, t1);
	/* master's SCAN-LATENCY-PER-RECORD, which divides by the records the
	 * scan returned (YCSB's thread dies on a scan of none: left out). */
	if (mconf(w)->master && w->warm && yw->scanned)
		ycsb_meas_value(&yw->meas, mconf(w), YM_SCANREC,
				(int32_t)((t1 - t0) / 1000 / yw->scanned), t1);
	rpb_sample(w, YCSB_SCAN, t0, t1, st, st ? 0 : yw->scan_bytes, st ? err : NULL);
	return st;
}

static enum rpb_status ycsb_op(struct rpb_worker *w, uint64_t i, struct rpb_err *err)
{
	struct ycsb_worker *yw = w->state;
	struct ycsb_shared *sh = w->rn->pattern_state;
	const struct rpb_ycsb_opts *o = opts_of(w);
	yw->gen.ack = &sh->ack;
	/* A retry of operation i draws what its first attempt drew. */
	if (yw->begun && yw->cur == i) {
		yw->gen.rng = yw->saved;
	} else {
		give_up_pending(sh, yw);
		yw->saved = yw->gen.rng;
		yw->cur = i;
		yw->begun = true;
	}
	enum rpb_status st;
	if (o->phase == YCSB_LOAD) {
		st = do_insert(w, yw, yw->load_first + i, YCSB_INSERT, err);
	} else {
		switch (ycsb_op_kind(yw->gen.cum, w->rn->job->run.seed, w->id, i)) {
		case YCSB_READ:
			st = do_read(w, yw, err);
			break;
		case YCSB_UPDATE:
			st = do_update(w, yw, false, err);
			break;
		case YCSB_RMW:
			st = do_update(w, yw, true, err);
			break;
		case YCSB_SCAN:
			st = do_scan(w, yw, err);
			break;
		default:
			if (!yw->pending) {
				yw->pending_key = ycsb_ack_take(&sh->ack);
				yw->pending = true;
			}
			st = do_insert(w, yw, yw->pending_key, YCSB_INSERT, err);
			if (!st) {
				yw->pending = false;
				if (!ycsb_ack_done(&sh->ack, yw->pending_key))
					st = rpb_err_set(err, RPB_INVALID, 0, NULL, "more than %u inserts "
							 "unacknowledged at once (YCSB's window); use fewer "
							 "threads", YCSB_ACK_WINDOW);
			}
		}
	}
	/* YCSB's opsdone: every operation of the run, failed or not. */
	atomic_store_explicit(&yw->done, i + 1, memory_order_relaxed);
	return st;
}

/* ---- results ---- */

static void ycsb_report_json(struct rpb_runner *rn, json_t *obj)
{
	const struct rpb_ycsb_opts *o = ycsb_opts(rn->job);
	struct ycsb_shared *sh = rn->pattern_state;
	json_object_set_new(obj, "phase", json_string(o->phase == YCSB_LOAD ? "load" : "run"));
	json_object_set_new(obj, "table", json_string(o->table));
	json_object_set_new(obj, "recordcount", json_integer((json_int_t)o->recordcount));
	if (o->phase != YCSB_RUN || !sh)
		return;
	json_t *failed = json_array();
	bool overflow = false;
	for (unsigned t = 0; t < rn->nworkers; t++) {
		struct ycsb_worker *yw = rn->workers[t].state;
		if (!yw)
			continue;
		give_up_pending(sh, yw);
		overflow |= yw->failed_overflow;
		for (unsigned k = 0; k < yw->nfailed; k++)
			json_array_append_new(failed, json_integer((json_int_t)yw->failed[k]));
	}
	uint64_t next = atomic_load(&sh->ack.h->next);
	json_object_set_new(obj, "insert_next", json_integer((json_int_t)next));
	json_object_set_new(obj, "inserts_failed", failed);
	json_object_set_new(obj, "inserts_failed_complete", json_boolean(!overflow));
}

static const char *const ycsb_files[] = {"ycsb.txt", YCSB_ACK_FILE, YCSB_GIVEN_UP_FILE, NULL};
/* Updates and inserts carry the record written, READ-MODIFY-WRITE the one
 * it writes back; READ and SCAN receive the records they return (key and value). */
static const enum rpb_bytes_dir ycsb_label_dirs[YCSB_NOPS] = {
	[YCSB_READ] = RPB_BYTES_RECEIVED, [YCSB_UPDATE] = RPB_BYTES_SENT,
	[YCSB_INSERT] = RPB_BYTES_SENT,	  [YCSB_SCAN] = RPB_BYTES_RECEIVED,
	[YCSB_RMW] = RPB_BYTES_SENT,
};

static uint64_t thread_ops(const struct rpb_job *job, unsigned w)
{
	return ycsb_thread_ops(job, w);
}

/* The measurements outlive the workers' loops: the results are written
 * from them after worker_fini. */
static void ycsb_free_state(struct rpb_runner *rn)
{
	for (unsigned t = 0; rn->workers && t < rn->nworkers; t++) {
		struct ycsb_worker *yw = rn->workers[t].state;
		if (!yw)
			continue;
		ycsb_wmeas_free(&yw->meas);
		free(yw);
		rn->workers[t].state = NULL;
	}
	ycsb_fini(rn);
}

const struct rpb_pattern rpb_pattern_ycsb = {
	.name = "ycsb",
	.noun = "operations",
	.labels = ycsb_op_names,
	.nlabels = YCSB_NOPS,
	.label_dirs = ycsb_label_dirs,
	.options = ycsb_options,
	.config_size = sizeof(struct rpb_ycsb_opts),
	.finish = ycsb_finish,
	.files = ycsb_files,
	.verify_stale = true,
	.prepare = ycsb_prepare,
	.worker_init = ycsb_worker_init,
	.worker_fini = ycsb_worker_fini,
	.op = ycsb_op,
	.op_label = ycsb_op_label,
	.progress = ycsb_progress,
	.report_json = ycsb_report_json,
	.write_report = ycsb_write_report,
	.fini = ycsb_free_state,
	.verify = ycsb_verify,
	.thread_ops = thread_ops,
	.load_foreign = ycsb_load_properties,
	.property = ycsb_property,
	.stdout_output = true,
	.alias = ycsb_alias,
	.latency_auto = RPB_LAT_OP, /* YCSB's measurement.interval = op */
	.loads_first = true,
	.load_phase = "phase=load",
};
