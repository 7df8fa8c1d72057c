/* The index scan shared by the keyset pages (harvest_request.c) and the
 * snapshot's build (harvest_snapshot.c): the (datestamp, record) entries of
 * a token's range, in key order, into the harvester's page arrays. */
#include <string.h>

#include "harvest_run.h"

struct collect {
	struct hv_worker *hw;
	size_t tail;   /* offset of the datestamp in a key */
	size_t keylen;
	unsigned max;
};

static int collect_entry(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)val;
	struct collect *c = ctx;
	struct hv_worker *hw = c->hw;
	if (key.len != c->keylen) {
		hw->page_bad = true;
		return 1;
	}
	const unsigned char *k = key.data;
	hw->page_ds[hw->page_len] = (int64_t)hv_get_be(k + c->tail, 8);
	hw->page_n[hw->page_len] = hv_get_be(k + c->tail + 8, 8);
	return ++hw->page_len >= c->max;
}

/* Up to limit entries of the token's index range into the page arrays:
 * from its start (first), else after (last_ds, last_n). */
enum rpb_status hv_scan_index(struct hv_worker *hw, const struct rpb_backend *b,
			      struct rpb_session *s, const struct hv_token *t, bool first,
			      int64_t last_ds, uint64_t last_n, unsigned limit, struct rpb_err *err)
{
	const struct hv_corpus *c = &hw->corpus;
	unsigned char lo[HV_SET_KEY], hi[HV_SET_KEY];
	size_t head = HV_PREFIX_LEN;
	memcpy(lo, c->prefix, HV_PREFIX_LEN);
	if (t->set) {
		hv_put_be(lo + head, t->set, 2);
		head += 2;
	}
	memcpy(hi, lo, head);
	size_t lolen;
	if (first) {
		/* Every key of the first datestamp is longer, so after it. */
		hv_put_be(lo + head, (uint64_t)t->from_s, 8);
		lolen = head + 8;
	} else {
		hv_put_be(lo + head, (uint64_t)last_ds, 8);
		hv_put_be(lo + head + 8, last_n, 8);
		lolen = head + 16;
	}
	hv_put_be(hi + head, (uint64_t)t->until_s, 8);
	memset(hi + head + 8, 0xff, 8);
	rpb_slice after = rpb_slice_make(lo, lolen), upto = rpb_slice_make(hi, head + 16);
	struct collect col = {hw, head, head + 16, limit};
	hw->page_len = 0;
	hw->page_bad = false;
	enum rpb_status st = b->scan(s, t->set ? RPB_T_SETS : RPB_T_DATESTAMPS, &after, &upto, limit,
				     collect_entry, &col, err);
	if (!st && hw->page_bad)
		st = rpb_err_set(err, RPB_CORRUPT, 0, NULL,
				 "an index key of corpus %s has the wrong length", c->prefix);
	return st;
}
