/* Workload files (see workload.h). One table of option definitions drives
 * defaults, parsing, --set, --help and the JSON dump, so an option is added
 * in exactly one place. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "dsn.h"
#include "raw.h"
#include "workload.h"

/* Enum fields are stored through an unsigned pointer; GCC and Clang give enums
 * without negative values the type unsigned int. */
_Static_assert(sizeof(enum rpb_sync) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum rpb_content) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum rpb_hv_format) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum rpb_hv_token) == sizeof(unsigned), "enum size");
_Static_assert(sizeof(enum rpb_hv_bad) == sizeof(unsigned), "enum size");

enum opt_type {
	T_COUNT,   /* unsigned integer */
	T_SIZE,    /* unsigned integer with k/M/G/T suffixes (powers of 1024) */
	T_DOUBLE,  /* finite number */
	T_SECONDS, /* number with an optional ms/s/m/h suffix, stored in seconds */
	T_ENUM,    /* one of choices, stored as its index */
	T_BOOL,
	T_WARMUP,  /* operations per thread, or a time with a suffix */
	T_POLICY,  /* stop, continue or retry:N */
	T_INJECT,  /* off, stall:MS@N or lock:MS@N */
	T_STRING,  /* text of at most umax bytes, in a char array field */
};

struct optdef {
	const char *section;
	const char *key;
	enum opt_type type;
	const char *dflt;
	uint64_t umin, umax; /* T_COUNT, T_SIZE, T_WARMUP operations, T_POLICY N,
			      * T_INJECT MS */
	double dmin, dmax;   /* T_DOUBLE, T_SECONDS, T_WARMUP seconds */
	const char *const *choices; /* T_ENUM, NULL-terminated */
	size_t off;          /* field in struct rpb_job */
	int cls;             /* T_POLICY: the error class; -1 = every class */
	const char *help;
};

#define P62 (UINT64_C(1) << 62)
#define P32 (UINT64_C(1) << 32)
#define DAYS31 (31.0 * 86400.0)
#define RETRY_MAX 1000
#define SIZE_64M (UINT64_C(64) << 20)
#define RUN(f) offsetof(struct rpb_job, run.f)
#define ING(f) offsetof(struct rpb_job, ingest.f)
#define MD(f) offsetof(struct rpb_job, metadata.f)
#define HV(f) offsetof(struct rpb_job, harvest.f)
#define RAW(f) offsetof(struct rpb_job, raw.f)
#define POLICY(c, name)                                                        \
	{ .section = "run", .key = "on_error." name, .type = T_POLICY,         \
	  .dflt = "stop", .umin = 1, .umax = RETRY_MAX, .off = RUN(on_error[c]), \
	  .cls = c, .help = "on " name " errors; overrides on_error" }

static const char *const sync_names[] = {"none", "commit", NULL};
static const char *const content_names[] = {"ascii", "binary", NULL};
static const char *const hv_format_names[] = {"marc21", "oai_dc", NULL};
static const char *const hv_token_names[] = {"keyset", "snapshot", NULL};
static const char *const hv_bad_names[] = {"off", "tamper", "truncate", "foreign", "garbage", NULL};

static const struct optdef opts[] = {
	{ .section = "run", .key = "threads", .type = T_COUNT, .dflt = "1",
	  .umin = 1, .umax = 1024, .off = RUN(threads), .help = "worker threads" },
	{ .section = "run", .key = "clients", .type = T_COUNT, .dflt = "1",
	  .umin = 1, .umax = 1024, .off = RUN(clients),
	  .help = "sessions per thread, used round-robin" },
	{ .section = "run", .key = "ops", .type = T_COUNT, .dflt = "0",
	  .umin = 0, .umax = P62, .off = RUN(ops),
	  .help = "operations per thread; 0 = no limit" },
	{ .section = "run", .key = "duration", .type = T_SECONDS, .dflt = "0",
	  .dmin = 0, .dmax = DAYS31, .off = RUN(duration),
	  .help = "run time; 0 = no limit" },
	{ .section = "run", .key = "bytes", .type = T_SIZE, .dflt = "0",
	  .umin = 0, .umax = P62, .off = RUN(bytes),
	  .help = "payload bytes in total; 0 = no limit" },
	{ .section = "run", .key = "warmup", .type = T_WARMUP, .dflt = "0",
	  .umin = 0, .umax = P62, .dmin = 0, .dmax = DAYS31, .off = RUN(warmup),
	  .help = "unmeasured start: ops per thread (100) or a time (5s)" },
	{ .section = "run", .key = "rate", .type = T_DOUBLE, .dflt = "0",
	  .dmin = 0, .dmax = 1e9, .off = RUN(rate),
	  .help = "ops/s in total (open model); 0 = closed loop" },
	{ .section = "run", .key = "interval", .type = T_SECONDS, .dflt = "10",
	  .dmin = 0.1, .dmax = 86400, .off = RUN(interval),
	  .help = "seconds between progress lines" },
	{ .section = "run", .key = "seed", .type = T_COUNT, .dflt = "42",
	  .umin = 0, .umax = UINT64_MAX, .off = RUN(seed),
	  .help = "random seed; the same seed, the same operations" },
	{ .section = "run", .key = "sync", .type = T_ENUM, .dflt = "commit",
	  .choices = sync_names, .off = RUN(sync),
	  .help = "commit: durable when commit returns; none: maybe not" },
	{ .section = "run", .key = "txn_timeout", .type = T_COUNT, .dflt = "0",
	  .umin = 0, .umax = 86400000, .off = RUN(txn_timeout),
	  .help = "ms before a transaction is interrupted; 0 = never" },
	{ .section = "run", .key = "inject", .type = T_INJECT, .dflt = "off",
	  .umin = 1, .umax = 86400000, .off = RUN(inject),
	  .help = "test fault: stall:MS@N sleeps MS ms (less once reaped) inside every Nth op's "
		  "transaction; lock:MS@N has another session hold a conflicting lock MS ms (or "
		  "until the run stops) first" },
	{ .section = "run", .key = "slow_ms", .type = T_COUNT, .dflt = "60300",
	  .umin = 1, .umax = 86400000, .off = RUN(slow_ms),
	  .help = "a sample slower than this (ms) is an error" },
	{ .section = "run", .key = "max_slow", .type = T_COUNT, .dflt = "3",
	  .umin = 0, .umax = P32, .off = RUN(max_slow),
	  .help = "this many slow samples stop the run; 0 = never" },
	{ .section = "run", .key = "on_error", .type = T_POLICY, .dflt = "stop",
	  .umin = 1, .umax = RETRY_MAX, .off = RUN(on_error), .cls = -1,
	  .help = "every error class: stop the run, continue, or retry:N times (N in [1, 1000])" },
	POLICY(RPB_EXISTS, "exists"),
	POLICY(RPB_DISK_FULL, "disk-full"),
	POLICY(RPB_TXN_TIMEOUT, "txn-timeout"),
	POLICY(RPB_CONFLICT, "conflict"),
	POLICY(RPB_CONN_LOST, "conn-lost"),
	POLICY(RPB_IO, "io"),
	POLICY(RPB_CORRUPT, "corrupt"),
	POLICY(RPB_INVALID, "invalid"),
	POLICY(RPB_NOMEM, "nomem"),
	{ .section = "run", .key = "jtl", .type = T_BOOL, .dflt = "off",
	  .off = RUN(jtl), .help = "write every sample to samples.jtl" },

	{ .section = "ingest", .key = "size_min", .type = T_SIZE, .dflt = "0",
	  .umin = 0, .umax = SIZE_64M, .off = ING(size_min),
	  .help = "smallest object size in bytes" },
	{ .section = "ingest", .key = "size_max", .type = T_SIZE, .dflt = "4096",
	  .umin = 1, .umax = SIZE_64M, .off = ING(size_max),
	  .help = "sizes are below this; equal to size_min: fixed size" },
	{ .section = "ingest", .key = "content", .type = T_ENUM, .dflt = "ascii",
	  .choices = content_names, .off = ING(content),
	  .help = "printable ASCII or random binary bytes" },
	{ .section = "ingest", .key = "containers", .type = T_COUNT, .dflt = "1",
	  .umin = 1, .umax = 1000000, .off = ING(containers),
	  .help = "creates are spread over this many containers" },
	{ .section = "ingest", .key = "probe_every", .type = T_COUNT, .dflt = "1000",
	  .umin = 0, .umax = P32, .off = ING(probe_every),
	  .help = "creates between probe sequences; 0 = none" },

	{ .section = "metadata", .key = "workspace", .type = T_STRING, .dflt = "",
	  .umax = RPB_MD_WORKSPACE_MAX, .off = MD(workspace),
	  .help = "absolute path prefix of the workspaces (letters, digits, . _ -); "
		  "empty = " RPB_MD_WORKSPACE_DEFAULT " as in tachyon-perf" },
	{ .section = "metadata", .key = "node", .type = T_STRING, .dflt = "",
	  .umax = RPB_MD_NODE_MAX, .off = MD(node),
	  .help = "node name in paths and the report; empty = this host's name (node0 "
		  "if it has none usable)" },
	{ .section = "metadata", .key = "preload", .type = T_COUNT, .dflt = "0",
	  .umin = 0, .umax = 10000000, .off = MD(preload),
	  .help = "entries created beside each thread's target before the timed loop" },
	{ .section = "metadata", .key = "inject_failure_at", .type = T_COUNT, .dflt = "0",
	  .umin = 0, .umax = P62, .off = MD(inject_failure_at),
	  .help = "test aid: thread 0's Nth operation fails with an injected io error; 0 = never" },
	{ .section = "metadata", .key = "trace", .type = T_BOOL, .dflt = "off",
	  .off = MD(trace), .help = "write trace.csv: op, thread, client, operation, path" },

	{ .section = "harvest", .key = "records", .type = T_COUNT, .dflt = "20000",
	  .umin = 1, .umax = 1000000000, .off = HV(records),
	  .help = "corpus size in records (each harvester keeps a bitmap of records/8 bytes)" },
	{ .section = "harvest", .key = "sets", .type = T_COUNT, .dflt = "10",
	  .umin = 1, .umax = 65535, .off = HV(sets),
	  .help = "number of OAI sets; each record is in 1 to 3 of them" },
	{ .section = "harvest", .key = "deleted", .type = T_DOUBLE, .dflt = "0.05",
	  .dmin = 0, .dmax = 1, .off = HV(deleted),
	  .help = "fraction of records kept as tombstones (header status=deleted)" },
	{ .section = "harvest", .key = "period", .type = T_COUNT, .dflt = "365",
	  .umin = 1, .umax = 36500, .off = HV(period),
	  .help = "datestamps spread over this many days from 2020-01-01 (day 0)" },
	{ .section = "harvest", .key = "size_median", .type = T_SIZE, .dflt = "2k",
	  .umin = 64, .umax = UINT64_C(1) << 20, .off = HV(size_median),
	  .help = "median metadata payload bytes (log-normal around it)" },
	{ .section = "harvest", .key = "size_sigma", .type = T_DOUBLE, .dflt = "0.5",
	  .dmin = 0, .dmax = 3, .off = HV(size_sigma),
	  .help = "sigma of the log-normal payload size; 0 = every payload near size_median" },
	{ .section = "harvest", .key = "format", .type = T_ENUM, .dflt = "marc21",
	  .choices = hv_format_names, .off = HV(format),
	  .help = "metadataPrefix of the corpus: MARCXML or Dublin Core (data/records/)" },
	{ .section = "harvest", .key = "page_size", .type = T_COUNT, .dflt = "100",
	  .umin = 1, .umax = 10000, .off = HV(page_size),
	  .help = "records per response (FOLIO's maxRecordsPerResponse)" },
	{ .section = "harvest", .key = "from", .type = T_STRING, .dflt = "",
	  .umax = RPB_HV_DATE_MAX, .off = HV(from),
	  .help = "harvest from this day: an offset into the period (0 = 2020-01-01) or YYYY-MM-DD; "
		  "empty = the earliest record" },
	{ .section = "harvest", .key = "until", .type = T_STRING, .dflt = "",
	  .umax = RPB_HV_DATE_MAX, .off = HV(until),
	  .help = "harvest until this day, inclusive (same forms as from); empty = the latest" },
	{ .section = "harvest", .key = "set", .type = T_COUNT, .dflt = "0",
	  .umin = 0, .umax = 65535, .off = HV(set),
	  .help = "harvest only this set (1 to sets); 0 = every record" },
	{ .section = "harvest", .key = "token", .type = T_ENUM, .dflt = "keyset",
	  .choices = hv_token_names, .off = HV(token),
	  .help = "resumption strategy: keyset (the token holds the last datestamp and id) or "
		  "snapshot (ids copied into a per-harvest table at the start, paged by position)" },
	{ .section = "harvest", .key = "reuse", .type = T_BOOL, .dflt = "off",
	  .off = HV(reuse),
	  .help = "on: harvest the corpus already in the store (same seed and corpus options) "
		  "without reloading it" },
	{ .section = "harvest", .key = "load_batch", .type = T_COUNT, .dflt = "1000",
	  .umin = 1, .umax = 1000000, .off = HV(load_batch),
	  .help = "records per load transaction" },
	{ .section = "harvest", .key = "bad_token", .type = T_ENUM, .dflt = "off",
	  .choices = hv_bad_names, .off = HV(bad_token),
	  .help = "test aid: thread 0's second request sends a spoiled resumption token" },
	{ .section = "harvest", .key = "writers", .type = T_COUNT, .dflt = "0",
	  .umin = 0, .umax = 64, .off = HV(writers),
	  .help = "workers beside the harvesters that create and update records while they "
		  "harvest, one record per transaction; they stop when the harvesters are done" },
	{ .section = "harvest", .key = "writer_rate", .type = T_DOUBLE, .dflt = "0",
	  .dmin = 0, .dmax = 1e6, .off = HV(writer_rate),
	  .help = "operations per second of each writer; 0 = as fast as it can" },
	{ .section = "harvest", .key = "writer_lead", .type = T_COUNT, .dflt = "0",
	  .umin = 0, .umax = 1000000, .off = HV(writer_lead),
	  .help = "test aid: the harvesters send their first request once the writers have "
		  "finished this many operations in all, so every harvest meets their writes" },

	{ .section = "raw", .key = "benchmarks", .type = T_STRING,
	  .dflt = "all", .umax = RPB_RAW_LIST_MAX, .off = RAW(benchmarks),
	  .help = "comma list run in order on one store: fillseq, fillrandom, overwrite, "
		  "readrandom, readseq, readreverse, deleterandom, fillsync (needs sync = commit); "
		  "all = these in this order but fillsync" },
	{ .section = "raw", .key = "num", .type = T_COUNT, .dflt = "1000000",
	  .umin = 1, .umax = UINT64_C(1) << 40, .off = RAW(num),
	  .help = "keys, and operations of each benchmark (fillsync: num/1000)" },
	{ .section = "raw", .key = "value_size", .type = T_SIZE, .dflt = "100",
	  .umin = 1, .umax = SIZE_64M, .off = RAW(value_size), .help = "value bytes" },
	{ .section = "raw", .key = "key_size", .type = T_COUNT, .dflt = "16",
	  .umin = 1, .umax = 1024, .off = RAW(key_size),
	  .help = "key bytes: the key index in decimal, zero-padded to this width" },
	{ .section = "raw", .key = "compression_ratio", .type = T_DOUBLE, .dflt = "0.5",
	  .dmin = 0, .dmax = 1, .off = RAW(compression_ratio),
	  .help = "values compress to about this fraction of their size" },
	{ .section = "raw", .key = "batch", .type = T_COUNT, .dflt = "1",
	  .umin = 1, .umax = 1000000, .off = RAW(batch),
	  .help = "benchmark operations per transaction (one runner operation)" },
	{ .section = "raw", .key = "scan_chunk", .type = T_COUNT, .dflt = "1000",
	  .umin = 0, .umax = P62, .off = RAW(scan_chunk),
	  .help = "readseq entries per read transaction; 0 = the whole table in one scan" },
};
#define NOPTS (sizeof opts / sizeof opts[0])

/* A pattern section's name is the pattern's name. */
static const char *const pattern_names[] = {
	[RPB_PAT_NONE] = "none",
	[RPB_PAT_INGEST] = "ingest",
	[RPB_PAT_METADATA] = "metadata",
	[RPB_PAT_HARVEST] = "harvest",
	[RPB_PAT_RAW] = "raw",
};
#define NPATTERNS (sizeof pattern_names / sizeof pattern_names[0])

static const char *const backend_sections[] = {"leveldb", "sqlite", "postgres", "null"};
#define NBACKENDS (sizeof backend_sections / sizeof backend_sections[0])

enum sec_kind { SEC_UNKNOWN, SEC_RUN, SEC_PATTERN, SEC_BACKEND };

static enum sec_kind section_kind(const char *name, enum rpb_pattern_id *pat)
{
	if (strcmp(name, "run") == 0)
		return SEC_RUN;
	for (size_t i = RPB_PAT_NONE + 1; i < NPATTERNS; i++)
		if (strcmp(name, pattern_names[i]) == 0) {
			if (pat)
				*pat = (enum rpb_pattern_id)i;
			return SEC_PATTERN;
		}
	for (size_t i = 0; i < NBACKENDS; i++)
		if (strcmp(name, backend_sections[i]) == 0)
			return SEC_BACKEND;
	return SEC_UNKNOWN;
}

/* ---- small text helpers ---- */

/* Appends to a fixed buffer, truncating silently: messages are best effort. */
static void cat(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t n, const char *fmt, ...)
{
	size_t len = strlen(buf);
	if (len + 1 >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}

static void list_sections(char *buf, size_t n)
{
	cat(buf, n, "run");
	for (size_t i = RPB_PAT_NONE + 1; i < NPATTERNS; i++)
		cat(buf, n, ", %s", pattern_names[i]);
	for (size_t i = 0; i < NBACKENDS; i++)
		cat(buf, n, ", %s", backend_sections[i]);
}

/* The per-class policies are listed once, as on_error.<class>. */
static void list_keys(char *buf, size_t n, const char *section)
{
	const char *sep = "";
	bool classes = false;
	for (size_t i = 0; i < NOPTS; i++) {
		if (strcmp(opts[i].section, section) != 0)
			continue;
		if (opts[i].type == T_POLICY && opts[i].cls >= 0) {
			if (classes)
				continue;
			classes = true;
			cat(buf, n, "%son_error.<class>", sep);
		} else {
			cat(buf, n, "%s%s", sep, opts[i].key);
		}
		sep = ", ";
	}
}

static void list_classes(char *buf, size_t n)
{
	const char *sep = "";
	for (size_t i = 0; i < NOPTS; i++)
		if (opts[i].type == T_POLICY && opts[i].cls >= 0) {
			cat(buf, n, "%s%s", sep, opts[i].key + strlen("on_error."));
			sep = ", ";
		}
}

static void list_choices(char *buf, size_t n, const char *const *choices)
{
	for (size_t i = 0; choices[i]; i++)
		cat(buf, n, "%s%s", i ? ", " : "", choices[i]);
}

/* Shortest text that reads back as exactly v. */
static void fmt_double(char *buf, size_t n, double v)
{
	/* Whole numbers read better without an exponent ("90", not "9e+01"). */
	if (v == floor(v) && fabs(v) < 0x1p53) {
		snprintf(buf, n, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* Bounds for messages and --help: large powers of two as 2^N. */
static void fmt_bound(char *buf, size_t n, uint64_t v, bool size)
{
	if (v == UINT64_MAX) {
		snprintf(buf, n, "2^64-1");
		return;
	}
	if (v >= P32 && (v & (v - 1)) == 0) {
		snprintf(buf, n, "2^%d", __builtin_ctzll(v));
		return;
	}
	static const char suffix[] = "kMGT";
	int k = 0;
	while (size && v && k < 4 && v % ((uint64_t)1024 << (10 * k)) == 0)
		k++;
	if (k)
		snprintf(buf, n, "%" PRIu64 "%c", v >> (10 * k), suffix[k - 1]);
	else
		snprintf(buf, n, "%" PRIu64, v);
}

/* The range or choices of an option, as shown by --help. */
static void fmt_range(char *buf, size_t n, const struct optdef *d)
{
	char lo[32], hi[32];
	buf[0] = '\0';
	switch (d->type) {
	case T_COUNT:
	case T_SIZE:
		fmt_bound(lo, sizeof lo, d->umin, d->type == T_SIZE);
		fmt_bound(hi, sizeof hi, d->umax, d->type == T_SIZE);
		snprintf(buf, n, "[%s, %s]", lo, hi);
		break;
	case T_DOUBLE:
	case T_SECONDS:
		fmt_double(lo, sizeof lo, d->dmin);
		fmt_double(hi, sizeof hi, d->dmax);
		snprintf(buf, n, "[%s, %s]%s", lo, hi, d->type == T_SECONDS ? " s" : "");
		break;
	case T_ENUM:
		for (size_t i = 0; d->choices[i]; i++)
			cat(buf, n, "%s%s", i ? "|" : "", d->choices[i]);
		break;
	case T_BOOL:
		snprintf(buf, n, "on|off");
		break;
	case T_WARMUP:
		snprintf(buf, n, "ops or time");
		break;
	case T_POLICY:
		snprintf(buf, n, "stop|continue|retry:N");
		break;
	case T_INJECT:
		snprintf(buf, n, "off|stall:MS@N|lock:MS@N");
		break;
	case T_STRING:
		snprintf(buf, n, "text <= %" PRIu64 " B", d->umax);
		break;
	}
}

/* What a valid value looks like, for "...; give ..." in error messages. */
static void fmt_expect(char *buf, size_t n, const struct optdef *d)
{
	char lo[32], hi[32];
	buf[0] = '\0';
	switch (d->type) {
	case T_COUNT:
	case T_SIZE:
		fmt_bound(lo, sizeof lo, d->umin, d->type == T_SIZE);
		fmt_bound(hi, sizeof hi, d->umax, d->type == T_SIZE);
		snprintf(buf, n, "%s in [%s, %s]%s", d->type == T_SIZE ? "a size in bytes" : "an integer",
			 lo, hi, d->type == T_SIZE ? " (suffix k, M, G or T)" : "");
		break;
	case T_DOUBLE:
		fmt_double(lo, sizeof lo, d->dmin);
		fmt_double(hi, sizeof hi, d->dmax);
		snprintf(buf, n, "a number in [%s, %s]", lo, hi);
		break;
	case T_SECONDS:
		fmt_double(lo, sizeof lo, d->dmin);
		fmt_double(hi, sizeof hi, d->dmax);
		snprintf(buf, n, "seconds in [%s, %s] (suffix ms, s, m or h)", lo, hi);
		break;
	case T_ENUM:
		cat(buf, n, "one of: ");
		list_choices(buf, n, d->choices);
		break;
	case T_BOOL:
		snprintf(buf, n, "one of: on, off, true, false, yes, no, 1, 0");
		break;
	case T_WARMUP:
		fmt_bound(hi, sizeof hi, d->umax, false);
		fmt_double(lo, sizeof lo, d->dmax);
		snprintf(buf, n, "operations per thread in [0, %s] or a time in [0, %s] seconds with "
			 "a suffix (5s, 500ms, 2m, 1h)", hi, lo);
		break;
	case T_POLICY:
		snprintf(buf, n, "stop, continue or retry:N with N in [%" PRIu64 ", %" PRIu64 "]",
			 d->umin, d->umax);
		break;
	case T_INJECT:
		snprintf(buf, n, "off, stall:MS@N or lock:MS@N with MS in [%" PRIu64 ", %" PRIu64
			 "] ms and N >= 1 (every Nth operation)", d->umin, d->umax);
		break;
	case T_STRING:
		snprintf(buf, n, "text of at most %" PRIu64 " bytes", d->umax);
		break;
	}
}

/* ---- value parsing ---- */

enum parse_res { P_OK, P_BAD, P_RANGE };

static enum parse_res parse_u64(const char *s, bool suffixes, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return P_BAD;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	bool overflow = errno == ERANGE;
	unsigned shift = 0;
	if (suffixes && *end) {
		const char *p = strchr("kKmMgGtT", *end);
		if (!p)
			return P_BAD;
		shift = 10 * (unsigned)((p - "kKmMgGtT") / 2 + 1);
		end++;
	}
	if (*end)
		return P_BAD;
	if (overflow || (shift && v > (UINT64_MAX >> shift)))
		return P_RANGE;
	*out = (uint64_t)v << shift;
	return P_OK;
}

/* A finite number; *end is left at the first character after it. */
static enum parse_res parse_number(const char *s, double *out, const char **end)
{
	if (*s == '\0' || !strchr("0123456789.+-", *s))
		return P_BAD;
	char *e;
	errno = 0;
	double v = strtod(s, &e);
	if (e == s)
		return P_BAD;
	if (!isfinite(v) || errno == ERANGE)
		return P_RANGE;
	*out = v;
	*end = e;
	return P_OK;
}

/* Seconds with an optional unit: ms, s, m or h. */
static enum parse_res parse_seconds(const char *s, double *out)
{
	const char *end;
	double v;
	enum parse_res r = parse_number(s, &v, &end);
	if (r != P_OK)
		return r;
	if (strcmp(end, "ms") == 0)
		v /= 1000;
	else if (strcmp(end, "m") == 0)
		v *= 60;
	else if (strcmp(end, "h") == 0)
		v *= 3600;
	else if (*end && strcmp(end, "s") != 0)
		return P_BAD;
	*out = v;
	return P_OK;
}

static bool has_time_unit(const char *s)
{
	size_t n = strlen(s);
	return n && strchr("smh", s[n - 1]);
}

static int find_choice(const char *const *choices, const char *s)
{
	for (int i = 0; choices[i]; i++)
		if (strcmp(choices[i], s) == 0)
			return i;
	return -1;
}

static enum parse_res parse_policy(const struct optdef *d, const char *s, struct rpb_policy *p)
{
	if (strcmp(s, "stop") == 0) {
		*p = (struct rpb_policy){RPB_ACT_STOP, 0};
		return P_OK;
	}
	if (strcmp(s, "continue") == 0) {
		*p = (struct rpb_policy){RPB_ACT_CONTINUE, 0};
		return P_OK;
	}
	if (strncmp(s, "retry:", 6) != 0)
		return P_BAD;
	uint64_t n;
	enum parse_res r = parse_u64(s + 6, false, &n);
	if (r != P_OK)
		return r;
	if (n < d->umin || n > d->umax)
		return P_RANGE;
	*p = (struct rpb_policy){RPB_ACT_RETRY, (unsigned)n};
	return P_OK;
}

/* "off", "stall:MS@N" or "lock:MS@N". */
static enum parse_res parse_inject(const struct optdef *d, const char *s, struct rpb_inject *in)
{
	if (strcmp(s, "off") == 0) {
		*in = (struct rpb_inject){RPB_INJECT_OFF, 0, 0};
		return P_OK;
	}
	enum rpb_inject_kind kind = strncmp(s, "stall:", 6) == 0 ? RPB_INJECT_STALL
				    : strncmp(s, "lock:", 5) == 0  ? RPB_INJECT_LOCK
								   : RPB_INJECT_OFF;
	if (kind == RPB_INJECT_OFF)
		return P_BAD;
	char ms[32];
	const char *at = strchr(s, '@'), *num = strchr(s, ':') + 1;
	if (!at || (size_t)(at - num) >= sizeof ms)
		return P_BAD;
	memcpy(ms, num, (size_t)(at - num));
	ms[at - num] = '\0';
	uint64_t m, every;
	enum parse_res r = parse_u64(ms, false, &m);
	if (r == P_OK)
		r = parse_u64(at + 1, false, &every);
	if (r != P_OK)
		return r;
	if (m < d->umin || m > d->umax || every < 1)
		return P_RANGE;
	*in = (struct rpb_inject){kind, m, every};
	return P_OK;
}

/* Parses value and stores it in the job's field. */
static enum parse_res store(struct rpb_job *job, const struct optdef *d, const char *value)
{
	void *field = (char *)job + d->off;
	uint64_t u = 0;
	double x = 0;
	enum parse_res r = P_OK;
	switch (d->type) {
	case T_COUNT:
	case T_SIZE:
		r = parse_u64(value, d->type == T_SIZE, &u);
		if (r == P_OK && (u < d->umin || u > d->umax))
			r = P_RANGE;
		if (r == P_OK)
			*(uint64_t *)field = u;
		break;
	case T_DOUBLE:
	case T_SECONDS: {
		const char *end = "";
		r = d->type == T_SECONDS ? parse_seconds(value, &x) : parse_number(value, &x, &end);
		if (r == P_OK && *end)
			r = P_BAD;
		if (r == P_OK && (x < d->dmin || x > d->dmax))
			r = P_RANGE;
		if (r == P_OK)
			*(double *)field = x;
		break;
	}
	case T_ENUM: {
		int i = find_choice(d->choices, value);
		if (i < 0)
			return P_BAD;
		*(unsigned *)field = (unsigned)i;
		break;
	}
	case T_BOOL: {
		static const char *const truth[] = {"on", "true", "yes", "1", NULL};
		static const char *const falsity[] = {"off", "false", "no", "0", NULL};
		if (find_choice(truth, value) >= 0)
			*(bool *)field = true;
		else if (find_choice(falsity, value) >= 0)
			*(bool *)field = false;
		else
			r = P_BAD;
		break;
	}
	case T_WARMUP: {
		struct rpb_warmup w = {0, 0};
		if (has_time_unit(value)) {
			r = parse_seconds(value, &w.seconds);
			if (r == P_OK && (w.seconds < d->dmin || w.seconds > d->dmax))
				r = P_RANGE;
		} else {
			r = parse_u64(value, false, &w.ops);
			if (r == P_OK && (w.ops < d->umin || w.ops > d->umax))
				r = P_RANGE;
		}
		if (r == P_OK)
			*(struct rpb_warmup *)field = w;
		break;
	}
	case T_POLICY: {
		struct rpb_policy p;
		r = parse_policy(d, value, &p);
		if (r != P_OK)
			break;
		if (d->cls >= 0) {
			*(struct rpb_policy *)field = p;
			break;
		}
		for (int c = 0; c < RPB_STATUS_COUNT; c++)
			if (c != RPB_OK && c != RPB_NOT_FOUND)
				job->run.on_error[c] = p;
		break;
	}
	case T_INJECT:
		r = parse_inject(d, value, (struct rpb_inject *)field);
		break;
	case T_STRING:
		if (strlen(value) > d->umax)
			return P_RANGE;
		memcpy(field, value, strlen(value) + 1);
		break;
	}
	return r;
}

/* The canonical text of an option's current value; store() reads it back. */
static void fmt_value(char *buf, size_t n, const struct rpb_job *job, const struct optdef *d)
{
	const void *field = (const char *)job + d->off;
	switch (d->type) {
	case T_COUNT:
	case T_SIZE:
		snprintf(buf, n, "%" PRIu64, *(const uint64_t *)field);
		break;
	case T_DOUBLE:
	case T_SECONDS:
		fmt_double(buf, n, *(const double *)field);
		break;
	case T_ENUM:
		snprintf(buf, n, "%s", d->choices[*(const unsigned *)field]);
		break;
	case T_BOOL:
		snprintf(buf, n, "%s", *(const bool *)field ? "on" : "off");
		break;
	case T_WARMUP: {
		const struct rpb_warmup *w = field;
		if (w->seconds > 0) {
			fmt_double(buf, n, w->seconds);
			cat(buf, n, "s");
		} else {
			snprintf(buf, n, "%" PRIu64, w->ops);
		}
		break;
	}
	case T_POLICY: {
		const struct rpb_policy *p = field;
		if (p->action == RPB_ACT_RETRY)
			snprintf(buf, n, "retry:%u", p->retries);
		else
			snprintf(buf, n, "%s", p->action == RPB_ACT_CONTINUE ? "continue" : "stop");
		break;
	}
	case T_INJECT: {
		const struct rpb_inject *in = field;
		if (in->kind == RPB_INJECT_OFF)
			snprintf(buf, n, "off");
		else
			snprintf(buf, n, "%s:%" PRIu64 "@%" PRIu64,
				 in->kind == RPB_INJECT_STALL ? "stall" : "lock", in->ms, in->every);
		break;
	}
	case T_STRING:
		snprintf(buf, n, "%s", (const char *)field);
		break;
	}
}

/* ---- applying one section/key/value ---- */

static const struct optdef *find_opt(const char *section, const char *key)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (strcmp(opts[i].section, section) == 0 && strcmp(opts[i].key, key) == 0)
			return &opts[i];
	return NULL;
}

static void unknown_key(char *err, size_t n, const char *section, const char *key)
{
	if (strncmp(key, "on_error.", 9) == 0 && find_opt(section, "on_error")) {
		snprintf(err, n, "unknown error class '%s' in [%s] %s; give one of: ",
			 key + 9, section, key);
		list_classes(err, n);
		return;
	}
	snprintf(err, n, "unknown key '%s' in [%s]; valid keys: ", key, section);
	list_keys(err, n, section);
}

static int store_opt(struct rpb_job *job, const struct optdef *d, const char *value,
		     char *err, size_t n)
{
	enum parse_res r = store(job, d, value);
	if (r == P_OK)
		return 0;
	char expect[256];
	fmt_expect(expect, sizeof expect, d);
	snprintf(err, n, "[%s] %s = %s is %s; give %s", d->section, d->key, value,
		 r == P_RANGE ? "out of range" : "invalid", expect);
	return -1;
}

static int kv_put(struct rpb_job *job, const char *section, const char *key, const char *value,
		  char *err, size_t n)
{
	struct rpb_backend_section *bs = NULL;
	for (size_t i = 0; i < job->nbackends && !bs; i++)
		if (strcmp(job->backends[i].name, section) == 0)
			bs = &job->backends[i];
	if (!bs) {
		if (job->nbackends == RPB_JOB_MAX_BACKEND_SECTIONS) {
			snprintf(err, n, "too many backend sections; give at most %d",
				 RPB_JOB_MAX_BACKEND_SECTIONS);
			return -1;
		}
		bs = &job->backends[job->nbackends++];
		memset(bs, 0, sizeof *bs);
		snprintf(bs->name, sizeof bs->name, "%s", section);
	}
	char *v = strdup(value);
	if (!v)
		goto nomem;
	for (size_t i = 0; i < bs->n; i++)
		if (strcmp(bs->kv[i].key, key) == 0) {
			free((char *)bs->kv[i].value);
			bs->kv[i].value = v;
			return 0;
		}
	char *k = strdup(key);
	struct rpb_kv *kv = realloc(bs->kv, (bs->n + 1) * sizeof *kv);
	if (!k || !kv) {
		free(k);
		free(v);
		if (kv)
			bs->kv = kv;
		goto nomem;
	}
	bs->kv = kv;
	bs->kv[bs->n++] = (struct rpb_kv){k, v};
	return 0;
nomem:
	snprintf(err, n, "out of memory storing [%s] %s", section, key);
	return -1;
}

/* Makes pat the job's pattern unless another one was chosen. */
static int choose_pattern(struct rpb_job *job, enum rpb_pattern_id pat, char *err, size_t n)
{
	if (job->pattern != RPB_PAT_NONE && job->pattern != pat) {
		snprintf(err, n, "[%s] conflicts with [%s]; a workload has one pattern section",
			 pattern_names[pat], pattern_names[job->pattern]);
		return -1;
	}
	job->pattern = pat;
	return 0;
}

/* Applies section.key = value; err gets "problem; fix" without a prefix. */
static int apply(struct rpb_job *job, const char *section, const char *key, const char *value,
		 char *err, size_t n)
{
	enum rpb_pattern_id pat = RPB_PAT_NONE;
	switch (section_kind(section, &pat)) {
	case SEC_UNKNOWN:
		snprintf(err, n, "unknown section [%s]; valid sections: ", section);
		list_sections(err, n);
		return -1;
	case SEC_BACKEND:
		return kv_put(job, section, key, value, err, n);
	case SEC_PATTERN:
		if (choose_pattern(job, pat, err, n))
			return -1;
		break;
	case SEC_RUN:
		break;
	}
	const struct optdef *d = find_opt(section, key);
	if (!d) {
		unknown_key(err, n, section, key);
		return -1;
	}
	return store_opt(job, d, value, err, n);
}

/* ---- the job ---- */

void rpb_job_defaults(struct rpb_job *job)
{
	memset(job, 0, sizeof *job);
	/* The defaults go through the parser, so their text and value agree;
	 * the test suite checks that each one parses. */
	for (size_t i = 0; i < NOPTS; i++)
		(void)store(job, &opts[i], opts[i].dflt);
}

void rpb_job_free(struct rpb_job *job)
{
	if (!job)
		return;
	for (size_t i = 0; i < job->nbackends; i++) {
		struct rpb_backend_section *bs = &job->backends[i];
		for (size_t j = 0; j < bs->n; j++) {
			free((char *)bs->kv[j].key);
			free((char *)bs->kv[j].value);
		}
		free(bs->kv);
		bs->kv = NULL;
		bs->n = 0;
	}
	job->nbackends = 0;
}

const char *rpb_pattern_name(enum rpb_pattern_id p)
{
	if ((unsigned)p >= NPATTERNS)
		return "unknown";
	return pattern_names[p];
}

const struct rpb_backend_section *rpb_job_backend(const struct rpb_job *job, const char *backend)
{
	for (size_t i = 0; i < job->nbackends; i++)
		if (strcmp(job->backends[i].name, backend) == 0)
			return &job->backends[i];
	return NULL;
}

/* ---- loading a file ---- */

/* inih calls the handler only for key = value lines, so section headers
 * (an empty [ingest] selects a pattern; an unknown empty section is an error)
 * are seen here, in the line reader, which also counts lines: inih counts one
 * line per reader call, so both agree whatever INI_HANDLER_LINENO is. */
struct load_ctx {
	struct rpb_job *job;
	FILE *f;
	int lineno;
	bool after_key;      /* an indented line now would continue a value */
	bool stop;           /* an error was recorded: report EOF to inih */
	int err_line;
	char err[1024];
	int pattern_line;    /* where this file chose its pattern */
};

static void ctx_fail(struct load_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ctx_fail(struct load_ctx *c, const char *fmt, ...)
{
	if (c->stop)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof c->err, fmt, ap);
	va_end(ap);
	c->stop = true;
	c->err_line = c->lineno;
}

static void enter_section(struct load_ctx *c, const char *name)
{
	char err[1024] = "";
	enum rpb_pattern_id pat = RPB_PAT_NONE;
	switch (section_kind(name, &pat)) {
	case SEC_UNKNOWN:
		snprintf(err, sizeof err, "unknown section [%s]; valid sections: ", name);
		list_sections(err, sizeof err);
		ctx_fail(c, "%s", err);
		return;
	case SEC_PATTERN:
		if (c->job->pattern != RPB_PAT_NONE && c->job->pattern != pat) {
			if (c->pattern_line)
				ctx_fail(c, "[%s] conflicts with [%s] on line %d; a workload has one pattern section",
					 name, rpb_pattern_name(c->job->pattern), c->pattern_line);
			else
				ctx_fail(c, "[%s] conflicts with pattern %s chosen before; a workload has one pattern section",
					 name, rpb_pattern_name(c->job->pattern));
			return;
		}
		if (!c->pattern_line)
			c->pattern_line = c->lineno;
		c->job->pattern = pat;
		return;
	case SEC_RUN:
	case SEC_BACKEND:
		return;
	}
}

/* Sees each raw line before inih does. */
static void scan_line(struct load_ctx *c, char *line)
{
	char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n' || *p == '\r' || *p == ';' || *p == '#')
		return;
	if (p > line && c->after_key) {
		/* inih would append it to the previous value (configparser style). */
		ctx_fail(c, "indented line continues the value above; remove the indentation");
		return;
	}
	if (*p != '[') {
		c->after_key = true;
		return;
	}
	char *end = strchr(p + 1, ']');
	if (!end)
		return; /* inih reports it as malformed */
	char name[256];
	snprintf(name, sizeof name, "%.*s", (int)(end - p - 1), p + 1);
	c->after_key = false;
	enter_section(c, name);
}

static char *read_line(char *str, int num, void *stream)
{
	struct load_ctx *c = stream;
	if (c->stop || !fgets(str, num, c->f))
		return NULL;
	c->lineno++;
	size_t len = strlen(str);
	if (len && str[len - 1] != '\n' && !feof(c->f)) {
		ctx_fail(c, "line is longer than %d characters; shorten it", num - 2);
		return NULL;
	}
	scan_line(c, str);
	return c->stop ? NULL : str;
}

#if INI_HANDLER_LINENO
static int on_pair(void *user, const char *section, const char *name, const char *value,
		   int lineno)
{
	(void)lineno; /* the reader's count is the same */
#else
static int on_pair(void *user, const char *section, const char *name, const char *value)
{
#endif
	struct load_ctx *c = user;
	if (!name)
		return 1; /* a build that reports section starts: done by the reader */
	if (!section[0]) {
		ctx_fail(c, "key '%s' is outside any section; put it under [run] or a pattern section",
			 name);
		return 0;
	}
	char err[1024] = "";
	if (apply(c->job, section, name, value ? value : "", err, sizeof err)) {
		ctx_fail(c, "%s", err);
		return 0;
	}
	return 1;
}

int rpb_job_load(struct rpb_job *job, const char *path, char *msg, size_t n)
{
	snprintf(job->source, sizeof job->source, "%s", path);
	struct load_ctx c = {.job = job};
	c.f = fopen(path, "r");
	if (!c.f) {
		snprintf(msg, n, "cannot read workload %s: %s", path, strerror(errno));
		return -1;
	}
	int ret = ini_parse_stream(read_line, &c, on_pair, &c);
	bool read_error = ferror(c.f);
	int read_errno = errno;
	fclose(c.f);
	/* inih keeps going after a malformed line, so the first problem is
	 * whichever of its line and ours comes first. */
	if (ret > 0 && (!c.stop || ret < c.err_line)) {
		snprintf(msg, n, "%s:%d: malformed line; write key = value under a [section]", path, ret);
		return -1;
	}
	if (c.stop) {
		snprintf(msg, n, "%s:%d: %s", path, c.err_line, c.err);
		return -1;
	}
	if (read_error || ret < 0) {
		snprintf(msg, n, "cannot read workload %s: %s", path,
			 read_error ? strerror(read_errno) : "out of memory");
		return -1;
	}
	return 0;
}

/* ---- --set ---- */

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = '\0';
	return s;
}

/* Finds the section of a bare key among [run] and the pattern sections that
 * can apply; more than one is ambiguous. */
static int resolve_bare(const struct rpb_job *job, const char *key, const char **section,
			char *err, size_t n)
{
	const char *found[NPATTERNS + 1];
	size_t nfound = 0;
	if (find_opt("run", key))
		found[nfound++] = "run";
	for (size_t i = RPB_PAT_NONE + 1; i < NPATTERNS; i++)
		if ((job->pattern == RPB_PAT_NONE || job->pattern == (enum rpb_pattern_id)i) &&
		    find_opt(pattern_names[i], key))
			found[nfound++] = pattern_names[i];
	if (nfound == 1) {
		*section = found[0];
		return 0;
	}
	if (nfound > 1) {
		snprintf(err, n, "key '%s' is in both [%s] and [%s]; write %s.%s or %s.%s", key,
			 found[0], found[1], found[0], key, found[1], key);
		return -1;
	}
	char *dot = strchr(key, '.');
	if (strncmp(key, "on_error.", 9) == 0) {
		unknown_key(err, n, "run", key);
	} else if (dot) {
		snprintf(err, n, "unknown section [%.*s]; valid sections: ", (int)(dot - key), key);
		list_sections(err, n);
	} else {
		snprintf(err, n, "unknown key '%s' in [run] and the pattern section; "
			 "write backend.%s for a backend option, see --help for the others", key, key);
	}
	return -1;
}

int rpb_job_set(struct rpb_job *job, const char *assignment, char *msg, size_t n)
{
	char err[1024] = "";
	char *copy = strdup(assignment);
	int rc = -1;
	if (!copy) {
		snprintf(err, sizeof err, "out of memory");
		goto out;
	}
	char *eq = strchr(copy, '=');
	if (!eq) {
		snprintf(err, sizeof err, "no '='; write section.key=value or key=value");
		goto out;
	}
	*eq = '\0';
	char *name = trim(copy), *value = trim(eq + 1);
	const char *section = NULL, *key = name;
	char *dot = strchr(name, '.');
	if (dot) {
		*dot = '\0';
		if (section_kind(name, NULL) != SEC_UNKNOWN) {
			section = name;
			key = dot + 1;
		} else {
			*dot = '.';
		}
	}
	if (!section && resolve_bare(job, key, &section, err, sizeof err))
		goto out;
	if (!*key) {
		snprintf(err, sizeof err, "no key after '%s.'; write section.key=value", section);
		goto out;
	}
	rc = apply(job, section, key, value, err, sizeof err);
out:
	if (rc)
		snprintf(msg, n, "--set '%s': %s", assignment, err);
	free(copy);
	return rc;
}

/* ---- rules across options ---- */

/* Path components and node names: portable file-name characters only, so
 * paths need no quoting in keys, trace.csv or the report. */
static bool md_name_ok(const char *s, size_t len)
{
	if (len == 0 || (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", s[i]))
			return false;
	return true;
}

/* Resolves the empty defaults (workspace, node from the host name) and
 * checks the syntax of both. */
static int finish_metadata(struct rpb_metadata_opts *m, const char *where, char *msg, size_t n)
{
	if (!m->workspace[0])
		snprintf(m->workspace, sizeof m->workspace, "%s", RPB_MD_WORKSPACE_DEFAULT);
	if (!m->node[0]) {
		char host[256] = "";
		if (gethostname(host, sizeof host - 1) != 0)
			host[0] = '\0';
		host[strcspn(host, ".")] = '\0'; /* the short name, as tachyon-perf shows it */
		size_t len = strlen(host);
		if (len <= RPB_MD_NODE_MAX && md_name_ok(host, len))
			memcpy(m->node, host, len + 1);
		else
			snprintf(m->node, sizeof m->node, "node0");
	}
	if (!md_name_ok(m->node, strlen(m->node))) {
		snprintf(msg, n, "%s[metadata] node = %s is invalid; give a name of letters, digits, "
			 "'.', '_' or '-'", where, m->node);
		return -1;
	}
	const char *p = m->workspace;
	bool ok = *p == '/' && p[1];
	while (ok && *p == '/') {
		size_t len = strcspn(p + 1, "/");
		ok = md_name_ok(p + 1, len);
		p += 1 + len;
	}
	if (!ok || *p) {
		snprintf(msg, n, "%s[metadata] workspace = %s is invalid; give an absolute path like "
			 RPB_MD_WORKSPACE_DEFAULT " whose parts are letters, digits, '.', '_' or '-'",
			 where, m->workspace);
		return -1;
	}
	return 0;
}

/* A harvest day bound: a day offset into the corpus period, or an ISO
 * date YYYY-MM-DD (days counted from 2020-01-01, day 0). */
static bool hv_parse_day(const char *s, int64_t *day)
{
	int y, m, d, len = 0;
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &len) == 3 && len == 10 && (size_t)len == strlen(s)) {
		if (m < 1 || m > 12 || d < 1 || d > 31)
			return false;
		/* Days from the civil date (proleptic Gregorian, March-based year). */
		int64_t yy = y - (m <= 2), era = (yy >= 0 ? yy : yy - 399) / 400;
		int64_t yoe = yy - era * 400, mp = (m + 9) % 12;
		int64_t doy = (153 * mp + 2) / 5 + d - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
		*day = era * 146097 + doe - 719468 - RPB_HV_EPOCH / 86400;
		return true;
	}
	uint64_t v;
	if (parse_u64(s, false, &v) != P_OK || v > 36500)
		return false;
	*day = (int64_t)v;
	return true;
}

static int finish_harvest(struct rpb_harvest_opts *h, const char *where, char *msg, size_t n)
{
	int64_t from = 0, until = (int64_t)h->period - 1;
	const char *bad = h->from[0] && !hv_parse_day(h->from, &from)	  ? "from"
			  : h->until[0] && !hv_parse_day(h->until, &until) ? "until"
									   : NULL;
	if (bad) {
		snprintf(msg, n, "%s[harvest] %s = %s is invalid; give a day offset in [0, 36500] or a "
			 "date YYYY-MM-DD", where, bad, bad[0] == 'f' ? h->from : h->until);
		return -1;
	}
	if (from > until) {
		snprintf(msg, n, "%s[harvest] from = %s is after until = %s; give from <= until", where,
			 h->from, h->until);
		return -1;
	}
	if (h->set > h->sets) {
		snprintf(msg, n, "%s[harvest] set = %" PRIu64 " is beyond sets = %" PRIu64
			 "; give a set in [1, %" PRIu64 "] or 0 for every record",
			 where, h->set, h->sets, h->sets);
		return -1;
	}
	h->from_s = RPB_HV_EPOCH + from * 86400;
	h->until_s = RPB_HV_EPOCH + until * 86400 + 86399;
	return 0;
}

int rpb_job_finish(struct rpb_job *job, char *msg, size_t n)
{
	const char *src = job->source[0] ? job->source : NULL;
	char where[4200] = "";
	if (src)
		snprintf(where, sizeof where, "%s: ", src);
	if (job->pattern == RPB_PAT_NONE) {
		char known[256] = "";
		for (size_t i = RPB_PAT_NONE + 1; i < NPATTERNS; i++)
			cat(known, sizeof known, "%s%s", i > 1 ? ", " : "", pattern_names[i]);
		snprintf(msg, n, "%sno pattern: add an [ingest] section (known patterns: %s)",
			 where, known);
		return -1;
	}
	if (job->pattern == RPB_PAT_INGEST && job->ingest.size_min > job->ingest.size_max) {
		snprintf(msg, n, "%s[ingest] size_min = %" PRIu64 " exceeds size_max = %" PRIu64
			 "; make size_min < size_max, or equal for a fixed size",
			 where, job->ingest.size_min, job->ingest.size_max);
		return -1;
	}
	if (job->pattern == RPB_PAT_METADATA)
		return finish_metadata(&job->metadata, where, msg, n);
	if (job->pattern == RPB_PAT_HARVEST)
		return finish_harvest(&job->harvest, where, msg, n);
	if (job->pattern == RPB_PAT_RAW)
		return rpb_raw_finish(job, where, msg, n);
	return 0;
}

/* ---- JSON ---- */

static bool dumped(const struct rpb_job *job, const struct optdef *d)
{
	if (d->type == T_POLICY && d->cls < 0)
		return false; /* on_error only sets the per-class policies */
	if (strcmp(d->section, "run") == 0)
		return true;
	return job->pattern != RPB_PAT_NONE && strcmp(d->section, pattern_names[job->pattern]) == 0;
}

static int set_str(json_t *obj, const char *section, const char *key, const char *value)
{
	char name[512];
	snprintf(name, sizeof name, "%s.%s", section, key);
	return json_object_set_new(obj, name, json_string(value));
}

json_t *rpb_job_to_json(const struct rpb_job *job)
{
	json_t *obj = json_object();
	if (!obj || json_object_set_new(obj, "pattern", json_string(rpb_pattern_name(job->pattern))))
		goto fail;
	for (size_t i = 0; i < NOPTS; i++) {
		if (!dumped(job, &opts[i]))
			continue;
		char v[128];
		fmt_value(v, sizeof v, job, &opts[i]);
		if (set_str(obj, opts[i].section, opts[i].key, v))
			goto fail;
	}
	for (size_t i = 0; i < job->nbackends; i++)
		for (size_t j = 0; j < job->backends[i].n; j++) {
			const struct rpb_kv *kv = &job->backends[i].kv[j];
			char shown[1024];
			if (rpb_key_is_dsn(kv->key, strlen(kv->key)))
				rpb_dsn_redact(kv->value, shown, sizeof shown);
			else
				snprintf(shown, sizeof shown, "%s", kv->value);
			if (set_str(obj, job->backends[i].name, kv->key, shown))
				goto fail;
		}
	return obj;
fail:
	json_decref(obj);
	return NULL;
}

int rpb_job_from_json(struct rpb_job *job, const json_t *obj, char *msg, size_t n)
{
	rpb_job_defaults(job);
	if (!json_is_object(obj)) {
		snprintf(msg, n, "job JSON: not an object; give the \"job\" object of a result file");
		return -1;
	}
	const char *pname = json_string_value(json_object_get(obj, "pattern"));
	if (pname) {
		size_t i = 0;
		while (i < NPATTERNS && strcmp(pattern_names[i], pname) != 0)
			i++;
		if (i == NPATTERNS) {
			snprintf(msg, n, "job JSON: unknown pattern '%s'", pname);
			return -1;
		}
		job->pattern = (enum rpb_pattern_id)i;
	}
	const char *name;
	json_t *val;
	json_object_foreach((json_t *)obj, name, val) {
		if (strcmp(name, "pattern") == 0)
			continue;
		char err[1024] = "", section[64];
		const char *dot = strchr(name, '.');
		const char *value = json_string_value(val);
		if (!value)
			snprintf(err, sizeof err, "not a string; give the canonical text");
		else if (!dot || (size_t)(dot - name) >= sizeof section)
			snprintf(err, sizeof err, "not section.key");
		if (!err[0]) {
			snprintf(section, sizeof section, "%.*s", (int)(dot - name), name);
			apply(job, section, dot + 1, value, err, sizeof err);
		}
		if (err[0]) {
			snprintf(msg, n, "job JSON '%s': %s", name, err);
			return -1;
		}
	}
	return 0;
}

/* ---- --help ---- */

#define HELP_WIDTH 100

/* Prints text from column col, wrapped at words to HELP_WIDTH. */
static void print_wrapped(FILE *out, const char *text, int col)
{
	int room = HELP_WIDTH - col;
	if (room < 30)
		room = 30;
	bool first = true;
	while (*text) {
		int len = (int)strlen(text);
		int cut = len;
		if (len > room) {
			cut = room;
			/* Break at a space, but keep "0 = never" together. */
			while (cut > 0 && (text[cut] != ' ' || text[cut - 1] == '=' ||
					   text[cut + 1] == '='))
				cut--;
			if (cut == 0)
				cut = room;
		}
		fprintf(out, "%*s%.*s\n", first ? 0 : col, "", cut, text);
		first = false;
		text += cut;
		while (*text == ' ')
			text++;
	}
	if (first)
		fputc('\n', out);
}

void rpb_job_print_help(FILE *out)
{
	int wkey = 0, wdef = 0, wrange = 0;
	for (size_t i = 0; i < NOPTS; i++) {
		char r[128];
		fmt_range(r, sizeof r, &opts[i]);
		int k = (int)strlen(opts[i].key), d = (int)strlen(opts[i].dflt), g = (int)strlen(r);
		wkey = k > wkey ? k : wkey;
		wdef = d > wdef ? d : wdef;
		wrange = g > wrange ? g : wrange;
	}
	wdef = wdef < 7 ? 7 : wdef; /* the column titles */
	wrange = wrange < 5 ? 5 : wrange;
	fprintf(out, "Workload options: set them in the workload file under their [section], or with\n"
		     "--set section.key=value (or key=value when the key is in one section only).\n"
		     "Sizes take k/M/G/T suffixes (powers of 1024); times take ms, s, m or h.\n");
	const char *section = "";
	for (size_t i = 0; i < NOPTS; i++) {
		const struct optdef *d = &opts[i];
		if (strcmp(d->section, section) != 0) {
			section = d->section;
			enum rpb_pattern_id pat = RPB_PAT_NONE;
			if (section_kind(section, &pat) == SEC_PATTERN)
				fprintf(out, "\n[%s]  (the section selects the %s pattern)\n", section,
					section);
			else
				fprintf(out, "\n[%s]\n", section);
			fprintf(out, "  %-*s  %-*s  %-*s  %s\n", wkey, "key", wdef, "default", wrange,
				"range", "meaning");
		}
		char r[128];
		fmt_range(r, sizeof r, d);
		fprintf(out, "  %-*s  %-*s  %-*s  ", wkey, d->key, wdef, d->dflt, wrange, r);
		print_wrapped(out, d->help, 2 + wkey + 2 + wdef + 2 + wrange + 2);
	}
	fprintf(out, "\n");
	for (size_t i = 0; i < NBACKENDS; i++)
		fprintf(out, "%s[%s]", i ? " " : "", backend_sections[i]);
	fprintf(out, "\n  Backend tuning options, passed as written to that backend, which checks them\n"
		     "  (see the backend's options).\n");
}
