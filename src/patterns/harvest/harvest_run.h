/* Internal to the harvest pattern's run: the harvesters' state, the shared
 * state prepare builds, and the per-harvest rows of the report. */
#ifndef RPB_HARVEST_RUN_H
#define RPB_HARVEST_RUN_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "harvest.h"
#include "runner.h"

/* The pattern's sample labels; label 0 is one request. */
enum { HV_L_REQUEST = 0, HV_L_BUILD, HV_L_DROP, HV_L_CREATE, HV_L_UPDATE, HV_NLABELS };

/* Harvest rows kept per harvester for the report (FOLIO's one row per test);
 * later harvests are counted in the totals only. */
#define HV_ROWS_MAX 64
/* token = snapshot: entries copied or dropped per write transaction. */
#define HV_SNAP_CHUNK 1000u
#define HV_SNAP_KEY (4 + 16 + 1 + 16) /* "hvs/", run tag, "/", harvest, position */

struct hv_row {
	uint64_t start_ns, end_ns; /* the first request's start, the last's end */
	uint64_t requests;
	uint64_t lat_ns;           /* summed request latencies */
	uint64_t records, deleted, bytes;
	uint64_t missing, duplicates, unexpected;
	uint64_t moved;            /* expected, not returned: updated past until meanwhile */
	bool completed;
};

/* One harvester's results, written by that harvester only. */
struct hv_wres {
	struct hv_row rows[HV_ROWS_MAX];
	unsigned nrows;
	uint64_t dropped;            /* harvests beyond HV_ROWS_MAX */
	uint64_t completed, incomplete;
	uint64_t records, bytes, missing, duplicates, unexpected, bad_tokens, moved;
	uint64_t creates, updates;   /* a writer's acknowledged operations */
	uint64_t fill_waits;         /* requests that waited for the fill frontier */
	uint64_t fill_wait_ns;       /* ... and how long, in all */
	/* Latency of the first and the last 10% of a harvest's pages (after
	 * the warm-up): kept apart from the runner's labels so every request
	 * is one sample there. */
	struct rpb_hist depth[2];
};

/* snapshot_build = background: the hand-over between harvester h and its
 * filler (the extra worker threads + writers + h), under mu. The harvester
 * posts a job when a harvest starts (or cancels the one under way); the
 * filler copies the harvest's ids in chunks of HV_SNAP_CHUNK, one
 * transaction each, moving count (the fill frontier) and setting done at
 * the end or on a failure (st, err); requests wait on cv until the
 * frontier passes their page. */
struct hv_fill {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool pending, cancel;        /* set by the harvester */
	struct hv_token t;           /* the job: the harvest's range and id */
	bool busy, done;             /* set by the filler */
	uint64_t count;              /* entries copied for the current job */
	enum rpb_status st;
	struct rpb_err err;
	uint64_t batches, entries;   /* every job's, for the report */
};

/* What prepare builds for the whole run (read-only once workers start,
 * except each harvester's own res slot and its fill). */
struct hv_shared {
	struct hv_corpus corpus;
	uint64_t key;                /* the run's token checksum key */
	uint64_t expected;           /* records the configured harvest must return */
	uint64_t expected_pages;
	unsigned char *expected_map; /* writers: the records the harvest must return */
	bool load_skipped;
	uint64_t load_records, load_bytes, load_txns;
	double load_s;
	struct hv_wres *res;         /* per harvester */
	struct hv_fill *fill;        /* per harvester, snapshot_build = background */
	unsigned fillers;
};

struct hv_worker {
	struct rpb_runner *rn;
	struct hv_corpus corpus;
	bool writer;                 /* a writer, not a harvester */
	unsigned wk;                 /* writer: its index (w->id - threads) */
	bool fills;                  /* a filler, of harvester fill_h */
	unsigned fill_h;
	struct hv_token fill_t;      /* filler: the job under way and its cursor */
	int64_t fill_ds;
	uint64_t fill_n;
	bool active;                 /* a harvest is under way */
	char token[HV_TOKEN_CHARS + 1]; /* the token of its next request */
	uint64_t seq;                /* harvests started */
	bool spoiled;                /* bad_token: the test aid fired */
	bool resumed;                /* token holds the next request's token */
	struct hv_row row;           /* the harvest under way */
	uint64_t distinct;           /* distinct records it returned */
	int64_t *page_ds;            /* the page's index entries (page_size + 1) */
	uint64_t *page_n;
	unsigned page_len;
	bool page_bad;               /* an index key of the wrong shape */
	unsigned char *seen;         /* bitmap of records returned by this harvest */
	bool snap_live;              /* token = snapshot: rows of snap_harvest exist */
	uint64_t snap_harvest, snap_count;
	struct rpb_buf rec, resp;
};

/* What one request did. */
struct hv_page {
	uint64_t index;              /* the page's number in its harvest, from 0 */
	uint64_t records, deleted, bytes;
	unsigned token_bytes;        /* the resumption token it returned; 0 on the last page */
	bool last;                   /* the harvest ended with it */
	bool abandon;                /* a refused token ended the harvest */
	bool check;                  /* writers: hv_check_moved is due after it */
};


/* One ListRecords request of worker w (harvest_request.c). */
enum rpb_status hv_request(struct rpb_worker *w, uint64_t i, struct hv_page *pg,
			   struct rpb_err *err);
/* Up to limit entries of the token's index range into the page arrays
 * (from its start when first, else after last_ds/last_n) (harvest_index.c). */
enum rpb_status hv_scan_index(struct hv_worker *hw, const struct rpb_backend *b,
			      struct rpb_session *s, const struct hv_token *t, bool first,
			      int64_t last_ds, uint64_t last_n, unsigned limit, struct rpb_err *err);
/* token = snapshot (harvest_snapshot.c): copy the harvest's ids into its
 * snapshot, read a page at a position, drop the snapshot. */
enum rpb_status hv_snapshot_build(struct rpb_worker *w, struct hv_worker *hw,
				  struct rpb_session *s, const struct hv_token *t,
				  struct rpb_err *err);
enum rpb_status hv_snapshot_page(struct hv_worker *hw, const struct rpb_backend *b,
				 struct rpb_session *s, uint64_t harvest, uint64_t pos,
				 unsigned limit, struct rpb_err *err);
enum rpb_status hv_snapshot_drop(struct rpb_worker *w, struct hv_worker *hw, struct rpb_session *s,
				 struct rpb_err *err);
/* One chunk of the copy in one write transaction: up to HV_SNAP_CHUNK index
 * entries of t's range after (*last_ds, *last_n) (from its start when
 * first) put at positions count.. of harvest t->harvest; *copied says how
 * many, and the cursor moves past them. */
enum rpb_status hv_snapshot_chunk(struct rpb_worker *w, struct hv_worker *hw,
				  struct rpb_session *s, const struct hv_token *t, bool first,
				  int64_t *last_ds, uint64_t *last_n, uint64_t count, unsigned *copied,
				  struct rpb_err *err);
/* snapshot_build = background (harvest_fill.c). The harvester: start a
 * harvest's copy (after cancelling and dropping the previous one), and wait
 * until the frontier reaches need entries or the copy is done (the wait is
 * part of the request; its failure is the request's). The filler's
 * operation: one chunk of its harvester's job, or, idle, wait for one. */
enum rpb_status hv_fill_start(struct rpb_worker *w, struct hv_worker *hw, struct rpb_session *s,
			      const struct hv_token *t, struct rpb_err *err);
enum rpb_status hv_fill_wait(struct rpb_worker *w, struct hv_worker *hw, uint64_t need,
			     struct rpb_err *err);
enum rpb_status hv_fill_op(struct rpb_worker *w, uint64_t i, struct rpb_err *err);
/* Stops the filler's job of a harvester that ends, so its snapshot can be
 * dropped: hw->snap_count becomes what was copied. */
void hv_fill_settle(struct rpb_worker *w, struct hv_worker *hw);
/* A writer's operation i (harvest_write.c). */
enum rpb_status hv_write(struct rpb_worker *w, uint64_t i, struct rpb_err *err);
/* Writers: after a harvest's last page, sorts the expected records it did
 * not return into moved and missing; RPB_CORRUPT if it is wrong. */
enum rpb_status hv_check_moved(struct rpb_worker *w, struct rpb_err *err);
/* Books a request's outcome and latency into the harvest under way. */
void hv_account(struct rpb_worker *w, const struct hv_page *pg, enum rpb_status st, uint64_t lat);
/* Ends the harvest under way as completed or not. */
void hv_close_harvest(struct rpb_worker *w, bool completed);
/* The pattern's figures for result.json (harvest_report.c). */
void hv_result_json(struct rpb_runner *rn, const struct hv_shared *sh, json_t *obj);

#endif
