/* Option tables: one row per workload option (key, type, default, range,
 * help, and where the value lives in a config struct). The core's [run]
 * table and every pattern's own table are rows of this kind, so parsing,
 * --set, --help, the JSON dump in result.json and error messages come from
 * one place and read the same for every section. */
#ifndef RPB_OPTIONS_H
#define RPB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Value types of the run options that have a syntax of their own. */
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
 * the library or server (lock), or a request that writes its documents one
 * store transaction at a time (profile = fedora-4.5) fails after ms of them
 * are committed (partial: ms counts documents), or the process kills
 * itself with SIGKILL at a named point of the operation (kill: a crash at
 * a moment that matters, without timing), or the N-th create abandons its
 * open transaction to the reaper (leak: every = N). */
enum rpb_inject_kind { RPB_INJECT_OFF = 0, RPB_INJECT_STALL, RPB_INJECT_LOCK, RPB_INJECT_PARTIAL,
		       RPB_INJECT_KILL, RPB_INJECT_LEAK };
/* Where kill strikes: before the operation's transaction begins (the
 * Fedora model has written and renamed its binary's file by then), just
 * before its commit, after its commit returned but before the ledger
 * records it, and between a binary file's temporary name and its rename
 * (the Fedora model's file store). */
enum rpb_kill_point { RPB_KILL_BEGIN = 0, RPB_KILL_COMMIT, RPB_KILL_ACKED, RPB_KILL_FILE,
		      RPB_KILL_POINTS };
extern const char *const rpb_kill_point_names[RPB_KILL_POINTS];

/* Where a sample's latency starts under rate (the open model): at its
 * operation's intended start (no coordinated omission), at its actual
 * start, or both (a pattern may print both; the core's labels then hold
 * the intended ones). YCSB's measurement.interval has the same three
 * choices. auto is the pattern's own (struct rpb_pattern's latency_auto),
 * intended unless it says otherwise. Every label of a run follows the same
 * rule. Without rate both starts are the same. */
enum rpb_latency { RPB_LAT_AUTO = 0, RPB_LAT_INTENDED, RPB_LAT_OP, RPB_LAT_BOTH };
struct rpb_inject {
	enum rpb_inject_kind kind;
	uint64_t ms; /* stall, lock: milliseconds; partial: documents written */
	uint64_t every;
	enum rpb_kill_point point; /* kill */
};

enum rpb_opt_type {
	RPB_OPT_COUNT,   /* unsigned integer (uint64_t) */
	RPB_OPT_SIZE,    /* unsigned integer with k/M/G/T suffixes (powers of 1024) */
	RPB_OPT_DOUBLE,  /* finite number (double) */
	RPB_OPT_SECONDS, /* number with an optional ms/s/m/h suffix, stored in seconds */
	RPB_OPT_ENUM,    /* one of choices, stored as its index (an enum) */
	RPB_OPT_BOOL,
	RPB_OPT_WARMUP,  /* operations per thread, or a time with a suffix */
	RPB_OPT_POLICY,  /* stop, continue or retry:N */
	RPB_OPT_INJECT,  /* off, stall:MS@N, lock:MS@N, partial:K@N, kill:POINT@N or leak@N */
	RPB_OPT_STRING,  /* text of at most umax bytes, in a char array field */
};

/* A table is an array of rows ended by a row whose key is NULL. */
/* What a path option names: a file rpbench reads, or a directory it writes
 * into (which never nests with --out). */
enum rpb_opt_path { RPB_PATH_NONE = 0, RPB_PATH_READ, RPB_PATH_WRITTEN };

struct rpb_optdef {
	const char *key;
	enum rpb_opt_type type;
	const char *dflt;    /* text, parsed like a value: text and value agree */
	uint64_t umin, umax; /* COUNT, SIZE, WARMUP operations, POLICY N, INJECT MS,
			      * STRING length */
	double dmin, dmax;   /* DOUBLE, SECONDS, WARMUP seconds */
	const char *const *choices; /* ENUM, NULL-terminated */
	size_t off;          /* field in the section's config struct */
	int cls;             /* POLICY: the error class; -1 = every class, off names
			      * an array of RPB_STATUS_COUNT policies */
	const char *help;
	enum rpb_opt_path path; /* STRING naming a file or directory: made absolute
				 * and canonical before it is used or recorded */
	/* The default under profile = fedora-4.5, where it differs (NULL: dflt):
	 * a backend keeps the settings of the store Fedora 4.5 ran there. An
	 * ENUM row with one takes its choice "auto" as "the profile's default". */
	const char *dflt_fedora45;
	/* COUNT, SIZE: a word accepted for "none", stored as UINT64_MAX (LevelDB's
	 * block_cache = none, a cache that keeps nothing); SECONDS: stored as
	 * RPB_OPT_SECONDS_NONE (interval = auto); NULL = no such word. */
	const char *none;
};

/* Large bounds, as --help shows them (2^62, 2^32). */
#define RPB_OPT_P62 (UINT64_C(1) << 62)
#define RPB_OPT_P32 (UINT64_C(1) << 32)
#define RPB_OPT_64M (UINT64_C(64) << 20)

enum rpb_opt_result { RPB_OPT_OK = 0, RPB_OPT_BAD, RPB_OPT_RANGE };

/* Parses value into the field of cfg that d names. */
enum rpb_opt_result rpb_opt_store(void *cfg, const struct rpb_optdef *d, const char *value);
/* A path option's value (d->path), when it has one: replaced by its
 * absolute, canonical form (rpb_path_absolute), so result.json records it
 * whole and verify finds it from any working directory. Non-zero with a
 * one-line msg when it cannot be resolved or no longer fits. */
int rpb_opt_path_absolute(void *cfg, const char *section, const struct rpb_optdef *d,
			  const char *where, char *msg, size_t n);
/* The same for every RPB_PATH_WRITTEN row of a table (rpb_job_finish); a
 * file a pattern reads is resolved by the pattern when its setting uses
 * it (an unused default stays as it is). */
int rpb_opt_paths_absolute(void *cfg, const char *section, const struct rpb_optdef *opts,
			   const char *where, char *msg, size_t n);
/* Stores every row's default. */
void rpb_opt_defaults(void *cfg, const struct rpb_optdef *opts);
/* The default text of d under profile (a [run] profile name; NULL = durable). */
const char *rpb_opt_default(const struct rpb_optdef *d, const char *profile);
/* Stores every row's default under profile. */
void rpb_opt_defaults_for(void *cfg, const struct rpb_optdef *opts, const char *profile);
/* The default as --help shows it: "16M", or "16M (fedora-4.5: 4M)". */
void rpb_opt_default_text(char *buf, size_t n, const struct rpb_optdef *d);

/* Parses value into d's field; on failure writes "[section] key = value is
 * invalid|out of range; give ..." to err and returns -1. */
int rpb_opt_apply(void *cfg, const char *section, const struct rpb_optdef *d, const char *value,
		  char *err, size_t n);
/* The canonical text of the field's value; rpb_opt_store reads it back. */
void rpb_opt_format(char *buf, size_t n, const void *cfg, const struct rpb_optdef *d);
/* The range or choices of an option, as --help shows them. */
void rpb_opt_range(char *buf, size_t n, const struct rpb_optdef *d);
/* The row of key in a table, or NULL. */
const struct rpb_optdef *rpb_opt_find(const struct rpb_optdef *opts, const char *key);
/* Appends the table's keys to buf ("a, b, on_error.<class>"). */
void rpb_opt_list_keys(char *buf, size_t n, const struct rpb_optdef *opts);
/* Appends the error classes of the per-class policy rows ("exists, ..."). */
void rpb_opt_list_classes(char *buf, size_t n, const struct rpb_optdef *opts);

/* An unsigned decimal integer without suffix; false if s is not one. */
bool rpb_parse_u64(const char *s, uint64_t *out);
/* Shortest text that reads back as exactly v ("90", "0.05"). */
void rpb_fmt_double(char *buf, size_t n, double v);
/* Appends to a fixed buffer, truncating: messages are best effort. */
void rpb_cat(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A SECONDS option given as its none word (below the range of every one). */
#define RPB_OPT_SECONDS_NONE (-1.0)

#endif
