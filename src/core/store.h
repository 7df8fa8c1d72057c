/* The one key-value/blob interface every rpbench backend implements.
 *
 * Patterns and the runner speak only this interface; each backend file in
 * backends/ maps it onto one real library. Rules that hold for every hook:
 *
 *  - Every fallible hook returns an enum rpb_status (0 = RPB_OK) and, when it
 *    is not RPB_OK, fills the caller-owned struct rpb_err. Filling it never
 *    allocates, so errors can be reported when memory or disk is full.
 *  - RPB_NOT_FOUND from get and del is an answer, not a failure: the hook
 *    marks err with rpb_err_not_found (class and a fixed message, nothing
 *    formatted), so a read that misses costs no more than one that hits.
 *    A caller that turns a miss into a failure says which key in its own
 *    message.
 *  - Inputs (keys, values, configuration strings) are borrowed for the call.
 *  - Outputs are copied into caller-owned memory (struct rpb_buf) or handed to
 *    a callback for the duration of the call only.
 *  - Keys are 1..RPB_KEY_MAX bytes, any byte values, ordered by memcmp with the
 *    shorter key first on a common prefix. Values are 0..RPB_VALUE_MAX bytes.
 *  - Data operations (put, get, del, scan) happen inside a transaction opened
 *    by begin(); outside one they return RPB_INVALID. Reads see the
 *    transaction's own writes. A data operation that fails with anything
 *    but RPB_NOT_FOUND rolls the whole transaction back (as PostgreSQL does),
 *    so every backend leaves the same state behind. A backend may defer a
 *    put's failure to the transaction's next get, scan, del or commit, which
 *    then reports it with the put's own class and rolls back all the same;
 *    a commit that fails so has committed nothing.
 *  - Destructors (close, session_close) accept NULL.
 */
#ifndef RPB_STORE_H
#define RPB_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPB_BACKEND_ABI 1
#define RPB_KEY_MAX 1024
#define RPB_VALUE_MAX (64u << 20)

/* One result space for every backend; 0 is success. */
enum rpb_status {
	RPB_OK = 0,
	RPB_NOT_FOUND,   /* the key does not exist: an answer, not a failure */
	RPB_EXISTS,      /* a uniqueness rule of the caller was violated */
	RPB_DISK_FULL,   /* ENOSPC/EDQUOT, SQLITE_FULL, SQLSTATE 53100, ... */
	RPB_TXN_TIMEOUT, /* interrupted past its deadline; rolled back */
	RPB_CONFLICT,    /* retryable: serialization failure, deadlock, busy */
	RPB_CONN_LOST,   /* the server went away */
	RPB_IO,          /* any other I/O error */
	RPB_CORRUPT,     /* the store's files fail their own checks */
	RPB_INVALID,     /* bad argument, configuration or call order */
	RPB_NOMEM,       /* out of memory */
	RPB_STATUS_COUNT
};

/* Short lower-case names ("disk-full", ...) used in reports and options. */
const char *rpb_status_name(enum rpb_status st);
/* Parses a name back; returns RPB_STATUS_COUNT when unknown. */
enum rpb_status rpb_status_parse(const char *name);

struct rpb_err {
	enum rpb_status status;
	int native;        /* library code (SQLite extended code, errno, ...) or 0 */
	char sqlstate[6];  /* PostgreSQL SQLSTATE, else "" */
	char msg[256];     /* the native message, copied at once */
	bool user_input;   /* RPB_INVALID from the user's own settings (a backend's
			    * tuning option, rpb_cfg_parse): a usage error, not the
			    * environment's */
};

/* Fills err (may be NULL) and returns st. Never allocates. */
enum rpb_status rpb_err_set(struct rpb_err *err, enum rpb_status st, int native,
			    const char *sqlstate, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Fills err as RPB_INVALID caused by the user's own setting (a tuning
 * option's value): err->user_input, so the driver exits with its usage code. */
enum rpb_status rpb_err_usage(struct rpb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rpb_err_clear(struct rpb_err *err);
/* How many times rpb_err_set (and so rpb_err_usage) has run in this process:
 * the tests' proof that an operation formats no error (a miss, a hit). */
unsigned long rpb_err_formatted(void);

/* Marks err (may be NULL) as RPB_NOT_FOUND and returns it: a get or del that
 * misses. Formats nothing (a few stores): misses are answers, and a read
 * pattern meets millions of them. */
static inline enum rpb_status rpb_err_not_found(struct rpb_err *err)
{
	static const char msg[] = "key not found";
	if (err) {
		err->status = RPB_NOT_FOUND;
		err->native = 0;
		err->sqlstate[0] = '\0';
		err->user_input = false;
		_Static_assert(sizeof msg <= sizeof err->msg, "the miss message fits");
		__builtin_memcpy(err->msg, msg, sizeof msg);
	}
	return RPB_NOT_FOUND;
}

/* The fixed set of tables. Each is an ordered map of its own. */
enum rpb_table {
	RPB_T_OBJECTS = 0, /* object contents (blobs) */
	RPB_T_DESCRIPTIONS,/* object descriptions (metadata records) */
	RPB_T_MEMBERS,     /* container membership: container id + member id */
	RPB_T_DATESTAMPS,  /* datestamp index: datestamp + record id */
	RPB_T_SETS,        /* set index: set + datestamp + record id */
	RPB_T_NAMES,       /* directory entries: parent id + name -> inode id */
	RPB_T_INODES,      /* inode id -> parent, name, type, times */
	RPB_T_SNAPSHOTS,   /* per-harvest id lists */
	RPB_T_RAW,         /* raw key-value benchmarks */
	RPB_T_META,        /* the store's own records: marker, run registry */
	RPB_TABLE_COUNT
};

/* SQL-safe lower-case identifier of a table ("objects", ...). */
const char *rpb_table_name(enum rpb_table t);

typedef struct {
	const void *data;
	size_t len;
} rpb_slice;

static inline rpb_slice rpb_slice_make(const void *data, size_t len)
{
	return (rpb_slice){data, len};
}

/* A caller-owned growable buffer; backends write results into it. */
struct rpb_buf {
	unsigned char *data;
	size_t len;
	size_t cap;
};

/* Makes room for at least n bytes; returns RPB_NOMEM on failure. */
enum rpb_status rpb_buf_reserve(struct rpb_buf *b, size_t n, struct rpb_err *err);
/* Replaces the contents with a copy of n bytes at p. */
enum rpb_status rpb_buf_set(struct rpb_buf *b, const void *p, size_t n,
			    struct rpb_err *err);
void rpb_buf_free(struct rpb_buf *b);

/* Zeroed memory on cache lines of its own (release with free): per-thread
 * state that is written on every operation (sessions, workers) must not
 * share a line with another thread's, or the two threads slow each other
 * down without touching the same data. NULL when out of memory. */
void *rpb_calloc_lines(size_t n, size_t size);

enum rpb_sync {
	RPB_SYNC_NONE = 0, /* commit returns before the data is on stable storage */
	RPB_SYNC_COMMIT,   /* commit returns after the data is on stable storage */
	/* [run] sync = native only: what the store does unasked, as Infinispan's
	 * stores left it (LevelDB's unsynced writes, SQLite's and PostgreSQL's
	 * synced commits). The driver resolves it to NONE or COMMIT from
	 * RPB_BF_NATIVE_UNSYNCED before open; it never reaches a backend. */
	RPB_SYNC_NATIVE,
	/* [run] sync = auto (its default) only: the profile's own, COMMIT under
	 * durable and NATIVE under fedora-4.5, resolved when the workload is
	 * finished (rpb_job_finish); it never reaches a backend. */
	RPB_SYNC_AUTO,
};

/* A backend tuning option, "name=value", without the backend prefix. */
struct rpb_kv {
	const char *key;
	const char *value;
};

/* A backend's tuning options are rows of an option table (options.h). */
struct rpb_optdef;

/* Who may use a store at the same time (docs/faults.md, "The store lock").
 * Embedded stores are locked by the core on their directory before open
 * (src/core/storelock.h); a server backend takes the lock in open for the
 * store's namespace and holds it until close. */
enum rpb_store_lock {
	RPB_LOCK_NONE = 0, /* no lock (tests, tools) */
	RPB_LOCK_RUN,      /* exclusive: refused while anyone else holds the store */
	RPB_LOCK_VERIFY,   /* shared: refused while a run holds the store */
};

struct rpb_store_cfg {
	const char *dir;    /* embedded backends: the store directory */
	const char *dsn;    /* server backends: connection string, NULL = PG* env */
	const char *name;   /* server backends: the store's namespace (schema) */
	enum rpb_sync sync;
	bool create;        /* create the store if missing */
	bool primary_only;  /* server backends: ignore a configured read replica
			     * (verify checks the store of record) */
	bool dsn_untrusted; /* server backends: dsn came from a results directory
			     * (verify without --dsn): connect without the
			     * credentials of the environment (docs/security.md) */
	enum rpb_store_lock lock; /* server backends: the lock open takes (RPB_CONFLICT,
				   * naming the holder, when refused) */
	const struct rpb_kv *opts; /* backend tuning options */
	size_t nopts;
	unsigned long sessions; /* a run's threads x clients, the sessions it opens
				 * at once (0: unknown, e.g. verify), so an option
				 * that allows fewer is refused before the run */
	const char *profile; /* the run's persistence profile ([run] profile:
			      * "durable", "fedora-4.5"); NULL = durable. A
			      * backend may keep defaults of its own per profile */
};

/* Reads cfg->opts into out, a backend's config struct: every row of table
 * (NULL-terminated by key, NULL = none) at its default for cfg->profile,
 * then each option given, range-checked. An unknown key (with the nearest
 * known one) or a bad value: RPB_INVALID from rpb_err_usage, "[backend]
 * key = value is invalid; give ...". */
enum rpb_status rpb_cfg_parse(const struct rpb_store_cfg *cfg, const char *backend,
			      const struct rpb_optdef *table, void *out, struct rpb_err *err);

/* A reading taken off a store's servers at one moment, such as how far a
 * read replica lags behind the server that takes the writes. */
#define RPB_GAUGES_MAX 8
struct rpb_gauge {
	const char *name;   /* static, snake_case, ends in its unit: "replica_lag_s" */
	double value;
};

/* A fact about a store's server for result.json's manifest: the server's
 * version, a setting that decides what a number means. */
#define RPB_FACTS_MAX 16
struct rpb_fact {
	char name[48];
	char value[160];
};

struct rpb_store;   /* opaque, one per opened store */
struct rpb_session; /* opaque, one per worker client; used by one thread */

/* Called by scan for each entry in key order. Key and value are valid only
 * during the call. Return 0 to go on, non-zero to stop the scan early. */
typedef int (*rpb_scan_fn)(void *ctx, rpb_slice key, rpb_slice val);

enum rpb_txn_mode {
	RPB_TXN_READ = 0, /* only get and scan will follow */
	RPB_TXN_WRITE,    /* writes may follow */
};

/* What a program that only starts the backends' own programs (rpbench
 * compare, sweep, scale) knows of each: its name and flags, none of its
 * code, so it links no backend's library (backends.h's rpb_backend_kinds). */
struct rpb_backend_kind {
	const char *name;
	unsigned flags; /* enum rpb_backend_flags: RPB_BF_SERVER, RPB_BF_STORES_NOTHING */
};

enum rpb_backend_flags {
	RPB_BF_STORES_NOTHING = 1u << 0, /* the null backend: reads find nothing */
	RPB_BF_SERVER = 1u << 1,         /* needs a server: cfg.dsn/name, not dir */
	RPB_BF_LOCKS = 1u << 2,          /* a writer blocks while another session
					  * holds a conflicting write (inject = lock) */
	RPB_BF_NATIVE_UNSYNCED = 1u << 3, /* the library's own default commit does
					   * not sync (LevelDB's WriteOptions):
					   * sync = native means none here */
};

struct rpb_backend {
	const char *name;   /* its folder's name under backends/ */
	int abi;            /* RPB_BACKEND_ABI */
	unsigned flags;     /* enum rpb_backend_flags */
	/* Its tuning options, NULL-terminated by key (may be NULL), read by
	 * rpb_cfg_parse into a struct of config_size bytes; --help, the man
	 * pages and result.json's manifest.backend_options come from them. */
	const struct rpb_optdef *options;
	size_t config_size;
	/* Embedded backends: the names (fnmatch patterns) of the files the
	 * library makes in its directory, NULL-terminated; --fresh empties a
	 * store only when it holds nothing else (storeloc.h). */
	const char *const *own_files;

	/* Required. The library and its version, e.g. "SQLite 3.40.1". Static. */
	const char *(*version)(void);
	/* Required. Opens (and with cfg->create, creates) the store. On failure
	 * *out is NULL and err says why in one line. */
	enum rpb_status (*open)(const struct rpb_store_cfg *cfg, struct rpb_store **out,
				struct rpb_err *err);
	/* Required. Closes the store; every session must be closed first. */
	void (*close)(struct rpb_store *st);
	/* Required. Opens a session; sessions of one store may run on different
	 * threads at once, each session on one thread at a time. */
	enum rpb_status (*session_open)(struct rpb_store *st, struct rpb_session **out,
					struct rpb_err *err);
	/* Required. Rolls back an open transaction, then frees the session. */
	void (*session_close)(struct rpb_session *s);

	/* Required. Opens a transaction; one at a time per session. Clears any
	 * interrupt that arrived while no transaction was open. A transaction
	 * sees what its session committed, what sessions closed before it began
	 * committed, and what was committed before the store was opened; other
	 * sessions' recent commits too, except on a read replica (PostgreSQL's
	 * read_dsn), whose lag may hide them from a READ transaction. */
	enum rpb_status (*begin)(struct rpb_session *s, enum rpb_txn_mode mode,
				 struct rpb_err *err);
	/* Required. Inserts or replaces. */
	enum rpb_status (*put)(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			       rpb_slice val, struct rpb_err *err);
	/* Required. Copies the value into out (replacing its contents); returns
	 * RPB_NOT_FOUND when absent, leaving out untouched. */
	enum rpb_status (*get)(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			       struct rpb_buf *out, struct rpb_err *err);
	/* Required. Deletes; RPB_NOT_FOUND when the key was absent. */
	enum rpb_status (*del)(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			       struct rpb_err *err);
	/* Required. Calls fn for the keys k with after < k <= upto in key order,
	 * at most limit of them (0 = no limit). NULL bounds are open. */
	enum rpb_status (*scan)(struct rpb_session *s, enum rpb_table t,
				const rpb_slice *after, const rpb_slice *upto, size_t limit,
				rpb_scan_fn fn, void *ctx, struct rpb_err *err);
	/* Required. Makes the transaction's writes durable as cfg.sync says and
	 * visible. On failure the transaction is rolled back. */
	enum rpb_status (*commit)(struct rpb_session *s, struct rpb_err *err);
	/* Required. Discards the transaction; no-op without one. */
	void (*rollback)(struct rpb_session *s);
	/* Required. Thread-safe: called from another thread to abort the
	 * session's open transaction. The call in progress (even one blocked in
	 * the library or server) or the next one returns RPB_TXN_TIMEOUT, and the
	 * transaction is rolled back. A commit that already reached the point of
	 * no return completes. Without an open transaction it has no effect. */
	void (*interrupt)(struct rpb_session *s);

	/* Optional. Bytes the store occupies on disk. */
	enum rpb_status (*usage)(struct rpb_store *st, uint64_t *bytes,
				 struct rpb_err *err);
	/* Optional. Reads the store's gauges into out (at most RPB_GAUGES_MAX,
	 * the same names in the same order on every call) and sets *n; *n = 0
	 * when this store has none. Thread-safe: the runner samples them while
	 * the workers run. */
	enum rpb_status (*gauges)(struct rpb_store *st, struct rpb_gauge *out, size_t *n,
				  struct rpb_err *err);
	/* Optional. Describes the store's server (PostgreSQL: its version and
	 * the settings that matter) into out, at most RPB_FACTS_MAX, and sets
	 * *n. Called from one thread at a time, outside the timed loop. A
	 * backend whose library version says it all has none. */
	enum rpb_status (*describe)(struct rpb_store *st, struct rpb_fact *out, size_t *n,
				    struct rpb_err *err);
};

/* Checks a backend table at start-up: abi and required hooks. */
enum rpb_status rpb_backend_validate(const struct rpb_backend *b, struct rpb_err *err);

#endif
