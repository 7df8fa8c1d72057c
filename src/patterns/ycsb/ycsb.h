/* The ycsb pattern: YCSB's CoreWorkload (workloads A-F) through the store
 * interface, with YCSB's property names and defaults, its key names, its
 * generators and its text output (docs/workloads.md, "ycsb").
 *
 * A record is one value in the raw table holding its fields in order:
 * for each field one byte of name length, the name, four bytes of value
 * length (little-endian) and the value. Keys are YCSB's: "user" and the
 * key number (FNV-64 hashed with insertorder = hashed), zero-padded to
 * zeropadding digits. */
#ifndef RPB_YCSB_H
#define RPB_YCSB_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "rng.h"
#include "store.h"
#include "workload.h"
#include "ycsb_meas.h"

#define YCSB_TABLE RPB_T_RAW
#define YCSB_NAME_MAX 64
/* fieldlengthdistribution = histogram: at most this many buckets. */
#define YCSB_LENHIST_MAX 4096
/* hdrhistogram.percentiles: at most this many. */
#define YCSB_PCT_MAX 32

enum ycsb_phase { YCSB_RUN = 0, YCSB_LOAD };
enum ycsb_dist {
	YCSB_UNIFORM = 0, YCSB_ZIPFIAN, YCSB_LATEST, YCSB_HOTSPOT, YCSB_SEQUENTIAL,
	YCSB_EXPONENTIAL,
};
enum ycsb_lendist { YCSB_LEN_CONSTANT = 0, YCSB_LEN_UNIFORM, YCSB_LEN_ZIPFIAN, YCSB_LEN_HISTOGRAM };
/* Field values: YCSB's RandomByteIterator, fresh per value, or rpbench's
 * earlier windows of one printable buffer. */
enum ycsb_values { YCSB_VALUES_YCSB = 0, YCSB_VALUES_WINDOWS };
/* Whose output format: YCSB 0.17.0 (the last release) or master. */
enum ycsb_format { YCSB_FORMAT_0_17 = 0, YCSB_FORMAT_MASTER };
enum ycsb_order { YCSB_HASHED = 0, YCSB_ORDERED };

/* Operations, in the order of YCSB's operation chooser; also the labels. */
enum ycsb_op { YCSB_READ = 0, YCSB_UPDATE, YCSB_INSERT, YCSB_SCAN, YCSB_RMW, YCSB_NOPS };
extern const char *const ycsb_op_names[YCSB_NOPS];

/* The [ycsb] section: YCSB's CoreWorkload properties, and the
 * properties of YCSB's Client, Measurements and exporters rpbench uses. */
struct rpb_ycsb_opts {
	int phase;             /* enum ycsb_phase: load or run */
	uint64_t recordcount, operationcount; /* recordcount 0: YCSB's 2^31 - 1 */
	uint64_t fieldcount, fieldlength, minfieldlength;
	int fieldlengthdistribution; /* constant, uniform, zipfian */
	char fieldnameprefix[YCSB_NAME_MAX - 4];
	bool readallfields, writeallfields;
	double proportion[YCSB_NOPS]; /* read, update, insert, scan, readmodifywrite */
	char requestdist[16];
	double zipfianconstant;
	uint64_t minscanlength, maxscanlength;
	int scanlengthdistribution; /* uniform, zipfian */
	int insertorder;
	uint64_t zeropadding;
	uint64_t insertstart, insertcount; /* insertcount 0: not given */
	double hotspotdatafraction, hotspotopnfraction;
	double exp_percentile, exp_frac;
	bool dataintegrity;
	char table[64];
	char fieldlengthhistogram[1024];
	/* Output: measurementtype, hdrhistogram.percentiles ("" = the
	 * format's), histogram.buckets, timeseries.granularity, exporter,
	 * exportfile, status (-s), label (-l), reportlatencyforeacherror,
	 * latencytrackederrors, measurement.histogram.verbose,
	 * measurement.raw.no_summary, measurement.raw.output_file. */
	char mtype[32];        /* measurementtype, resolved into measurementtype */
	char percentiles[256];
	uint64_t buckets, granularity;
	char exporter[128], exportfile[256];
	bool status;
	char label[128];
	bool per_error;
	char tracked[256];
	bool verbose, raw_no_summary;
	char raw_file[256];
	int format;            /* enum ycsb_format */
	int values;            /* enum ycsb_values */
	/* Resolved by ycsb_finish. */
	int requestdistribution; /* enum ycsb_dist */
	uint64_t records;      /* recordcount, 0 as YCSB's 2^31 - 1 */
	uint64_t inserts;      /* CoreWorkload's insertcount: the key range from insertstart */
	uint64_t loadcount;    /* the load's operations: insertcount, else recordcount; 0 = no end */
	uint64_t maxfieldlength; /* the longest field the length distribution makes */
	uint64_t threads;      /* [run] threads */
	int measurementtype;   /* enum ycsb_mtype (ycsb_meas.h) */
	int exporter_kind;     /* enum ycsb_exporter_kind; unknown names: text */
	bool exporter_known;
	double pct[YCSB_PCT_MAX];
	unsigned npct;
	bool pct_bad;          /* percentiles unreadable: the default is used */
	bool tracked_st[YS_COUNT]; /* latencytrackederrors, by enum ycsb_st */
	uint64_t hist_block;   /* fieldlengthhistogram: BlockSize, buckets, their sum */
	uint32_t nhist;
	uint64_t hist[YCSB_LENHIST_MAX], hist_area;
};
extern const struct rpb_optdef ycsb_options[];

static inline const struct rpb_ycsb_opts *ycsb_opts(const struct rpb_job *job)
{
	return job->config;
}

int ycsb_finish(void *config, const struct rpb_job *job, const char *where, char *msg, size_t n);
/* ycsb_finish without reading files (the field length histogram): for
 * verify, which rebuilds a job from result.json. */
int ycsb_resolve(struct rpb_ycsb_opts *o, const struct rpb_job *job, bool files, const char *where,
		 char *msg, size_t n);
/* YCSB's split of the phase's operations over the threads. */
uint64_t ycsb_thread_ops(const struct rpb_job *job, unsigned w);
/* The first key number of load thread w's share. */
uint64_t ycsb_thread_first(const struct rpb_ycsb_opts *o, unsigned w);
/* The rpbench option a YCSB property stands for ("threadcount" ->
 * "run.threads"), or NULL. */
const char *ycsb_alias(const char *property);
/* Reads a YCSB property file (java.util.Properties' syntax). */
int ycsb_load_properties(struct rpb_job *job, FILE *f, const char *shown, rpb_job_setter set,
			 char *msg, size_t n);
/* Applies one YCSB property (from a file or -p) as YCSB reads it: 0 when
 * applied, 1 when rpbench has no use for it, -1 with "problem; fix". */
int ycsb_property(struct rpb_job *job, const char *key, const char *value, rpb_job_setter set,
		  char *msg, size_t n);

/* ---- keys and records (ycsb_record.c) ---- */

/* YCSB's FNV-64 of a key number, made non-negative as Java's Math.abs. */
int64_t ycsb_fnv64(int64_t v);
/* Writes YCSB's key name of key number k; returns its length. */
size_t ycsb_key(char *buf, size_t n, const struct rpb_ycsb_opts *o, uint64_t k);
/* Field i's name ("field3"); returns its length. */
size_t ycsb_field_name(char *buf, size_t n, const struct rpb_ycsb_opts *o, unsigned i);
/* YCSB's deterministic value of a field (dataintegrity): the key, ':',
 * the field name, then ':' and the Java hashCode of the text so far, until
 * size bytes. */
void ycsb_integrity_value(unsigned char *out, size_t size, const char *key, size_t keylen,
			  const char *field, size_t fieldlen);

/* One field of a record, a view into its encoded bytes. */
struct ycsb_field {
	const unsigned char *name, *val;
	size_t namelen, len;
};
/* The field at *at of an encoded record p[0..len), *at moved past it: 1,
 * or 0 at the end, or -1 when the bytes there are not a field. */
int ycsb_field_next(const unsigned char *p, size_t len, size_t *at, struct ycsb_field *f);
/* The fields of an encoded record; -1 when the bytes are not a record. */
int ycsb_count_fields(const unsigned char *p, size_t len);
/* Appends one field to out at *at (room checked by the caller). */
size_t ycsb_encode_field(unsigned char *out, const char *name, size_t namelen,
			 const unsigned char *val, size_t len);
/* Bytes a record of fieldcount fields of at most fieldlength takes. */
size_t ycsb_record_max(const struct rpb_ycsb_opts *o);
/* Checks a stored record of key: field count, names, lengths and, with
 * dataintegrity, every value. 0, or -1 with a description in why. */
int ycsb_record_check(const struct rpb_ycsb_opts *o, const char *key, size_t keylen,
		      const unsigned char *p, size_t len, unsigned char *scratch, char *why,
		      size_t n);

/* ---- generators (ycsb_gen.c) ---- */

/* YCSB's ZipfianGenerator over [base, base + items). zetan grows
 * incrementally when more items are asked for (SkewedLatestGenerator). */
struct ycsb_zipf {
	uint64_t base, items, countforzeta;
	double theta, alpha, zetan, zeta2, eta;
	double half_pow; /* 0.5^theta, the second item's threshold */
};
/* The zeta(n, theta) sum, continued from zeta(from) = start. */
double ycsb_zeta(uint64_t from, uint64_t n, double theta, double start);
void ycsb_zipf_init(struct ycsb_zipf *z, uint64_t min, uint64_t max, double theta);
/* As YCSB's ScrambledZipfianGenerator builds its inner one: 0..10^10 items
 * with the precomputed zeta for theta = 0.99. */
void ycsb_zipf_init_scrambled(struct ycsb_zipf *z, double theta);
uint64_t ycsb_zipf_next(struct ycsb_zipf *z, struct rpb_rng *r, uint64_t items);

/* The acknowledged insert counter (YCSB's AcknowledgedCounterGenerator):
 * inserts take numbers from next; limit is the highest number below which
 * every insert was acknowledged, so readers of "latest" never ask for a key
 * whose insert is not done. In a run with inserts it lives in a file of the
 * results directory (YCSB_ACK_FILE) mapped MAP_SHARED, as the live ledger
 * does: each number is taken and marked done with plain atomic stores into
 * the mapping, which outlive a killed process, so verify knows afterwards
 * which numbers were committed (docs/faults.md). Numbers given up after a
 * failed insert are appended to YCSB_GIVEN_UP_FILE (the error path only). */
#define YCSB_ACK_WINDOW (1u << 20)
#define YCSB_ACK_FILE "ycsb-inserts.bin"
#define YCSB_GIVEN_UP_FILE "ycsb-inserts-failed.log"
#define YCSB_ACK_MAGIC "RPBYACK1"
struct ycsb_ack_head {
	char magic[8];
	uint64_t start;           /* the first number (recordcount) */
	uint32_t window, pad0;
	_Atomic uint64_t next;
	_Atomic int64_t limit;    /* every number up to it is done */
	uint64_t pad[3];
	/* then window bytes: done marks of the numbers after limit, by number % window */
};
struct ycsb_ack {
	struct ycsb_ack_head *h;
	size_t len;
	bool mapped;
	int given_up_fd;             /* -1: not kept */
	atomic_flag advancing;
	_Atomic uint64_t seq;        /* the sequential key chooser, shared as in YCSB */
	_Atomic unsigned char *done; /* YCSB_ACK_WINDOW slots, after h */
};
/* In memory (a load, the null backend, tests). */
int ycsb_ack_init(struct ycsb_ack *a, uint64_t start);
/* In dir's YCSB_ACK_FILE and YCSB_GIVEN_UP_FILE, both created new; -1 with
 * a one-line msg. */
int ycsb_ack_init_file(struct ycsb_ack *a, uint64_t start, const char *dir, char *msg, size_t n);
void ycsb_ack_free(struct ycsb_ack *a);
/* Takes the next insert number. */
static inline uint64_t ycsb_ack_take(struct ycsb_ack *a)
{
	return atomic_fetch_add(&a->h->next, 1);
}
/* false when v is more than the window ahead of the limit (YCSB fails so too). */
bool ycsb_ack_done(struct ycsb_ack *a, uint64_t v);
/* Records that insert number v failed for good (before it is marked done). */
void ycsb_ack_given_up(struct ycsb_ack *a, uint64_t v);
static inline int64_t ycsb_ack_last(struct ycsb_ack *a)
{
	return atomic_load_explicit(&a->h->limit, memory_order_acquire);
}
/* Whether number v (below next) is done, in a counter read back from its
 * file: at or below the limit, or marked within the window after it. */
bool ycsb_ack_is_done(const struct ycsb_ack_head *h, uint64_t v);

/* One worker's key chooser and the other generators of the run phase. */
struct ycsb_gen {
	const struct rpb_ycsb_opts *o;
	struct ycsb_ack *ack;
	struct rpb_rng rng;
	struct ycsb_zipf keyzipf, scanzipf, lenzipf;
	uint64_t seq_next;      /* sequential */
	uint64_t key_lo, key_items; /* the chooser's range */
	double exp_gamma;
	double cum[YCSB_NOPS];  /* operation chooser: normalised weights */
};
void ycsb_gen_init(struct ycsb_gen *g, const struct rpb_ycsb_opts *o, struct ycsb_ack *ack,
		   uint64_t seed, unsigned worker);
/* The operation chooser's weights, normalised (YCSB's DiscreteGenerator). */
void ycsb_op_weights(const struct rpb_ycsb_opts *o, double cum[YCSB_NOPS]);
/* The kind of run operation i of worker w: drawn from its own stream per
 * (seed, worker, operation), so the run, its ledger's readers and verify
 * all know every operation's kind from its index alone. */
enum ycsb_op ycsb_op_kind(const double cum[YCSB_NOPS], uint64_t seed, unsigned worker, uint64_t i);
/* The label of operation i of worker w of job (INSERT in a load). */
unsigned ycsb_op_label(const struct rpb_job *job, unsigned worker, uint64_t i);
/* CoreWorkload's nextKeynum: a key number no later than the acknowledged limit. */
uint64_t ycsb_next_keynum(struct ycsb_gen *g);
uint64_t ycsb_next_scanlen(struct ycsb_gen *g);
uint64_t ycsb_next_fieldlen(struct ycsb_gen *g);
/* YCSB's RandomByteIterator: len bytes, each run of six from one 32-bit
 * draw (5, 6 and 6 bits, twice, offset by ' ': 32..127, not uniform). */
void ycsb_random_bytes(struct rpb_rng *r, unsigned char *out, size_t len);
unsigned ycsb_next_field(struct ycsb_gen *g);
/* The expected number of new keys CoreWorkload adds to the zipfian range. */
uint64_t ycsb_expected_new_keys(const struct rpb_ycsb_opts *o);

/* ---- results and verify ---- */

void ycsb_write_report(struct rpb_runner *rn, const json_t *result, FILE *f);
/* YCSB's text layout ([OVERALL], RunTime(ms), ...) from a result.json:
 * the merged report of several ranks. */
void ycsb_format_json(FILE *f, const json_t *result);

struct rpb_backend;
struct rpb_store;
struct rpb_ledger;
struct rpb_verify_result;
enum rpb_status ycsb_verify(const struct rpb_backend *b, struct rpb_store *st,
			    const struct rpb_job *job, const struct rpb_ledger *ledger,
			    struct rpb_verify_result *res, struct rpb_err *err);

#endif
