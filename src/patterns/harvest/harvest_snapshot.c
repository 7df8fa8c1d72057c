/* token = snapshot, as later mod-oai-pmh versions do: at harvest start the
 * ids the harvest must return are copied, in datestamp order, into a table
 * of their own (RPB_T_SNAPSHOTS, keys <run tag prefix><harvest id><position>,
 * HV_SNAP_CHUNK per write transaction); pages are then read by position,
 * and the harvest's rows are deleted after its last page. The copy is the
 * "initial DB spike" of the report; it is sampled as label snapshot-build,
 * the drop as snapshot-drop. With snapshot_build = background a filler
 * worker makes the same copy chunk by chunk (harvest_fill.c). */
#include <inttypes.h>
#include <string.h>

#include "clock.h"
#include "harvest_run.h"

/* "hvs/<run tag>/": snapshots belong to the run that made them. */
static size_t snap_key(const struct rpb_runner *rn, unsigned char *k, uint64_t harvest,
		       bool with_pos, uint64_t pos)
{
	size_t n = 0;
	memcpy(k, "hvs/", 4);
	n = 4;
	size_t tl = strlen(rn->run_tag);
	memcpy(k + n, rn->run_tag, tl);
	n += tl;
	k[n++] = '/';
	hv_put_be(k + n, harvest, 8);
	n += 8;
	if (with_pos) {
		hv_put_be(k + n, pos, 8);
		n += 8;
	}
	return n;
}

enum rpb_status hv_snapshot_drop(struct rpb_worker *w, struct hv_worker *hw, struct rpb_session *s,
				 struct rpb_err *err)
{
	const struct rpb_backend *b = w->rn->backend;
	unsigned char key[HV_SNAP_KEY];
	enum rpb_status st = RPB_OK;
	/* From the end, so a drop cut short leaves a prefix to drop later. */
	while (!st && hw->snap_count) {
		uint64_t to = hw->snap_count > HV_SNAP_CHUNK ? hw->snap_count - HV_SNAP_CHUNK : 0;
		st = rpb_txn_begin(w, s, RPB_TXN_WRITE, err);
		for (uint64_t p = to; !st && p < hw->snap_count; p++) {
			size_t kl = snap_key(w->rn, key, hw->snap_harvest, true, p);
			st = b->del(s, RPB_T_SNAPSHOTS, rpb_slice_make(key, kl), err);
			if (st == RPB_NOT_FOUND)
				st = RPB_OK;
		}
		st = rpb_txn_finish(w, s, st, err);
		if (!st)
			hw->snap_count = to;
	}
	if (!st)
		hw->snap_live = false;
	return st;
}

enum rpb_status hv_snapshot_chunk(struct rpb_worker *w, struct hv_worker *hw,
				  struct rpb_session *s, const struct hv_token *t, bool first,
				  int64_t *last_ds, uint64_t *last_n, uint64_t count, unsigned *copied,
				  struct rpb_err *err)
{
	const struct rpb_backend *b = w->rn->backend;
	unsigned char key[HV_SNAP_KEY], val[16];
	*copied = 0;
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_WRITE, err);
	if (!st)
		st = hv_scan_index(hw, b, s, t, first, *last_ds, *last_n, HV_SNAP_CHUNK, err);
	for (unsigned k = 0; !st && k < hw->page_len; k++) {
		size_t kl = snap_key(w->rn, key, t->harvest, true, count + k);
		hv_put_be(val, (uint64_t)hw->page_ds[k], 8);
		hv_put_be(val + 8, hw->page_n[k], 8);
		st = b->put(s, RPB_T_SNAPSHOTS, rpb_slice_make(key, kl), rpb_slice_make(val, 16), err);
	}
	st = rpb_txn_finish(w, s, st, err);
	if (st)
		return st;
	*copied = hw->page_len;
	if (hw->page_len) {
		*last_ds = hw->page_ds[hw->page_len - 1];
		*last_n = hw->page_n[hw->page_len - 1];
	}
	return RPB_OK;
}

enum rpb_status hv_snapshot_build(struct rpb_worker *w, struct hv_worker *hw,
				  struct rpb_session *s, const struct hv_token *t,
				  struct rpb_err *err)
{
	enum rpb_status st = hw->snap_live ? hv_snapshot_drop(w, hw, s, err) : RPB_OK;
	if (st)
		return st;
	hw->snap_live = true;
	hw->snap_harvest = t->harvest;
	hw->snap_count = 0;
	int64_t last_ds = 0;
	uint64_t last_n = 0;
	for (bool first = true;; first = false) {
		unsigned copied;
		st = hv_snapshot_chunk(w, hw, s, t, first, &last_ds, &last_n, hw->snap_count, &copied,
				       err);
		if (st)
			return st;
		hw->snap_count += copied;
		if (copied < HV_SNAP_CHUNK)
			return RPB_OK;
	}
}

struct snap_collect {
	struct hv_worker *hw;
	unsigned max;
};

static int collect_snap(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)key;
	struct snap_collect *c = ctx;
	struct hv_worker *hw = c->hw;
	if (val.len != 16) {
		hw->page_bad = true;
		return 1;
	}
	hw->page_ds[hw->page_len] = (int64_t)hv_get_be(val.data, 8);
	hw->page_n[hw->page_len] = hv_get_be((const unsigned char *)val.data + 8, 8);
	return ++hw->page_len >= c->max;
}

enum rpb_status hv_snapshot_page(struct hv_worker *hw, const struct rpb_backend *b,
				 struct rpb_session *s, uint64_t harvest, uint64_t pos,
				 unsigned limit, struct rpb_err *err)
{
	unsigned char lo[HV_SNAP_KEY], hi[HV_SNAP_KEY];
	/* Position 0: the bare harvest prefix sorts before every position. */
	size_t lolen = snap_key(hw->rn, lo, harvest, pos > 0, pos ? pos - 1 : 0);
	size_t hilen = snap_key(hw->rn, hi, harvest, true, UINT64_MAX);
	rpb_slice after = rpb_slice_make(lo, lolen), upto = rpb_slice_make(hi, hilen);
	struct snap_collect col = {hw, limit};
	hw->page_len = 0;
	hw->page_bad = false;
	enum rpb_status st = b->scan(s, RPB_T_SNAPSHOTS, &after, &upto, limit, collect_snap, &col, err);
	if (!st && hw->page_bad)
		st = rpb_err_set(err, RPB_CORRUPT, 0, NULL, "a snapshot entry has the wrong length");
	return st;
}
