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
 * as READ, UPDATE and READ-MODIFY-WRITE as YCSB times it). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "paths.h"
#include "runner.h"
#include "ledger.h"
#include "ycsb.h"
#include "ycsb_status.h"

#define RAND_BYTES (64u << 10)
#define FAILED_MAX 64

struct ycsb_shared {
	struct ycsb_ack ack;
	struct ycsb_status status;
};

struct ycsb_worker {
	struct ycsb_gen gen;
	struct rpb_rng saved;       /* the generator state operation cur began with */
	uint64_t cur;
	bool begun;
	bool pending;               /* an insert number taken, not yet given up or done */
	uint64_t pending_key;
	uint64_t load_first;
	struct rpb_buf got;
	unsigned char *rec, *rand, *scratch;
	size_t randsize;
	char key[64];
	size_t keylen;
	uint64_t scanned, scan_bytes;
	uint64_t failed[FAILED_MAX]; /* insert numbers given up */
	unsigned nfailed;
	bool failed_overflow;
};

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

static enum rpb_status ycsb_prepare(struct rpb_runner *rn, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = ycsb_opts(rn->job);
	if (o->phase == YCSB_RUN && !stores_nothing(rn)) {
		enum rpb_status st = check_loaded(rn, err);
		if (st)
			return st;
	}
	struct ycsb_shared *sh = calloc(1, sizeof *sh);
	if (!sh || ycsb_status_init(&sh->status)) {
		free(sh);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the status lines");
	}
	/* A run's inserts keep their counter in the results directory, where
	 * verify finds it also after the process was killed. */
	char msg[512] = "out of memory for the insert counter";
	int rc = o->phase == YCSB_RUN && o->proportion[YCSB_INSERT] > 0 && rn->out_dir
			 ? ycsb_ack_init_file(&sh->ack, o->recordcount, rn->out_dir, msg, sizeof msg)
			 : ycsb_ack_init(&sh->ack, o->recordcount);
	if (rc != 0) {
		ycsb_status_free(&sh->status);
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
	free(sh);
	rn->pattern_state = NULL;
}

static enum rpb_status ycsb_worker_init(struct rpb_worker *w, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = opts_of(w);
	struct ycsb_worker *yw = calloc(1, sizeof *yw);
	if (!yw)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the ycsb worker");
	w->state = yw;
	size_t rec = ycsb_record_max(o);
	yw->randsize = RAND_BYTES > 2 * o->fieldlength ? RAND_BYTES : 2 * (size_t)o->fieldlength;
	yw->rec = malloc(rec);
	yw->rand = malloc(yw->randsize);
	yw->scratch = malloc((size_t)o->fieldlength);
	if (!yw->rec || !yw->rand || !yw->scratch || rpb_buf_reserve(&yw->got, rec, err))
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the ycsb records");
	/* The shared insert counter comes with prepare, after the workers'
	 * init: the first operation binds it (ycsb_op). */
	ycsb_gen_init(&yw->gen, o, NULL, w->rn->job->run.seed, w->id);
	/* Random field values are windows of one printable buffer, as YCSB's
	 * RandomByteIterator gives printable characters. */
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
	if (yw->nfailed < FAILED_MAX)
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
	free(yw);
	w->state = NULL;
}

/* ---- records ---- */

static void set_key(struct ycsb_worker *yw, const struct rpb_ycsb_opts *o, uint64_t k)
{
	yw->keylen = ycsb_key(yw->key, sizeof yw->key, o, k);
}

/* Field f's value for the current key, into out (len bytes). */
static const unsigned char *field_value(struct ycsb_worker *yw, const struct rpb_ycsb_opts *o,
					unsigned f, size_t len)
{
	if (o->dataintegrity) {
		char name[YCSB_NAME_MAX];
		size_t nl = ycsb_field_name(name, sizeof name, o, f);
		ycsb_integrity_value(yw->scratch, len, yw->key, yw->keylen, name, nl);
		return yw->scratch;
	}
	return yw->rand + rpb_rng_range(&yw->gen.rng, 0, yw->randsize - len + 1);
}

/* Encodes field f with a new value at out; returns its size. */
static size_t new_field(struct ycsb_worker *yw, const struct rpb_ycsb_opts *o, unsigned f,
			unsigned char *out)
{
	char name[YCSB_NAME_MAX];
	size_t nl = ycsb_field_name(name, sizeof name, o, f);
	size_t len = (size_t)ycsb_next_fieldlen(&yw->gen);
	return ycsb_encode_field(out, name, nl, field_value(yw, o, f, len), len);
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
	struct ycsb_fields fl;
	bool fits = ycsb_decode(yw->got.data, yw->got.len, &fl) && fl.n == o->fieldcount;
	for (unsigned i = 0; fits && i < fl.n; i++) /* the new record must fit yw->rec */
		fits = fl.namelen[i] < YCSB_NAME_MAX && fl.len[i] <= o->fieldlength;
	if (!fits)
		return rpb_err_set(err, RPB_CORRUPT, 0, NULL, "%s: the stored value is not a record "
				   "of %" PRIu64 " fields of at most %" PRIu64 " bytes", yw->key,
				   o->fieldcount, o->fieldlength);
	size_t at = 0;
	for (unsigned i = 0; i < fl.n; i++)
		at += i == f ? new_field(yw, o, f, yw->rec + at)
			     : ycsb_encode_field(yw->rec + at, (const char *)fl.name[i], fl.namelen[i],
						 fl.val[i], fl.len[i]);
	*size = at;
	return RPB_OK;
}

/* Checks what a read returned: with dataintegrity, every field it reads
 * (all, or field f) against the value derived from key and field. */
static enum rpb_status check_read(struct ycsb_worker *yw, const struct rpb_ycsb_opts *o, int f,
				  struct rpb_err *err)
{
	struct ycsb_fields fl;
	bool whole = o->dataintegrity
			     ? ycsb_decode(yw->got.data, yw->got.len, &fl) && fl.n == o->fieldcount
			     : ycsb_count_fields(yw->got.data, yw->got.len) == (int)o->fieldcount;
	if (!whole)
		return rpb_err_set(err, RPB_CORRUPT, 0, NULL, "%s: the stored value is not a record "
				   "of %" PRIu64 " fields", yw->key, o->fieldcount);
	if (!o->dataintegrity)
		return RPB_OK;
	for (unsigned i = 0; i < fl.n; i++) {
		if (f >= 0 && (unsigned)f != i)
			continue;
		bool same = fl.len[i] == o->fieldlength; /* scratch holds fieldlength bytes */
		if (same) {
			ycsb_integrity_value(yw->scratch, fl.len[i], yw->key, yw->keylen,
					     (const char *)fl.name[i], fl.namelen[i]);
			same = memcmp(yw->scratch, fl.val[i], fl.len[i]) == 0;
		}
		if (!same)
			return rpb_err_set(err, RPB_CORRUPT, 0, NULL, "%s: field %.*s is not the value "
					   "derived from key and field (dataintegrity)", yw->key,
					   (int)fl.namelen[i], fl.name[i]);
	}
	return RPB_OK;
}

/* ---- operations ---- */

static enum rpb_status get_record(struct rpb_worker *w, struct rpb_session *s,
				  struct ycsb_worker *yw, int f, struct rpb_err *err)
{
	enum rpb_status st = w->rn->backend->get(s, YCSB_TABLE, rpb_slice_make(yw->key, yw->keylen),
						 &yw->got, err);
	if (st == RPB_NOT_FOUND) {
		if (stores_nothing(w->rn))
			return RPB_NOT_FOUND; /* the null backend: nothing to check */
		return rpb_err_set(err, RPB_NOT_FOUND, 0, NULL, "%s: not found, though its insert "
				   "was acknowledged", yw->key);
	}
	return st ? st : check_read(yw, opts_of(w), f, err);
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
		st = get_record(w, s, yw, f, err);
		if (!st)
			received = yw->keylen + yw->got.len;
		if (st == RPB_NOT_FOUND && stores_nothing(w->rn))
			st = RPB_OK;
		st = end_txn(w, s, st, false, err);
	}
	rpb_sample(w, YCSB_READ, t0, rpb_now_ns(), st, st ? 0 : received, st ? err : NULL);
	return st;
}

/* update and read-modify-write: with rmw, the get is timed as READ and the
 * put with the commit as UPDATE, the whole as READ-MODIFY-WRITE. */
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
	uint64_t t0 = rpb_now_ns(), t1 = t0;
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_WRITE, err);
	size_t size = 0;
	if (!st && needs_read) {
		st = get_record(w, s, yw, rmw ? f : -1, err);
		t1 = rpb_now_ns();
		bool nothing = st == RPB_NOT_FOUND && stores_nothing(w->rn);
		if (rmw)
			rpb_sample(w, YCSB_READ, t0, t1, nothing ? RPB_OK : st,
				   st ? 0 : yw->keylen + yw->got.len, st && !nothing ? err : NULL);
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
	if (!st)
		st = put_record(w, s, yw, size, err);
	st = end_txn(w, s, st, true, err);
	uint64_t t2 = rpb_now_ns();
	if (rmw) {
		rpb_sample(w, YCSB_UPDATE, t1, t2, st, w->op_bytes, st ? err : NULL);
		rpb_sample(w, YCSB_RMW, t0, t2, st, w->op_bytes, st ? err : NULL);
	} else {
		rpb_sample(w, rmw ? YCSB_RMW : YCSB_UPDATE, t0, t2, st, w->op_bytes, st ? err : NULL);
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
	rpb_sample(w, label, t0, rpb_now_ns(), st, w->op_bytes, st ? err : NULL);
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
	rpb_sample(w, YCSB_SCAN, t0, rpb_now_ns(), st, st ? 0 : yw->scan_bytes, st ? err : NULL);
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
	if (o->phase == YCSB_LOAD)
		return do_insert(w, yw, yw->load_first + i, YCSB_INSERT, err);
	switch (ycsb_op_kind(yw->gen.cum, w->rn->job->run.seed, w->id, i)) {
	case YCSB_READ:
		return do_read(w, yw, err);
	case YCSB_UPDATE:
		return do_update(w, yw, false, err);
	case YCSB_RMW:
		return do_update(w, yw, true, err);
	case YCSB_SCAN:
		return do_scan(w, yw, err);
	default: {
		if (!yw->pending) {
			yw->pending_key = ycsb_ack_take(&sh->ack);
			yw->pending = true;
		}
		enum rpb_status st = do_insert(w, yw, yw->pending_key, YCSB_INSERT, err);
		if (!st) {
			yw->pending = false;
			if (!ycsb_ack_done(&sh->ack, yw->pending_key))
				return rpb_err_set(err, RPB_INVALID, 0, NULL, "more than %u inserts "
						   "unacknowledged at once (YCSB's window); use fewer "
						   "threads", YCSB_ACK_WINDOW);
		}
		return st;
	}
	}
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

void ycsb_write_report(struct rpb_runner *rn, const json_t *result, FILE *f)
{
	ycsb_format(f, result);
	char path[4096];
	if (rpb_path_join(path, sizeof path, rn->out_dir, "ycsb.txt") == 0) {
		FILE *y = fopen(path, "wx");
		if (y) {
			ycsb_format(y, result);
			if (fclose(y) != 0)
				fprintf(stderr, "rpbench: cannot write %s\n", path);
		}
	}
	if (!rn->quiet) {
		ycsb_format(stdout, result);
		fflush(stdout);
	}
}

static void ycsb_progress(struct rpb_runner *rn, double seconds, bool final)
{
	struct ycsb_shared *sh = rn->pattern_state;
	if (sh)
		ycsb_status_line(&sh->status, rn, seconds, final);
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
	.fini = ycsb_fini,
	.verify = ycsb_verify,
	.thread_ops = thread_ops,
	.load_foreign = ycsb_load_properties,
	.alias = ycsb_alias,
	.loads_first = true,
	.load_phase = "phase=load",
};
