/* A minimal pattern, built only by the tests, that shows the plug-in path
 * end to end (docs/architecture.md, "Adding a pattern"): it lives in its own
 * folder, has its own option table and config struct, and is reached only
 * through the registry. Operation i of thread t puts one key,
 * "x/<run tag>/<t %04u>/<i %012>", whose value is value_size printable bytes
 * drawn from (seed, t, i); verify reads every acknowledged key back and
 * counts keys of the run that were never acknowledged. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "fmt.h"
#include "rng.h"
#include "runner.h"
#include "verify.h"

#define EX_KEY_MAX 64

struct example_opts {
	uint64_t value_size;
};

#define EX(f) offsetof(struct example_opts, f)
static const struct rpb_optdef example_options[] = {
	{ .key = "value_size", .type = RPB_OPT_SIZE, .dflt = "16",
	  .umin = 1, .umax = 4096, .off = EX(value_size),
	  .help = "bytes of each put's value" },
	{ .key = NULL },
};

static const char *const example_labels[] = {"put"};
static const enum rpb_bytes_dir example_label_dirs[] = {RPB_BYTES_SENT}; /* the value put */

static size_t key_of(char *buf, const char *tag, unsigned thread, uint64_t op)
{
	char *p = rpb_fmt_str(rpb_fmt_str(buf, "x/"), tag);
	*p++ = '/';
	p = rpb_fmt_u64(p, thread, 4);
	*p++ = '/';
	p = rpb_fmt_u64(p, op, 12);
	*p = '\0';
	return (size_t)(p - buf);
}

static void value_of(unsigned char *buf, size_t n, uint64_t seed, unsigned thread, uint64_t op)
{
	struct rpb_rng r;
	rpb_rng_seed(&r, seed, thread, op);
	for (size_t i = 0; i < n; i++)
		buf[i] = (unsigned char)('a' + rpb_rng_range(&r, 0, 26));
}

static enum rpb_status example_worker_init(struct rpb_worker *w, struct rpb_err *err)
{
	const struct example_opts *o = w->rn->job->config;
	w->state = malloc((size_t)o->value_size);
	return w->state ? RPB_OK : rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
}

static void example_worker_fini(struct rpb_worker *w)
{
	free(w->state);
	w->state = NULL;
}

static enum rpb_status example_op(struct rpb_worker *w, uint64_t i, struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	const struct example_opts *o = rn->job->config;
	char key[EX_KEY_MAX];
	size_t klen = key_of(key, rn->run_tag, w->id, i);
	value_of(w->state, (size_t)o->value_size, rn->job->run.seed, w->id, i);
	struct rpb_session *s = rpb_next_session(w);
	rpb_slice k = rpb_slice_make(key, klen);
	rpb_inject_point(w, i, true, RPB_T_OBJECTS, k);
	uint64_t start = rpb_now_ns();
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_WRITE, err);
	if (!st)
		st = rn->backend->put(s, RPB_T_OBJECTS, k,
				      rpb_slice_make(w->state, (size_t)o->value_size), err);
	if (!st)
		rpb_inject_point(w, i, false, RPB_T_OBJECTS, k);
	bool at_commit = st == RPB_OK;
	st = rpb_txn_finish(w, s, st, err);
	w->in_doubt = at_commit && st != RPB_OK;
	rpb_sample(w, 0, start, rpb_now_ns(), st, st ? 0 : o->value_size, st ? err : NULL);
	w->op_bytes = st ? 0 : o->value_size;
	return st;
}

/* ---- verify ---- */

struct vscan {
	const struct rpb_ledger *ledger;
	struct rpb_verify_result *res;
};

/* Every key of the run must belong to an operation that was acknowledged
 * (checked by value already) or is in doubt; any other is unexpected. */
static int scan_entry(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)val;
	struct vscan *v = ctx;
	unsigned thread = 0;
	uint64_t op = 0;
	char text[EX_KEY_MAX] = "";
	size_t tl = strlen(v->ledger->run_tag);
	if (key.len < sizeof text)
		memcpy(text, key.data, key.len);
	enum rpb_op_state state = RPB_OP_NOT_ISSUED;
	if (key.len == 2 + tl + 1 + 4 + 1 + 12 &&
	    sscanf(text + 2 + tl + 1, "%4u/%12" SCNu64, &thread, &op) == 2 &&
	    thread < v->ledger->nworkers)
		state = rpb_ledger_op_state(&v->ledger->workers[thread], op);
	if (state == RPB_OP_FAILED || state == RPB_OP_NOT_ISSUED) {
		v->res->unexpected++;
		rpb_verify_problem(v->res, "unexpected key %s", text);
	}
	return 0;
}

static enum rpb_status example_verify(const struct rpb_backend *b, struct rpb_store *st,
				      const struct rpb_job *job, const struct rpb_ledger *ledger,
				      struct rpb_verify_result *res, struct rpb_err *err)
{
	const struct example_opts *o = job->config;
	struct rpb_session *s = NULL;
	struct rpb_buf got = {0};
	unsigned char *want = malloc((size_t)o->value_size);
	enum rpb_status rc = want ? b->session_open(st, &s, err)
				  : rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	if (!rc)
		rc = b->begin(s, RPB_TXN_READ, err);
	for (unsigned t = 0; !rc && t < ledger->nworkers; t++) {
		const struct rpb_ledger_worker *lw = &ledger->workers[t];
		for (uint64_t i = 0; !rc && i < lw->issued; i++) {
			enum rpb_op_state state = rpb_ledger_op_state(lw, i);
			res->in_doubt += state == RPB_OP_IN_DOUBT;
			if (state != RPB_OP_ACKED)
				continue;
			char key[EX_KEY_MAX];
			size_t klen = key_of(key, ledger->run_tag, t, i);
			value_of(want, (size_t)o->value_size, job->run.seed, t, i);
			res->checked++;
			enum rpb_status g = b->get(s, RPB_T_OBJECTS, rpb_slice_make(key, klen), &got, err);
			if (g == RPB_NOT_FOUND) {
				res->missing++;
				rpb_verify_problem(res, "key %s is missing", key);
			} else if (g) {
				rc = g;
			} else if (got.len != o->value_size || memcmp(got.data, want, got.len) != 0) {
				res->corrupt++;
				rpb_verify_problem(res, "key %s has the wrong value", key);
			}
		}
	}
	if (!rc) {
		char lo[EX_KEY_MAX], hi[EX_KEY_MAX];
		int lolen = snprintf(lo, sizeof lo, "x/%s/", ledger->run_tag);
		int hilen = snprintf(hi, sizeof hi, "x/%s0", ledger->run_tag); /* '0' follows '/' */
		rpb_slice after = rpb_slice_make(lo, (size_t)lolen), upto = rpb_slice_make(hi, (size_t)hilen);
		struct vscan v = {ledger, res};
		rc = b->scan(s, RPB_T_OBJECTS, &after, &upto, 0, scan_entry, &v, err);
	}
	if (s) {
		b->rollback(s);
		b->session_close(s);
	}
	rpb_buf_free(&got);
	free(want);
	return rc;
}

const struct rpb_pattern rpb_pattern_example = {
	.name = "example",
	.noun = "puts",
	.labels = example_labels,
	.nlabels = 1,
	.label_dirs = example_label_dirs,
	.options = example_options,
	.config_size = sizeof(struct example_opts),
	.worker_init = example_worker_init,
	.worker_fini = example_worker_fini,
	.op = example_op,
	.verify = example_verify,
};
