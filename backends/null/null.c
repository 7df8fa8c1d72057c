/* The null backend: accepts every write and keeps nothing, so a run against
 * it measures the harness alone (timing, histograms, payload generation). */
#include <stdatomic.h>
#include <stdlib.h>

#include "null_backend.h"
#include "store.h"

struct rpb_store {
	int unused;
};

struct rpb_session {
	bool in_txn;
	atomic_bool interrupted;
};

static const char *null_version(void)
{
	return "null (no library)";
}

static enum rpb_status null_open(const struct rpb_store_cfg *cfg, struct rpb_store **out,
				 struct rpb_err *err)
{
	*out = NULL;
	enum rpb_status st = rpb_cfg_parse(cfg, "null", NULL, NULL, err);
	if (st)
		return st;
	*out = calloc(1, sizeof **out);
	return *out ? RPB_OK : rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
}

static void null_close(struct rpb_store *st)
{
	free(st);
}

static enum rpb_status null_session_open(struct rpb_store *st, struct rpb_session **out,
					 struct rpb_err *err)
{
	(void)st;
	*out = rpb_calloc_lines(1, sizeof **out);
	return *out ? RPB_OK : rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
}

static void null_session_close(struct rpb_session *s)
{
	free(s);
}

/* Every data call goes through here, so the null backend enforces the same
 * call-order rules and interrupt semantics as the real ones. */
static enum rpb_status null_check(struct rpb_session *s, struct rpb_err *err)
{
	if (!s->in_txn)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "operation outside a transaction");
	if (atomic_load_explicit(&s->interrupted, memory_order_relaxed)) {
		s->in_txn = false;
		return rpb_err_set(err, RPB_TXN_TIMEOUT, 0, NULL, "transaction interrupted");
	}
	return RPB_OK;
}

static enum rpb_status null_begin(struct rpb_session *s, enum rpb_txn_mode mode,
				  struct rpb_err *err)
{
	(void)mode;
	if (s->in_txn)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "a transaction is already open");
	atomic_store_explicit(&s->interrupted, false, memory_order_relaxed);
	s->in_txn = true;
	return RPB_OK;
}

static enum rpb_status null_put(struct rpb_session *s, enum rpb_table t, rpb_slice key,
				rpb_slice val, struct rpb_err *err)
{
	(void)t, (void)key, (void)val;
	return null_check(s, err);
}

static enum rpb_status null_get(struct rpb_session *s, enum rpb_table t, rpb_slice key,
				struct rpb_buf *out, struct rpb_err *err)
{
	(void)t, (void)key, (void)out;
	enum rpb_status st = null_check(s, err);
	return st ? st : rpb_err_not_found(err);
}

static enum rpb_status null_del(struct rpb_session *s, enum rpb_table t, rpb_slice key,
				struct rpb_err *err)
{
	(void)t, (void)key;
	enum rpb_status st = null_check(s, err);
	return st ? st : rpb_err_not_found(err);
}

static enum rpb_status null_scan(struct rpb_session *s, enum rpb_table t, const rpb_slice *after,
				 const rpb_slice *upto, size_t limit, rpb_scan_fn fn, void *ctx,
				 struct rpb_err *err)
{
	(void)t, (void)after, (void)upto, (void)limit, (void)fn, (void)ctx;
	return null_check(s, err);
}

static enum rpb_status null_commit(struct rpb_session *s, struct rpb_err *err)
{
	enum rpb_status st = null_check(s, err);
	s->in_txn = false;
	return st;
}

static void null_rollback(struct rpb_session *s)
{
	s->in_txn = false;
}

static void null_interrupt(struct rpb_session *s)
{
	atomic_store_explicit(&s->interrupted, true, memory_order_relaxed);
}

static enum rpb_status null_usage(struct rpb_store *st, uint64_t *bytes, struct rpb_err *err)
{
	(void)st, (void)err;
	*bytes = 0;
	return RPB_OK;
}

const struct rpb_backend rpb_backend_null = {
	.name = "null",
	.abi = RPB_BACKEND_ABI,
	.flags = RPB_BF_STORES_NOTHING,
	.options = NULL,
	.version = null_version,
	.open = null_open,
	.close = null_close,
	.session_open = null_session_open,
	.session_close = null_session_close,
	.begin = null_begin,
	.put = null_put,
	.get = null_get,
	.del = null_del,
	.scan = null_scan,
	.commit = null_commit,
	.rollback = null_rollback,
	.interrupt = null_interrupt,
	.usage = null_usage,
};
