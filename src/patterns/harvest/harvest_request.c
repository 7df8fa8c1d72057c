/* One ListRecords request: token in, page read in one read transaction,
 * OAI-PMH response assembled in the harvester's buffer, token out; and the
 * integrity bookkeeping of the harvest it belongs to. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "harvest_run.h"

static const char oai_head[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<OAI-PMH xmlns=\"http://www.openarchives.org/OAI/2.0/\" "
	"xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
	"xsi:schemaLocation=\"http://www.openarchives.org/OAI/2.0/ "
	"http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd\">\n";

/* Appends n bytes; grows the buffer only for a page larger than any before. */
static enum rpb_status put(struct rpb_buf *b, const void *p, size_t n, struct rpb_err *err)
{
	if (b->len + n > b->cap) {
		enum rpb_status st = rpb_buf_reserve(b, (b->len + n) * 2, err);
		if (st)
			return st;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return RPB_OK;
}

static enum rpb_status puts_(struct rpb_buf *b, const char *s, struct rpb_err *err)
{
	return put(b, s, strlen(s), err);
}

/* The next page of the harvest: from the index (keyset) or from the
 * harvest's snapshot, whose position the token holds in last_n. */
static enum rpb_status scan_page(struct hv_worker *hw, const struct rpb_backend *b,
				 struct rpb_session *s, const struct hv_token *t, unsigned limit,
				 struct rpb_err *err)
{
	if (t->strategy == RPB_HV_SNAPSHOT)
		return hv_snapshot_page(hw, b, s, t->harvest, t->last_n, limit, err);
	return hv_scan_index(hw, b, s, t, t->page == 0, t->last_ds, t->last_n, limit, err);
}

/* ---- the response ---- */

/* The envelope up to the first record; a resumed request echoes its token. */
static enum rpb_status response_head(struct rpb_buf *b, const struct rpb_harvest_opts *o,
				     const char *token, struct rpb_err *err)
{
	char line[512], now[32], args[160];
	hv_iso(now, sizeof now, (int64_t)time(NULL));
	if (token)
		snprintf(args, sizeof args, "resumptionToken=\"%s\"", token);
	else
		snprintf(args, sizeof args, "metadataPrefix=\"%s\"",
			 o->format == RPB_HV_OAI_DC ? "oai_dc" : "marc21");
	int n = snprintf(line, sizeof line,
			 "<responseDate>%s</responseDate>\n<request verb=\"ListRecords\" %s>"
			 "http://localhost/oai</request>\n<ListRecords>\n",
			 now, args);
	b->len = 0;
	enum rpb_status st = put(b, oai_head, sizeof oai_head - 1, err);
	return st ? st : put(b, line, (size_t)n, err);
}

static enum rpb_status response_record(struct rpb_buf *b, const struct hv_rec *r,
				       const unsigned char *payload, size_t plen, struct rpb_err *err)
{
	char line[512], ds[32];
	hv_iso(ds, sizeof ds, r->ds);
	int n = snprintf(line, sizeof line,
			 "<record><header%s><identifier>oai:rpbench:%" PRIu64
			 "</identifier><datestamp>%s</datestamp>",
			 r->deleted ? " status=\"deleted\"" : "", r->n, ds);
	for (unsigned k = 0; k < r->nsets; k++)
		n += snprintf(line + n, sizeof line - (size_t)n, "<setSpec>set%04u</setSpec>",
			      (unsigned)r->set[k]);
	n += snprintf(line + n, sizeof line - (size_t)n, "</header>%s",
		      r->deleted ? "</record>\n" : "<metadata>");
	enum rpb_status st = put(b, line, (size_t)n, err);
	if (!st && !r->deleted) {
		st = put(b, payload, plen, err);
		if (!st)
			st = puts_(b, "</metadata></record>\n", err);
	}
	return st;
}

static enum rpb_status response_tail(struct rpb_buf *b, const char *token, uint64_t cursor,
				     struct rpb_err *err)
{
	char line[256];
	int n = token ? snprintf(line, sizeof line,
				 "<resumptionToken cursor=\"%" PRIu64 "\">%s</resumptionToken>\n", cursor,
				 token)
		      : snprintf(line, sizeof line, "<resumptionToken cursor=\"%" PRIu64 "\"/>\n",
				 cursor);
	enum rpb_status st = put(b, line, (size_t)n, err);
	return st ? st : puts_(b, "</ListRecords>\n</OAI-PMH>\n", err);
}

/* ---- integrity ---- */

/* Checks record n of the page against the seed and this harvest; a
 * returned record the harvest must not hold counts as unexpected. */
static void check_returned(struct hv_worker *hw, const struct hv_token *t, int64_t ds, uint64_t n)
{
	const struct rpb_harvest_opts *o = hw->corpus.o;
	if (ds < 0)
		return; /* moved past until between the index scan and its fetch: not served */
	if (n >= o->records) {
		hw->row.unexpected++;
		return;
	}
	struct hv_rec r;
	struct rpb_rng rng;
	hv_rec_attrs(&hw->corpus, n, &r, &rng);
	if (r.ds != ds || !hv_rec_matches(&r, t->from_s, t->until_s, t->set)) {
		hw->row.unexpected++;
		return;
	}
	unsigned char bit = (unsigned char)(1u << (n & 7));
	if (hw->seen[n >> 3] & bit) {
		hw->row.duplicates++;
		return;
	}
	hw->seen[n >> 3] |= bit;
	hw->distinct++;
}

/* The test aid: spoils the token thread 0 presents on its second request. */
static size_t spoil(struct hv_worker *hw, uint64_t key, char *tok)
{
	size_t len = strlen(hw->token);
	memcpy(tok, hw->token, len + 1);
	struct hv_token t;
	struct rpb_err e;
	switch (hw->corpus.o->bad_token) {
	case RPB_HV_BAD_TAMPER:
		tok[30] = tok[30] == 'A' ? 'B' : 'A'; /* inside the until field */
		return len;
	case RPB_HV_BAD_TRUNCATE:
		tok[60] = '\0';
		return 60;
	case RPB_HV_BAD_FOREIGN:
		if (hv_token_decode(hw->token, len, key, &t, &e) == RPB_OK)
			hv_token_encode(&t, hv_token_key("another-run"), tok);
		return strlen(tok);
	case RPB_HV_BAD_GARBAGE:
		memset(tok, '!', HV_TOKEN_CHARS);
		tok[HV_TOKEN_CHARS] = '\0';
		return HV_TOKEN_CHARS;
	default:
		return len;
	}
}

static void start_harvest(struct hv_worker *hw)
{
	const struct rpb_harvest_opts *o = hw->corpus.o;
	memset(hw->seen, 0, o->records / 8 + 1);
	memset(&hw->row, 0, sizeof hw->row);
	hw->distinct = 0;
	hw->resumed = false;
	hw->row.start_ns = hw->row.end_ns = rpb_now_ns();
	hw->active = true;
}

/* The state of a request without a token: the harvest's first page. */
static void first_token(const struct rpb_worker *w, const struct hv_worker *hw, struct hv_token *t)
{
	const struct rpb_harvest_opts *o = hw->corpus.o;
	memset(t, 0, sizeof *t);
	t->strategy = o->token;
	t->set = (unsigned)o->set;
	t->from_s = o->from_s;
	t->until_s = hv_harvest_until(o);
	t->harvest = (uint64_t)w->id << 40 | hw->seq;
}

/* Decodes the token the harvester sends, spoiled first by the test aid. */
static enum rpb_status resume(struct rpb_worker *w, struct hv_worker *hw, uint64_t key,
			      struct hv_token *t, struct rpb_err *err)
{
	const struct rpb_harvest_opts *o = hw->corpus.o;
	char spoiled[HV_TOKEN_CHARS + 1];
	const char *sent = hw->token;
	size_t len = strlen(sent);
	if (o->bad_token && w->id == 0 && !hw->spoiled) {
		hw->spoiled = true;
		len = spoil(hw, key, spoiled);
		sent = spoiled;
	}
	enum rpb_status st = hv_token_decode(sent, len, key, t, err);
	if (!st && t->strategy != o->token)
		st = rpb_err_set(err, RPB_INVALID, 0, NULL,
				 "badResumptionToken: a %s token, this server pages by %s; restart "
				 "the harvest without a token",
				 t->strategy ? "snapshot" : "keyset", o->token ? "snapshot" : "keyset");
	if (!st && t->strategy == RPB_HV_SNAPSHOT &&
	    (!hw->snap_live || hw->snap_harvest != t->harvest))
		st = rpb_err_set(err, RPB_INVALID, 0, NULL,
				 "badResumptionToken: no snapshot of harvest %" PRIx64 " (expired); "
				 "restart the harvest without a token", t->harvest);
	return st;
}

enum rpb_status hv_request(struct rpb_worker *w, uint64_t i, struct hv_page *pg,
			   struct rpb_err *err)
{
	(void)i;
	struct rpb_runner *rn = w->rn;
	const struct rpb_backend *b = rn->backend;
	struct hv_shared *sh = rn->pattern_state;
	struct hv_worker *hw = w->state;
	const struct rpb_harvest_opts *o = hv_opts(rn->job);
	struct rpb_session *s = rpb_next_session(w);
	struct hv_token t;
	const char *sent = NULL;
	enum rpb_status st;
	if (!hw->active)
		start_harvest(hw);
	if (hw->resumed) {
		st = resume(w, hw, sh->key, &t, err);
		if (st) {
			sh->res[w->id].bad_tokens++;
			pg->abandon = true;
			return st;
		}
		sent = hw->token;
	} else {
		first_token(w, hw, &t);
		if (t.strategy == RPB_HV_SNAPSHOT && o->snapshot_build == RPB_HV_BUILD_BACKGROUND) {
			st = hv_fill_start(w, hw, s, &t, err);
			if (st)
				return st;
		} else if (t.strategy == RPB_HV_SNAPSHOT) {
			uint64_t t0 = rpb_now_ns();
			st = hv_snapshot_build(w, hw, s, &t, err);
			rpb_sample(w, HV_L_BUILD, t0, rpb_now_ns(), st, 0, st ? err : NULL);
			if (st)
				return st;
		}
	}
	pg->index = t.page;
	unsigned limit = (unsigned)o->page_size + 1;
	/* Background copy: this page (and whether one follows) must have
	 * arrived; the wait is part of the request. */
	if (t.strategy == RPB_HV_SNAPSHOT && o->snapshot_build == RPB_HV_BUILD_BACKGROUND) {
		st = hv_fill_wait(w, hw, t.last_n + limit, err);
		if (st)
			return st;
	}
	st = rpb_txn_begin(w, s, RPB_TXN_READ, err);
	if (!st)
		st = scan_page(hw, b, s, &t, limit, err);
	if (!st)
		st = response_head(&hw->resp, o, sent, err);
	unsigned served = hw->page_len < limit ? hw->page_len : limit - 1;
	/* The token resumes after the last entry, even one not served. */
	int64_t tail_ds = served ? hw->page_ds[served - 1] : 0;
	uint64_t tail_n = served ? hw->page_n[served - 1] : 0;
	unsigned char key[HV_REC_KEY];
	for (unsigned k = 0; !st && k < served; k++) {
		uint64_t n = hw->page_n[k];
		st = b->get(s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, hv_key_rec(&hw->corpus, key, n)),
			    &hw->rec, err);
		struct hv_rec r;
		if (st == RPB_NOT_FOUND)
			st = rpb_err_set(err, RPB_CORRUPT, 0, NULL,
					 "oai:rpbench:%" PRIu64 " is in the index but its record is "
					 "missing; reload the corpus (reuse = off)", n);
		else if (!st && !hv_record_header(hw->rec.data, hw->rec.len, &r))
			st = rpb_err_set(err, RPB_CORRUPT, 0, NULL,
					 "oai:rpbench:%" PRIu64 ": its record's header is malformed; "
					 "reload the corpus (reuse = off)", n);
		else if (!st && r.ds != hw->page_ds[k] && o->writers && r.ds > t.until_s) {
			/* A writer updated it after the scan (a read transaction that
			 * sees each statement's commits): keyset leaves it to the
			 * next harvest; a snapshot lists it with its current content. */
			if (t.strategy == RPB_HV_KEYSET) {
				hw->page_ds[k] = -1;
				continue;
			}
		} else if (!st && r.ds != hw->page_ds[k])
			st = rpb_err_set(err, RPB_CORRUPT, 0, NULL,
					 "oai:rpbench:%" PRIu64 ": its record's header disagrees with "
					 "the index; reload the corpus (reuse = off)", n);
		if (st)
			break;
		r.n = n;
		st = response_record(&hw->resp, &r, hw->rec.data + HV_HDR, hw->rec.len - HV_HDR, err);
		pg->records++;
		pg->deleted += r.deleted;
	}
	st = rpb_txn_finish(w, s, st, err);
	if (st)
		return st; /* the token stays: the next request asks for this page again */

	struct hv_token next = t;
	bool more = hw->page_len == limit;
	char out[HV_TOKEN_CHARS + 1];
	if (more) {
		next.page++;
		next.last_ds = tail_ds;
		next.last_n = t.strategy == RPB_HV_SNAPSHOT ? t.last_n + served : tail_n;
		hv_token_encode(&next, sh->key, out);
	}
	uint64_t cursor = (uint64_t)t.page * o->page_size;
	st = response_tail(&hw->resp, more ? out : NULL, cursor, err);
	if (st)
		return st;
	for (unsigned k = 0; k < served; k++)
		check_returned(hw, &t, hw->page_ds[k], hw->page_n[k]);
	pg->bytes = hw->resp.len;
	pg->token_bytes = more ? HV_TOKEN_CHARS : 0;
	pg->last = !more;
	if (more)
		memcpy(hw->token, out, sizeof out);
	if (more)
		hw->resumed = true;
	if (!more && t.strategy == RPB_HV_SNAPSHOT) {
		uint64_t t0 = rpb_now_ns();
		st = hv_snapshot_drop(w, hw, s, err);
		rpb_sample(w, HV_L_DROP, t0, rpb_now_ns(), st, 0, st ? err : NULL);
		if (st)
			return st;
	}
	/* With writers, which expected records are absent is checked record by
	 * record after the request (hv_check_moved), outside its latency. */
	pg->check = !more && o->writers && !(b->flags & RPB_BF_STORES_NOTHING);
	if (!more && !pg->check && !(b->flags & RPB_BF_STORES_NOTHING)) {
		hw->row.missing = sh->expected > hw->distinct ? sh->expected - hw->distinct : 0;
		if (hw->row.missing || hw->row.duplicates || hw->row.unexpected)
			return rpb_err_set(err, RPB_CORRUPT, 0, NULL,
					   "harvest %" PRIu64 " of thread %u is wrong: %" PRIu64
					   " missing, %" PRIu64 " duplicates, %" PRIu64
					   " unexpected of %" PRIu64 " expected records",
					   hw->seq + 1, w->id + 1, hw->row.missing, hw->row.duplicates,
					   hw->row.unexpected, sh->expected);
	}
	return RPB_OK;
}

/* Each expected record the harvest did not return: moved if its stored
 * datestamp is now past the harvest's until (a writer updated it: it
 * belongs to the next harvest), else missing. */
enum rpb_status hv_check_moved(struct rpb_worker *w, struct rpb_err *err)
{
	struct hv_worker *hw = w->state;
	struct hv_shared *sh = w->rn->pattern_state;
	const struct rpb_backend *b = w->rn->backend;
	const struct rpb_harvest_opts *o = hw->corpus.o;
	int64_t until = hv_harvest_until(o);
	struct rpb_session *s = rpb_next_session(w);
	unsigned char key[HV_REC_KEY];
	enum rpb_status st = rpb_txn_begin(w, s, RPB_TXN_READ, err);
	for (uint64_t byte = 0; !st && byte <= o->records / 8; byte++) {
		unsigned absent = sh->expected_map[byte] & (unsigned)~hw->seen[byte];
		for (unsigned bit = 0; !st && absent; bit++, absent >>= 1) {
			if (!(absent & 1))
				continue;
			uint64_t n = byte * 8 + bit;
			struct hv_rec r;
			st = b->get(s, RPB_T_DESCRIPTIONS,
				    rpb_slice_make(key, hv_key_rec(&hw->corpus, key, n)), &hw->rec, err);
			if (st == RPB_NOT_FOUND) {
				st = RPB_OK;
				hw->row.missing++;
			} else if (!st) {
				bool moved = hv_record_header(hw->rec.data, hw->rec.len, &r) && r.ds > until;
				hw->row.moved += moved;
				hw->row.missing += !moved;
			}
		}
	}
	st = rpb_txn_finish(w, s, st, err);
	if (st)
		return st;
	if (hw->row.missing || hw->row.duplicates || hw->row.unexpected)
		return rpb_err_set(err, RPB_CORRUPT, 0, NULL,
				   "harvest %" PRIu64 " of thread %u is wrong: %" PRIu64
				   " missing, %" PRIu64 " duplicates, %" PRIu64 " unexpected of %" PRIu64
				   " expected records (%" PRIu64 " moved by writers)",
				   hw->seq + 1, w->id + 1, hw->row.missing, hw->row.duplicates,
				   hw->row.unexpected, sh->expected, hw->row.moved);
	return RPB_OK;
}

void hv_close_harvest(struct rpb_worker *w, bool completed)
{
	struct hv_worker *hw = w->state;
	struct hv_shared *sh = w->rn->pattern_state;
	hw->active = false;
	hw->seq++;
	if (!sh)
		return;
	struct hv_wres *res = &sh->res[w->id];
	hw->row.completed = completed;
	if (res->nrows < HV_ROWS_MAX)
		res->rows[res->nrows++] = hw->row;
	else
		res->dropped++;
	if (completed)
		res->completed++;
	else
		res->incomplete++;
	res->records += hw->row.records;
	res->bytes += hw->row.bytes;
	res->missing += hw->row.missing;
	res->duplicates += hw->row.duplicates;
	res->unexpected += hw->row.unexpected;
	res->moved += hw->row.moved;
}

void hv_account(struct rpb_worker *w, const struct hv_page *pg, enum rpb_status st, uint64_t lat)
{
	struct hv_worker *hw = w->state;
	if (!hw->active)
		return;
	hw->row.requests++;
	hw->row.lat_ns += lat;
	hw->row.end_ns = rpb_now_ns();
	if (st == RPB_OK || pg->last) {
		hw->row.records += pg->records;
		hw->row.deleted += pg->deleted;
		hw->row.bytes += pg->bytes;
	}
	if (pg->abandon)
		hv_close_harvest(w, false);
	else if (pg->last)
		hv_close_harvest(w, st == RPB_OK);
}
