/* Verify for the raw pattern: the raw table holds exactly what the
 * benchmark sequence implies. The sequence is replayed from the seed into
 * one slot per key (which write left it, or absent after a delete); then the
 * table is scanned in full, RAW_SCAN_CHUNK entries per read transaction,
 * and each entry must be a key below num that the replay says exists, with
 * the value of its last write byte for byte. Keys the replay expects but the
 * scan did not meet are missing. The replay needs the whole sequence, so
 * only a run that completed every benchmark without a failure is checked. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raw.h"
#include "verify.h"

#define SEEN (UINT64_C(1) << 63)
#define WRITE(p, j) (((uint64_t)(p) + 1) << 40 | (j)) /* 0 = absent */

struct vctx {
	const struct rpb_raw_opts *o;
	const struct raw_values *vals;
	uint64_t *slot;
	struct rpb_verify_result *res;
	unsigned char last[RPB_KEY_MAX];
	size_t lastlen;
	uint64_t got;
};

/* The first discrepancy is described, every one counted. */
#define problem(v, ...) rpb_verify_problem((v)->res, __VA_ARGS__)

/* Replays the benchmarks into slot[]; returns the runner operations a
 * complete run takes. */
static uint64_t replay(const struct rpb_raw_opts *o, uint64_t seed, uint64_t *slot)
{
	uint64_t entries = 0, ops = 0;
	for (unsigned p = 0; p < o->nbench; p++) {
		enum raw_bench b = (enum raw_bench)o->bench[p];
		uint64_t total = raw_bench_ops(o, b);
		if (b == RAW_READSEQ) {
			ops += raw_readseq_ops(o, entries);
			continue;
		}
		if (b == RAW_READREVERSE) {
			ops += raw_div_up(o->num, RAW_SCAN_CHUNK);
			continue;
		}
		ops += raw_div_up(total, raw_bench_batch(o, b));
		if (b == RAW_READRANDOM)
			continue;
		if (raw_bench_fresh(b)) { /* the fill emptied the table first */
			memset(slot, 0, (size_t)o->num * sizeof *slot);
			entries = 0;
		}
		struct rpb_rng r;
		raw_stream(&r, seed, p);
		for (uint64_t j = 0; j < total; j++) {
			uint64_t k = b == RAW_FILLSEQ ? j : rpb_rng_range(&r, 0, o->num);
			uint64_t now = b == RAW_DELETERANDOM ? 0 : WRITE(p, j);
			entries += (slot[k] == 0 && now != 0);
			entries -= (slot[k] != 0 && now == 0);
			slot[k] = now;
		}
	}
	return ops;
}

static int check_entry(void *ctx, rpb_slice key, rpb_slice val)
{
	struct vctx *v = ctx;
	const struct rpb_raw_opts *o = v->o;
	v->got++;
	memcpy(v->last, key.data, key.len);
	v->lastlen = key.len;
	uint64_t k;
	if (!raw_key_parse(key.data, key.len, o, &k)) {
		v->res->unexpected++;
		problem(v, "the raw table holds key '%.*s', not a key below num = %" PRIu64,
			(int)(key.len > 64 ? 64 : key.len), (const char *)key.data, o->num);
		return 0;
	}
	uint64_t w = v->slot[k] & ~SEEN;
	if (!w) {
		v->res->unexpected++;
		problem(v, "key %" PRIu64 " is in the store though the benchmarks left it absent", k);
		return 0;
	}
	v->slot[k] |= SEEN;
	v->res->checked++;
	unsigned p = (unsigned)((w >> 40) - 1);
	const unsigned char *want = raw_value(v->vals, (size_t)o->value_size, p, w & ((UINT64_C(1) << 40) - 1));
	if (val.len != o->value_size || memcmp(val.data, want, val.len) != 0) {
		v->res->corrupt++;
		problem(v, "key %" PRIu64 " holds a %zu-byte value that is not the one %s wrote", k,
			val.len, raw_bench_names[o->bench[p]]);
	}
	return 0;
}

static enum rpb_status scan_all(const struct rpb_backend *b, struct rpb_session *s,
				struct vctx *v, struct rpb_err *err)
{
	enum rpb_status st = RPB_OK;
	for (bool first = true; !st; first = false) {
		rpb_slice after = rpb_slice_make(v->last, v->lastlen);
		v->got = 0;
		st = b->begin(s, RPB_TXN_READ, err);
		if (!st)
			st = b->scan(s, RPB_T_RAW, first ? NULL : &after, NULL, RAW_SCAN_CHUNK,
				     check_entry, v, err);
		if (!st)
			st = b->commit(s, err);
		if (st)
			b->rollback(s);
		if (v->got < RAW_SCAN_CHUNK)
			break;
	}
	return st;
}

enum rpb_status raw_verify(const struct rpb_backend *b, struct rpb_store *store,
			   const struct rpb_job *job, const struct rpb_ledger *ledger,
			   struct rpb_verify_result *res, struct rpb_err *err)
{
	/* A job read back from result.json has its benchmark list unresolved. */
	struct rpb_raw_opts *copy = malloc(sizeof *copy);
	char msg[512];
	if (!copy)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for verify");
	*copy = *raw_opts(job);
	if (raw_finish(copy, job, "", msg, sizeof msg) != 0) {
		free(copy);
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "the run's options: %s", msg);
	}
	const struct rpb_raw_opts *o = copy;
	struct vctx v = {.o = o, .res = res};
	struct raw_values vals = {0};
	v.slot = calloc((size_t)o->num, sizeof *v.slot);
	if (!v.slot || raw_values_init(&vals, o, job->run.seed) != 0) {
		uint64_t num = o->num;
		free(v.slot);
		free(copy);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for %" PRIu64
				   " keys; verify needs 8 bytes per key", num);
	}
	v.vals = &vals;
	uint64_t want_ops = replay(o, job->run.seed, v.slot);
	uint64_t issued = ledger->nworkers ? ledger->workers[0].issued : 0;
	size_t failed = ledger->nworkers ? ledger->workers[0].nfailures : 0;
	enum rpb_status st = RPB_OK;
	struct rpb_session *s = NULL;
	if (ledger->interrupted || failed || issued != want_ops)
		st = rpb_err_set(err, RPB_INVALID, 0, NULL,
				 "raw verify replays the whole benchmark sequence, but this run did %" PRIu64
				 " of its %" PRIu64 " operations%s; verify a run that completed",
				 issued, want_ops, failed ? " with failures" : "");
	if (!st)
		st = b->session_open(store, &s, err);
	if (!st)
		st = scan_all(b, s, &v, err);
	for (uint64_t k = 0; !st && k < o->num; k++)
		if (v.slot[k] && !(v.slot[k] & SEEN)) {
			res->missing++;
			problem(&v, "key %" PRIu64 " is missing", k);
		}
	b->session_close(s);
	raw_values_free(&vals);
	free(v.slot);
	free(copy);
	return st;
}
