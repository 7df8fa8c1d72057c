/* Internal to the harvest pattern (FOLIO mod-oai-pmh: a full OAI-PMH
 * ListRecords harvest with resumption tokens): the corpus, its keys, the
 * tokens, shared by the run (harvest.c), the corpus generator
 * (harvest_corpus.c), the tokens (harvest_token.c), the report
 * (harvest_report.c) and verify (harvest_verify.c).
 *
 * The corpus is named by its options and seed, not by the run, so a later
 * run can harvest it again (reuse = on). Its keys start with the corpus
 * prefix "hv<12 hex>/" and order by memcmp (big-endian integers):
 *   descriptions  <prefix><n:8>                   -> record (header + payload)
 *   datestamps    <prefix><datestamp:8><n:8>      -> ""
 *   sets          <prefix><set:2><datestamp:8><n:8> -> ""
 *   meta          "harvest-corpus/<prefix>"        -> "records=<N>" once loaded
 * A record value is HV_HDR bytes (datestamp:8, deleted:1, nsets:1, sets
 * 3 x 2) then the metadata payload (empty for a tombstone). Record n is
 * identified as oai:rpbench:<n>; everything about it derives from (seed, n). */
#ifndef RPB_HARVEST_H
#define RPB_HARVEST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "rng.h"
#include "store.h"
#include "workload.h"

/* The [harvest] section (harvest_options.c). from and until are text as
 * given (a day offset into the corpus period or an ISO date YYYY-MM-DD);
 * harvest_finish resolves them to from_s/until_s, inclusive datestamp
 * bounds in seconds since the epoch. */
#define RPB_HV_DATE_MAX 10
#define RPB_HV_EPOCH INT64_C(1577836800) /* 2020-01-01T00:00:00Z: day 0 of the corpus */
enum rpb_hv_format { RPB_HV_MARC21 = 0, RPB_HV_OAI_DC };
enum rpb_hv_token { RPB_HV_KEYSET = 0, RPB_HV_SNAPSHOT };
enum rpb_hv_build { RPB_HV_BUILD_SYNC = 0, RPB_HV_BUILD_BACKGROUND };
enum rpb_hv_bad { RPB_HV_BAD_OFF = 0, RPB_HV_BAD_TAMPER, RPB_HV_BAD_TRUNCATE, RPB_HV_BAD_FOREIGN,
		  RPB_HV_BAD_GARBAGE };
struct rpb_harvest_opts {
	uint64_t records;      /* corpus size */
	uint64_t sets;         /* each record is in 1-3 of them */
	double deleted;        /* fraction of records that are tombstones */
	uint64_t period;       /* datestamps spread over this many days from RPB_HV_EPOCH */
	uint64_t size_median;  /* metadata payload bytes, log-normal around this */
	double size_sigma;
	enum rpb_hv_format format;
	uint64_t page_size;    /* records per response (maxRecordsPerResponse) */
	char from[RPB_HV_DATE_MAX + 1], until[RPB_HV_DATE_MAX + 1];
	uint64_t set;          /* harvest only this set (1-based); 0 = all records */
	enum rpb_hv_token token;
	enum rpb_hv_build snapshot_build; /* token = snapshot: copy in the request or beside it */
	bool reuse;            /* keep a corpus already in the store */
	uint64_t load_batch;   /* records per load transaction */
	enum rpb_hv_bad bad_token; /* test aid: thread 0 sends a spoiled token */
	uint64_t writers;      /* workers that create and update records meanwhile */
	double writer_rate;    /* ops/s per writer; 0 = unpaced */
	uint64_t writer_lead;  /* test aid: writer ops finished before the first request */
	/* Resolved by harvest_finish. */
	int64_t from_s, until_s;
};
extern const struct rpb_optdef harvest_options[];
int harvest_finish(void *config, const struct rpb_job *job, const char *where, char *msg,
		  size_t n);

static inline const struct rpb_harvest_opts *hv_opts(const struct rpb_job *job)
{
	return job->config;
}

#define HV_PREFIX_LEN 15 /* "hv" + 12 hex + "/" */
#define HV_HDR 16
#define HV_MAX_SETS 3
#define HV_REC_KEY (HV_PREFIX_LEN + 8)
#define HV_DS_KEY (HV_PREFIX_LEN + 16)
#define HV_SET_KEY (HV_PREFIX_LEN + 18)
#define HV_META_KEY_MAX 64

/* What the seed says about record n. */
struct hv_rec {
	uint64_t n;
	int64_t ds;            /* datestamp, seconds since the epoch */
	bool deleted;
	unsigned nsets;
	uint16_t set[HV_MAX_SETS]; /* 1-based, ascending */
	uint64_t size;         /* target payload bytes (0 for a tombstone) */
};

/* One template split at its repeated note part. */
struct hv_template {
	const char *head, *note, *tail;
	size_t headlen, notelen, taillen;
};

struct hv_corpus {
	const struct rpb_harvest_opts *o;
	uint64_t seed;
	char prefix[HV_PREFIX_LEN + 1];
	struct hv_template tpl;
	uint64_t size_cap;     /* the largest payload target */
};

/* Names the corpus and splits its template; false if the template lacks
 * its note markers (a broken data/records file). */
bool hv_corpus_init(struct hv_corpus *c, const struct rpb_harvest_opts *o, uint64_t seed);
/* The attributes of record n; leaves rng where the payload draws begin. */
void hv_rec_attrs(const struct hv_corpus *c, uint64_t n, struct hv_rec *r, struct rpb_rng *rng);
/* Whether record r falls in the harvest's datestamp range and set. */
bool hv_rec_matches(const struct hv_rec *r, int64_t from_s, int64_t until_s, unsigned set);
/* The payload of r (rng as hv_rec_attrs left it) into buf of cap bytes;
 * cap >= hv_payload_max(c). Returns its length. No allocation. */
size_t hv_payload(const struct hv_corpus *c, const struct hv_rec *r, struct rpb_rng *rng,
		  unsigned char *buf, size_t cap);
size_t hv_payload_max(const struct hv_corpus *c);
/* The record value: header + payload; returns its length. */
size_t hv_record(const struct hv_corpus *c, uint64_t n, struct hv_rec *r, unsigned char *buf,
		 size_t cap);
/* Writes r's HV_HDR header bytes. */
void hv_put_header(unsigned char *buf, const struct hv_rec *r);
/* Parses a record value's header; false if it is too short. */
bool hv_record_header(const unsigned char *v, size_t len, struct hv_rec *r);

/* Keys; each returns its length. */
size_t hv_key_rec(const struct hv_corpus *c, unsigned char *k, uint64_t n);
size_t hv_key_ds(const struct hv_corpus *c, unsigned char *k, int64_t ds, uint64_t n);
size_t hv_key_set(const struct hv_corpus *c, unsigned char *k, unsigned set, int64_t ds,
		  uint64_t n);
size_t hv_key_meta(const struct hv_corpus *c, char *k);
void hv_put_be(unsigned char *p, uint64_t v, unsigned bytes);
uint64_t hv_get_be(const unsigned char *p, unsigned bytes);
/* "YYYY-MM-DDThh:mm:ssZ" (OAI-PMH seconds granularity); 21 bytes with NUL. */
void hv_iso(char *buf, size_t n, int64_t s);

/* ---- writers (harvest_write.c) ----
 * Writer k's operation i follows from (seed, k, i) alone, so verify can
 * replay every acknowledged one. Its datestamp is a logical clock past the
 * corpus period: hv_write_base(o) + i * writers + k, distinct per operation
 * and later than any corpus datestamp, so a harvest's until (at most the
 * corpus's last second) excludes every written record. A create writes
 * record records + i * writers + k; an update rewrites a corpus record n
 * with n % writers == k (one writer per record, so replaying each writer's
 * operations in order gives the final state), same sets, new datestamp and
 * new content. */
#define HV_CREATE_PCT 25 /* of writer operations; the rest update */
struct hv_write {
	bool create;
	uint64_t n;            /* the record written */
	int64_t ds;            /* its new datestamp */
};
int64_t hv_write_base(const struct rpb_harvest_opts *o);
/* The until a harvest fixes at its start: the configured one, capped at
 * the corpus's last second when writers write. */
int64_t hv_harvest_until(const struct rpb_harvest_opts *o);
void hv_write_op(const struct hv_corpus *c, unsigned k, uint64_t i, struct hv_write *op);
/* The value op writes (header + payload); returns its length. */
size_t hv_write_record(const struct hv_corpus *c, const struct hv_write *op, struct hv_rec *r,
		       unsigned char *buf, size_t cap);

/* ---- resumption tokens (harvest_token.c) ----
 * Opaque base64url (no padding) of HV_TOKEN_BYTES: the harvest's state and
 * an XXH64 checksum keyed by the run tag, so a token from another run, an
 * altered or a truncated one is refused, never served as a wrong page. */
#define HV_TOKEN_BYTES 64
#define HV_TOKEN_CHARS 86 /* ceil(64 * 4 / 3) */
#define HV_TOKEN_VERSION 1
struct hv_token {
	unsigned strategy;     /* enum rpb_hv_token */
	unsigned set;          /* 0 = every record */
	uint32_t page;         /* pages served before the next one */
	int64_t from_s, until_s;
	int64_t last_ds;       /* keyset: the last record served */
	uint64_t last_n;       /* keyset: its number; snapshot: records served */
	uint64_t harvest;      /* the harvest's id (snapshot table name) */
};
/* The checksum key of a run. */
uint64_t hv_token_key(const char *run_tag);
/* Writes HV_TOKEN_CHARS characters and a NUL into out. */
void hv_token_encode(const struct hv_token *t, uint64_t key, char *out);
/* RPB_OK, or RPB_INVALID with err->msg "badResumptionToken: <why>". */
enum rpb_status hv_token_decode(const char *in, size_t len, uint64_t key, struct hv_token *t,
				struct rpb_err *err);

/* ---- the other parts of the pattern ---- */
struct rpb_runner;
struct rpb_ledger;
struct rpb_verify_result;
enum rpb_status harvest_verify(const struct rpb_backend *b, struct rpb_store *st,
			       const struct rpb_job *job, const struct rpb_ledger *ledger,
			       struct rpb_verify_result *res, struct rpb_err *err);
void harvest_write_report(struct rpb_runner *rn, const json_t *result, FILE *f);

#endif
