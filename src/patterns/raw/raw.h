/* The raw pattern: LevelDB's db_bench run through the store interface
 * (docs/workloads.md, "raw"), so rpbench's own overhead can be measured
 * against programs that call each library directly (bench/calibrate/).
 *
 * Keys are the key index in decimal, zero-padded to key_size, in the raw
 * table. Values are slices of one buffer of compressible pieces built once
 * from the seed; write j of benchmark position p takes the slice raw_value
 * names, so verify can regenerate every value. Random benchmarks draw their
 * keys from a stream of their own (seed, RAW_STREAM + p). */
#ifndef RPB_RAW_H
#define RPB_RAW_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt.h"
#include "options.h"
#include "rng.h"
#include "store.h"
#include "workload.h"

/* The [raw] section (raw_options.c): benchmarks run in order on one store.
 * benchmarks is the list as given; raw_finish resolves it to bench[]
 * (enum raw_bench). */
#define RPB_RAW_LIST_MAX 255
#define RPB_RAW_BENCH_MAX 32
struct rpb_raw_opts {
	char benchmarks[RPB_RAW_LIST_MAX + 1];
	uint64_t num;          /* keys (and operations per benchmark) */
	uint64_t value_size;
	uint64_t key_size;
	double compression_ratio;
	uint64_t batch;        /* operations per transaction */
	uint64_t scan_chunk;   /* readseq entries per read transaction; 0 = one scan */
	/* Resolved by raw_finish. */
	unsigned nbench;
	unsigned char bench[RPB_RAW_BENCH_MAX];
};
extern const struct rpb_optdef raw_options[];

static inline const struct rpb_raw_opts *raw_opts(const struct rpb_job *job)
{
	return job->config;
}

enum raw_bench {
	RAW_FILLSEQ = 0,
	RAW_FILLRANDOM,
	RAW_OVERWRITE,
	RAW_READRANDOM,
	RAW_READSEQ,
	RAW_READREVERSE,
	RAW_DELETERANDOM,
	RAW_FILLSYNC,
	RAW_NBENCH
};
extern const char *const raw_bench_names[RAW_NBENCH];

/* Entries per scan call of readseq and readreverse (one runner operation). */
#define RAW_SCAN_CHUNK 1000 /* readreverse windows; verify's reads */
/* Keys deleted per transaction when a fill empties the raw table. */
#define RAW_CLEAR_CHUNK 256

/* readseq's entries per read transaction (the scan_chunk option; 0 means
 * the whole table in one scan, as db_bench's readseq iterates once). */
static inline uint64_t raw_seq_chunk(const struct rpb_raw_opts *o)
{
	return o->scan_chunk ? o->scan_chunk : (o->num ? o->num : 1);
}
#define RAW_STREAM UINT64_C(0x7261770000000000)  /* "raw": key streams */
#define RAW_STREAM_VALUES (RAW_STREAM - 1)
/* benchmarks = all: every benchmark that runs at any sync. */
#define RAW_ALL "fillseq,fillrandom,overwrite,readrandom,readseq,readreverse,deleterandom"

/* Parses the benchmark list and checks the raw options against each other
 * and the job's [run] options; 0 or -1 with msg. */
int raw_finish(void *config, const struct rpb_job *job, const char *where, char *msg, size_t n);

/* Benchmark operations of benchmark b: num, or num/1000 (at least 1) for
 * fillsync. Keys per transaction: batch, 1 for fillsync. */
uint64_t raw_bench_ops(const struct rpb_raw_opts *o, enum raw_bench b);
uint64_t raw_bench_batch(const struct rpb_raw_opts *o, enum raw_bench b);
static inline bool raw_bench_random(enum raw_bench b)
{
	return b == RAW_FILLRANDOM || b == RAW_OVERWRITE || b == RAW_READRANDOM ||
	       b == RAW_DELETERANDOM || b == RAW_FILLSYNC;
}
/* Fills start on an empty raw table, as db_bench's fresh_db does for them;
 * overwrite writes over what is there. */
static inline bool raw_bench_fresh(enum raw_bench b)
{
	return b == RAW_FILLSEQ || b == RAW_FILLRANDOM || b == RAW_FILLSYNC;
}
static inline bool raw_bench_writes(enum raw_bench b)
{
	return b == RAW_FILLSEQ || b == RAW_FILLRANDOM || b == RAW_OVERWRITE || b == RAW_FILLSYNC;
}

/* Writes key index k as key_size zero-padded decimal digits (no NUL). */
static inline void raw_key(unsigned char *buf, size_t key_size, uint64_t k)
{
	rpb_fmt_dec_back((char *)buf + key_size, k, key_size);
}
/* The key index of a key, or false if it is not a raw key below num. */
bool raw_key_parse(const void *key, size_t len, const struct rpb_raw_opts *o, uint64_t *k);

/* The value buffer: db_bench's RandomGenerator, built from the seed. */
struct raw_values {
	unsigned char *data;
	size_t size;
	uint64_t slots; /* size / value_size */
};
int raw_values_init(struct raw_values *v, const struct rpb_raw_opts *o, uint64_t seed);
void raw_values_free(struct raw_values *v);
/* The value of write j of the benchmark at list position p. */
static inline const unsigned char *raw_value(const struct raw_values *v, size_t value_size,
					     unsigned p, uint64_t j)
{
	return v->data + ((j + (uint64_t)p * 997) % v->slots) * value_size;
}

/* The key stream of the random benchmark at list position p. */
static inline void raw_stream(struct rpb_rng *r, uint64_t seed, unsigned p)
{
	rpb_rng_seed(r, seed, RAW_STREAM + p, 0);
}

/* Runner operations of readseq over a table of entries keys, under the
 * stop rule raw.c uses (a short scan, or num entries read). */
uint64_t raw_readseq_ops(const struct rpb_raw_opts *o, uint64_t entries);
static inline uint64_t raw_div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}


struct rpb_backend;
struct rpb_store;
struct rpb_ledger;
struct rpb_verify_result;
struct rpb_runner;
enum rpb_status raw_verify(const struct rpb_backend *b, struct rpb_store *st,
			   const struct rpb_job *job, const struct rpb_ledger *ledger,
			   struct rpb_verify_result *res, struct rpb_err *err);
void raw_write_report(struct rpb_runner *rn, const json_t *result, FILE *f);
/* One db_bench result line ("fillrandom   :       3.226 micros/op;   34.3 MB/s")
 * from a benchmark object of result.json; returns its length. */
size_t raw_format_line(char *buf, size_t n, const json_t *bench);

#endif
