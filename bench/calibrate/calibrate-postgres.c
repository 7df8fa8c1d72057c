/* db_bench's loops over libpq with prepared statements, on the table layout
 * of the rpbench PostgreSQL backend: <schema>.raw(k bytea PRIMARY KEY,
 * v bytea NOT NULL), binary parameters and results, synchronous_commit off
 * (on with --sync 1), upsert with ON CONFLICT. One transaction per batch of
 * operations (BEGIN / BEGIN READ ONLY ... COMMIT), one round trip per
 * statement; readseq is one SELECT streamed in single-row mode. The schema
 * (--schema, default calibrate) is created and dropped again. */
#include <libpq-fe.h>

#include "calib.h"

static PGconn *conn;

static void need(PGresult *r, ExecStatusType want, const char *what)
{
	if (!r || PQresultStatus(r) != want) {
		fprintf(stderr, "calibrate-postgres: %s: %s", what, PQerrorMessage(conn));
		exit(2);
	}
	PQclear(r);
}

static void exec(const char *sql)
{
	need(PQexec(conn, sql), PGRES_COMMAND_OK, sql);
}

static void write_bench(struct calib *c, bool seq)
{
	unsigned char key[CALIB_KEY_MAX];
	static const int fmt[] = {1, 1};
	uint64_t bytes = 0;
	struct calib_clock t0 = calib_start();
	for (uint64_t i = 0; i < c->num; i += c->batch) {
		exec("BEGIN");
		for (uint64_t j = 0; j < c->batch && i + j < c->num; j++) {
			calib_key(c, key, seq ? i + j : calib_uniform(c, c->num));
			const char *vals[] = {(const char *)key, (const char *)calib_value(c)};
			int lens[] = {(int)c->key_size, (int)c->value_size};
			need(PQexecPrepared(conn, "put", 2, vals, lens, fmt, 1), PGRES_COMMAND_OK, "put");
			bytes += c->key_size + c->value_size;
		}
		exec("COMMIT");
	}
	calib_report(seq ? "fillseq" : "fillrandom", calib_since(&t0), c->num, bytes, -1);
}

static void read_random(struct calib *c)
{
	unsigned char key[CALIB_KEY_MAX];
	static const int fmt[] = {1};
	long long found = 0;
	struct calib_clock t0 = calib_start();
	for (uint64_t i = 0; i < c->num; i += c->batch) {
		exec("BEGIN READ ONLY");
		for (uint64_t j = 0; j < c->batch && i + j < c->num; j++) {
			calib_key(c, key, calib_uniform(c, c->num));
			const char *vals[] = {(const char *)key};
			int lens[] = {(int)c->key_size};
			PGresult *r = PQexecPrepared(conn, "get", 1, vals, lens, fmt, 1);
			if (!r || PQresultStatus(r) != PGRES_TUPLES_OK)
				need(r, PGRES_TUPLES_OK, "get");
			found += PQntuples(r) == 1;
			PQclear(r);
		}
		exec("COMMIT");
	}
	calib_report("readrandom", calib_since(&t0), c->num, 0, found);
}

static void read_seq(struct calib *c)
{
	char lim[32];
	snprintf(lim, sizeof lim, "%llu", (unsigned long long)c->num);
	const char *vals[] = {lim};
	uint64_t n = 0, bytes = 0;
	struct calib_clock t0 = calib_start();
	exec("BEGIN READ ONLY");
	if (!PQsendQueryPrepared(conn, "scan", 1, vals, NULL, NULL, 1) || !PQsetSingleRowMode(conn)) {
		fprintf(stderr, "calibrate-postgres: scan: %s", PQerrorMessage(conn));
		exit(2);
	}
	for (PGresult *r; (r = PQgetResult(conn)) != NULL; PQclear(r)) {
		ExecStatusType st = PQresultStatus(r);
		if (st == PGRES_SINGLE_TUPLE) {
			bytes += (uint64_t)PQgetlength(r, 0, 0) + (uint64_t)PQgetlength(r, 0, 1);
			n++;
		} else if (st != PGRES_TUPLES_OK) {
			fprintf(stderr, "calibrate-postgres: scan: %s", PQerrorMessage(conn));
			exit(2);
		}
	}
	exec("COMMIT");
	calib_report("readseq", calib_since(&t0), n, bytes, -1);
}

/* TRUNCATE gives the table and its index new, empty files: a fresh
 * store (db_bench's fresh_db) in the schema this run made. */
static void fresh(struct calib *c)
{
	(void)c;
	exec("TRUNCATE raw");
}

static const struct calib_loops loops = {"calibrate-postgres", fresh, write_bench, read_random,
					  read_seq};

int main(int argc, char **argv)
{
	/* --schema is ours; the rest is the common command line. */
	const char *schema = "calibrate";
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "--schema") == 0) {
			schema = argv[i + 1];
			memmove(argv + i, argv + i + 2, (size_t)(argc - i - 1) * sizeof *argv);
			argc -= 2;
			break;
		}
	struct calib c;
	calib_args(&c, argc, argv, "dsn");
	conn = PQconnectdb(c.target);
	if (PQstatus(conn) != CONNECTION_OK) {
		fprintf(stderr, "calibrate-postgres: connect: %s", PQerrorMessage(conn));
		return 2;
	}
	char *id = PQescapeIdentifier(conn, schema, strlen(schema));
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "SET client_min_messages = warning; CREATE SCHEMA %s; SET search_path TO %s;"
		 " SET synchronous_commit TO %s;"
		 " CREATE TABLE raw (k bytea PRIMARY KEY, v bytea NOT NULL)",
		 id, id, c.sync ? "on" : "off");
	exec(sql);
	need(PQprepare(conn, "put",
		       "INSERT INTO raw(k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v",
		       2, NULL),
	     PGRES_COMMAND_OK, "prepare put");
	need(PQprepare(conn, "get", "SELECT v FROM raw WHERE k = $1", 1, NULL), PGRES_COMMAND_OK,
	     "prepare get");
	need(PQprepare(conn, "scan", "SELECT k, v FROM raw ORDER BY k LIMIT $1", 1, NULL),
	     PGRES_COMMAND_OK, "prepare scan");
	calib_each(&c, &loops);
	snprintf(sql, sizeof sql, "DROP SCHEMA %s CASCADE", id);
	exec(sql);
	PQfreemem(id);
	PQfinish(conn);
	free(c.values);
	return 0;
}
