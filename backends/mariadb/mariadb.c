/* The MariaDB backend: one database per store (the store's name), one
 * InnoDB table (k VARBINARY(1024) PRIMARY KEY, v LONGBLOB) per enum
 * rpb_table, one Connector/C connection per session, server-side prepared
 * statements with binary parameters. This is the only file that knows
 * Connector/C.
 *
 * The DSN is libpq's key=value syntax, read with libpq's own parser (the
 * one src/core/dsn.c shows and masks DSNs with): host (a path beginning
 * with '/' is the server's unix socket file), port, user, password, dbname
 * (the database to connect to; the store has its own), connect_timeout.
 * No option file is read; a DSN from a results directory is used without
 * Connector/C's MYSQL_PWD (docs/security.md). */
#include <libpq-fe.h>
#include <mysql.h>
#include <errmsg.h>
#include <mysqld_error.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "mariadb_backend.h"
#include "clock.h"
#include "dsn.h"
#include "hostinfo.h"
#include "options.h"

#define MY_DEFAULT_DB "rpbench"
#define MY_NAME_MAX 64 /* MariaDB identifiers */
/* Shared-lock slots of verify (see my_lock_store). */
#define MY_VERIFY_SLOTS 16
/* Room a statement needs in a packet beyond its key and value. */
#define MY_PACKET_SLACK 4096
/* A server whose data directory has less free space than this, when a
 * connection is lost, is taken to have stopped on a full disk. */
#define MY_DISK_LOW (16u << 20)

/* mariadb.flush_log_at_trx_commit: auto = what sync asks. */
static const char *const my_flush_choices[] = {"auto", "server", "0", "1", "2", NULL};
enum { MY_FLUSH_AUTO = 0, MY_FLUSH_SERVER };

/* mariadb.isolation, as SET SESSION TRANSACTION ISOLATION LEVEL says it. */
static const char *const my_isolations[] = {"read-committed", "repeatable-read", "serializable",
					    NULL};
static const char *const my_isolation_sql[] = {"READ COMMITTED", "REPEATABLE READ",
					       "SERIALIZABLE"};

struct my_config {
	uint64_t fetch_rows, innodb_lock_wait_timeout, lock_wait_timeout;
	unsigned flush, isolation;
};

#define MYC(f) offsetof(struct my_config, f)
static const struct rpb_optdef my_options[] = {
	{ .key = "fetch_rows", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 1, .umax = 1000000,
	  .off = MYC(fetch_rows), .help = "rows fetched per scan statement; bounds scan memory" },
	{ .key = "flush_log_at_trx_commit", .type = RPB_OPT_ENUM, .dflt = "auto",
	  .choices = my_flush_choices, .off = MYC(flush),
	  .help = "SET GLOBAL innodb_flush_log_at_trx_commit at open (the server has no session "
		  "value; needs SUPER); auto = 1 with sync = commit, 2 with sync = none; server = "
		  "leave the server's own" },
	{ .key = "isolation", .type = RPB_OPT_ENUM, .dflt = "read-committed",
	  .choices = my_isolations, .off = MYC(isolation),
	  .help = "SET SESSION TRANSACTION ISOLATION LEVEL of every session (read-committed is "
		  "PostgreSQL's default, the postgres backend's)" },
	{ .key = "innodb_lock_wait_timeout", .type = RPB_OPT_COUNT, .dflt = "50", .umin = 1,
	  .umax = 1073741824, .off = MYC(innodb_lock_wait_timeout),
	  .help = "SET SESSION innodb_lock_wait_timeout: seconds a row lock wait lasts before "
		  "the statement fails (error 1205, txn-timeout)" },
	{ .key = "lock_wait_timeout", .type = RPB_OPT_COUNT, .dflt = "86400", .umin = 1,
	  .umax = 31536000, .off = MYC(lock_wait_timeout),
	  .help = "SET SESSION lock_wait_timeout: seconds a metadata lock wait lasts" },
	{ .key = NULL },
};

/* The prepared statements, one of each per table, prepared lazily. */
enum my_op { MY_PUT, MY_GET, MY_DEL, MY_SCAN, MY_SCAN_OPEN, MY_OP_COUNT };
static const char *const my_op_name[MY_OP_COUNT] = {"put", "get", "del", "scan", "scan"};

/* Where to connect, from the DSN (NULL: Connector/C's default). */
struct my_target {
	char *host, *socket, *user, *password, *dbname;
	unsigned port, connect_timeout;
};

struct rpb_store {
	struct my_target to;
	char *dsn;          /* for masking secrets in messages */
	bool untrusted;     /* dsn came from a results directory: no MYSQL_PWD */
	char db[MY_NAME_MAX + 1];
	char db_sql[2 * MY_NAME_MAX + 3]; /* `quoted` */
	char db_lit[4 * MY_NAME_MAX + 3]; /* 'quoted' */
	enum rpb_sync sync;
	struct my_config c;
	unsigned long max_packet;
	char *datadir;       /* a local server's, for the disk check; else NULL */
	pthread_mutex_t admin_lock; /* gauges and usage come from any thread */
	MYSQL *admin;        /* holds the store lock */
	pthread_mutex_t kill_lock;
	MYSQL *killer;       /* interrupt's own connection (KILL QUERY) */
	double base_redo;    /* Innodb_os_log_written at open */
	bool gauges_ok;
};

struct rpb_session {
	struct rpb_store *st;
	MYSQL *conn;
	unsigned long thread_id;
	atomic_bool in_txn;      /* read by interrupt() on another thread */
	atomic_bool interrupted;
	MYSQL_STMT *stmt[RPB_TABLE_COUNT][MY_OP_COUNT];
	unsigned char lo[RPB_KEY_MAX]; /* scan continuation key */
	unsigned char key[RPB_KEY_MAX];
	struct rpb_buf val; /* a scanned value */
};

/* ---- error classification ---------------------------------------------- */

/* The OS errno a message quotes: "Errcode: 28", "errno: 28", "error 28". */
static bool my_quotes_errno(const char *msg, int want)
{
	static const char *const forms[] = {"Errcode: ", "errno: ", "errno ", "error "};
	for (size_t f = 0; msg && f < sizeof forms / sizeof forms[0]; f++)
		for (const char *p = strstr(msg, forms[f]); p; p = strstr(p + 1, forms[f])) {
			char *end;
			long v = strtol(p + strlen(forms[f]), &end, 10);
			if (end != p + strlen(forms[f]) && v == want)
				return true;
		}
	return false;
}

enum rpb_status rpb_mariadb_classify(unsigned code, const char *message)
{
	/* ENOSPC (28) or EDQUOT (122) under any code: a write that failed. */
	if (my_quotes_errno(message, 28) || my_quotes_errno(message, 122))
		return RPB_DISK_FULL;
	switch (code) {
	case ER_DISK_FULL: case ER_RECORD_FILE_FULL:
		return RPB_DISK_FULL;
	case ER_LOCK_DEADLOCK: case ER_CHECKREAD: case ER_LOCK_ABORTED: case ER_TABLE_DEF_CHANGED:
		return RPB_CONFLICT;
	case ER_LOCK_WAIT_TIMEOUT: case ER_QUERY_INTERRUPTED: case ER_STATEMENT_TIMEOUT:
		return RPB_TXN_TIMEOUT;
	case CR_SERVER_GONE_ERROR: case CR_SERVER_LOST: case CR_SERVER_LOST_EXTENDED:
	case CR_CONNECTION_ERROR: case CR_CONN_HOST_ERROR: case CR_UNKNOWN_HOST:
	case CR_IPSOCK_ERROR: case ER_CONNECTION_KILLED: case ER_SERVER_SHUTDOWN:
	case ER_NET_READ_ERROR: case ER_NET_READ_INTERRUPTED: case ER_NET_ERROR_ON_WRITE:
	case ER_NET_WRITE_INTERRUPTED: case ER_CON_COUNT_ERROR: case ER_NEW_ABORTING_CONNECTION:
		return RPB_CONN_LOST;
	case ER_DUP_ENTRY: case ER_DUP_KEY:
		return RPB_EXISTS;
	case ER_OUTOFMEMORY: case ER_OUT_OF_SORTMEMORY: case ER_OUT_OF_RESOURCES:
	case CR_OUT_OF_MEMORY:
		return RPB_NOMEM;
	case ER_CRASHED_ON_USAGE: case ER_CRASHED_ON_REPAIR: case ER_NOT_KEYFILE:
	case ER_INDEX_CORRUPT: case ER_TABLE_CORRUPT:
		return RPB_CORRUPT;
	case ER_PARSE_ERROR: case ER_NO_SUCH_TABLE: case ER_BAD_DB_ERROR: case ER_BAD_FIELD_ERROR:
	case ER_ACCESS_DENIED_ERROR: case ER_DBACCESS_DENIED_ERROR: case ER_TABLEACCESS_DENIED_ERROR:
	case ER_SPECIFIC_ACCESS_DENIED_ERROR: case ER_DATA_TOO_LONG: case ER_NET_PACKET_TOO_LARGE:
	case ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION: case ER_WRONG_DB_NAME:
	case ER_TOO_LONG_IDENT: case ER_TOO_LONG_KEY: case ER_TOO_BIG_ROWSIZE:
	case ER_WRONG_VALUE_FOR_VAR: case ER_UNKNOWN_SYSTEM_VARIABLE: case CR_COMMANDS_OUT_OF_SYNC:
		return RPB_INVALID;
	default:
		return RPB_IO;
	}
}

/* What to do about a failure, appended to its message. */
static const char *my_hint(enum rpb_status st)
{
	switch (st) {
	case RPB_CONN_LOST: return "; check the server (its error log) and --dsn";
	case RPB_DISK_FULL: return "; free space on the server's disk";
	case RPB_CONFLICT: return "; retry the transaction";
	default: return "";
	}
}

/* After a lost connection to a server on this host: is its data directory
 * nearly full? note says so. */
static bool my_server_disk_full(const struct rpb_store *st, char *note, size_t n)
{
	struct statvfs v;
	if (!st || !st->datadir || statvfs(st->datadir, &v) != 0)
		return false;
	uint64_t left = (uint64_t)v.f_bavail * v.f_frsize;
	if (left >= MY_DISK_LOW)
		return false;
	snprintf(note, n, " (the server's %.160s has %.1f MiB free: disk full); free space there "
		 "and restart the server", st->datadir, (double)left / 1048576.0);
	return true;
}

/* Fills err from a failed call (code, its SQLSTATE and message) and returns
 * its class; the message's secrets of the DSN are masked. */
static enum rpb_status my_fail(const struct rpb_store *st, unsigned code, const char *state,
			       const char *msg, const char *what, struct rpb_err *err)
{
	char text[200];
	snprintf(text, sizeof text, "%s", msg && *msg ? msg : "no error message");
	text[strcspn(text, "\r\n")] = '\0';
	if (st && st->dsn && !rpb_dsn_mask_secrets(st->dsn, text))
		snprintf(text, sizeof text, "details withheld: the DSN cannot be parsed");
	enum rpb_status cls = rpb_mariadb_classify(code, text);
	char note[320] = "";
	if (cls == RPB_CONN_LOST && my_server_disk_full(st, note, sizeof note))
		cls = RPB_DISK_FULL;
	rpb_err_set(err, cls, (int)code, state && strlen(state) == 5 ? state : NULL,
		    "MariaDB %s failed: %s (error %u)%s", what, text, code,
		    note[0] ? note : my_hint(cls));
	return cls;
}

static enum rpb_status my_conn_fail(const struct rpb_store *st, MYSQL *c, const char *what,
				    struct rpb_err *err)
{
	return my_fail(st, mysql_errno(c), mysql_sqlstate(c), mysql_error(c), what, err);
}

static enum rpb_status my_stmt_fail(const struct rpb_store *st, MYSQL_STMT *h, const char *what,
				    struct rpb_err *err)
{
	return my_fail(st, mysql_stmt_errno(h), mysql_stmt_sqlstate(h), mysql_stmt_error(h), what,
		       err);
}

/* Runs a statement whose result is not needed (a result set is freed). */
static enum rpb_status my_exec(const struct rpb_store *st, MYSQL *c, const char *sql,
			       const char *what, struct rpb_err *err)
{
	if (mysql_real_query(c, sql, strlen(sql)) != 0)
		return my_conn_fail(st, c, what, err);
	mysql_free_result(mysql_store_result(c));
	return RPB_OK;
}

/* Runs a query whose first row holds up to n numbers (NULL = 0). */
static enum rpb_status my_numbers(const struct rpb_store *st, MYSQL *c, const char *sql,
				  double *out, unsigned n, const char *what, struct rpb_err *err)
{
	if (mysql_real_query(c, sql, strlen(sql)) != 0)
		return my_conn_fail(st, c, what, err);
	MYSQL_RES *res = mysql_store_result(c);
	MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
	if (!row || mysql_num_fields(res) < n) {
		mysql_free_result(res);
		return res ? rpb_err_set(err, RPB_IO, 0, NULL, "MariaDB %s returned no row", what)
			   : my_conn_fail(st, c, what, err);
	}
	for (unsigned i = 0; i < n; i++)
		out[i] = row[i] ? strtod(row[i], NULL) : 0;
	mysql_free_result(res);
	return RPB_OK;
}

/* ---- version ------------------------------------------------------------ */

static char my_version_buf[64];
static pthread_once_t my_once = PTHREAD_ONCE_INIT;

static void my_init(void)
{
	(void)mysql_library_init(0, NULL, NULL);
	snprintf(my_version_buf, sizeof my_version_buf, "MariaDB Connector/C %s",
		 mysql_get_client_info());
}

static const char *my_version(void)
{
	pthread_once(&my_once, my_init);
	return my_version_buf;
}

/* ---- connecting --------------------------------------------------------- */

static void my_target_free(struct my_target *t)
{
	free(t->host), free(t->socket), free(t->user), free(t->password), free(t->dbname);
	memset(t, 0, sizeof *t);
}

/* Reads the DSN with libpq's parser into t: only the keywords MariaDB has a
 * use for; a string without '=' is a database name, as for libpq. */
static enum rpb_status my_target_parse(const char *dsn, struct my_target *t, struct rpb_err *err)
{
	memset(t, 0, sizeof *t);
	if (!dsn || !*dsn)
		return RPB_OK;
	long ctl = rpb_dsn_control_at(dsn);
	if (ctl >= 0)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "the DSN holds a control character (byte %ld); write the connection "
				   "string on one line of printable text (check --dsn)", ctl + 1);
	if (!strchr(dsn, '='))
		return (t->dbname = strdup(dsn)) ? RPB_OK
						 : rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	PQconninfoOption *opts = PQconninfoParse(dsn, NULL);
	if (!opts) {
		char why[200];
		rpb_dsn_parse_error(dsn, why, sizeof why);
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "cannot read the DSN (%s); give key=value pairs such as "
				   "host=/path/to/socket user=root dbname=rpbench (check --dsn)",
				   *why ? why : "out of memory");
	}
	enum rpb_status rc = RPB_OK;
	for (const PQconninfoOption *o = opts; o->keyword && !rc; o++) {
		if (!o->val)
			continue;
		char **dst = !strcmp(o->keyword, "host")     ? &t->host
			     : !strcmp(o->keyword, "user")     ? &t->user
			     : !strcmp(o->keyword, "password") ? &t->password
			     : !strcmp(o->keyword, "dbname")   ? &t->dbname
							       : NULL;
		if (dst) {
			if (!(*dst = strdup(o->val)))
				rc = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
		} else if (!strcmp(o->keyword, "port") || !strcmp(o->keyword, "connect_timeout")) {
			char *end;
			unsigned long v = strtoul(o->val, &end, 10);
			if (end == o->val || *end || v > 65535)
				rc = rpb_err_set(err, RPB_INVALID, 0, NULL,
						 "DSN %s '%.32s' is not a number 0..65535; check --dsn",
						 o->keyword, o->val);
			*(o->keyword[0] == 'p' ? &t->port : &t->connect_timeout) = (unsigned)v;
		} else {
			rc = rpb_err_set(err, RPB_INVALID, 0, NULL,
					 "DSN keyword '%s' means nothing to MariaDB; give only host, port, "
					 "user, password, dbname and connect_timeout (check --dsn)",
					 o->keyword);
		}
	}
	PQconninfoFree(opts);
	/* A path is the server's unix socket file. */
	if (!rc && t->host && t->host[0] == '/') {
		t->socket = t->host;
		t->host = NULL;
	}
	return rc;
}

static enum rpb_status my_connect(const struct rpb_store *st, MYSQL **out, struct rpb_err *err)
{
	*out = NULL;
	MYSQL *c = mysql_init(NULL);
	if (!c)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory connecting to MariaDB");
	unsigned long packet = 1ul << 30;
	unsigned timeout = st->to.connect_timeout;
	my_bool off = 0;
	mysql_optionsv(c, MYSQL_OPT_MAX_ALLOWED_PACKET, &packet);
	mysql_optionsv(c, MYSQL_OPT_RECONNECT, &off);
	if (timeout)
		mysql_optionsv(c, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	const char *host = st->to.host ? st->to.host : st->to.socket ? "localhost" : NULL;
	/* Without a password Connector/C would take MYSQL_PWD's. */
	const char *password = st->to.password ? st->to.password : st->untrusted ? "" : NULL;
	if (!mysql_real_connect(c, host, st->to.user, password, st->to.dbname, st->to.port,
				st->to.socket, 0)) {
		enum rpb_status rc = my_conn_fail(st, c, "connect", err);
		if (err && rc != RPB_NOMEM) {
			err->status = rc = RPB_CONN_LOST;
			size_t len = strlen(err->msg);
			if (!strstr(err->msg, "--dsn") && len < 200)
				snprintf(err->msg + len, sizeof err->msg - len, "; check --dsn");
		}
		mysql_close(c);
		return rc;
	}
	*out = c;
	return RPB_OK;
}

/* ---- store -------------------------------------------------------------- */

static void my_close(struct rpb_store *st)
{
	if (!st)
		return;
	/* Released here, not when the server notices the closed connection:
	 * a store opened right after this close must find the lock free. */
	if (st->admin)
		(void)mysql_real_query(st->admin, "DO RELEASE_ALL_LOCKS()", 22);
	mysql_close(st->admin);
	mysql_close(st->killer);
	pthread_mutex_destroy(&st->admin_lock);
	pthread_mutex_destroy(&st->kill_lock);
	my_target_free(&st->to);
	free(st->dsn);
	free(st->datadir);
	free(st);
}

/* The store's name as a `quoted` identifier and a 'quoted' literal. */
static enum rpb_status my_name(struct rpb_store *st, const char *name, struct rpb_err *err)
{
	size_t n = strlen(name);
	if (!n || n > MY_NAME_MAX || name[n - 1] == ' ')
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "store name '%.64s' must be 1..%d bytes, not ending in a space (it "
				   "names a MariaDB database)", name, MY_NAME_MAX);
	memcpy(st->db, name, n + 1);
	char *q = st->db_sql, *l = st->db_lit;
	*q++ = '`', *l++ = '\'';
	for (const char *p = name; *p; p++) {
		if (*p == '`')
			*q++ = '`';
		if (*p == '\'' || *p == '\\')
			*l++ = '\\';
		*q++ = *p, *l++ = *p;
	}
	*q++ = '`', *l++ = '\'';
	*q = *l = '\0';
	return RPB_OK;
}

/* The IN list of the store's table names. */
static void my_table_list(char *buf, size_t n)
{
	size_t o = 0;
	for (int t = 0; t < RPB_TABLE_COUNT && o < n; t++)
		o += (size_t)snprintf(buf + o, n - o, "%s'%s'", t ? "," : "",
				      rpb_table_name((enum rpb_table)t));
}

static enum rpb_status my_check_exists(struct rpb_store *st, struct rpb_err *err)
{
	char names[256], sql[1024];
	my_table_list(names, sizeof names);
	snprintf(sql, sizeof sql,
		 "SELECT (SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = %s),"
		 " (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = %s"
		 " AND TABLE_NAME IN (%s))", st->db_lit, st->db_lit, names);
	double v[2];
	enum rpb_status rc = my_numbers(st, st->admin, sql, v, 2, "checking the store's database", err);
	if (rc)
		return rc;
	if (v[0] == 0)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "MariaDB database \"%s\" does not exist on this server; check --dsn and --schema",
				   st->db);
	if ((int)v[1] != RPB_TABLE_COUNT)
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "MariaDB database \"%s\" lacks %d of its %d tables; drop that database (DROP DATABASE) and let a run create it again",
				   st->db, RPB_TABLE_COUNT - (int)v[1], RPB_TABLE_COUNT);
	return RPB_OK;
}

/* IF NOT EXISTS: concurrent creators wait for each other's metadata locks. */
static enum rpb_status my_create(struct rpb_store *st, struct rpb_err *err)
{
	char sql[512];
	snprintf(sql, sizeof sql, "CREATE DATABASE IF NOT EXISTS %s", st->db_sql);
	enum rpb_status rc = my_exec(st, st->admin, sql, "creating the store's database", err);
	for (int t = 0; t < RPB_TABLE_COUNT && !rc; t++) {
		snprintf(sql, sizeof sql,
			 "CREATE TABLE IF NOT EXISTS %s.%s (k VARBINARY(%d) NOT NULL PRIMARY KEY,"
			 " v LONGBLOB NOT NULL) ENGINE=InnoDB", st->db_sql,
			 rpb_table_name((enum rpb_table)t), RPB_KEY_MAX);
		rc = my_exec(st, st->admin, sql, "creating the store's tables", err);
	}
	return rc;
}

/* The store's lock (store.h, enum rpb_store_lock) as user-level locks of
 * the admin connection, held until it closes however the process ends:
 * a run holds "<tag>-run"; a verify takes it for a moment to claim a free
 * "<tag>-v<i>", which a run, holding "<tag>-run", checks are all free. The
 * tag hashes the database name (a lock name is at most 64 characters). */
static void my_lock_name(const struct rpb_store *st, char *buf, size_t n, int slot)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)st->db; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	if (slot < 0)
		snprintf(buf, n, "'rpbs-%016llx-run'", (unsigned long long)h);
	else
		snprintf(buf, n, "'rpbs-%016llx-v%d'", (unsigned long long)h, slot);
}

/* Runs SELECT fn(lock, args) and returns its number (-1 for NULL). */
static enum rpb_status my_lock_call(struct rpb_store *st, const char *fn, int slot,
				    const char *args, double *out, struct rpb_err *err)
{
	char name[64], sql[160];
	my_lock_name(st, name, sizeof name, slot);
	snprintf(sql, sizeof sql, "SELECT COALESCE(%s(%s%s), -1)", fn, name, args);
	return my_numbers(st, st->admin, sql, out, 1, "locking the store", err);
}

/* A run's holder names itself in the store's rpb_owner table, keyed by
 * its connection id (a row of a connection that ended is never asked
 * for): the lock, not the row, is the truth. */
#define MY_OWNER_PREFIX "rpbench pid "

/* Who holds a lock: the rpbench process and its start when the holding
 * connection recorded one, else the connection. */
static void my_lock_holder(struct rpb_store *st, int slot, char *who, size_t n, long *rpb_pid)
{
	double id = -1;
	*rpb_pid = 0;
	snprintf(who, n, "another session");
	if (my_lock_call(st, "IS_USED_LOCK", slot, "", &id, NULL) != RPB_OK || id <= 0)
		return;
	snprintf(who, n, "MariaDB connection %.0f", id);
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT owner FROM %s.rpb_owner WHERE conn = %.0f", st->db_sql, id);
	if (mysql_real_query(st->admin, sql, strlen(sql)) != 0)
		return;
	MYSQL_RES *res = mysql_store_result(st->admin);
	MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
	char started[40];
	if (row && row[0] && sscanf(row[0], MY_OWNER_PREFIX "%ld started %39s", rpb_pid, started) == 2 &&
	    *rpb_pid > 0)
		snprintf(who, n, "process %ld (started %s)", *rpb_pid, started);
	else
		*rpb_pid = 0;
	mysql_free_result(res);
}

/* A run records itself as the lock's holder (after the store exists). */
static enum rpb_status my_record_owner(struct rpb_store *st, struct rpb_err *err)
{
	char sql[512], started[40];
	snprintf(sql, sizeof sql,
		 "CREATE TABLE IF NOT EXISTS %s.rpb_owner (conn BIGINT UNSIGNED NOT NULL PRIMARY KEY,"
		 " owner VARCHAR(96) NOT NULL) ENGINE=InnoDB", st->db_sql);
	enum rpb_status rc = my_exec(st, st->admin, sql, "recording the store's lock holder", err);
	rpb_iso_time(started, sizeof started, rpb_wall_ms());
	snprintf(sql, sizeof sql, "REPLACE INTO %s.rpb_owner VALUES (CONNECTION_ID(), '" MY_OWNER_PREFIX
		 "%ld started %s')", st->db_sql, (long)getpid(), started);
	return rc ? rc : my_exec(st, st->admin, sql, "recording the store's lock holder", err);
}

static enum rpb_status my_lock_store(struct rpb_store *st, enum rpb_store_lock mode,
				     struct rpb_err *err)
{
	double got = 0, v = 0;
	char who[96];
	long pid;
	enum rpb_status rc = my_lock_call(st, "GET_LOCK", -1, ", 0", &got, err);
	if (rc)
		return rc;
	if (got != 1) {
		my_lock_holder(st, -1, who, sizeof who, &pid);
		if (mode == RPB_LOCK_VERIFY && pid)
			return rpb_err_set(err, RPB_CONFLICT, 0, NULL,
					   "run %ld is still writing this store (schema \"%s\"); wait for it or stop it",
					   pid, st->db);
		if (mode == RPB_LOCK_VERIFY)
			return rpb_err_set(err, RPB_CONFLICT, 0, NULL,
					   "a run (%s) is still writing this store (schema \"%s\"); wait for it or stop it",
					   who, st->db);
		return rpb_err_set(err, RPB_CONFLICT, 0, NULL,
				   "store schema \"%s\" is in use by %s; wait for it or stop it", st->db, who);
	}
	if (mode == RPB_LOCK_RUN) { /* keeps "-run" once no verify holds a slot */
		for (int i = 0; i < MY_VERIFY_SLOTS && !rc; i++)
			if (!(rc = my_lock_call(st, "IS_FREE_LOCK", i, "", &v, err)) && v != 1) {
				my_lock_holder(st, i, who, sizeof who, &pid);
				rc = rpb_err_set(err, RPB_CONFLICT, 0, NULL,
						 "store schema \"%s\" is in use by a verify (%s); wait for it or stop it",
						 st->db, who);
			}
		if (!rc)
			return RPB_OK;
	} else {
		int i = 0;
		while (i < MY_VERIFY_SLOTS && !(rc = my_lock_call(st, "GET_LOCK", i, ", 0", &v, err)) && v != 1)
			i++;
		if (!rc && i == MY_VERIFY_SLOTS)
			rc = rpb_err_set(err, RPB_CONFLICT, 0, NULL,
					 "%d verifies already read store schema \"%s\"; wait for one of them",
					 MY_VERIFY_SLOTS, st->db);
	}
	enum rpb_status rel = my_lock_call(st, "RELEASE_LOCK", -1, "", &v, rc ? NULL : err);
	return rc ? rc : rel;
}

/* innodb_flush_log_at_trx_commit has only a global value: set at open. */
static enum rpb_status my_set_flush(struct rpb_store *st, struct rpb_err *err)
{
	if (st->c.flush == MY_FLUSH_SERVER)
		return RPB_OK;
	const char *want = st->c.flush != MY_FLUSH_AUTO ? my_flush_choices[st->c.flush]
			   : st->sync == RPB_SYNC_NONE ? "2" : "1";
	double now;
	enum rpb_status rc = my_numbers(st, st->admin, "SELECT @@GLOBAL.innodb_flush_log_at_trx_commit",
					&now, 1, "reading innodb_flush_log_at_trx_commit", err);
	if (rc || now == strtod(want, NULL))
		return rc;
	char sql[80];
	snprintf(sql, sizeof sql, "SET GLOBAL innodb_flush_log_at_trx_commit = %s", want);
	if (mysql_real_query(st->admin, sql, strlen(sql)) == 0)
		return RPB_OK;
	rc = my_conn_fail(st, st->admin, "setting innodb_flush_log_at_trx_commit", err);
	if (err && rc == RPB_INVALID && strlen(err->msg) < 150)
		snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
			 "; give a user with SUPER, or --set mariadb.flush_log_at_trx_commit=server");
	return rc;
}

/* A local server's data directory (for the disk check) and the largest
 * packet it takes. */
static enum rpb_status my_server_facts(struct rpb_store *st, struct rpb_err *err)
{
	double v;
	enum rpb_status rc = my_numbers(st, st->admin, "SELECT @@max_allowed_packet", &v, 1,
					"reading max_allowed_packet", err);
	if (rc)
		return rc;
	st->max_packet = (unsigned long)v;
	const char *info = mysql_get_host_info(st->admin);
	if (!info || !strstr(info, "socket"))
		return RPB_OK;
	if (mysql_real_query(st->admin, "SELECT @@datadir", 16) == 0) {
		MYSQL_RES *res = mysql_store_result(st->admin);
		MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
		if (row && row[0] && row[0][0] == '/')
			st->datadir = strdup(row[0]);
		mysql_free_result(res);
	}
	return RPB_OK;
}

/* The server's side of a slowdown: InnoDB redo written since open, the
 * buffer pool's dirty and data pages, the purge backlog (history list). */
static const char my_gauge_sql[] =
	"SELECT (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
	"  WHERE VARIABLE_NAME = 'INNODB_OS_LOG_WRITTEN'),"
	" (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
	"  WHERE VARIABLE_NAME = 'INNODB_BUFFER_POOL_PAGES_DIRTY'),"
	" (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
	"  WHERE VARIABLE_NAME = 'INNODB_BUFFER_POOL_PAGES_DATA'),"
	" (SELECT `COUNT` FROM information_schema.INNODB_METRICS"
	"  WHERE NAME = 'trx_rseg_history_len')";

static enum rpb_status my_gauges(struct rpb_store *st, struct rpb_gauge *out, size_t *n,
				 struct rpb_err *err)
{
	*n = 0;
	if (!st->gauges_ok)
		return RPB_OK;
	double v[4];
	pthread_mutex_lock(&st->admin_lock);
	enum rpb_status rc = my_numbers(st, st->admin, my_gauge_sql, v, 4,
					"reading the server's statistics", err);
	pthread_mutex_unlock(&st->admin_lock);
	if (rc)
		return rc;
	out[0] = (struct rpb_gauge){"redo_bytes", v[0] > st->base_redo ? v[0] - st->base_redo : 0};
	out[1] = (struct rpb_gauge){"dirty_pages", v[1]};
	out[2] = (struct rpb_gauge){"data_pages", v[2]};
	out[3] = (struct rpb_gauge){"history_length", v[3]};
	*n = 4;
	return RPB_OK;
}

static void my_gauges_start(struct rpb_store *st)
{
	double v[4];
	st->gauges_ok = my_numbers(st, st->admin, my_gauge_sql, v, 4, "", NULL) == RPB_OK;
	st->base_redo = v[0];
}

/* The store's tables as the files they are (innodb_file_per_table; a
 * table in the system tablespace counts its data and index length). */
static enum rpb_status my_usage(struct rpb_store *st, uint64_t *bytes, struct rpb_err *err)
{
	char sql[640];
	snprintf(sql, sizeof sql,
		 "SELECT COALESCE(SUM(IF(s.SPACE IS NULL OR s.SPACE = 0,"
		 " t.DATA_LENGTH + t.INDEX_LENGTH, s.FILE_SIZE)), 0)"
		 " FROM information_schema.TABLES t LEFT JOIN information_schema.INNODB_SYS_TABLESPACES s"
		 " ON s.NAME = CONCAT(t.TABLE_SCHEMA, '/', t.TABLE_NAME) WHERE t.TABLE_SCHEMA = %s",
		 st->db_lit);
	double v = 0;
	pthread_mutex_lock(&st->admin_lock);
	enum rpb_status rc = my_numbers(st, st->admin, sql, &v, 1, "measuring the store's size", err);
	pthread_mutex_unlock(&st->admin_lock);
	*bytes = rc ? 0 : (uint64_t)v;
	return rc;
}

/* The server's version and the settings that decide what a number means. */
static enum rpb_status my_describe(struct rpb_store *st, struct rpb_fact *out, size_t *n,
				   struct rpb_err *err)
{
	static const char *const vars[] = {
		"version", "innodb_flush_log_at_trx_commit", "innodb_flush_method",
		"innodb_doublewrite", "innodb_buffer_pool_size", "innodb_log_file_size",
		"log_bin", "sync_binlog", "max_allowed_packet"};
	char sql[512] = "SELECT ";
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		snprintf(sql + strlen(sql), sizeof sql - strlen(sql), "%s@@GLOBAL.%s", i ? ", " : "",
			 vars[i]);
	*n = 0;
	pthread_mutex_lock(&st->admin_lock);
	enum rpb_status rc = RPB_OK;
	MYSQL_RES *res = NULL;
	if (mysql_real_query(st->admin, sql, strlen(sql)) != 0 || !(res = mysql_store_result(st->admin)))
		rc = my_conn_fail(st, st->admin, "reading the server's settings", err);
	MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
	for (size_t i = 0; row && i < sizeof vars / sizeof vars[0] && *n < RPB_FACTS_MAX; i++, (*n)++) {
		snprintf(out[*n].name, sizeof out[*n].name, "%s", vars[i]);
		snprintf(out[*n].value, sizeof out[*n].value, "%s", row[i] ? row[i] : "");
	}
	snprintf(out[*n].name, sizeof out[*n].name, "isolation");
	snprintf(out[*n].value, sizeof out[*n].value, "%s", my_isolations[st->c.isolation]);
	if (row)
		(*n)++;
	mysql_free_result(res);
	pthread_mutex_unlock(&st->admin_lock);
	return rc;
}

static enum rpb_status my_open(const struct rpb_store_cfg *cfg, struct rpb_store **out,
			       struct rpb_err *err)
{
	*out = NULL;
	pthread_once(&my_once, my_init);
	struct rpb_store *st = calloc(1, sizeof *st);
	if (!st)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	pthread_mutex_init(&st->admin_lock, NULL);
	pthread_mutex_init(&st->kill_lock, NULL);
	st->sync = cfg->sync;
	st->untrusted = cfg->dsn_untrusted;
	enum rpb_status rc = rpb_cfg_parse(cfg, "mariadb", my_options, &st->c, err);
	if (!rc)
		rc = my_name(st, cfg->name ? cfg->name : MY_DEFAULT_DB, err);
	if (!rc && cfg->dsn && *cfg->dsn && !(st->dsn = strdup(cfg->dsn)))
		rc = rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	if (!rc)
		rc = my_target_parse(cfg->dsn, &st->to, err);
	if (!rc)
		rc = my_connect(st, &st->admin, err);
	if (!rc)
		rc = my_server_facts(st, err);
	if (!rc && cfg->lock != RPB_LOCK_NONE)
		rc = my_lock_store(st, cfg->lock, err);
	if (!rc && cfg->create)
		rc = my_create(st, err);
	if (!rc)
		rc = my_check_exists(st, err);
	if (!rc && cfg->lock == RPB_LOCK_RUN)
		rc = my_record_owner(st, err);
	if (!rc)
		rc = my_set_flush(st, err);
	if (!rc)
		rc = my_connect(st, &st->killer, err);
	if (rc) {
		my_close(st);
		return rc;
	}
	my_gauges_start(st);
	*out = st;
	return RPB_OK;
}

/* ---- sessions ----------------------------------------------------------- */

static void my_session_close(struct rpb_session *s);

static enum rpb_status my_session_open(struct rpb_store *st, struct rpb_session **out,
				       struct rpb_err *err)
{
	*out = NULL;
	struct rpb_session *s = rpb_calloc_lines(1, sizeof *s);
	if (!s)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory");
	s->st = st;
	atomic_init(&s->in_txn, false);
	atomic_init(&s->interrupted, false);
	enum rpb_status rc = my_connect(st, &s->conn, err);
	char sql[160];
	snprintf(sql, sizeof sql, "SET SESSION TRANSACTION ISOLATION LEVEL %s",
		 my_isolation_sql[st->c.isolation]);
	if (!rc)
		rc = my_exec(st, s->conn, sql, "session setup", err);
	snprintf(sql, sizeof sql, "SET SESSION innodb_lock_wait_timeout = %llu, lock_wait_timeout = %llu",
		 (unsigned long long)st->c.innodb_lock_wait_timeout,
		 (unsigned long long)st->c.lock_wait_timeout);
	if (!rc)
		rc = my_exec(st, s->conn, sql, "session setup", err);
	if (rc) {
		my_session_close(s);
		return rc;
	}
	s->thread_id = mysql_thread_id(s->conn);
	*out = s;
	return RPB_OK;
}

/* Ends the transaction on the server after a failure or on request. Errors
 * are ignored: a lost connection has no transaction left to end. */
static void my_abort(struct rpb_session *s)
{
	atomic_store(&s->in_txn, false);
	(void)mysql_real_query(s->conn, "ROLLBACK", 8);
}

static void my_rollback(struct rpb_session *s)
{
	if (atomic_load(&s->in_txn))
		my_abort(s);
}

static void my_session_close(struct rpb_session *s)
{
	if (!s)
		return;
	if (s->conn)
		my_rollback(s);
	for (int t = 0; t < RPB_TABLE_COUNT; t++)
		for (int op = 0; op < MY_OP_COUNT; op++)
			if (s->stmt[t][op])
				mysql_stmt_close(s->stmt[t][op]);
	mysql_close(s->conn);
	rpb_buf_free(&s->val);
	free(s);
}

/* A failed statement of a session: classified, an interrupt said as such. */
static enum rpb_status my_said(struct rpb_session *s, enum rpb_status rc, const char *what,
			       struct rpb_err *err)
{
	if (rc == RPB_TXN_TIMEOUT && err && atomic_load(&s->interrupted))
		snprintf(err->msg, sizeof err->msg,
			 "transaction interrupted during %s and rolled back (error %d)", what,
			 err->native);
	return rc;
}

static enum rpb_status my_begin(struct rpb_session *s, enum rpb_txn_mode mode,
				struct rpb_err *err)
{
	if (atomic_load(&s->in_txn))
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "a transaction is already open");
	atomic_store(&s->interrupted, false);
	atomic_store(&s->in_txn, true);
	const char *sql = mode == RPB_TXN_READ ? "START TRANSACTION READ ONLY" : "START TRANSACTION";
	/* A KILL QUERY meant for the last transaction may end this statement. */
	for (int tries = 0; tries < 2; tries++) {
		if (mysql_real_query(s->conn, sql, strlen(sql)) == 0)
			return RPB_OK;
		if (mysql_errno(s->conn) != ER_QUERY_INTERRUPTED || atomic_load(&s->interrupted))
			break;
	}
	enum rpb_status rc = my_said(s, my_conn_fail(s->st, s->conn, "begin", err), "begin", err);
	my_abort(s);
	return rc;
}

/* Every data call and commit starts here: call order, then interrupts. */
static enum rpb_status my_check(struct rpb_session *s, enum rpb_table t, struct rpb_err *err)
{
	if (!atomic_load(&s->in_txn))
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "operation outside a transaction");
	if (atomic_load(&s->interrupted)) {
		my_abort(s);
		return rpb_err_set(err, RPB_TXN_TIMEOUT, 0, NULL,
				   "transaction interrupted and rolled back");
	}
	if ((unsigned)t >= RPB_TABLE_COUNT) {
		my_abort(s);
		return rpb_err_set(err, RPB_INVALID, 0, NULL, "unknown table %d", (int)t);
	}
	return RPB_OK;
}

static enum rpb_status my_invalid(struct rpb_session *s, const char *what, struct rpb_err *err)
{
	my_abort(s);
	return rpb_err_set(err, RPB_INVALID, 0, NULL, "%s", what);
}

static enum rpb_status my_key_ok(struct rpb_session *s, rpb_slice k, struct rpb_err *err)
{
	if (k.len == 0 || k.len > RPB_KEY_MAX || !k.data)
		return my_invalid(s, "key length must be 1..1024 bytes", err);
	return RPB_OK;
}

/* A failed statement of a data operation: classified, rolled back. */
static enum rpb_status my_op_failed(struct rpb_session *s, MYSQL_STMT *h, enum my_op op,
				    enum rpb_table t, struct rpb_err *err)
{
	char what[64];
	snprintf(what, sizeof what, "%s on table %s", my_op_name[op], rpb_table_name(t));
	enum rpb_status rc = my_said(s, h ? my_stmt_fail(s->st, h, what, err)
					  : my_conn_fail(s->st, s->conn, what, err), what, err);
	if (h)
		mysql_stmt_free_result(h);
	my_abort(s);
	return rc;
}

/* The statement of op on table t, prepared on first use. */
static enum rpb_status my_stmt(struct rpb_session *s, enum rpb_table t, enum my_op op,
			       MYSQL_STMT **out, struct rpb_err *err)
{
	static const char *const text[MY_OP_COUNT] = {
		[MY_PUT] = "INSERT INTO %s.%s (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)",
		[MY_GET] = "SELECT v FROM %s.%s WHERE k = ?",
		[MY_DEL] = "DELETE FROM %s.%s WHERE k = ?",
		[MY_SCAN] = "SELECT k, v FROM %s.%s WHERE k > ? AND k <= ? ORDER BY k LIMIT ?",
		[MY_SCAN_OPEN] = "SELECT k, v FROM %s.%s WHERE k > ? ORDER BY k LIMIT ?",
	};
	if ((*out = s->stmt[t][op]))
		return RPB_OK;
	char sql[320];
	snprintf(sql, sizeof sql, text[op], s->st->db_sql, rpb_table_name(t));
	MYSQL_STMT *h = mysql_stmt_init(s->conn);
	if (!h)
		return my_op_failed(s, NULL, op, t, err);
	if (mysql_stmt_prepare(h, sql, strlen(sql)) != 0) {
		enum rpb_status rc = my_op_failed(s, h, op, t, err);
		mysql_stmt_close(h);
		return rc;
	}
	*out = s->stmt[t][op] = h;
	return RPB_OK;
}

/* A binary parameter (BLOB: no character set conversion). */
static void my_bind_bytes(MYSQL_BIND *b, const void *p, unsigned long *len)
{
	memset(b, 0, sizeof *b);
	b->buffer_type = MYSQL_TYPE_BLOB;
	b->buffer = (void *)(p ? p : "");
	b->buffer_length = *len;
	b->length = len;
}

/* Binds the parameters and runs a prepared statement. */
static enum rpb_status my_run(struct rpb_session *s, enum rpb_table t, enum my_op op,
			      MYSQL_BIND *params, MYSQL_STMT **out, struct rpb_err *err)
{
	MYSQL_STMT *h;
	enum rpb_status rc = my_stmt(s, t, op, &h, err);
	if (rc)
		return rc;
	if (mysql_stmt_bind_param(h, params) != 0 || mysql_stmt_execute(h) != 0)
		return my_op_failed(s, h, op, t, err);
	*out = h;
	return RPB_OK;
}

static enum rpb_status my_put(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      rpb_slice val, struct rpb_err *err)
{
	enum rpb_status rc = my_check(s, t, err);
	if (!rc)
		rc = my_key_ok(s, key, err);
	if (!rc && (val.len > RPB_VALUE_MAX || (val.len && !val.data)))
		rc = my_invalid(s, "value length must be 0..64 MiB", err);
	if (!rc && key.len + val.len + MY_PACKET_SLACK > s->st->max_packet) {
		my_abort(s);
		rc = rpb_err_set(err, RPB_INVALID, 0, NULL,
				 "a put of %zu bytes is more than the server's max_allowed_packet (%lu) "
				 "takes; raise it (SET GLOBAL max_allowed_packet, or the server's "
				 "--max-allowed-packet)", key.len + val.len, s->st->max_packet);
	}
	if (rc)
		return rc;
	unsigned long lens[2] = {key.len, val.len};
	MYSQL_BIND b[2];
	my_bind_bytes(&b[0], key.data, &lens[0]);
	my_bind_bytes(&b[1], val.data, &lens[1]);
	MYSQL_STMT *h;
	return my_run(s, t, MY_PUT, b, &h, err);
}

static enum rpb_status my_get(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      struct rpb_buf *out, struct rpb_err *err)
{
	enum rpb_status rc = my_check(s, t, err);
	if (!rc)
		rc = my_key_ok(s, key, err);
	if (rc)
		return rc;
	unsigned long klen = key.len, vlen = 0;
	MYSQL_BIND p, r;
	my_bind_bytes(&p, key.data, &klen);
	MYSQL_STMT *h;
	if ((rc = my_run(s, t, MY_GET, &p, &h, err)))
		return rc;
	memset(&r, 0, sizeof r);
	r.buffer_type = MYSQL_TYPE_BLOB;
	r.length = &vlen;
	if (mysql_stmt_bind_result(h, &r) != 0)
		return my_op_failed(s, h, MY_GET, t, err);
	int f = mysql_stmt_fetch(h);
	if (f == MYSQL_NO_DATA) {
		mysql_stmt_free_result(h);
		return rpb_err_not_found(err);
	}
	if (f == 1)
		return my_op_failed(s, h, MY_GET, t, err);
	/* The value is read straight into out, as long as it is. */
	rc = rpb_buf_reserve(out, vlen ? vlen : 1, err);
	if (!rc && vlen) {
		r.buffer = out->data;
		r.buffer_length = vlen;
		if (mysql_stmt_fetch_column(h, &r, 0, 0) != 0)
			return my_op_failed(s, h, MY_GET, t, err);
	}
	if (!rc)
		out->len = vlen;
	mysql_stmt_free_result(h);
	if (rc)
		my_abort(s);
	return rc;
}

static enum rpb_status my_del(struct rpb_session *s, enum rpb_table t, rpb_slice key,
			      struct rpb_err *err)
{
	enum rpb_status rc = my_check(s, t, err);
	if (!rc)
		rc = my_key_ok(s, key, err);
	if (rc)
		return rc;
	unsigned long klen = key.len;
	MYSQL_BIND p;
	my_bind_bytes(&p, key.data, &klen);
	MYSQL_STMT *h;
	if ((rc = my_run(s, t, MY_DEL, &p, &h, err)))
		return rc;
	return mysql_stmt_affected_rows(h) == 0 ? rpb_err_not_found(err) : RPB_OK;
}

/* Fetches fetch_rows at a time, each chunk a statement of its own that
 * continues after the last key seen (and under READ COMMITTED sees what
 * was committed between chunks). A chunk is read whole before the
 * callbacks, which may use the session. */
static enum rpb_status my_scan(struct rpb_session *s, enum rpb_table t, const rpb_slice *after,
			       const rpb_slice *upto, size_t limit, rpb_scan_fn fn, void *ctx,
			       struct rpb_err *err)
{
	enum rpb_status rc = my_check(s, t, err);
	if (rc)
		return rc;
	if ((after && (after->len > RPB_KEY_MAX || (after->len && !after->data))) ||
	    (upto && (upto->len > RPB_KEY_MAX || (upto->len && !upto->data))))
		return my_invalid(s, "scan bound longer than 1024 bytes", err);
	unsigned long lo_len = after ? after->len : 0, hi_len = upto ? upto->len : 0;
	if (lo_len)
		memcpy(s->lo, after->data, lo_len);
	enum my_op op = upto ? MY_SCAN : MY_SCAN_OPEN;
	size_t left = limit;
	for (;;) {
		unsigned long long chunk = s->st->c.fetch_rows;
		if (limit && left < chunk)
			chunk = left;
		MYSQL_BIND p[3];
		my_bind_bytes(&p[0], s->lo, &lo_len);
		if (upto)
			my_bind_bytes(&p[1], upto->data, &hi_len);
		MYSQL_BIND *n = &p[upto ? 2 : 1];
		memset(n, 0, sizeof *n);
		n->buffer_type = MYSQL_TYPE_LONGLONG;
		n->buffer = &chunk;
		n->is_unsigned = 1;
		MYSQL_STMT *h;
		if ((rc = my_run(s, t, op, p, &h, err)))
			return rc;
		unsigned long klen = 0, vlen = 0;
		MYSQL_BIND r[2];
		memset(r, 0, sizeof r);
		r[0].buffer_type = r[1].buffer_type = MYSQL_TYPE_BLOB;
		r[0].buffer = s->key;
		r[0].buffer_length = sizeof s->key;
		r[0].length = &klen;
		r[1].length = &vlen;
		if (mysql_stmt_bind_result(h, r) != 0 || mysql_stmt_store_result(h) != 0)
			return my_op_failed(s, h, op, t, err);
		unsigned long long rows = 0;
		int f;
		while ((f = mysql_stmt_fetch(h)) == 0 || f == MYSQL_DATA_TRUNCATED) {
			rows++;
			if ((rc = rpb_buf_reserve(&s->val, vlen ? vlen : 1, err))) {
				mysql_stmt_free_result(h);
				my_abort(s);
				return rc;
			}
			MYSQL_BIND v = r[1];
			v.buffer = s->val.data;
			v.buffer_length = vlen;
			if (vlen && mysql_stmt_fetch_column(h, &v, 1, 0) != 0)
				return my_op_failed(s, h, op, t, err);
			memcpy(s->lo, s->key, klen); /* the bound for the next chunk */
			lo_len = klen;
			if (fn(ctx, rpb_slice_make(s->lo, klen), rpb_slice_make(s->val.data, vlen))) {
				mysql_stmt_free_result(h);
				return RPB_OK;
			}
		}
		if (f == 1)
			return my_op_failed(s, h, op, t, err);
		mysql_stmt_free_result(h);
		if (rows < chunk)
			return RPB_OK;
		if (limit && (left -= (size_t)rows) == 0)
			return RPB_OK;
	}
}

static enum rpb_status my_commit(struct rpb_session *s, struct rpb_err *err)
{
	enum rpb_status rc = my_check(s, RPB_T_OBJECTS, err);
	if (rc)
		return rc;
	if (mysql_real_query(s->conn, "COMMIT", 6) != 0) {
		rc = my_said(s, my_conn_fail(s->st, s->conn, "commit", err), "commit", err);
		my_abort(s);
		return rc;
	}
	atomic_store(&s->in_txn, false);
	return RPB_OK;
}

/* Another thread: flag the session, then have the server end what it runs
 * (KILL QUERY on the store's own connection for it; a lost one is made
 * again once). The killed statement fails with error 1317, txn-timeout. */
static void my_interrupt(struct rpb_session *s)
{
	atomic_store(&s->interrupted, true);
	if (!atomic_load(&s->in_txn))
		return;
	struct rpb_store *st = s->st;
	char sql[48];
	snprintf(sql, sizeof sql, "KILL QUERY %lu", s->thread_id);
	pthread_mutex_lock(&st->kill_lock);
	for (int tries = 0; tries < 2; tries++) {
		if (st->killer && mysql_real_query(st->killer, sql, strlen(sql)) == 0)
			break;
		unsigned code = st->killer ? mysql_errno(st->killer) : CR_SERVER_GONE_ERROR;
		if (code != CR_SERVER_GONE_ERROR && code != CR_SERVER_LOST)
			break; /* e.g. the statement has just ended: unknown thread */
		mysql_close(st->killer);
		if (my_connect(st, &st->killer, NULL) != RPB_OK)
			break;
	}
	pthread_mutex_unlock(&st->kill_lock);
}

const struct rpb_backend rpb_backend_mariadb = {
	.name = "mariadb",
	.abi = RPB_BACKEND_ABI,
	.flags = RPB_BF_SERVER | RPB_BF_LOCKS,
	.options = my_options,
	.config_size = sizeof(struct my_config),
	.version = my_version,
	.open = my_open,
	.close = my_close,
	.session_open = my_session_open,
	.session_close = my_session_close,
	.begin = my_begin,
	.put = my_put,
	.get = my_get,
	.del = my_del,
	.scan = my_scan,
	.commit = my_commit,
	.rollback = my_rollback,
	.interrupt = my_interrupt,
	.usage = my_usage,
	.gauges = my_gauges,
	.describe = my_describe,
};
