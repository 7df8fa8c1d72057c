/* The PostgreSQL backend: one schema per store, one bytea table per
 * enum rpb_table, one libpq connection per session, prepared statements with
 * binary parameters and results. This is the only file that knows libpq.
 *
 * With read_dsn, a session holds a second connection, to a hot standby of
 * the server, and runs its READ transactions there (a read/write split).
 * Reads stay causal: before a read the session waits until the standby has
 * replayed the WAL up to its floor, the server's WAL position when the store
 * was opened, when a session that wrote was closed, or after this session's
 * own last write; other sessions' concurrent commits may not be seen yet,
 * which is the replica's lag the gauges report. */
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* The registry gets this from CMake; this file needs the declarations too. */
#include "postgres_backend.h"
#include "clock.h"
#include "dsn.h"
#include "hostinfo.h"
#include "options.h"
#include "postgres_untrusted.h"

#define PG_DEFAULT_SCHEMA "rpbench"
#define PG_NAMEDATALEN 63 /* longer identifiers are silently truncated */
#define PG_OID_BYTEA 17
#define PG_OID_INT8 20
/* Serialises concurrent creators in one database ("rpbn"). */
#define PG_CREATE_LOCK 0x7270626eL

/* postgres.layout: auto = the profile's default (ispn under fedora-4.5). */
static const char *const pg_layouts[] = {"auto", "kv", "ispn", NULL};
enum { PG_LAYOUT_ISPN = 2 }; /* its index in pg_layouts */

/* postgres.synchronous_commit: auto = what sync asks (commit on, none off). */
static const char *const pg_synchronous_commit[] = {"auto", "off", "local", "remote_write", "on",
						    "remote_apply", NULL};

/* The tuning options as given (read_dsn: as long as result.json records). */
struct pg_config {
	uint64_t fetch_rows, replica_wait_ms;
	bool pipeline;
	unsigned synchronous_commit, layout;
	char read_dsn[4096 + 1];
};

#define PGC(f) offsetof(struct pg_config, f)
static const struct rpb_optdef pg_options[] = {
	{ .key = "fetch_rows", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 1, .umax = 1000000,
	  .off = PGC(fetch_rows), .help = "rows fetched per scan round trip; bounds scan memory" },
	{ .key = "pipeline", .type = RPB_OPT_BOOL, .dflt = "on", .off = PGC(pipeline),
	  .help = "on = a write transaction's BEGIN, puts and COMMIT go in one round trip (libpq "
		  "pipeline mode); off = one round trip per statement" },
	{ .key = "read_dsn", .type = RPB_OPT_STRING, .dflt = "", .umax = 4096, .off = PGC(read_dsn),
	  .help = "connection string of a hot standby of the server: READ transactions run "
		  "there, causally (each waits until the standby has replayed what it must see); "
		  "empty = every transaction on --dsn" },
	{ .key = "synchronous_commit", .type = RPB_OPT_ENUM, .dflt = "auto",
	  .choices = pg_synchronous_commit, .off = PGC(synchronous_commit),
	  .help = "SET synchronous_commit on every session; auto = on with sync = commit, off "
		  "with sync = none" },
	{ .key = "layout", .type = RPB_OPT_ENUM, .dflt = "kv", .dflt_fedora45 = "ispn",
	  .choices = pg_layouts, .off = PGC(layout),
	  .help = "kv = tables (k bytea PRIMARY KEY, v bytea), one upsert per put; ispn = "
		  "Infinispan's string-keyed JDBC store as Fedora 4.5 ran it, tables "
		  "ispn_entry_<table> (id, datum, version) and per put a SELECT of the id, then an "
		  "UPDATE or an INSERT; auto = the profile's default" },
	{ .key = "replica_wait_ms", .type = RPB_OPT_COUNT, .dflt = "60000", .umin = 1,
	  .umax = 3600000, .off = PGC(replica_wait_ms),
	  .help = "with read_dsn: longest wait for the standby to replay a read's floor before "
		  "the read fails" },
	{ .key = NULL },
};

/* The prepared statements, one of each per table, prepared lazily. */
enum pg_op { PG_PUT, PG_GET, PG_DEL, PG_SCAN, PG_HAS, PG_INS, PG_UPD, PG_OP_COUNT };

static const char *const pg_op_name[PG_OP_COUNT] = {"put", "get", "del", "scan",
						    "put (select)", "put (insert)", "put (update)"};

/* Pipeline mode: statements sent without waiting, whose results commit (or
 * the next synchronous call) reads in order. At most PG_PIPE_MAX are queued;
 * a put that finds the queue full waits for it first. */
#define PG_PIPE_MAX 64
enum pg_qkind { PGQ_BEGIN, PGQ_PREPARE, PGQ_PUT, PGQ_COMMIT };

struct pg_queued {
	unsigned char kind;  /* enum pg_qkind */
	unsigned char table; /* enum rpb_table, for PGQ_PREPARE and PGQ_PUT */
};

struct rpb_store {
	char *conninfo;   /* NULL: libpq's PG* environment variables */
	char *read_conninfo; /* read_dsn, NULL without a read replica */
	bool untrusted;   /* conninfo came from a results directory: no credentials */
	char *schema;     /* plain name, for catalog lookups */
	char *schema_sql; /* quoted identifier, for statements */
	enum rpb_sync sync;
	unsigned synchronous_commit; /* index in pg_synchronous_commit: 0 = from sync */
	uint64_t fetch_rows;
	bool pipeline;
	bool ispn; /* postgres.layout = ispn, after auto is resolved */
	pthread_mutex_t admin_lock; /* usage() may come from any thread */
	PGconn *admin;
	/* A server on this host: its data directory (NULL when remote or not
	 * readable by this role) and WAL segment size, to tell a server that
	 * stopped on a full disk from any other lost connection. */
	char *datadir;
	uint64_t wal_segment;
	/* read_dsn: the replica's own monitoring connection (under admin_lock),
	 * the WAL page size for comparing positions, the longest catch-up wait
	 * and the floor of every read (see the top of this file). */
	PGconn *replica_admin;
	uint64_t wal_block;
	uint64_t replica_wait_ms;
	_Atomic uint64_t floor;
	/* The server's WAL position and checkpoint count at open: the gauges
	 * report what came after (gauge_sql NULL: the server cannot tell). */
	const char *gauge_sql;
	uint64_t base_wal;
	double base_checkpoints;
};

/* One connection of a session: to the server, or to its read replica. */
enum { PG_PRIMARY = 0, PG_REPLICA, PG_LINKS };
struct pg_link {
	PGconn *conn;
	PGcancel *cancel;
	bool prepared[RPB_TABLE_COUNT][PG_OP_COUNT];
};

struct rpb_session {
	struct rpb_store *st;
	struct pg_link link[PG_LINKS]; /* PG_REPLICA only with read_dsn */
	/* The link of the current (or last) transaction. */
	PGconn *conn;
	bool (*prepared)[PG_OP_COUNT];
	PGcancel *_Atomic cancel; /* read by interrupt() on another thread */
	atomic_bool in_txn;      /* read by interrupt() on another thread */
	atomic_bool interrupted;
	uint64_t floor;          /* read_dsn: WAL position a read must see */
	uint64_t replayed;       /* the replica has replayed at least this */
	bool dirty;              /* writes committed since floor was taken */
	bool write_txn;     /* begun as RPB_TXN_WRITE: puts may be queued */
	uint64_t round_trips; /* waits for the server (rpb_postgres_round_trips) */
	unsigned nqueued;   /* entries of queued; > 0 only in pipeline mode */
	struct pg_queued queued[PG_PIPE_MAX];
	unsigned char hi_open[RPB_KEY_MAX + 1]; /* above every valid key */
	unsigned char lo[RPB_KEY_MAX];          /* scan continuation key */
};

/* ---- error classification ---------------------------------------------- */

enum rpb_status rpb_postgres_classify(const char *sqlstate, bool connection_bad)
{
	bool valid = sqlstate && strlen(sqlstate) == 5;
	/* A full disk says why the connection then dropped: a server that
	 * cannot write its WAL stops with a PANIC carrying 53100. */
	if (valid && memcmp(sqlstate, "53100", 5) == 0)
		return RPB_DISK_FULL;
	if (connection_bad)
		return RPB_CONN_LOST;
	if (!valid)
		return RPB_IO;
	static const struct {
		const char *code;
		enum rpb_status st;
	} exact[] = {
		{"53100", RPB_DISK_FULL},   {"53000", RPB_NOMEM},       {"53200", RPB_NOMEM},
		{"57014", RPB_TXN_TIMEOUT}, {"25P03", RPB_TXN_TIMEOUT}, {"25P04", RPB_TXN_TIMEOUT},
		{"40001", RPB_CONFLICT},    {"40P01", RPB_CONFLICT},    {"55P03", RPB_CONFLICT},
		{"57P01", RPB_CONN_LOST},   {"57P02", RPB_CONN_LOST},   {"57P03", RPB_CONN_LOST},
		{"57P05", RPB_CONN_LOST},   {"23505", RPB_EXISTS},      {"58030", RPB_IO},
	};
	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
		if (memcmp(sqlstate, exact[i].code, 5) == 0)
			return exact[i].st;
	static const struct {
		const char *cls;
		enum rpb_status st;
	} classes[] = {
		{"08", RPB_CONN_LOST}, {"XX", RPB_CORRUPT}, {"22", RPB_INVALID},
		{"42", RPB_INVALID},   {"28", RPB_INVALID}, {"25", RPB_INVALID}, /* e.g. write in a read-only txn */
		{"0A", RPB_INVALID},   {"54", RPB_INVALID}, /* program limits, e.g. index row too big */
	};
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
		if (memcmp(sqlstate, classes[i].cls, 2) == 0)
			return classes[i].st;
	return RPB_IO;
}

/* What to do about a failure, appended to its message. */
static const char *pg_hint(enum rpb_status st)
{
	switch (st) {
	case RPB_CONN_LOST: return "; check the server (its log) and --dsn";
	case RPB_DISK_FULL: return "; free space on the server's disk";
	case RPB_CONFLICT: return "; retry the transaction";
	default: return "";
	}
}

static int pg_line_len(const char *s)
{
	return (int)strcspn(s, "\r\n");
}

/* ---- version ------------------------------------------------------------ */

static char pg_version_buf[32];
static pthread_once_t pg_version_once = PTHREAD_ONCE_INIT;

static void pg_version_init(void)
{
	int v = PQlibVersion();
	if (v >= 100000) /* 15.18 is 150018; before 10 it was 90605 = 9.6.5 */
		snprintf(pg_version_buf, sizeof pg_version_buf, "libpq %d.%d", v / 10000, v % 10000);
	else
		snprintf(pg_version_buf, sizeof pg_version_buf, "libpq %d.%d.%d", v / 10000,
			 v / 100 % 100, v % 100);
}

static const char *pg_version(void)
{
	pthread_once(&pg_version_once, pg_version_init);
	return pg_version_buf;
}

/* ---- connecting --------------------------------------------------------- */

/* Fills err for a failed connection without ever revealing a secret from
 * the DSN (src/core/dsn.h): the secrets libpq parsed are masked in its
 * message, and when it cannot parse the DSN its reason is given with what
 * it quotes from the DSN masked. Connection failures are rare, so the
 * masking copy may allocate. */
static enum rpb_status pg_connect_error(const char *conninfo, const char *libpq_msg,
					const char *fix, struct rpb_err *err)
{
	int len = pg_line_len(libpq_msg);
	char *detail = malloc((size_t)len + 1);
	char why[200] = "";
	const char *shown = "details withheld: out of memory";
	if (detail) {
		memcpy(detail, libpq_msg, (size_t)len);
		detail[len] = '\0';
		shown = detail;
		if (!rpb_dsn_mask_secrets(conninfo, detail)) {
			rpb_dsn_parse_error(conninfo, why, sizeof why);
			shown = why;
		}
	}
	enum rpb_status st = rpb_err_set(err, RPB_CONN_LOST, 0, NULL,
					 "cannot connect to PostgreSQL (%s%s); %s",
					 shown == why ? "libpq cannot parse the DSN: " : "", shown, fix);
	free(detail);
	return st;
}

/* Server NOTICEs ("schema already exists, skipping") would go to stderr. */
static void pg_notice_ignore(void *arg, const char *message)
{
	(void)arg, (void)message;
}

#define PG_FIX_DSN "check --dsn or PGHOST/PGPORT"
#define PG_FIX_READ_DSN "check postgres.read_dsn"
/* Short: libpq's own message comes before it in a 256-byte message. */
#define PG_FIX_UNTRUSTED "the DSN is result.json's, used without your credentials; pass --dsn to use them"

/* Connects to the server (replica false) or the read replica; a DSN from a
 * results directory without the user's credentials (postgres_untrusted.h). */
static enum rpb_status pg_connect(const struct rpb_store *st, bool replica, PGconn **out,
				  struct rpb_err *err)
{
	const char *conninfo = replica ? st->read_conninfo : st->conninfo;
	const char *fix = replica ? PG_FIX_READ_DSN : st->untrusted ? PG_FIX_UNTRUSTED : PG_FIX_DSN;
	const char *keys[PG_UNTRUSTED_MAX] = {"dbname", "fallback_application_name"};
	const char *vals[PG_UNTRUSTED_MAX] = {conninfo, "rpbench"};
	PQconninfoOption *parsed = NULL;
	char why[128];
	long ctl = rpb_dsn_control_at(conninfo);
	if (ctl >= 0)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "the DSN holds a control character (byte %ld, 0x%02x), which libpq "
				   "would take as text; write the connection string on one line of "
				   "printable text (%s)", ctl + 1, (unsigned)(unsigned char)conninfo[ctl], fix);
	if (st->untrusted && !replica &&
	    pg_untrusted_params(conninfo, keys, vals, &parsed, why, sizeof why) != 0)
		return pg_connect_error(conninfo, why, fix, err);
	PGconn *c = PQconnectdbParams(keys, vals, !parsed);
	PQconninfoFree(parsed);
	*out = NULL;
	if (!c)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory connecting to PostgreSQL");
	if (PQstatus(c) != CONNECTION_OK) {
		enum rpb_status rc = pg_connect_error(conninfo, PQerrorMessage(c), fix, err);
		PQfinish(c);
		return rc;
	}
	PQsetNoticeProcessor(c, pg_notice_ignore, NULL);
	*out = c;
	return RPB_OK;
}

/* After a lost connection to a server on this host: is its data (or WAL)
 * file system nearly full? A server that cannot create its next WAL segment
 * stops (PANIC), and every session just sees the connection drop. Fewer
 * than two segments free is taken as that cause; note says so. */
static bool pg_server_disk_full(const struct rpb_store *st, char *note, size_t n)
{
	if (!st || !st->datadir)
		return false;
	char wal[4200];
	snprintf(wal, sizeof wal, "%s/pg_wal", st->datadir);
	const char *dirs[] = {st->datadir, wal}, *where = NULL;
	uint64_t lowest = UINT64_MAX;
	for (size_t i = 0; i < 2; i++) {
		struct statvfs v;
		if (statvfs(dirs[i], &v) == 0 && (uint64_t)v.f_bavail * v.f_frsize < lowest) {
			lowest = (uint64_t)v.f_bavail * v.f_frsize;
			where = dirs[i];
		}
	}
	if (!where || lowest >= 2 * st->wal_segment)
		return false;
	snprintf(note, n,
		 " (the server's %.160s has %.1f MiB free, less than two %llu MiB WAL segments: "
		 "disk full); free space there and restart the server",
		 where, (double)lowest / 1048576.0, (unsigned long long)(st->wal_segment >> 20));
	return true;
}

/* Fills err from a failed result (NULL = lost or out of memory) and frees
 * it. st lets a lost connection to the server be told apart from a full
 * disk; NULL means the connection is to the read replica. */
static enum rpb_status pg_result_error(const struct rpb_store *st, PGconn *c, PGresult *res,
				       const char *what, struct rpb_err *err)
{
	bool bad = !res || PQstatus(c) == CONNECTION_BAD;
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	if (!msg || !*msg)
		msg = PQerrorMessage(c);
	if (!msg || !*msg)
		msg = "no error message";
	/* libpq's own texts carry the severity the primary field lacks. */
	if (strncmp(msg, "FATAL:  ", 8) == 0 || strncmp(msg, "ERROR:  ", 8) == 0)
		msg += 8;
	enum rpb_status cls = rpb_postgres_classify(state, bad);
	char note[320] = "";
	if (cls == RPB_CONN_LOST && pg_server_disk_full(st, note, sizeof note))
		cls = RPB_DISK_FULL;
	const char *hint = !st && cls == RPB_CONN_LOST ? "; check the read replica (postgres.read_dsn) and its log"
						      : pg_hint(cls);
	rpb_err_set(err, cls, 0, state, "PostgreSQL %s failed: %.*s%s", what, pg_line_len(msg),
		    msg, note[0] ? note : hint);
	PQclear(res);
	return cls;
}

/* Runs a statement whose result is not needed. */
static enum rpb_status pg_exec(const struct rpb_store *st, PGconn *c, const char *sql,
			      const char *what, struct rpb_err *err)
{
	PGresult *res = PQexec(c, sql);
	ExecStatusType es = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	if (es == PGRES_COMMAND_OK || es == PGRES_TUPLES_OK) {
		PQclear(res);
		return RPB_OK;
	}
	return pg_result_error(st, c, res, what, err);
}

/* ---- store -------------------------------------------------------------- */

/* One implicit transaction: the advisory lock makes concurrent creators wait
 * for each other, since IF NOT EXISTS alone can still race on pg_type. A
 * lock_timeout from the DSN (meant for the workload) must not cut that wait
 * short, hence SET LOCAL for this transaction only. */
static enum rpb_status pg_create(struct rpb_store *st, struct rpb_err *err)
{
	char sql[4096];
	size_t n = (size_t)snprintf(sql, sizeof sql,
				    "SET LOCAL lock_timeout = 0; SELECT pg_advisory_xact_lock(%ld);"
				    " CREATE SCHEMA IF NOT EXISTS %s;",
				    PG_CREATE_LOCK, st->schema_sql);
	for (int t = 0; t < RPB_TABLE_COUNT && n < sizeof sql; t++)
		n += (size_t)snprintf(sql + n, sizeof sql - n,
				      st->ispn ? " CREATE TABLE IF NOT EXISTS %s.ispn_entry_%s"
						 " (id bytea PRIMARY KEY, datum bytea, version bigint);"
					       : " CREATE TABLE IF NOT EXISTS %s.%s"
						 " (k bytea PRIMARY KEY, v bytea NOT NULL);",
				      st->schema_sql, rpb_table_name((enum rpb_table)t));
	if (n >= sizeof sql)
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "schema name too long");
	return pg_exec(st, st->admin, sql, "creating the store's schema and tables", err);
}

/* The names of a layout's tables as a text[] literal. */
static void pg_table_names(bool ispn, char *names, size_t size)
{
	size_t n = (size_t)snprintf(names, size, "{");
	for (int t = 0; t < RPB_TABLE_COUNT && n < size; t++)
		n += (size_t)snprintf(names + n, size - n, "%s%s%s", t ? "," : "",
				      ispn ? "ispn_entry_" : "", rpb_table_name((enum rpb_table)t));
	if (n < size)
		snprintf(names + n, size - n, "}");
}

/* The schema must not hold the other layout's tables (a store is one
 * layout); without create, it must hold every table of this one. */
static enum rpb_status pg_check_exists(struct rpb_store *st, bool create, struct rpb_err *err)
{
	char mine[320], other[320];
	pg_table_names(st->ispn, mine, sizeof mine);
	pg_table_names(!st->ispn, other, sizeof other);
	const char *params[] = {st->schema, mine, other};
	PGresult *res = PQexecParams(
		st->admin,
		"SELECT (SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = $1),"
		" (SELECT count(*) FROM pg_catalog.pg_tables"
		"  WHERE schemaname = $1 AND tablename = ANY($2::text[])),"
		" (SELECT count(*) FROM pg_catalog.pg_tables"
		"  WHERE schemaname = $1 AND tablename = ANY($3::text[]))",
		3, NULL, params, NULL, NULL, 0);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_result_error(st, st->admin, res, "checking the store's schema", err);
	long schemas = atol(PQgetvalue(res, 0, 0)), tables = atol(PQgetvalue(res, 0, 1));
	long others = atol(PQgetvalue(res, 0, 2));
	PQclear(res);
	const char *layout = st->ispn ? "ispn" : "kv", *other_layout = st->ispn ? "kv" : "ispn";
	if (others)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "PostgreSQL schema \"%s\" holds a store of postgres.layout = %s, not %s; "
				   "give the layout it was made with (--set postgres.layout=%s) or another --schema",
				   st->schema, other_layout, layout, other_layout);
	if (create)
		return RPB_OK;
	if (schemas == 0)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "PostgreSQL schema \"%s\" does not exist in this database; check --dsn and --schema",
				   st->schema);
	if (tables != RPB_TABLE_COUNT)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "PostgreSQL schema \"%s\" lacks %ld of its %d tables; drop that schema (DROP SCHEMA ... CASCADE) and let a run create it again",
				   st->schema, RPB_TABLE_COUNT - tables, RPB_TABLE_COUNT);
	return RPB_OK;
}

/* The store's lock (store.h, enum rpb_store_lock): a session-level advisory
 * lock on the admin connection, keyed by the schema's oid under a class of
 * rpbench's own ("rpbs"; the bigint key is that class in its high half, the
 * oid in its low half), held until close, or until the connection ends
 * however the process ends. Its holder then names itself in
 * application_name, which pg_stat_activity shows every role; the lock, not
 * the name, is the truth. */
#define PG_STORE_LOCK_CLASS "1919967859" /* 0x72706273, "rpbs" */
#define PG_OWNER_PREFIX "rpbench pid "

/* Who holds the lock: the rpbench process and its start when the holding
 * session names one, else the server process of that session. */
static void pg_lock_holder(struct rpb_store *st, char *who, size_t n, long *rpb_pid)
{
	const char *params[] = {st->schema};
	PGresult *res = PQexecParams(
		st->admin,
		"SELECT l.pid, a.application_name FROM pg_catalog.pg_locks l"
		" LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid"
		" WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
		"  AND l.classid = " PG_STORE_LOCK_CLASS
		"  AND l.objid = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = $1)"
		"  AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())"
		"  AND l.pid <> pg_catalog.pg_backend_pid()"
		" ORDER BY l.mode = 'ExclusiveLock' DESC LIMIT 1",
		1, NULL, params, NULL, NULL, 0);
	*rpb_pid = 0;
	snprintf(who, n, "another session");
	if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1) {
		const char *app = PQgetvalue(res, 0, 1);
		char started[40];
		if (sscanf(app, PG_OWNER_PREFIX "%ld started %39s", rpb_pid, started) == 2 && *rpb_pid > 0)
			snprintf(who, n, "process %ld (started %s)", *rpb_pid, started);
		else
			snprintf(who, n, "the session of PostgreSQL server process %s", PQgetvalue(res, 0, 0));
	}
	PQclear(res);
}

static enum rpb_status pg_lock_store(struct rpb_store *st, enum rpb_store_lock mode,
				     struct rpb_err *err)
{
	const char *params[] = {st->schema};
	PGresult *res = PQexecParams(
		st->admin,
		mode == RPB_LOCK_RUN
			? "SELECT pg_catalog.pg_try_advisory_lock((" PG_STORE_LOCK_CLASS "::int8 << 32) | n.oid::int8)"
			  " FROM pg_catalog.pg_namespace n WHERE n.nspname = $1"
			: "SELECT pg_catalog.pg_try_advisory_lock_shared((" PG_STORE_LOCK_CLASS "::int8 << 32) | n.oid::int8)"
			  " FROM pg_catalog.pg_namespace n WHERE n.nspname = $1",
		1, NULL, params, NULL, NULL, 0);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
		return pg_result_error(st, st->admin, res, "locking the store's schema", err);
	bool got = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);
	if (got) {
		if (mode == RPB_LOCK_RUN) {
			char name[64], started[40];
			rpb_iso_time(started, sizeof started, rpb_wall_ms());
			snprintf(name, sizeof name, PG_OWNER_PREFIX "%ld started %s", (long)getpid(), started);
			const char *p[] = {name};
			PQclear(PQexecParams(st->admin,
					     "SELECT pg_catalog.set_config('application_name', $1, false)", 1,
					     NULL, p, NULL, NULL, 0));
		}
		return RPB_OK;
	}
	char who[160];
	long rpb_pid;
	pg_lock_holder(st, who, sizeof who, &rpb_pid);
	if (mode == RPB_LOCK_VERIFY && rpb_pid)
		return rpb_err_set(err, RPB_CONFLICT, 0, NULL,
				   "run %ld is still writing this store (schema \"%s\"); wait for it or stop it",
				   rpb_pid, st->schema);
	if (mode == RPB_LOCK_VERIFY)
		return rpb_err_set(err, RPB_CONFLICT, 0, NULL,
				   "a run (%s) is still writing this store (schema \"%s\"); wait for it or stop it",
				   who, st->schema);
	return rpb_err_set(err, RPB_CONFLICT, 0, NULL,
			   "store schema \"%s\" is in use by %s; wait for it or stop it", st->schema, who);
}

static void pg_close(struct rpb_store *st)
{
	if (!st)
		return;
	PQfinish(st->admin);
	PQfinish(st->replica_admin);
	pthread_mutex_destroy(&st->admin_lock);
	free(st->conninfo);
	free(st->read_conninfo);
	free(st->schema);
	free(st->schema_sql);
	free(st->datadir);
	free(st);
}

static enum rpb_status pg_open_config(const struct rpb_store_cfg *cfg, struct rpb_store *st,
				      struct rpb_err *err)
{
	struct pg_config *c = malloc(sizeof *c);
	if (!c)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	enum rpb_status rc = rpb_cfg_parse(cfg, "postgres", pg_options, c, err);
	st->fetch_rows = c->fetch_rows;
	st->pipeline = c->pipeline;
	st->replica_wait_ms = c->replica_wait_ms;
	st->synchronous_commit = c->synchronous_commit;
	st->ispn = c->layout == PG_LAYOUT_ISPN;
	if (!rc && *c->read_dsn && !cfg->primary_only) {
		free(st->read_conninfo);
		if (!(st->read_conninfo = strdup(c->read_dsn)))
			rc = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	}
	free(c);
	if (rc)
		return rc;
	const char *name = cfg->name ? cfg->name : PG_DEFAULT_SCHEMA;
	if (!*name || strlen(name) > PG_NAMEDATALEN)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "store name '%.64s' must be 1..%d bytes (it names a PostgreSQL schema)",
				   name, PG_NAMEDATALEN);
	st->sync = cfg->sync;
	st->schema = strdup(name);
	st->conninfo = cfg->dsn && *cfg->dsn ? strdup(cfg->dsn) : NULL;
	st->untrusted = cfg->dsn_untrusted;
	if (!st->schema || (cfg->dsn && *cfg->dsn && !st->conninfo))
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	return RPB_OK;
}

/* True when libpq reached the server over a unix socket or loopback, so
 * its data directory is a path on this host. */
static bool pg_server_is_local(PGconn *c)
{
	const char *h = PQhost(c);
	if (!h || !*h)
		return false;
	return h[0] == '/' || h[0] == '@' || strcmp(h, "localhost") == 0 ||
	       strcmp(h, "127.0.0.1") == 0 || strcmp(h, "::1") == 0;
}

/* Finds a local server's data directory (shown only to superusers and
 * pg_read_all_settings) and WAL segment size; leaves datadir NULL when
 * either is unknown, which only turns the disk check off. */
static void pg_locate_data(struct rpb_store *st)
{
	st->wal_segment = 16u << 20;
	if (!pg_server_is_local(st->admin))
		return;
	PGresult *res = PQexec(st->admin,
			       "SELECT name, setting FROM pg_catalog.pg_settings"
			       " WHERE name IN ('data_directory', 'wal_segment_size')");
	for (int i = 0; res && PQresultStatus(res) == PGRES_TUPLES_OK && i < PQntuples(res); i++) {
		const char *name = PQgetvalue(res, i, 0), *val = PQgetvalue(res, i, 1);
		if (strcmp(name, "wal_segment_size") == 0 && strtoull(val, NULL, 10) > 0)
			st->wal_segment = strtoull(val, NULL, 10);
		else if (strcmp(name, "data_directory") == 0 && val[0] == '/')
			st->datadir = strdup(val);
	}
	PQclear(res);
}

/* ---- read replica (read_dsn) ------------------------------------------- */

/* A WAL position as PostgreSQL prints it, "16/B374D848". */
static bool pg_lsn_parse(const char *text, uint64_t *lsn)
{
	unsigned long hi, lo;
	char tail;
	if (!text || sscanf(text, "%lx/%lx%c", &hi, &lo, &tail) != 2 || hi > UINT32_MAX ||
	    lo > UINT32_MAX)
		return false;
	*lsn = (uint64_t)hi << 32 | lo;
	return true;
}

/* Runs sql, whose first column is one WAL position (NULL sets *lsn = 0). */
static enum rpb_status pg_query_lsn(const struct rpb_store *st, PGconn *c, const char *sql,
				    uint64_t *lsn, const char *what, struct rpb_err *err)
{
	PGresult *res = PQexec(c, sql);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
		return pg_result_error(st, c, res, what, err);
	bool ok = PQgetisnull(res, 0, 0) ? (*lsn = 0, true) : pg_lsn_parse(PQgetvalue(res, 0, 0), lsn);
	PQclear(res);
	return ok ? RPB_OK
		  : rpb_err_set(err, RPB_IO, 0, NULL, "PostgreSQL %s returned no WAL position", what);
}

/* The server's WAL insert position: past the end of every record already
 * inserted, committed asynchronously or not (the write position may not
 * be). */
static enum rpb_status pg_primary_lsn(const struct rpb_store *st, PGconn *c, uint64_t *lsn,
				      struct rpb_err *err)
{
	return pg_query_lsn(st, c, "SELECT pg_catalog.pg_current_wal_insert_lsn()", lsn,
			    "reading the WAL position", err);
}

static enum rpb_status pg_replayed_lsn(PGconn *c, uint64_t *lsn, struct rpb_err *err)
{
	return pg_query_lsn(NULL, c, "SELECT pg_catalog.pg_last_wal_replay_lsn()", lsn,
			    "reading the read replica's replay position", err);
}

/* Whether a replica that replayed up to replayed has everything before
 * floor. An insert position at the start of a WAL page points past the
 * page header (at most 40 bytes), where no record ends: replay stops at
 * the page boundary until a later record comes. */
#define PG_PAGE_HEADER_MAX 40
static bool pg_lsn_reached(const struct rpb_store *st, uint64_t replayed, uint64_t floor)
{
	uint64_t in_page = floor % st->wal_block;
	return replayed >= floor || (in_page <= PG_PAGE_HEADER_MAX && replayed >= floor - in_page);
}

static void pg_floor_raise(struct rpb_store *st, uint64_t lsn)
{
	uint64_t cur = atomic_load(&st->floor);
	while (cur < lsn && !atomic_compare_exchange_weak(&st->floor, &cur, lsn))
		;
}

/* One text value of a one-row result, or NULL (res freed by the caller). */
static const char *pg_single(PGresult *res)
{
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 ||
	    PQgetisnull(res, 0, 0))
		return NULL;
	return PQgetvalue(res, 0, 0);
}

/* read_dsn must name a hot standby of this very server: another server
 * would answer reads from other data. */
static enum rpb_status pg_replica_check(struct rpb_store *st, struct rpb_err *err)
{
	PGresult *res = PQexec(st->replica_admin, "SELECT pg_catalog.pg_is_in_recovery()");
	const char *v = pg_single(res);
	if (!v)
		return pg_result_error(NULL, st->replica_admin, res,
				       "checking the read replica (postgres.read_dsn)", err);
	bool standby = strcmp(v, "t") == 0;
	PQclear(res);
	if (!standby)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "postgres.read_dsn names a server that is not in recovery: give a hot standby of the --dsn server (scripts/pg-throwaway standby makes one)");
	/* The cluster's identity survives pg_basebackup; reading it needs a
	 * superuser or pg_read_server_files, else only recovery is checked. */
	static const char sysid[] = "SELECT system_identifier::text FROM pg_catalog.pg_control_system()";
	PGresult *a = PQexec(st->admin, sysid), *b = PQexec(st->replica_admin, sysid);
	const char *ia = pg_single(a), *ib = pg_single(b);
	bool other = ia && ib && strcmp(ia, ib) != 0;
	char mine[32] = "", theirs[32] = "";
	if (other)
		snprintf(mine, sizeof mine, "%s", ia), snprintf(theirs, sizeof theirs, "%s", ib);
	PQclear(a);
	PQclear(b);
	if (other)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "postgres.read_dsn names a standby of another cluster (system identifier %s, the --dsn server's is %s): give a standby of the --dsn server",
				   theirs, mine);
	return RPB_OK;
}

/* Opens the replica's monitoring connection, checks it, and sets the floor
 * every read of this store waits for: the server's WAL as it is now. */
static enum rpb_status pg_replica_open(struct rpb_store *st, struct rpb_err *err)
{
	enum rpb_status rc = pg_connect(st, true, &st->replica_admin, err);
	if (!rc)
		rc = pg_replica_check(st, err);
	if (!rc)
		rc = pg_exec(NULL, st->replica_admin, "SET statement_timeout = '10s'",
			     "setting up the read replica's monitor", err);
	if (rc)
		return rc;
	st->wal_block = 8192;
	PGresult *res = PQexec(st->admin, "SELECT pg_catalog.current_setting('wal_block_size')");
	const char *v = pg_single(res);
	if (v && strtoull(v, NULL, 10) > 0)
		st->wal_block = strtoull(v, NULL, 10);
	PQclear(res);
	uint64_t lsn;
	rc = pg_primary_lsn(st, st->admin, &lsn, err);
	if (!rc)
		atomic_store(&st->floor, lsn);
	return rc;
}

/* The server's side of a slowdown: WAL written since the store was opened
 * (by every session of the server: on a throwaway server, ours), the
 * checkpoints since then, the size of the store's tables with their
 * indexes and TOAST, and the dead tuples autovacuum has still to reclaim.
 * PostgreSQL 17 moved the checkpoint counts to pg_stat_checkpointer. */
static const char pg_gauge_sql_15[] =
	"SELECT pg_catalog.pg_current_wal_insert_lsn(),"
	" (SELECT checkpoints_timed + checkpoints_req FROM pg_catalog.pg_stat_bgwriter),"
	" (SELECT coalesce(sum(pg_catalog.pg_total_relation_size(c.oid)), 0)"
	"  FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
	"  WHERE n.nspname = $1 AND c.relkind = 'r'),"
	" (SELECT coalesce(sum(n_dead_tup), 0) FROM pg_catalog.pg_stat_user_tables"
	"  WHERE schemaname = $1)";
static const char pg_gauge_sql_17[] =
	"SELECT pg_catalog.pg_current_wal_insert_lsn(),"
	" (SELECT num_timed + num_requested FROM pg_catalog.pg_stat_checkpointer),"
	" (SELECT coalesce(sum(pg_catalog.pg_total_relation_size(c.oid)), 0)"
	"  FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
	"  WHERE n.nspname = $1 AND c.relkind = 'r'),"
	" (SELECT coalesce(sum(n_dead_tup), 0) FROM pg_catalog.pg_stat_user_tables"
	"  WHERE schemaname = $1)";

/* One reading of the server gauges (admin_lock held): WAL position,
 * checkpoints, table bytes, dead tuples. */
static enum rpb_status pg_server_gauges(struct rpb_store *st, uint64_t *wal, double v[3],
					struct rpb_err *err)
{
	const char *params[1] = {st->schema};
	PGresult *res = PQexecParams(st->admin, st->gauge_sql, 1, NULL, params, NULL, NULL, 0);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 ||
	    !pg_lsn_parse(PQgetvalue(res, 0, 0), wal))
		return pg_result_error(st, st->admin, res, "reading the server's statistics", err);
	for (int k = 0; k < 3; k++)
		v[k] = PQgetisnull(res, 0, k + 1) ? 0 : strtod(PQgetvalue(res, 0, k + 1), NULL);
	PQclear(res);
	return RPB_OK;
}

/* The baseline of the server gauges; without one (a server that does not
 * answer these views to this role) the store has only the replica's. */
static void pg_gauges_start(struct rpb_store *st)
{
	st->gauge_sql = PQserverVersion(st->admin) >= 170000 ? pg_gauge_sql_17 : pg_gauge_sql_15;
	double v[3];
	struct rpb_err err;
	if (pg_server_gauges(st, &st->base_wal, v, &err) != RPB_OK)
		st->gauge_sql = NULL;
	else
		st->base_checkpoints = v[0];
}

/* With read_dsn, replica_lag_bytes: WAL the server wrote that the replica
 * has not yet replayed; replica_lag_s: while behind, the age of the last
 * transaction it replayed (how stale its reads are; both hosts' clocks must
 * agree). */
static enum rpb_status pg_replica_gauges(struct rpb_store *st, struct rpb_gauge *out,
					 struct rpb_err *err)
{
	uint64_t written = 0, replayed = 0;
	double age = 0;
	enum rpb_status rc = pg_primary_lsn(st, st->admin, &written, err);
	if (!rc) {
		PGresult *res = PQexec(st->replica_admin,
				       "SELECT pg_catalog.pg_last_wal_replay_lsn(),"
				       " extract(epoch FROM pg_catalog.clock_timestamp() -"
				       " pg_catalog.pg_last_xact_replay_timestamp())");
		if (!res || PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 ||
		    PQgetisnull(res, 0, 0) || !pg_lsn_parse(PQgetvalue(res, 0, 0), &replayed)) {
			rc = pg_result_error(NULL, st->replica_admin, res,
					     "reading the read replica's lag", err);
		} else {
			age = PQgetisnull(res, 0, 1) ? 0 : strtod(PQgetvalue(res, 0, 1), NULL);
			PQclear(res);
		}
	}
	if (rc)
		return rc;
	bool behind = !pg_lsn_reached(st, replayed, written);
	out[0] = (struct rpb_gauge){"replica_lag_bytes", behind ? (double)(written - replayed) : 0};
	out[1] = (struct rpb_gauge){"replica_lag_s", behind && age > 0 ? age : 0};
	return RPB_OK;
}

static enum rpb_status pg_gauges(struct rpb_store *st, struct rpb_gauge *out, size_t *n,
				 struct rpb_err *err)
{
	*n = 0;
	enum rpb_status rc = RPB_OK;
	pthread_mutex_lock(&st->admin_lock);
	if (st->gauge_sql) {
		uint64_t wal = 0;
		double v[3];
		rc = pg_server_gauges(st, &wal, v, err);
		if (!rc) {
			out[0] = (struct rpb_gauge){"wal_bytes",
						    wal > st->base_wal ? (double)(wal - st->base_wal) : 0};
			out[1] = (struct rpb_gauge){"checkpoints", v[0] - st->base_checkpoints};
			out[2] = (struct rpb_gauge){"table_bytes", v[1]};
			out[3] = (struct rpb_gauge){"dead_tuples", v[2]};
			*n = 4;
		}
	}
	if (!rc && st->replica_admin) {
		rc = pg_replica_gauges(st, out + *n, err);
		if (!rc)
			*n += 2;
	}
	pthread_mutex_unlock(&st->admin_lock);
	if (rc)
		*n = 0;
	return rc;
}

/* The server's version and the settings that decide what a number means;
 * synchronous_commit is the server's default, which each session then sets
 * from the run's sync. */
static enum rpb_status pg_describe(struct rpb_store *st, struct rpb_fact *out, size_t *n,
				   struct rpb_err *err)
{
	static const char sql[] =
		"SELECT s, pg_catalog.current_setting(s) FROM pg_catalog.unnest(ARRAY['server_version',"
		" 'synchronous_commit', 'fsync', 'wal_level', 'shared_buffers', 'full_page_writes',"
		" 'wal_sync_method']) AS s";
	*n = 0;
	pthread_mutex_lock(&st->admin_lock);
	PGresult *res = PQexec(st->admin, sql);
	enum rpb_status rc = RPB_OK;
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK || PQnfields(res) != 2)
		rc = pg_result_error(st, st->admin, res, "reading the server's settings", err);
	for (int i = 0; !rc && i < PQntuples(res) && *n < RPB_FACTS_MAX; i++, (*n)++) {
		snprintf(out[*n].name, sizeof out[*n].name, "%s", PQgetvalue(res, i, 0));
		snprintf(out[*n].value, sizeof out[*n].value, "%s", PQgetvalue(res, i, 1));
	}
	if (!rc)
		PQclear(res);
	pthread_mutex_unlock(&st->admin_lock);
	return rc;
}

static enum rpb_status pg_open(const struct rpb_store_cfg *cfg, struct rpb_store **out,
			       struct rpb_err *err)
{
	*out = NULL;
	struct rpb_store *st = calloc(1, sizeof *st);
	if (!st)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	pthread_mutex_init(&st->admin_lock, NULL);
	enum rpb_status rc = pg_open_config(cfg, st, err);
	if (!rc)
		rc = pg_connect(st, false, &st->admin, err);
	if (!rc) {
		char *q = PQescapeIdentifier(st->admin, st->schema, strlen(st->schema));
		st->schema_sql = q ? strdup(q) : NULL;
		PQfreemem(q);
		if (!st->schema_sql)
			rc = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory quoting the schema name");
	}
	if (!rc) {
		pg_locate_data(st);
		rc = pg_check_exists(st, cfg->create, err);
		if (!rc && cfg->create)
			rc = pg_create(st, err);
		if (!rc)
			pg_gauges_start(st);
	}
	if (!rc && cfg->lock != RPB_LOCK_NONE)
		rc = pg_lock_store(st, cfg->lock, err);
	if (!rc && st->read_conninfo)
		rc = pg_replica_open(st, err);
	if (rc) {
		pg_close(st);
		return rc;
	}
	*out = st;
	return RPB_OK;
}

/* Sums every table of the schema with its indexes and TOAST; WAL is shared
 * by the whole cluster and not counted. */
static enum rpb_status pg_usage(struct rpb_store *st, uint64_t *bytes, struct rpb_err *err)
{
	const char *params[] = {st->schema};
	pthread_mutex_lock(&st->admin_lock);
	PGresult *res = PQexecParams(
		st->admin,
		"SELECT coalesce(sum(pg_catalog.pg_total_relation_size(c.oid)), 0)::int8"
		" FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
		" WHERE n.nspname = $1 AND c.relkind = 'r'",
		1, NULL, params, NULL, NULL, 0);
	enum rpb_status rc = RPB_OK;
	if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1) {
		*bytes = strtoull(PQgetvalue(res, 0, 0), NULL, 10);
		PQclear(res);
	} else {
		rc = pg_result_error(st, st->admin, res, "measuring the store's size", err);
	}
	pthread_mutex_unlock(&st->admin_lock);
	return rc;
}

/* ---- sessions ----------------------------------------------------------- */

static void pg_session_close(struct rpb_session *s);

/* Connects one link of a session and sets it up. */
static enum rpb_status pg_link_open(struct rpb_session *s, unsigned which, struct rpb_err *err)
{
	const struct rpb_store *st = s->st;
	struct pg_link *l = &s->link[which];
	enum rpb_status rc = pg_connect(st, which == PG_REPLICA, &l->conn, err);
	if (rc)
		return rc;
	char sql[256];
	snprintf(sql, sizeof sql, "SET search_path TO %s; SET synchronous_commit TO %s",
		 st->schema_sql,
		 st->synchronous_commit ? pg_synchronous_commit[st->synchronous_commit]
		 : st->sync == RPB_SYNC_NONE ? "off"
					     : "on");
	rc = pg_exec(which == PG_PRIMARY ? st : NULL, l->conn, sql, "session setup", err);
	if (rc)
		return rc;
	l->cancel = PQgetCancel(l->conn);
	if (!l->cancel)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory creating a cancel handle");
	return RPB_OK;
}

/* Makes link which the current one; only between transactions. */
static void pg_use_link(struct rpb_session *s, unsigned which)
{
	s->conn = s->link[which].conn;
	s->prepared = s->link[which].prepared;
	atomic_store(&s->cancel, s->link[which].cancel);
}

/* The store to check for a full disk when the current link fails: only the
 * server's own data directory is known. */
static const struct rpb_store *pg_disk_of(const struct rpb_session *s)
{
	return s->conn == s->link[PG_PRIMARY].conn ? s->st : NULL;
}

static enum rpb_status pg_session_open(struct rpb_store *st, struct rpb_session **out,
				       struct rpb_err *err)
{
	*out = NULL;
	struct rpb_session *s = rpb_calloc_lines(1, sizeof *s);
	if (!s)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	s->st = st;
	memset(s->hi_open, 0xff, sizeof s->hi_open);
	atomic_init(&s->in_txn, false);
	atomic_init(&s->interrupted, false);
	enum rpb_status rc = pg_link_open(s, PG_PRIMARY, err);
	if (!rc && st->read_conninfo)
		rc = pg_link_open(s, PG_REPLICA, err);
	pg_use_link(s, PG_PRIMARY);
	s->floor = atomic_load(&st->floor);
	if (rc) {
		pg_session_close(s);
		return rc;
	}
	*out = s;
	return RPB_OK;
}

/* A failed statement: classified, with an interrupt said as such; res is
 * freed. The caller rolls back. */
static enum rpb_status pg_failed(struct rpb_session *s, PGresult *res, const char *what,
				 struct rpb_err *err)
{
	enum rpb_status rc = pg_result_error(pg_disk_of(s), s->conn, res, what, err);
	if (rc == RPB_TXN_TIMEOUT && err)
		snprintf(err->msg, sizeof err->msg,
			 "transaction interrupted during %s and rolled back (SQLSTATE %s)", what,
			 err->sqlstate);
	return rc;
}

/* ---- pipeline mode ------------------------------------------------------ */

static void pg_queued_what(const struct pg_queued *q, char *buf, size_t n)
{
	if (!q)
		snprintf(buf, n, "pipelined statement");
	else if (q->kind == PGQ_BEGIN)
		snprintf(buf, n, "begin");
	else if (q->kind == PGQ_COMMIT)
		snprintf(buf, n, "commit");
	else
		snprintf(buf, n, "put on table %s", rpb_table_name((enum rpb_table)q->table));
}

/* Waits until a result can be read without blocking. With cancel, or once
 * the session is interrupted, cancels what the server runs: a cancel that
 * reaches the server before it started the queued statement is ignored
 * there, so it is repeated every PG_CANCEL_REPEAT_MS until an answer comes
 * (an interrupt that arrived while the queue was still on its way would
 * otherwise leave the wait on a lock unbounded). */
#define PG_CANCEL_REPEAT_MS 100
static void pg_wait_result(struct rpb_session *s, bool cancel)
{
	for (int wait = cancel ? 0 : PG_CANCEL_REPEAT_MS; PQisBusy(s->conn);
	     wait = PG_CANCEL_REPEAT_MS) {
		struct pollfd p = {.fd = PQsocket(s->conn), .events = POLLIN};
		if (p.fd < 0)
			return;
		int n = poll(&p, 1, wait);
		if (n == 0 && (cancel || atomic_load(&s->interrupted))) {
			char errbuf[256];
			(void)PQcancel(atomic_load(&s->cancel), errbuf, sizeof errbuf);
		} else if (n > 0 && !PQconsumeInput(s->conn)) {
			return; /* the connection is gone; PQgetResult says so */
		}
	}
}

/* Sends a sync, reads the result of every queued statement in order and
 * leaves pipeline mode. Returns the first failure, classified as that
 * statement's own (err may be NULL). With cancel, asks the server to cancel
 * what runs once everything is sent: an interrupted transaction must not
 * wait for a queued statement blocked on a lock. Does not roll back. */
static enum rpb_status pg_pipe_drain(struct rpb_session *s, bool cancel, struct rpb_err *err)
{
	PGconn *c = s->conn;
	enum rpb_status rc = RPB_OK;
	bool synced = false, seen = false;
	unsigned i = 0, results = 0;
	if (PQpipelineSync(c) == 1) {
		s->round_trips++;
		/* Each statement yields one result, then NULL; the sync its own.
		 * A lost connection ends the stream early: two NULLs in a row. */
		for (;;) {
			pg_wait_result(s, cancel);
			PGresult *res = PQgetResult(c);
			if (!res) {
				if (!seen || PQstatus(c) == CONNECTION_BAD)
					break;
				seen = false;
				i++;
				continue;
			}
			ExecStatusType es = PQresultStatus(res);
			if (es == PGRES_PIPELINE_SYNC || ++results > s->nqueued + 1) {
				synced = es == PGRES_PIPELINE_SYNC;
				PQclear(res);
				break;
			}
			seen = true;
			const struct pg_queued *q = i < s->nqueued ? &s->queued[i] : NULL;
			if (es == PGRES_COMMAND_OK) {
				/* COMMIT of an already failed transaction rolls back. */
				if (!rc && q && q->kind == PGQ_COMMIT &&
				    strcmp(PQcmdStatus(res), "ROLLBACK") == 0)
					rc = rpb_err_set(err, RPB_IO, 0, NULL,
							 "PostgreSQL commit rolled back: the transaction had already failed");
				PQclear(res);
				continue;
			}
			if (q && q->kind == PGQ_PREPARE) /* skipped or failed: not prepared */
				s->prepared[q->table][PG_PUT] = false;
			if (rc || es == PGRES_PIPELINE_ABORTED) {
				PQclear(res);
				continue;
			}
			char what[64];
			pg_queued_what(q, what, sizeof what);
			rc = pg_failed(s, res, what, err);
		}
	}
	if (!synced && !rc)
		rc = pg_result_error(pg_disk_of(s), c, NULL, "pipeline sync", err);
	for (unsigned j = i; !synced && j < s->nqueued; j++) /* never answered */
		if (s->queued[j].kind == PGQ_PREPARE)
			s->prepared[s->queued[j].table][PG_PUT] = false;
	s->nqueued = 0;
	(void)PQexitPipelineMode(c); /* fails only on a broken connection */
	return rc;
}

static bool pg_pipe_has_puts(const struct rpb_session *s)
{
	for (unsigned i = 0; i < s->nqueued; i++)
		if (s->queued[i].kind == PGQ_PUT)
			return true;
	return false;
}

/* Ends the transaction on the server after a failure or on request. Errors
 * are ignored: a lost connection has no transaction left to end. */
static void pg_abort(struct rpb_session *s)
{
	atomic_store(&s->in_txn, false);
	if (PQpipelineStatus(s->conn) != PQ_PIPELINE_OFF)
		(void)pg_pipe_drain(s, pg_pipe_has_puts(s) && atomic_load(&s->interrupted), NULL);
	if (PQstatus(s->conn) == CONNECTION_OK && PQtransactionStatus(s->conn) != PQTRANS_IDLE)
		PQclear(PQexec(s->conn, "ROLLBACK"));
}

/* Waits for everything queued; a failure rolls the transaction back. */
static enum rpb_status pg_pipe_flush(struct rpb_session *s, struct rpb_err *err)
{
	if (PQpipelineStatus(s->conn) == PQ_PIPELINE_OFF)
		return RPB_OK;
	enum rpb_status rc = pg_pipe_drain(s, false, err);
	if (rc)
		pg_abort(s);
	return rc;
}

/* Enters pipeline mode if needed; false when libpq refuses (lost connection). */
static bool pg_pipe_enter(struct rpb_session *s)
{
	return PQpipelineStatus(s->conn) != PQ_PIPELINE_OFF || PQenterPipelineMode(s->conn) == 1;
}

static void pg_pipe_add(struct rpb_session *s, enum pg_qkind kind, enum rpb_table t)
{
	s->queued[s->nqueued++] = (struct pg_queued){(unsigned char)kind, (unsigned char)t};
}

/* A statement libpq could not send: the connection is gone or memory ran out. */
static enum rpb_status pg_send_failed(struct rpb_session *s, const char *what,
				      struct rpb_err *err)
{
	enum rpb_status rc = pg_result_error(pg_disk_of(s), s->conn, NULL, what, err);
	pg_abort(s);
	return rc;
}

static void pg_rollback(struct rpb_session *s)
{
	if (atomic_load(&s->in_txn))
		pg_abort(s);
}

static void pg_session_close(struct rpb_session *s)
{
	if (!s)
		return;
	if (s->conn)
		pg_rollback(s);
	/* Its writes become the floor of every later session's reads. */
	uint64_t lsn;
	if (s->dirty && s->st->read_conninfo && PQstatus(s->link[PG_PRIMARY].conn) == CONNECTION_OK &&
	    pg_primary_lsn(s->st, s->link[PG_PRIMARY].conn, &lsn, NULL) == RPB_OK)
		pg_floor_raise(s->st, lsn);
	for (unsigned i = 0; i < PG_LINKS; i++) {
		PQfreeCancel(s->link[i].cancel);
		PQfinish(s->link[i].conn);
	}
	free(s);
}

/* A stale cancel may have left an aborted transaction behind. */
static void pg_settle(PGconn *c)
{
	if (PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
		PQclear(PQexec(c, "ROLLBACK"));
}

/* read_dsn: waits until the replica has replayed the session's floor, or
 * fails after replica_wait_ms (or when interrupted). */
static enum rpb_status pg_catch_up(struct rpb_session *s, struct rpb_err *err)
{
	struct rpb_store *st = s->st;
	PGconn *primary = s->link[PG_PRIMARY].conn;
	if (s->dirty) { /* its own writes: the WAL up to now holds them */
		pg_settle(primary);
		uint64_t lsn;
		enum rpb_status rc = pg_primary_lsn(st, primary, &lsn, err);
		if (rc)
			return rc;
		s->floor = lsn;
		s->dirty = false;
	}
	uint64_t floor = atomic_load(&st->floor);
	if (floor < s->floor)
		floor = s->floor;
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long pause_us = 200;
	while (!pg_lsn_reached(st, s->replayed, floor)) {
		if (atomic_load(&s->interrupted))
			return rpb_err_set(err, RPB_TXN_TIMEOUT, 0, NULL,
					   "transaction interrupted while waiting for the read replica to replay");
		clock_gettime(CLOCK_MONOTONIC, &now);
		int64_t waited_ms = (int64_t)(now.tv_sec - t0.tv_sec) * 1000 +
				    (now.tv_nsec - t0.tv_nsec) / 1000000;
		if (waited_ms > (int64_t)st->replica_wait_ms)
			return rpb_err_set(err, RPB_IO, 0, NULL,
					   "the read replica (postgres.read_dsn) did not replay what this read must see within %llu ms (%.1f MiB behind); check its replication (pg_stat_replication on the server) or raise postgres.replica_wait_ms",
					   (unsigned long long)st->replica_wait_ms,
					   (double)(floor - s->replayed) / 1048576.0);
		uint64_t replayed;
		enum rpb_status rc = pg_replayed_lsn(s->conn, &replayed, err);
		if (rc)
			return rc;
		if (replayed > s->replayed)
			s->replayed = replayed;
		if (!pg_lsn_reached(st, s->replayed, floor)) {
			struct timespec pause = {0, pause_us * 1000};
			nanosleep(&pause, NULL);
			pause_us = pause_us * 2 < 10000 ? pause_us * 2 : 10000;
		}
	}
	return RPB_OK;
}

static enum rpb_status pg_begin(struct rpb_session *s, enum rpb_txn_mode mode,
				struct rpb_err *err)
{
	if (atomic_load(&s->in_txn))
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "a transaction is already open");
	bool replica = mode == RPB_TXN_READ && s->link[PG_REPLICA].conn;
	pg_use_link(s, replica ? PG_REPLICA : PG_PRIMARY);
	pg_settle(s->conn);
	atomic_store(&s->interrupted, false);
	atomic_store(&s->in_txn, true);
	s->write_txn = mode == RPB_TXN_WRITE;
	if (replica) {
		enum rpb_status rc = pg_catch_up(s, err);
		if (rc) {
			pg_abort(s);
			return rc;
		}
	}
	if (s->write_txn && s->st->pipeline) { /* BEGIN goes with the first put */
		if (!pg_pipe_enter(s) || !PQsendQueryParams(s->conn, "BEGIN", 0, NULL, NULL, NULL, NULL, 0))
			return pg_send_failed(s, "begin", err);
		pg_pipe_add(s, PGQ_BEGIN, RPB_T_OBJECTS);
		return RPB_OK;
	}
	s->round_trips++;
	enum rpb_status rc = pg_exec(pg_disk_of(s), s->conn,
				     mode == RPB_TXN_READ ? "BEGIN READ ONLY" : "BEGIN", "begin", err);
	if (rc)
		pg_abort(s);
	return rc;
}

/* Every data call and commit starts here: call order, then interrupts. */
static enum rpb_status pg_check(struct rpb_session *s, enum rpb_table t, struct rpb_err *err)
{
	if (!atomic_load(&s->in_txn))
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "operation outside a transaction");
	if (atomic_load(&s->interrupted)) {
		pg_abort(s);
		return rpb_err_set(err, RPB_TXN_TIMEOUT, 0, NULL,
				   "transaction interrupted and rolled back");
	}
	if ((unsigned)t >= RPB_TABLE_COUNT) {
		pg_abort(s);
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "unknown table %d", (int)t);
	}
	return RPB_OK;
}

/* A failed data operation: classify, then roll back as the contract says. */
static enum rpb_status pg_op_failed(struct rpb_session *s, PGresult *res, enum pg_op op,
				    enum rpb_table t, struct rpb_err *err)
{
	char what[64];
	snprintf(what, sizeof what, "%s on table %s", pg_op_name[op], rpb_table_name(t));
	enum rpb_status rc = pg_failed(s, res, what, err);
	pg_abort(s);
	return rc;
}

static enum rpb_status pg_invalid(struct rpb_session *s, const char *what, struct rpb_err *err)
{
	pg_abort(s);
	return rpb_err_set(err, RPB_INVALID, 0, NULL, "%s", what);
}

static enum rpb_status pg_key_ok(struct rpb_session *s, rpb_slice k, struct rpb_err *err)
{
	if (k.len == 0 || k.len > RPB_KEY_MAX || !k.data)
		return pg_invalid(s, "key length must be 1..1024 bytes", err);
	return RPB_OK;
}

static const Oid pg_param_types[] = {PG_OID_BYTEA, PG_OID_BYTEA, PG_OID_INT8};
static const int pg_nparams[PG_OP_COUNT] = {2, 1, 1, 3, 1, 3, 3};
static const int pg_formats[] = {1, 1, 1}; /* binary parameters */

/* The ispn layout's statements are Infinispan's TableManipulation ones
 * (SELECT id, then UPDATE ... SET datum, version or INSERT), on bytea ids. */
static void pg_stmt_sql(bool ispn, enum rpb_table t, enum pg_op op, char *text, size_t n)
{
	static const char *const kv[PG_OP_COUNT] = {
		[PG_PUT] = "INSERT INTO %s(k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v",
		[PG_GET] = "SELECT v FROM %s WHERE k = $1",
		[PG_DEL] = "DELETE FROM %s WHERE k = $1",
		[PG_SCAN] = "SELECT k, v FROM %s WHERE k > $1 AND k <= $2 ORDER BY k LIMIT $3",
	};
	static const char *const ispn_sql[PG_OP_COUNT] = {
		[PG_GET] = "SELECT datum FROM ispn_entry_%s WHERE id = $1",
		[PG_DEL] = "DELETE FROM ispn_entry_%s WHERE id = $1",
		[PG_SCAN] = "SELECT id, datum FROM ispn_entry_%s WHERE id > $1 AND id <= $2 ORDER BY id LIMIT $3",
		[PG_HAS] = "SELECT id FROM ispn_entry_%s WHERE id = $1",
		[PG_INS] = "INSERT INTO ispn_entry_%s (id, datum, version) VALUES ($1, $2, $3)",
		[PG_UPD] = "UPDATE ispn_entry_%s SET datum = $2, version = $3 WHERE id = $1",
	};
	snprintf(text, n, (ispn ? ispn_sql : kv)[op], rpb_table_name(t));
}

static void pg_stmt_name(enum rpb_table t, enum pg_op op, char *name, size_t n)
{
	snprintf(name, n, "rpb_%s_%d", pg_op_name[op], (int)t);
}

static enum rpb_status pg_prepare(struct rpb_session *s, enum rpb_table t, enum pg_op op,
				  const char *stmt, struct rpb_err *err)
{
	char text[160];
	pg_stmt_sql(s->st->ispn, t, op, text, sizeof text);
	s->round_trips++;
	PGresult *res = PQprepare(s->conn, stmt, text, pg_nparams[op], pg_param_types);
	if (!res || PQresultStatus(res) != PGRES_COMMAND_OK)
		return pg_op_failed(s, res, op, t, err);
	PQclear(res);
	s->prepared[t][op] = true;
	return RPB_OK;
}

/* The one result of a statement just sent (NULL when the connection is
 * lost). Waiting through pg_wait_result repeats an interrupted session's
 * cancel until the server answers: the interrupt's single cancel is lost
 * when it reaches the server before the statement starts, and a statement
 * then blocked on a lock would wait unbounded. */
static PGresult *pg_await(struct rpb_session *s)
{
	s->round_trips++;
	pg_wait_result(s, false);
	PGresult *res = PQgetResult(s->conn), *more;
	while (res) {
		pg_wait_result(s, false);
		if (!(more = PQgetResult(s->conn)))
			break;
		PQclear(more); /* one statement has no second result */
	}
	return res;
}

/* Runs one prepared statement with binary parameters and binary results.
 * On success *out holds the result; on failure the transaction is gone. */
static enum rpb_status pg_run(struct rpb_session *s, enum rpb_table t, enum pg_op op,
			      const char *const *vals, const int *lens, PGresult **out,
			      struct rpb_err *err)
{
	char stmt[32];
	pg_stmt_name(t, op, stmt, sizeof stmt);
	enum rpb_status frc = pg_pipe_flush(s, err); /* a synchronous statement follows */
	if (frc)
		return frc;
	if (!s->prepared[t][op]) {
		enum rpb_status rc = pg_prepare(s, t, op, stmt, err);
		if (rc)
			return rc;
	}
	PGresult *res = PQsendQueryPrepared(s->conn, stmt, pg_nparams[op], vals, lens, pg_formats, 1)
				? pg_await(s)
				: NULL;
	ExecStatusType want = op == PG_PUT || op == PG_DEL || op == PG_INS || op == PG_UPD
				      ? PGRES_COMMAND_OK
				      : PGRES_TUPLES_OK;
	if (!res || PQresultStatus(res) != want)
		return pg_op_failed(s, res, op, t, err);
	*out = res;
	return RPB_OK;
}

/* A put in pipeline mode: only queued, behind the transaction's BEGIN, so
 * a transaction of puts is one round trip (BEGIN, the puts and COMMIT, one
 * sync point). A put's failure is reported, as that statement's own, by the
 * next synchronous call or by commit; a caller that must hold the put's
 * row lock before it goes on (the lock injector) reads the key back. */
static enum rpb_status pg_put_queued(struct rpb_session *s, enum rpb_table t,
				     const char *const *vals, const int *lens, struct rpb_err *err)
{
	enum rpb_status rc;
	if (s->nqueued + 2 > PG_PIPE_MAX && (rc = pg_pipe_flush(s, err)))
		return rc;
	char stmt[32], what[64];
	pg_stmt_name(t, PG_PUT, stmt, sizeof stmt);
	snprintf(what, sizeof what, "put on table %s", rpb_table_name(t));
	if (!pg_pipe_enter(s))
		return pg_send_failed(s, what, err);
	if (!s->prepared[t][PG_PUT]) {
		char text[160];
		pg_stmt_sql(false, t, PG_PUT, text, sizeof text);
		if (!PQsendPrepare(s->conn, stmt, text, pg_nparams[PG_PUT], pg_param_types))
			return pg_send_failed(s, what, err);
		pg_pipe_add(s, PGQ_PREPARE, t);
		s->prepared[t][PG_PUT] = true; /* undone if its result says otherwise */
	}
	if (!PQsendQueryPrepared(s->conn, stmt, pg_nparams[PG_PUT], vals, lens, pg_formats, 1))
		return pg_send_failed(s, what, err);
	pg_pipe_add(s, PGQ_PUT, t);
	return RPB_OK;
}

static void pg_int8(unsigned char b[8], uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		b[i] = (unsigned char)v;
}

/* Infinispan's JdbcStringBasedStore.write: is the id there? then UPDATE,
 * else INSERT; version -1, the timestamp column of an entry that never
 * expires. Two statements, each waited for. */
static enum rpb_status pg_put_ispn(struct rpb_session *s, enum rpb_table t,
				   const char *const *kv, const int *kv_lens, struct rpb_err *err)
{
	PGresult *res;
	enum rpb_status rc = pg_run(s, t, PG_HAS, kv, kv_lens, &res, err);
	if (rc)
		return rc;
	bool there = PQntuples(res) > 0;
	PQclear(res);
	unsigned char never[8];
	pg_int8(never, UINT64_MAX); /* -1 */
	const char *const vals[] = {kv[0], kv[1], (const char *)never};
	const int lens[] = {kv_lens[0], kv_lens[1], 8};
	rc = pg_run(s, t, there ? PG_UPD : PG_INS, vals, lens, &res, err);
	if (!rc)
		PQclear(res);
	return rc;
}

static enum rpb_status pg_put(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      rpb_slice val, struct rpb_err *err)
{
	enum rpb_status rc = pg_check(s, t, err);
	if (!rc)
		rc = pg_key_ok(s, key, err);
	if (!rc && (val.len > RPB_VALUE_MAX || (val.len && !val.data)))
		rc = pg_invalid(s, "value length must be 0..64 MiB", err);
	if (rc)
		return rc;
	/* A NULL pointer would bind SQL NULL; an empty value is "". */
	const char *const vals[] = {key.data, val.len ? val.data : ""};
	const int lens[] = {(int)key.len, (int)val.len};
	if (s->st->ispn)
		return pg_put_ispn(s, t, vals, lens, err);
	if (s->write_txn && s->st->pipeline)
		return pg_put_queued(s, t, vals, lens, err);
	PGresult *res;
	rc = pg_run(s, t, PG_PUT, vals, lens, &res, err);
	if (!rc)
		PQclear(res);
	return rc;
}

static enum rpb_status pg_get(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      struct rpb_buf *out, struct rpb_err *err)
{
	enum rpb_status rc = pg_check(s, t, err);
	if (!rc)
		rc = pg_key_ok(s, key, err);
	if (rc)
		return rc;
	const char *const vals[] = {key.data};
	const int lens[] = {(int)key.len};
	PGresult *res;
	rc = pg_run(s, t, PG_GET, vals, lens, &res, err);
	if (rc)
		return rc;
	if (PQntuples(res) == 0)
		rc = rpb_err_not_found(err);
	else
		rc = rpb_buf_set(out, PQgetvalue(res, 0, 0), (size_t)PQgetlength(res, 0, 0), err);
	PQclear(res);
	if (rc == RPB_NOMEM)
		pg_abort(s);
	return rc;
}

static enum rpb_status pg_del(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      struct rpb_err *err)
{
	enum rpb_status rc = pg_check(s, t, err);
	if (!rc)
		rc = pg_key_ok(s, key, err);
	if (rc)
		return rc;
	const char *const vals[] = {key.data};
	const int lens[] = {(int)key.len};
	PGresult *res;
	rc = pg_run(s, t, PG_DEL, vals, lens, &res, err);
	if (rc)
		return rc;
	rc = strcmp(PQcmdTuples(res), "0") == 0 ? rpb_err_not_found(err) : RPB_OK;
	PQclear(res);
	return rc;
}

/* Fetches fetch_rows at a time, continuing after the last key seen, so an
 * unlimited scan never holds more than one chunk. Under READ COMMITTED each
 * chunk is a statement of its own and sees commits made between chunks. */
static enum rpb_status pg_scan(struct rpb_session *s, enum rpb_table t, const rpb_slice *after,
			       const rpb_slice *upto, size_t limit, rpb_scan_fn fn, void *ctx,
			       struct rpb_err *err)
{
	enum rpb_status rc = pg_check(s, t, err);
	if (rc)
		return rc;
	if ((after && (after->len > RPB_KEY_MAX || (after->len && !after->data))) ||
	    (upto && (upto->len > RPB_KEY_MAX || (upto->len && !upto->data))))
		return pg_invalid(s, "scan bound longer than 1024 bytes", err);
	size_t lo_len = after ? after->len : 0;
	if (lo_len)
		memcpy(s->lo, after->data, lo_len);
	const char *hi = upto ? (upto->len ? upto->data : "") : (const char *)s->hi_open;
	int hi_len = upto ? (int)upto->len : (int)sizeof s->hi_open;
	size_t left = limit;
	for (;;) {
		uint64_t chunk = s->st->fetch_rows;
		if (limit && left < chunk)
			chunk = left;
		unsigned char nbuf[8];
		pg_int8(nbuf, chunk);
		const char *const vals[] = {(const char *)s->lo, hi, (const char *)nbuf};
		const int lens[] = {(int)lo_len, hi_len, 8};
		PGresult *res;
		rc = pg_run(s, t, PG_SCAN, vals, lens, &res, err);
		if (rc)
			return rc;
		int rows = PQntuples(res);
		for (int i = 0; i < rows; i++) {
			rpb_slice k = {PQgetvalue(res, i, 0), (size_t)PQgetlength(res, i, 0)};
			rpb_slice v = {PQgetvalue(res, i, 1), (size_t)PQgetlength(res, i, 1)};
			if (fn(ctx, k, v)) {
				PQclear(res);
				return RPB_OK;
			}
		}
		if (rows > 0) { /* the bound for the next chunk */
			lo_len = (size_t)PQgetlength(res, rows - 1, 0);
			memcpy(s->lo, PQgetvalue(res, rows - 1, 0), lo_len);
		}
		PQclear(res);
		if ((uint64_t)rows < chunk)
			return RPB_OK;
		if (limit && (left -= (size_t)rows) == 0)
			return RPB_OK;
	}
}

static enum rpb_status pg_commit(struct rpb_session *s, struct rpb_err *err)
{
	enum rpb_status rc = pg_check(s, RPB_T_OBJECTS, err);
	if (rc)
		return rc;
	if (PQpipelineStatus(s->conn) != PQ_PIPELINE_OFF) {
		if (s->nqueued == PG_PIPE_MAX && (rc = pg_pipe_flush(s, err)))
			return rc;
	}
	if (PQpipelineStatus(s->conn) != PQ_PIPELINE_OFF) {
		if (!PQsendQueryParams(s->conn, "COMMIT", 0, NULL, NULL, NULL, NULL, 0))
			return pg_send_failed(s, "commit", err);
		pg_pipe_add(s, PGQ_COMMIT, RPB_T_OBJECTS);
		rc = pg_pipe_drain(s, false, err);
		if (rc) {
			pg_abort(s);
			return rc;
		}
		atomic_store(&s->in_txn, false);
		s->dirty = true;
		return RPB_OK;
	}
	s->round_trips++;
	PGresult *res = PQexec(s->conn, "COMMIT");
	if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
		rc = pg_result_error(pg_disk_of(s), s->conn, res, "commit", err);
		pg_abort(s);
		return rc;
	}
	/* COMMIT of an already failed transaction succeeds but rolls back. */
	bool rolled_back = strcmp(PQcmdStatus(res), "ROLLBACK") == 0;
	PQclear(res);
	atomic_store(&s->in_txn, false);
	s->dirty |= s->write_txn && !rolled_back;
	if (rolled_back)
		return rpb_err_set(err, RPB_IO, 0, NULL,
				   "PostgreSQL commit rolled back: the transaction had already failed");
	return RPB_OK;
}

/* Another thread: flag the session, then ask the server to cancel whatever
 * runs (PQcancel only reads the PGcancel, so this is thread-safe). A cancel
 * that arrives while the server is idle is ignored there. */
static void pg_interrupt(struct rpb_session *s)
{
	atomic_store(&s->interrupted, true);
	if (atomic_load(&s->in_txn)) {
		char errbuf[256];
		(void)PQcancel(atomic_load(&s->cancel), errbuf, sizeof errbuf);
	}
}

const struct rpb_backend rpb_backend_postgres = {
	.name = "postgres",
	.abi = RPB_BACKEND_ABI,
	.flags = RPB_BF_SERVER | RPB_BF_LOCKS,
	.options = pg_options,
	.config_size = sizeof(struct pg_config),
	.version = pg_version,
	.open = pg_open,
	.close = pg_close,
	.session_open = pg_session_open,
	.session_close = pg_session_close,
	.begin = pg_begin,
	.put = pg_put,
	.get = pg_get,
	.del = pg_del,
	.scan = pg_scan,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.interrupt = pg_interrupt,
	.usage = pg_usage,
	.gauges = pg_gauges,
	.describe = pg_describe,
};

uint64_t rpb_postgres_round_trips(const struct rpb_session *s)
{
	return s->round_trips;
}

bool rpb_postgres_synchronous_commit(const struct rpb_session *s, char *out, size_t n)
{
	PGresult *r = PQexec(s->link[PG_PRIMARY].conn, "SHOW synchronous_commit");
	bool ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
	if (ok)
		snprintf(out, n, "%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	return ok;
}
