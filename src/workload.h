/* Workload files: INI (parsed with inih), one [run] section of runner
 * options, exactly one pattern section ([ingest], ...) whose name selects the
 * pattern, and optional backend sections ([leveldb], [sqlite], [postgres])
 * of tuning options handed to that backend. Any option can be overridden on
 * the command line with --set section.key=value (or key=value when the key is
 * unique among [run] and the pattern section).
 *
 * Every option is described once, in the table in workload.c: section, key,
 * type, default, range, help. Parsing, --set, --help and the resolved dump in
 * result.json all come from that table. */
#ifndef RPB_WORKLOAD_H
#define RPB_WORKLOAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "payload.h"
#include "store.h"

enum rpb_action { RPB_ACT_STOP = 0, RPB_ACT_CONTINUE, RPB_ACT_RETRY };

/* What the runner does when an operation fails with one error class. */
struct rpb_policy {
	enum rpb_action action;
	unsigned retries; /* RPB_ACT_RETRY: attempts after the first */
};

/* Warm-up: either a number of operations per thread or a time. */
struct rpb_warmup {
	uint64_t ops;
	double seconds;
};

/* A deterministic fault for tests and demos: on every every-th operation the
 * worker stalls inside its open transaction (stall), or a second session
 * holds a conflicting write lock for ms first, so the worker blocks inside
 * the library or server (lock). */
enum rpb_inject_kind { RPB_INJECT_OFF = 0, RPB_INJECT_STALL, RPB_INJECT_LOCK };
struct rpb_inject {
	enum rpb_inject_kind kind;
	uint64_t ms;
	uint64_t every;
};

struct rpb_run_opts {
	uint64_t threads;      /* worker threads */
	uint64_t clients;      /* sessions per thread, used round-robin */
	uint64_t ops;          /* operations per thread; 0 = no limit */
	double duration;       /* seconds; 0 = no limit */
	uint64_t bytes;        /* payload bytes in total; 0 = no limit */
	struct rpb_warmup warmup;
	double rate;           /* operations per second in total; 0 = closed loop */
	double interval;       /* seconds between progress lines */
	uint64_t seed;
	enum rpb_sync sync;
	uint64_t txn_timeout;  /* ms; 0 = no deadline */
	struct rpb_inject inject;
	uint64_t slow_ms;      /* a sample slower than this counts as an error */
	uint64_t max_slow;     /* this many slow samples stop the run; 0 = never */
	struct rpb_policy on_error[RPB_STATUS_COUNT];
	bool jtl;              /* write samples.jtl */
};

struct rpb_ingest_opts {
	uint64_t size_min;     /* bytes, inclusive */
	uint64_t size_max;     /* bytes, exclusive */
	enum rpb_content content;
	uint64_t containers;   /* creates spread over this many containers */
	uint64_t probe_every;  /* creates between probe sequences; 0 = never */
};

/* The metadata pattern (tachyon-perf's Connect test). The strings are
 * resolved by rpb_job_finish (empty workspace or node: the defaults). */
#define RPB_MD_WORKSPACE_MAX 120
#define RPB_MD_NODE_MAX 48
#define RPB_MD_WORKSPACE_DEFAULT "/tmp/tachyon-perf-workspace"
struct rpb_metadata_opts {
	char workspace[RPB_MD_WORKSPACE_MAX + 1]; /* absolute path prefix */
	char node[RPB_MD_NODE_MAX + 1];           /* node name in paths and reports */
	uint64_t preload;            /* entries created beside each target first */
	uint64_t inject_failure_at;  /* test aid: thread 0's Nth op fails; 0 = never */
	bool trace;                  /* write trace.csv: one row per operation */
};

/* The harvest pattern (FOLIO OAI-PMH ListRecords with resumption tokens).
 * from and until are text as given (a day offset into the corpus period or
 * an ISO date YYYY-MM-DD); rpb_job_finish resolves them to from_s/until_s,
 * inclusive datestamp bounds in seconds since the epoch. */
#define RPB_HV_DATE_MAX 10
#define RPB_HV_EPOCH INT64_C(1577836800) /* 2020-01-01T00:00:00Z: day 0 of the corpus */
enum rpb_hv_format { RPB_HV_MARC21 = 0, RPB_HV_OAI_DC };
enum rpb_hv_token { RPB_HV_KEYSET = 0, RPB_HV_SNAPSHOT };
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
	bool reuse;            /* keep a corpus already in the store */
	uint64_t load_batch;   /* records per load transaction */
	enum rpb_hv_bad bad_token; /* test aid: thread 0 sends a spoiled token */
	uint64_t writers;      /* workers that create and update records meanwhile */
	double writer_rate;    /* ops/s per writer; 0 = unpaced */
	uint64_t writer_lead;  /* test aid: writer ops finished before the first request */
	/* Resolved by rpb_job_finish. */
	int64_t from_s, until_s;
};

/* The raw pattern (LevelDB's db_bench): benchmarks run in order on one
 * store. benchmarks is the list as given; rpb_job_finish resolves it to
 * bench[] (enum raw_bench in raw.h). */
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
	/* Resolved by rpb_job_finish. */
	unsigned nbench;
	unsigned char bench[RPB_RAW_BENCH_MAX];
};

enum rpb_pattern_id { RPB_PAT_NONE = 0, RPB_PAT_INGEST, RPB_PAT_METADATA, RPB_PAT_HARVEST,
		      RPB_PAT_RAW };

/* A backend section: tuning options as given, validated by the backend. */
struct rpb_backend_section {
	char name[16];
	struct rpb_kv *kv;     /* key and value strings owned by the job */
	size_t n;
};

#define RPB_JOB_MAX_BACKEND_SECTIONS 8

struct rpb_job {
	char source[4096];     /* the workload file, as given */
	enum rpb_pattern_id pattern;
	struct rpb_run_opts run;
	struct rpb_ingest_opts ingest;
	struct rpb_metadata_opts metadata;
	struct rpb_harvest_opts harvest;
	struct rpb_raw_opts raw;
	struct rpb_backend_section backends[RPB_JOB_MAX_BACKEND_SECTIONS];
	size_t nbackends;
};

/* Fills every option with its default; pattern none. */
void rpb_job_defaults(struct rpb_job *job);
/* Reads a workload file on top of the defaults. On error returns non-zero and
 * writes one line to msg: "FILE:LINE: problem; fix", naming the section,
 * key and valid range or values. */
int rpb_job_load(struct rpb_job *job, const char *path, char *msg, size_t n);
/* Applies one "section.key=value" or "key=value" override; same errors,
 * prefixed "--set". Backend keys ("sqlite.cache_size=1M") are accepted. */
int rpb_job_set(struct rpb_job *job, const char *assignment, char *msg, size_t n);
/* Checks rules across options (a pattern chosen, size_min <= size_max, ...). */
int rpb_job_finish(struct rpb_job *job, char *msg, size_t n);
/* The backend section for a backend, or NULL. */
const struct rpb_backend_section *rpb_job_backend(const struct rpb_job *job,
						  const char *backend);
/* Every resolved option as "section.key": "value" in the canonical text form
 * that rpb_job_set accepts, so a job can be rebuilt from a result file. The
 * chosen pattern is "pattern"; backend sections follow as "name.key". */
json_t *rpb_job_to_json(const struct rpb_job *job);
/* Rebuilds a job from rpb_job_to_json's output. */
int rpb_job_from_json(struct rpb_job *job, const json_t *obj, char *msg, size_t n);
/* Prints every option: section, key, default, range or values, help. */
void rpb_job_print_help(FILE *out);
const char *rpb_pattern_name(enum rpb_pattern_id p);
void rpb_job_free(struct rpb_job *job);

#endif
