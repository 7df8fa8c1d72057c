/* The harvest pattern: FOLIO mod-oai-pmh's full OAI-PMH harvest, ListRecords
 * with resumption tokens, measured at the persistence layer
 * (docs/workloads.md, "harvest").
 *
 * prepare loads the corpus (timed and reported apart from the harvest), or
 * keeps one already in the store (reuse = on). Each runner thread is a
 * harvester that runs complete harvests back to back; one runner operation
 * is one request: decode the token, read the next page (a range scan of
 * the datestamp or set index, limit page_size + 1, then one record fetch per
 * entry, all in one read transaction), assemble the OAI-PMH response in the
 * worker's buffer, issue the next token. Every returned identifier is
 * checked against what the seed says the harvest must return, with a
 * bitmap of records/8 bytes per harvester, so a harvest with a missing, a
 * duplicate or a foreign record fails (corrupt). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "harvest.h"
#include "harvest_run.h"
#include "hostinfo.h"
#include "runner.h"

static const char *const hv_labels[HV_NLABELS] = {"request", "snapshot-build", "snapshot-drop",
						   "write-create", "write-update"};
/* A request's bytes are its response's; snapshots record none; the
 * writers' samples carry the records they wrote. */
static const enum rpb_bytes_dir hv_label_dirs[HV_NLABELS] = {
	RPB_BYTES_RECEIVED, RPB_BYTES_NONE, RPB_BYTES_NONE, RPB_BYTES_SENT, RPB_BYTES_SENT,
};

#define HV_MODIFIED "modified-by-writers"

static bool blind(const struct rpb_runner *rn)
{
	return (rn->backend->flags & RPB_BF_STORES_NOTHING) != 0;
}

/* ---- prepare: the corpus ---- */

static enum rpb_status load_batch(struct hv_shared *sh, const struct rpb_backend *b,
				  struct rpb_session *s, uint64_t from, uint64_t to,
				  unsigned char *buf, size_t cap, struct rpb_err *err)
{
	const struct hv_corpus *c = &sh->corpus;
	unsigned char key[HV_SET_KEY];
	enum rpb_status st = b->begin(s, RPB_TXN_WRITE, err);
	for (uint64_t n = from; !st && n < to; n++) {
		struct hv_rec r;
		size_t len = hv_record(c, n, &r, buf, cap);
		sh->load_bytes += len;
		st = b->put(s, RPB_T_DESCRIPTIONS, rpb_slice_make(key, hv_key_rec(c, key, n)),
			    rpb_slice_make(buf, len), err);
		if (!st)
			st = b->put(s, RPB_T_DATESTAMPS, rpb_slice_make(key, hv_key_ds(c, key, r.ds, n)),
				    rpb_slice_make("", 0), err);
		for (unsigned k = 0; !st && k < r.nsets; k++)
			st = b->put(s, RPB_T_SETS,
				    rpb_slice_make(key, hv_key_set(c, key, r.set[k], r.ds, n)),
				    rpb_slice_make("", 0), err);
	}
	if (!st)
		st = b->commit(s, err);
	if (st)
		b->rollback(s);
	return st;
}

static enum rpb_status corpus_present(struct hv_shared *sh, const struct rpb_backend *b,
				      struct rpb_session *s, bool *present, struct rpb_err *err)
{
	char key[HV_META_KEY_MAX];
	struct rpb_buf v = {0};
	enum rpb_status st = b->begin(s, RPB_TXN_READ, err);
	if (!st)
		st = b->get(s, RPB_T_META, rpb_slice_make(key, hv_key_meta(&sh->corpus, key)), &v, err);
	*present = st == RPB_OK;
	if (st == RPB_NOT_FOUND)
		st = RPB_OK;
	/* A corpus writers changed is no longer what the seed says: neither a
	 * harvest's expected set nor verify could stand behind it. */
	if (!st && *present && v.len >= sizeof HV_MODIFIED - 1 &&
	    memmem(v.data, v.len, HV_MODIFIED, sizeof HV_MODIFIED - 1))
		st = rpb_err_set(err, RPB_INVALID, 0, NULL,
				 "corpus %s was changed by an earlier run's writers; reuse = on needs "
				 "a corpus as loaded: run with reuse = off on a fresh store (--fresh)",
				 sh->corpus.prefix);
	if (!st)
		st = b->commit(s, err);
	if (st)
		b->rollback(s);
	rpb_buf_free(&v);
	return st;
}

static enum rpb_status mark_loaded(struct hv_shared *sh, const struct rpb_backend *b,
				   struct rpb_session *s, struct rpb_err *err)
{
	char key[HV_META_KEY_MAX], val[64];
	int vlen = snprintf(val, sizeof val, "records=%" PRIu64 "%s", sh->corpus.o->records,
			    sh->corpus.o->writers ? " " HV_MODIFIED : "");
	enum rpb_status st = b->begin(s, RPB_TXN_WRITE, err);
	if (!st)
		st = b->put(s, RPB_T_META, rpb_slice_make(key, hv_key_meta(&sh->corpus, key)),
			    rpb_slice_make(val, (size_t)vlen), err);
	if (!st)
		st = b->commit(s, err);
	if (st)
		b->rollback(s);
	return st;
}

static enum rpb_status load(struct rpb_runner *rn, struct hv_shared *sh, struct rpb_err *err)
{
	const struct rpb_backend *b = rn->backend;
	const struct rpb_harvest_opts *o = hv_opts(rn->job);
	size_t cap = HV_HDR + hv_payload_max(&sh->corpus);
	unsigned char *buf = malloc(cap);
	struct rpb_session *s = NULL;
	if (!buf)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the corpus loader");
	enum rpb_status st = b->session_open(rn->store, &s, err);
	bool present = false;
	if (!st && o->reuse && !blind(rn))
		st = corpus_present(sh, b, s, &present, err);
	uint64_t t0 = rpb_now_ns(), next_line = t0 + (uint64_t)(rn->job->run.interval * 1e9);
	sh->load_skipped = present;
	for (uint64_t n = 0; !st && !present && n < o->records; n += o->load_batch) {
		uint64_t to = o->records - n > o->load_batch ? n + o->load_batch : o->records;
		st = load_batch(sh, b, s, n, to, buf, cap, err);
		sh->load_txns++;
		sh->load_records = to;
		uint64_t now = rpb_now_ns();
		if (!rn->quiet && now >= next_line) {
			printf("load: %" PRIu64 " of %" PRIu64 " records, %.0f records/s\n", to, o->records,
			       (double)to / ((double)(now - t0) / 1e9));
			fflush(stdout);
			next_line = now + (uint64_t)(rn->job->run.interval * 1e9);
		}
	}
	/* Writers change the corpus: marked before they start. */
	if (!st && (!present || o->writers))
		st = mark_loaded(sh, b, s, err);
	sh->load_s = (double)(rpb_now_ns() - t0) / 1e9;
	b->session_close(s);
	free(buf);
	if (st)
		return st;
	if (!rn->quiet) {
		if (present)
			printf("load: skipped, corpus %s already in the store (reuse = on)\n",
			       sh->corpus.prefix);
		else
			printf("load: %" PRIu64 " records (%.1f MiB) in %.2f s: %.0f records/s\n",
			       sh->load_records, (double)sh->load_bytes / 1048576.0, sh->load_s,
			       sh->load_s > 0 ? (double)sh->load_records / sh->load_s : 0.0);
		fflush(stdout);
	}
	return RPB_OK;
}

/* What a harvest with the run's from/until/set must return, from the seed. */
static void count_expected(struct hv_shared *sh, const struct rpb_harvest_opts *o)
{
	struct rpb_rng rng;
	struct hv_rec r;
	for (uint64_t n = 0; n < o->records; n++) {
		hv_rec_attrs(&sh->corpus, n, &r, &rng);
		if (!hv_rec_matches(&r, o->from_s, hv_harvest_until(o), (unsigned)o->set))
			continue;
		sh->expected++;
		if (sh->expected_map)
			sh->expected_map[n >> 3] |= (unsigned char)(1u << (n & 7));
	}
	sh->expected_pages = sh->expected ? (sh->expected + o->page_size - 1) / o->page_size : 1;
}

static enum rpb_status hv_prepare(struct rpb_runner *rn, struct rpb_err *err)
{
	const struct rpb_harvest_opts *o = hv_opts(rn->job);
	struct hv_shared *sh = calloc(1, sizeof *sh);
	if (sh)
		sh->res = calloc(rn->nworkers, sizeof *sh->res);
	if (!sh || !sh->res) {
		free(sh);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the harvest pattern");
	}
	rn->pattern_state = sh;
	if (o->snapshot_build == RPB_HV_BUILD_BACKGROUND) {
		if (!(sh->fill = calloc(rn->nthreads, sizeof *sh->fill)))
			return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the fillers");
		for (unsigned t = 0; t < rn->nthreads; t++) {
			pthread_mutex_init(&sh->fill[t].mu, NULL);
			pthread_cond_init(&sh->fill[t].cv, NULL);
		}
		sh->fillers = rn->nthreads;
	}
	for (unsigned t = 0; t < rn->nworkers; t++) {
		rpb_hist_init(&sh->res[t].depth[0]);
		rpb_hist_init(&sh->res[t].depth[1]);
	}
	if (!hv_corpus_init(&sh->corpus, o, rn->job->run.seed))
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "the %s record template lacks its <!--note--> part; rebuild from an "
				   "intact data/records/", o->format == RPB_HV_OAI_DC ? "oai_dc" : "marc21");
	sh->key = hv_token_key(rn->run_tag);
	/* Writers: which expected records a harvest did not return is checked
	 * one by one (moved or missing), against this map. */
	if (o->writers && !(sh->expected_map = calloc(o->records / 8 + 1, 1)))
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the expected records");
	count_expected(sh, o);
	return load(rn, sh, err);
}

static void hv_fini(struct rpb_runner *rn)
{
	struct hv_shared *sh = rn->pattern_state;
	if (!sh)
		return;
	for (unsigned t = 0; t < sh->fillers; t++) {
		pthread_mutex_destroy(&sh->fill[t].mu);
		pthread_cond_destroy(&sh->fill[t].cv);
	}
	free(sh->fill);
	free(sh->res);
	free(sh->expected_map);
	free(sh);
	rn->pattern_state = NULL;
}

/* ---- the harvesters ---- */

static enum rpb_status hv_worker_init(struct rpb_worker *w, struct rpb_err *err)
{
	const struct rpb_harvest_opts *o = hv_opts(w->rn->job);
	struct hv_worker *hw = calloc(1, sizeof *hw);
	if (!hw)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for a harvester");
	w->state = hw;
	if (!hv_corpus_init(&hw->corpus, o, w->rn->job->run.seed))
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "broken record template");
	hw->rn = w->rn;
	unsigned first_filler = w->rn->nthreads + (unsigned)o->writers;
	if (w->id >= first_filler) {
		/* A filler: the chunk arrays of the copy, for its harvester. */
		hw->fills = true;
		hw->fill_h = w->id - first_filler;
		hw->page_ds = calloc(HV_SNAP_CHUNK, sizeof *hw->page_ds);
		hw->page_n = calloc(HV_SNAP_CHUNK, sizeof *hw->page_n);
		return hw->page_ds && hw->page_n
			       ? RPB_OK
			       : rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for a filler");
	}
	if (w->id >= w->rn->nthreads) {
		/* A writer: a record to read and one to write, nothing else. */
		hw->writer = true;
		hw->wk = w->id - w->rn->nthreads;
		size_t rec = HV_HDR + hv_payload_max(&hw->corpus);
		enum rpb_status st = rpb_buf_reserve(&hw->rec, rec, err);
		return st ? st : rpb_buf_reserve(&hw->resp, rec, err);
	}
	/* The page arrays also carry the snapshot copy's chunks. */
	size_t entries = o->page_size + 1;
	if (o->token == RPB_HV_SNAPSHOT && entries < HV_SNAP_CHUNK)
		entries = HV_SNAP_CHUNK;
	hw->page_ds = calloc(entries, sizeof *hw->page_ds);
	hw->page_n = calloc(entries, sizeof *hw->page_n);
	hw->seen = calloc(o->records / 8 + 1, 1);
	if (!hw->page_ds || !hw->page_n || !hw->seen)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for a harvester's page");
	size_t rec = HV_HDR + hv_payload_max(&hw->corpus);
	enum rpb_status st = rpb_buf_reserve(&hw->rec, rec, err);
	/* A typical page; a page of larger records grows it once. */
	if (!st)
		st = rpb_buf_reserve(&hw->resp, 4096 + o->page_size * (2 * o->size_median + 512), err);
	return st;
}

static void hv_worker_fini(struct rpb_worker *w)
{
	struct hv_worker *hw = w->state;
	if (!hw)
		return;
	if (hw->active)
		hv_close_harvest(w, false);
	/* A snapshot whose harvest did not finish: dropped, as the server's
	 * cleanup would; a failure leaves rows only this run's tag names. */
	struct rpb_err err;
	if (hw->snap_live && w->nsessions) {
		if (((struct hv_shared *)w->rn->pattern_state)->fillers)
			hv_fill_settle(w, hw);
		(void)hv_snapshot_drop(w, hw, w->sessions[0], &err);
	}
	rpb_buf_free(&hw->rec);
	rpb_buf_free(&hw->resp);
	free(hw->page_ds);
	free(hw->page_n);
	free(hw->seen);
	free(hw);
	w->state = NULL;
}

/* writer_lead: waits until the writers have finished lead operations (each
 * has at most one in flight, so issued beyond one each), or the run stops. */
static void await_writers(struct rpb_worker *w, uint64_t lead)
{
	struct rpb_runner *rn = w->rn;
	for (;;) {
		uint64_t issued = 0;
		for (unsigned t = rn->nthreads; t < rn->nworkers; t++)
			issued += atomic_load_explicit(&rn->workers[t].issued, memory_order_relaxed);
		if (issued >= lead + (rn->nworkers - rn->nthreads) ||
		    atomic_load_explicit(&rn->stop, memory_order_relaxed))
			return;
		rpb_sleep_until(rpb_now_ns() + 1000000u);
	}
}

static enum rpb_status hv_op(struct rpb_worker *w, uint64_t i, struct rpb_err *err)
{
	const struct hv_worker *role = w->state;
	if (role->writer)
		return hv_write(w, i, err);
	if (role->fills)
		return hv_fill_op(w, i, err);
	uint64_t lead = hv_opts(w->rn->job)->writer_lead;
	if (i == 0 && lead && hv_opts(w->rn->job)->writers)
		await_writers(w, lead);
	uint64_t start = rpb_now_ns();
	struct hv_page pg = {0};
	enum rpb_status st = hv_request(w, i, &pg, err);
	uint64_t end = rpb_now_ns();
	if (!st && pg.check)
		st = hv_check_moved(w, err);
	/* The response's bytes, and in samples.jtl's responseMessage what it
	 * held: records, deletions, the length of the token it returned. */
	struct rpb_err note;
	if (!st && w->rn->jtl)
		snprintf(note.msg, sizeof note.msg,
			 "OK records=%" PRIu64 " deleted=%" PRIu64 " token_bytes=%u", pg.records,
			 pg.deleted, pg.token_bytes);
	rpb_sample(w, HV_L_REQUEST, start, end, st, st ? 0 : pg.bytes,
		   st ? err : w->rn->jtl ? &note : NULL);
	uint64_t lat = end - rpb_sample_from(w, start); /* as rpb_sample measures it */
	if (!st && w->warm) {
		struct hv_shared *sh = w->rn->pattern_state;
		uint64_t tenth = (sh->expected_pages + 9) / 10;
		if (pg.index < tenth)
			rpb_hist_record(&sh->res[w->id].depth[0], lat);
		if (pg.index + tenth >= sh->expected_pages)
			rpb_hist_record(&sh->res[w->id].depth[1], lat);
	}
	hv_account(w, &pg, st, lat);
	return st;
}

/* Beside the harvesters: the writers, then one filler per harvester. */
static unsigned hv_extra_workers(const struct rpb_job *job)
{
	const struct rpb_harvest_opts *o = hv_opts(job);
	unsigned fillers = o->snapshot_build == RPB_HV_BUILD_BACKGROUND ? (unsigned)job->run.threads : 0;
	return (unsigned)o->writers + fillers;
}

/* ---- result.json ---- */

static void hv_report_json(struct rpb_runner *rn, json_t *obj)
{
	struct hv_shared *sh = rn->pattern_state;
	if (!sh)
		return;
	hv_result_json(rn, sh, obj);
}

const struct rpb_pattern rpb_pattern_harvest = {
	.name = "harvest",
	.noun = "requests",
	.labels = hv_labels,
	.nlabels = HV_NLABELS,
	.label_dirs = hv_label_dirs,
	.options = harvest_options,
	.config_size = sizeof(struct rpb_harvest_opts),
	.finish = harvest_finish,
	.prepare = hv_prepare,
	.extra_workers = hv_extra_workers,
	.worker_init = hv_worker_init,
	.worker_fini = hv_worker_fini,
	.op = hv_op,
	.report_json = hv_report_json,
	.write_report = harvest_write_report,
	.fini = hv_fini,
	.verify = harvest_verify,
};
