/* The raw pattern: LevelDB's db_bench benchmarks run in order on one store
 * through the store interface (docs/workloads.md, "raw").
 *
 * The benchmarks are phases of one thread (threads = 1, as db_bench). One
 * runner operation is one transaction: batch puts, gets or deletes of a
 * point benchmark, or one scan of up to scan_chunk entries of readseq
 * or readreverse. The worker walks the benchmark list itself; after the last
 * one it asks the runner to stop. A benchmark's time runs from the start of
 * its first operation to the end of its last, so everything the runner does
 * between operations (samples, ledger, stop checks) is part of it, as the
 * calibration against direct library loops requires. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "raw.h"
#include "runner.h"

/* Labels are the benchmarks; label 0 names the runner's operations. */
static const char *const raw_labels[RAW_NBENCH] = {
	"fillseq", "fillrandom", "overwrite", "readrandom",
	"readseq", "readreverse", "deleterandom", "fillsync",
};
_Static_assert(RAW_NBENCH <= RPB_MAX_LABELS, "one label per benchmark");
/* Fills and overwrite carry what they put; the reads what they read
 * (readseq and readreverse count the pairs they scanned); deletes none. */
static const enum rpb_bytes_dir raw_label_dirs[RAW_NBENCH] = {
	[RAW_FILLSEQ] = RPB_BYTES_SENT,	    [RAW_FILLRANDOM] = RPB_BYTES_SENT,
	[RAW_OVERWRITE] = RPB_BYTES_SENT,    [RAW_READRANDOM] = RPB_BYTES_RECEIVED,
	[RAW_READSEQ] = RPB_BYTES_RECEIVED,  [RAW_READREVERSE] = RPB_BYTES_RECEIVED,
	[RAW_DELETERANDOM] = RPB_BYTES_NONE, [RAW_FILLSYNC] = RPB_BYTES_SENT,
};

/* One finished (or cut short) benchmark, written by the worker. */
struct raw_result {
	bool ran;
	uint64_t ops, found, bytes, txns;
	uint64_t ns;
	uint64_t cpu_ns; /* the whole process's CPU time over the benchmark */
};

struct raw_shared {
	struct raw_values values;
	struct raw_result res[RPB_RAW_BENCH_MAX];
};

struct raw_worker {
	unsigned pos;              /* position in the benchmark list */
	bool started;              /* the benchmark at pos has begun */
	uint64_t t0, cpu0;
	uint64_t done, found, bytes, txns;
	struct rpb_rng rng;        /* the key stream of a random benchmark */
	bool scan_end;             /* readseq/readreverse reached its end */
	unsigned char key[RPB_KEY_MAX];
	unsigned char after[RPB_KEY_MAX], upto[RPB_KEY_MAX];
	size_t afterlen;           /* readseq continuation; 0 = from the start */
	uint64_t scan_got, scan_bytes;
	struct rpb_buf got;        /* readrandom values */
	struct rpb_buf rev;        /* readreverse: one window's entries */
	size_t revoff[RAW_SCAN_CHUNK + 1];
	unsigned revn;
	bool rev_overflow;
	/* Emptying the table before a fill: the keys of one chunk. */
	unsigned char clear_keys[RAW_CLEAR_CHUNK][RPB_KEY_MAX];
	size_t clear_len[RAW_CLEAR_CHUNK];
	unsigned clear_n;
};

static enum raw_bench bench_at(const struct rpb_runner *rn, unsigned pos)
{
	return (enum raw_bench)raw_opts(rn->job)->bench[pos];
}

static enum rpb_status raw_prepare(struct rpb_runner *rn, struct rpb_err *err)
{
	struct raw_shared *sh = calloc(1, sizeof *sh);
	if (!sh || raw_values_init(&sh->values, raw_opts(rn->job), rn->job->run.seed) != 0) {
		free(sh);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL,
				   "out of memory for the value buffer; lower [raw] value_size");
	}
	rn->pattern_state = sh;
	return RPB_OK;
}

static void raw_fini(struct rpb_runner *rn)
{
	struct raw_shared *sh = rn->pattern_state;
	if (!sh)
		return;
	raw_values_free(&sh->values);
	free(sh);
	rn->pattern_state = NULL;
}

static enum rpb_status raw_worker_init(struct rpb_worker *w, struct rpb_err *err)
{
	const struct rpb_raw_opts *o = raw_opts(w->rn->job);
	struct raw_worker *rw = calloc(1, sizeof *rw);
	if (!rw)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the raw worker");
	w->state = rw;
	enum rpb_status st = rpb_buf_reserve(&rw->got, (size_t)o->value_size, err);
	if (!st)
		st = rpb_buf_reserve(&rw->rev, RAW_SCAN_CHUNK * (size_t)(o->key_size + o->value_size),
				     err);
	return st;
}

static void raw_worker_fini(struct rpb_worker *w)
{
	struct raw_worker *rw = w->state;
	if (!rw)
		return;
	rpb_buf_free(&rw->got);
	rpb_buf_free(&rw->rev);
	free(rw);
	w->state = NULL;
}

/* ---- one transaction of each kind ---- */

/* The key index of operation done + k of benchmark b. */
static uint64_t next_index(struct raw_worker *rw, const struct rpb_raw_opts *o, enum raw_bench b,
			   uint64_t k)
{
	return b == RAW_FILLSEQ ? rw->done + k : rpb_rng_range(&rw->rng, 0, o->num);
}

/* *bytes: what the transaction wrote (db_bench's MB/s counts those);
 * *received: what its reads returned (the sample's bytes, samples.jtl). */
static enum rpb_status point_txn(struct rpb_worker *w, struct raw_worker *rw, enum raw_bench b,
				 uint64_t n, uint64_t *bytes, uint64_t *received, struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	const struct rpb_backend *be = rn->backend;
	const struct rpb_raw_opts *o = raw_opts(rn->job);
	const struct raw_shared *sh = rn->pattern_state;
	struct rpb_session *s = rpb_next_session(w);
	bool writes = b != RAW_READRANDOM;
	size_t ks = (size_t)o->key_size, vs = (size_t)o->value_size;
	enum rpb_status st = rpb_txn_begin(w, s, writes ? RPB_TXN_WRITE : RPB_TXN_READ, err);
	uint64_t found = 0;
	for (uint64_t k = 0; !st && k < n; k++) {
		raw_key(rw->key, ks, next_index(rw, o, b, k));
		rpb_slice key = rpb_slice_make(rw->key, ks);
		if (b == RAW_READRANDOM) {
			st = be->get(s, RPB_T_RAW, key, &rw->got, err);
			found += st == RPB_OK;
			*received += st == RPB_OK ? ks + rw->got.len : 0;
		} else if (b == RAW_DELETERANDOM) {
			st = be->del(s, RPB_T_RAW, key, err);
		} else {
			const unsigned char *v = raw_value(&sh->values, vs, rw->pos, rw->done + k);
			st = be->put(s, RPB_T_RAW, key, rpb_slice_make(v, vs), err);
			*bytes += ks + vs;
		}
		if (st == RPB_NOT_FOUND)
			st = RPB_OK; /* an absent key is an answer; the transaction goes on */
	}
	bool at_commit = false;
	if (!st)
		at_commit = (st = rpb_txn_commit(w, s, err)) != RPB_OK;
	if (st) {
		w->in_doubt = writes && at_commit;
		rpb_txn_rollback(w, s);
		*bytes = *received = 0;
		return st;
	}
	rw->found += found;
	return RPB_OK;
}

static int seq_entry(void *ctx, rpb_slice key, rpb_slice val)
{
	struct raw_worker *rw = ctx;
	rw->scan_got++;
	rw->scan_bytes += key.len + val.len;
	memcpy(rw->after, key.data, key.len);
	rw->afterlen = key.len;
	return 0;
}

/* readseq: the next up to scan_chunk entries after the last one read,
 * never more than num in all (db_bench reads num entries at most). */
static enum rpb_status seq_txn(struct rpb_worker *w, struct raw_worker *rw, struct rpb_err *err)
{
	const struct rpb_raw_opts *o = raw_opts(w->rn->job);
	struct rpb_session *s = rpb_next_session(w);
	uint64_t left = o->num - rw->done;
	uint64_t chunk = raw_seq_chunk(o);
	size_t limit = (size_t)(left < chunk ? left : chunk);
	unsigned char keep[RPB_KEY_MAX];
	size_t keeplen = rw->afterlen;
	memcpy(keep, rw->after, keeplen); /* a failed scan is retried from here */
	rpb_slice after = rpb_slice_make(keep, keeplen);
	rw->scan_got = rw->scan_bytes = 0;
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_READ, err);
	if (!st)
		st = w->rn->backend->scan(s, RPB_T_RAW, keeplen ? &after : NULL, NULL, limit, seq_entry,
					  rw, err);
	if (!st)
		st = rpb_txn_commit(w, s, err);
	if (st) {
		rpb_txn_rollback(w, s);
		memcpy(rw->after, keep, keeplen);
		rw->afterlen = keeplen;
		return st;
	}
	rw->scan_end = rw->scan_got < limit || rw->done + rw->scan_got >= o->num;
	return RPB_OK;
}

static int rev_entry(void *ctx, rpb_slice key, rpb_slice val)
{
	struct raw_worker *rw = ctx;
	size_t at = rw->revoff[rw->revn];
	if (rw->revn == RAW_SCAN_CHUNK || at + key.len + val.len > rw->rev.cap) {
		rw->rev_overflow = true; /* a value larger than value_size: not this run's */
		return 1;
	}
	memcpy(rw->rev.data + at, key.data, key.len);
	memcpy(rw->rev.data + at + key.len, val.data, val.len);
	rw->revoff[++rw->revn] = at + key.len + val.len;
	return 0;
}

/* readreverse: the store has no reverse iterator, so the key space is read
 * in windows of RAW_SCAN_CHUNK key indices from the top down. Each window is
 * one ascending bounded scan whose entries are copied, then visited last to
 * first. This relies on the raw keys being the indices below num. */
static enum rpb_status rev_txn(struct rpb_worker *w, struct raw_worker *rw, uint64_t window,
			       struct rpb_err *err)
{
	const struct rpb_raw_opts *o = raw_opts(w->rn->job);
	size_t ks = (size_t)o->key_size;
	struct rpb_session *s = rpb_next_session(w);
	uint64_t hi = o->num - window * RAW_SCAN_CHUNK; /* keys below hi */
	bool bottom = hi <= RAW_SCAN_CHUNK;
	raw_key(rw->upto, ks, hi - 1);
	if (!bottom)
		raw_key(rw->after, ks, hi - RAW_SCAN_CHUNK - 1);
	rpb_slice upto = rpb_slice_make(rw->upto, ks), after = rpb_slice_make(rw->after, ks);
	rw->revn = 0;
	rw->revoff[0] = 0;
	rw->rev_overflow = false;
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_READ, err);
	if (!st)
		st = w->rn->backend->scan(s, RPB_T_RAW, bottom ? NULL : &after, &upto, 0, rev_entry,
					  rw, err);
	if (!st && rw->rev_overflow)
		st = rpb_err_set(err, RPB_CORRUPT, 0, NULL,
				 "readreverse found an entry larger than key_size + value_size; "
				 "run raw on a fresh store");
	if (!st)
		st = rpb_txn_commit(w, s, err);
	if (st) {
		rpb_txn_rollback(w, s);
		return st;
	}
	/* Visit last to first, as a reverse iterator would. */
	uint64_t bytes = 0;
	for (unsigned i = rw->revn; i-- > 0;)
		bytes += rw->revoff[i + 1] - rw->revoff[i];
	rw->scan_got = rw->revn;
	rw->scan_bytes = bytes;
	rw->scan_end = bottom;
	return RPB_OK;
}

static int clear_entry(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)val;
	struct raw_worker *rw = ctx;
	memcpy(rw->clear_keys[rw->clear_n], key.data, key.len);
	rw->clear_len[rw->clear_n++] = key.len;
	return 0;
}

/* Empties the raw table before a fill, as db_bench's fresh_db destroys the
 * database: untimed, in write transactions of RAW_CLEAR_CHUNK deletes, each
 * scan going on after the last key deleted (so no scan walks over the
 * deletes before it). */
static enum rpb_status clear_table(struct rpb_worker *w, struct raw_worker *rw,
				   struct rpb_err *err)
{
	const struct rpb_backend *be = w->rn->backend;
	struct rpb_session *s = rpb_next_session(w);
	unsigned char after[RPB_KEY_MAX];
	size_t afterlen = 0;
	for (;;) {
		rpb_slice from = rpb_slice_make(after, afterlen);
		rw->clear_n = 0;
		enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_WRITE, err);
		if (!st)
			st = be->scan(s, RPB_T_RAW, afterlen ? &from : NULL, NULL, RAW_CLEAR_CHUNK,
				      clear_entry, rw, err);
		for (unsigned i = 0; !st && i < rw->clear_n; i++) {
			st = be->del(s, RPB_T_RAW, rpb_slice_make(rw->clear_keys[i], rw->clear_len[i]),
				     err);
			if (st == RPB_NOT_FOUND)
				st = RPB_OK;
		}
		if (!st)
			st = rpb_txn_commit(w, s, err);
		if (st) {
			rpb_txn_rollback(w, s);
			return st;
		}
		if (rw->clear_n < RAW_CLEAR_CHUNK)
			return RPB_OK;
		afterlen = rw->clear_len[rw->clear_n - 1];
		memcpy(after, rw->clear_keys[rw->clear_n - 1], afterlen);
	}
}

/* ---- the operation: one transaction of the current benchmark ---- */

/* CPU time of every thread of the process (the library's background work
 * and the supervisor's included), as the direct loops read it
 * (bench/calibrate/calib.h): a figure preemption does not lengthen. */
static uint64_t process_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static enum rpb_status start_bench(struct rpb_worker *w, struct raw_worker *rw,
				   struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	if (raw_bench_fresh(bench_at(rn, rw->pos))) {
		enum rpb_status st = clear_table(w, rw, err);
		if (st)
			return st;
	}
	rw->started = true;
	rw->done = rw->found = rw->bytes = rw->txns = 0;
	rw->afterlen = 0;
	rw->scan_end = false;
	raw_stream(&rw->rng, rn->job->run.seed, rw->pos);
	rw->cpu0 = process_cpu_ns();
	rw->t0 = rpb_now_ns();
	return RPB_OK;
}

static void end_bench(struct rpb_runner *rn, struct raw_worker *rw, uint64_t end)
{
	struct raw_shared *sh = rn->pattern_state;
	sh->res[rw->pos] = (struct raw_result){
		.ran = true, .ops = rw->done, .found = rw->found, .bytes = rw->bytes,
		.txns = rw->txns, .ns = end - rw->t0, .cpu_ns = process_cpu_ns() - rw->cpu0,
	};
	rw->started = false;
	if (++rw->pos == raw_opts(rn->job)->nbench)
		rpb_request_stop(rn, RPB_STOP_COMPLETED);
}

static enum rpb_status raw_op(struct rpb_worker *w, uint64_t i, struct rpb_err *err)
{
	(void)i;
	struct rpb_runner *rn = w->rn;
	const struct rpb_raw_opts *o = raw_opts(rn->job);
	struct raw_worker *rw = w->state;
	if (rw->pos >= o->nbench) {
		rpb_request_stop(rn, RPB_STOP_COMPLETED);
		return RPB_OK;
	}
	if (!rw->started) {
		enum rpb_status st = start_bench(w, rw, err);
		if (st)
			return st;
	}
	enum raw_bench b = bench_at(rn, rw->pos);
	struct rpb_rng keys = rw->rng; /* a retry draws the same keys */
	uint64_t bytes = 0, received = 0, n = 0, start = rpb_now_ns();
	enum rpb_status st;
	bool last;
	if (b == RAW_READSEQ || b == RAW_READREVERSE) {
		st = b == RAW_READSEQ ? seq_txn(w, rw, err) : rev_txn(w, rw, rw->txns, err);
		n = rw->scan_got;
		bytes = rw->scan_bytes;
		last = rw->scan_end;
	} else {
		uint64_t total = raw_bench_ops(o, b), batch = raw_bench_batch(o, b);
		n = total - rw->done < batch ? total - rw->done : batch;
		st = point_txn(w, rw, b, n, &bytes, &received, err);
		last = rw->done + n == total;
	}
	uint64_t end = rpb_now_ns();
	rpb_sample(w, (unsigned)b, start, end, st, bytes + received, st ? err : NULL);
	if (st) {
		rw->rng = keys;
		return st;
	}
	w->op_bytes = raw_bench_writes(b) ? bytes : 0;
	rw->done += n;
	rw->bytes += bytes;
	rw->txns++;
	if (last)
		end_bench(rn, rw, end);
	return RPB_OK;
}

/* ---- results ---- */

static void raw_report_json(struct rpb_runner *rn, json_t *obj)
{
	const struct rpb_raw_opts *o = raw_opts(rn->job);
	struct raw_shared *sh = rn->pattern_state;
	json_t *list = json_array();
	for (unsigned p = 0; sh && p < o->nbench; p++) {
		const struct raw_result *r = &sh->res[p];
		enum raw_bench b = bench_at(rn, p);
		double secs = (double)r->ns / 1e9;
		/* db_bench divides by one when nothing was done. */
		uint64_t ops = r->ops ? r->ops : 1;
		json_t *e = json_pack("{s:s, s:b, s:I, s:I, s:I, s:f, s:f, s:f}", "name",
				      raw_bench_names[b], "completed", r->ran, "ops",
				      (json_int_t)r->ops, "transactions", (json_int_t)r->txns,
				      "bytes", (json_int_t)r->bytes, "seconds", secs, "micros_per_op",
				      r->ran ? secs * 1e6 / (double)ops : 0.0, "mb_per_s",
				      secs > 0 ? (double)r->bytes / 1048576.0 / secs : 0.0);
		json_object_set_new(e, "cpu_micros_per_op",
				    json_real(r->ran ? (double)r->cpu_ns / 1e3 / (double)ops : 0.0));
		json_object_set_new(e, "found", b == RAW_READRANDOM && r->ran
							? json_integer((json_int_t)r->found)
							: json_null());
		json_array_append_new(list, e);
	}
	json_object_set_new(obj, "benchmarks", list);
	json_object_set_new(obj, "num", json_integer((json_int_t)o->num));
	json_object_set_new(obj, "value_size", json_integer((json_int_t)o->value_size));
	json_object_set_new(obj, "key_size", json_integer((json_int_t)o->key_size));
	json_object_set_new(obj, "compression_ratio", json_real(o->compression_ratio));
	json_object_set_new(obj, "batch", json_integer((json_int_t)o->batch));
	json_object_set_new(obj, "scan_chunk", json_integer((json_int_t)o->scan_chunk));
}

/* report.txt: db_bench's header and one line per benchmark that ran, also
 * printed at the end of the run. */
void raw_write_report(struct rpb_runner *rn, const json_t *result, FILE *f)
{
	const json_t *pat = json_object_get(result, "pattern");
	const struct rpb_raw_opts *o = raw_opts(rn->job);
	fprintf(f, "Keys:       %" PRIu64 " bytes each\n", o->key_size);
	fprintf(f, "Values:     %" PRIu64 " bytes each (%" PRIu64 " bytes after compression)\n",
		o->value_size, (uint64_t)((double)o->value_size * o->compression_ratio + 0.5));
	fprintf(f, "Entries:    %" PRIu64 "\n", o->num);
	fprintf(f, "Backend:    %s (%s), sync = %s, batch = %" PRIu64 "\n", rn->backend->name,
		rn->backend->version(), rn->job->run.sync == RPB_SYNC_COMMIT ? "commit" : "none",
		o->batch);
	fprintf(f, "------------------------------------------------\n");
	size_t i;
	json_t *e;
	char line[256];
	json_array_foreach(json_object_get(pat, "benchmarks"), i, e) {
		if (!json_is_true(json_object_get(e, "completed")))
			continue;
		raw_format_line(line, sizeof line, e);
		fprintf(f, "%s\n", line);
		if (!rn->quiet)
			printf("%s\n", line);
	}
	fflush(stdout);
}

const struct rpb_pattern rpb_pattern_raw = {
	.name = "raw",
	.noun = "transactions",
	.labels = raw_labels,
	.nlabels = RAW_NBENCH,
	.label_dirs = raw_label_dirs,
	.options = raw_options,
	.config_size = sizeof(struct rpb_raw_opts),
	.finish = raw_finish,
	.prepare = raw_prepare,
	.worker_init = raw_worker_init,
	.worker_fini = raw_worker_fini,
	.op = raw_op,
	.report_json = raw_report_json,
	.write_report = raw_write_report,
	.fini = raw_fini,
	.verify = raw_verify,
};
