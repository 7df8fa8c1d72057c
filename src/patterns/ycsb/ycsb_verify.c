/* Verify for the ycsb pattern.
 *
 * After a load: every acknowledged insert (operation i of thread w is key
 * number ycsb_thread_first(w) + i) is present with fieldcount fields named
 * as YCSB names them, each of the configured length, and with dataintegrity
 * the value derived from key and field; an insert in doubt may be absent.
 * After a run: the loaded records are still whole, and every insert the run
 * numbered (recordcount .. pattern.insert_next in result.json) is present,
 * but for those listed as failed. Reads go 1000 per read transaction. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "verify.h"
#include "ycsb.h"

#define BATCH 1000

struct vctx {
	const struct rpb_backend *b;
	struct rpb_session *s;
	const struct rpb_ycsb_opts *o;
	struct rpb_verify_result *res;
	struct rpb_buf buf;
	unsigned char *scratch;
	unsigned in_txn;
};

/* Checks key number k; in doubt: absent is accepted. */
static enum rpb_status check_key(struct vctx *v, uint64_t k, bool in_doubt, struct rpb_err *err)
{
	if (v->in_txn == BATCH) {
		v->b->rollback(v->s);
		v->in_txn = 0;
	}
	if (!v->in_txn) {
		enum rpb_status st = v->b->begin(v->s, RPB_TXN_READ, err);
		if (st)
			return st;
	}
	v->in_txn++;
	char key[64], why[512];
	size_t kl = ycsb_key(key, sizeof key, v->o, k);
	enum rpb_status st = v->b->get(v->s, YCSB_TABLE, rpb_slice_make(key, kl), &v->buf, err);
	if (st == RPB_NOT_FOUND) {
		if (in_doubt) {
			v->res->in_doubt++;
			return RPB_OK;
		}
		v->res->missing++;
		rpb_verify_problem(v->res, "%s (key number %" PRIu64 ") is missing", key, k);
		return RPB_OK;
	}
	if (st) {
		v->in_txn = 0;
		return st;
	}
	v->res->checked++;
	v->res->in_doubt += in_doubt;
	if (ycsb_record_check(v->o, key, kl, v->buf.data, v->buf.len, v->scratch, why, sizeof why)) {
		v->res->corrupt++;
		rpb_verify_problem(v->res, "%s", why);
	}
	return RPB_OK;
}

static enum rpb_status verify_load(struct vctx *v, const struct rpb_ledger *l, struct rpb_err *err)
{
	for (unsigned w = 0; w < l->nworkers; w++) {
		const struct rpb_ledger_worker *lw = &l->workers[w];
		uint64_t first = ycsb_thread_first(v->o, w);
		for (uint64_t i = 0; i < lw->issued; i++) {
			enum rpb_op_state s = rpb_ledger_op_state(lw, i);
			if (s != RPB_OP_ACKED && s != RPB_OP_IN_DOUBT)
				continue;
			enum rpb_status st = check_key(v, first + i, s == RPB_OP_IN_DOUBT, err);
			if (st)
				return st;
		}
	}
	return RPB_OK;
}

/* The run's insert numbers from its result.json (pattern.insert_next and
 * inserts_failed), each checked against what the run could have done. */
static int run_inserts(const struct rpb_ledger *l, const struct rpb_ycsb_opts *o,
		       uint64_t *next, json_t **failed)
{
	char path[PATH_MAX];
	if (!l->results_dir || rpb_path_join(path, sizeof path, l->results_dir, "result.json") != 0)
		return -1;
	json_t *r = json_load_file(path, JSON_REJECT_DUPLICATES, NULL);
	const json_t *p = json_object_get(r, "pattern");
	const json_t *nx = json_object_get(p, "insert_next");
	const json_t *fl = json_object_get(p, "inserts_failed");
	uint64_t issued = 0;
	for (unsigned w = 0; w < l->nworkers; w++)
		issued += l->workers[w].issued;
	if (!json_is_integer(nx) || !json_is_array(fl) || json_integer_value(nx) < 0 ||
	    (uint64_t)json_integer_value(nx) < o->recordcount ||
	    (uint64_t)json_integer_value(nx) - o->recordcount > issued) {
		json_decref(r);
		return -1;
	}
	*next = (uint64_t)json_integer_value(nx);
	*failed = json_incref((json_t *)fl);
	json_decref(r);
	return 0;
}

static bool listed(const json_t *failed, uint64_t k)
{
	size_t i;
	const json_t *e;
	json_array_foreach(failed, i, e)
		if (json_is_integer(e) && (uint64_t)json_integer_value(e) == k)
			return true;
	return false;
}

static enum rpb_status verify_run(struct vctx *v, const struct rpb_ledger *l, struct rpb_err *err)
{
	const struct rpb_ycsb_opts *o = v->o;
	for (uint64_t k = o->insertstart; k < o->insertstart + o->inserts; k++) {
		enum rpb_status st = check_key(v, k, false, err);
		if (st)
			return st;
	}
	uint64_t next = o->recordcount;
	json_t *failed = NULL;
	if (o->proportion[YCSB_INSERT] > 0 && run_inserts(l, o, &next, &failed) != 0) {
		if (!l->interrupted)
			return rpb_verify_damaged(v->res, err, "pattern.insert_next", 0,
						  "a run with inserts records its insert numbers");
		next = o->recordcount; /* a run that died: its inserts cannot be told apart */
	}
	for (uint64_t k = o->recordcount; k < next; k++) {
		enum rpb_status st = check_key(v, k, listed(failed, k), err);
		if (st) {
			json_decref(failed);
			return st;
		}
	}
	json_decref(failed);
	return RPB_OK;
}

enum rpb_status ycsb_verify(const struct rpb_backend *b, struct rpb_store *st,
			    const struct rpb_job *job, const struct rpb_ledger *ledger,
			    struct rpb_verify_result *res, struct rpb_err *err)
{
	struct rpb_ycsb_opts o = *ycsb_opts(job);
	char msg[512];
	if (ycsb_finish(&o, job, "", msg, sizeof msg) != 0)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "%s", msg);
	struct vctx v = {.b = b, .o = &o, .res = res};
	enum rpb_status rc = b->session_open(st, &v.s, err);
	if (!rc && !(v.scratch = malloc((size_t)o.fieldlength)))
		rc = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	if (!rc)
		rc = o.phase == YCSB_LOAD ? verify_load(&v, ledger, err) : verify_run(&v, ledger, err);
	if (v.s) {
		b->rollback(v.s);
		b->session_close(v.s);
	}
	rpb_buf_free(&v.buf);
	free(v.scratch);
	return rc;
}
