/* Shared fixtures: temporary store directories, the test PostgreSQL server,
 * and open/reopen of a store through the interface only. */
#ifndef RPBT_TESTUTIL_H
#define RPBT_TESTUTIL_H

#include "backends.h"
#include "store.h"

struct rpbt_store {
	const struct rpb_backend *b;
	struct rpb_store *st;
	struct rpb_store_cfg cfg;
	char dir[256];  /* embedded backends: a fresh directory under /tmp */
	char name[64];  /* server backends: a fresh schema */
	struct rpb_kv read_dsn; /* postgres_replica: the test server's standby */
};

/* The DSN of the test server (RPB_TEST_PG_DSN); fails the test when unset,
 * because the suite never skips PostgreSQL. */
const char *rpbt_pg_dsn(void);

/* The DSN of backend's test server: RPB_TEST_<NAME>_DSN (RPB_TEST_PG_DSN
 * for postgres); fails the test when unset. */
const char *rpbt_server_dsn(const char *backend);

/* The DSN of the test server's hot standby (RPB_TEST_PG_STANDBY_DSN, set
 * by pg-throwaway run --standby); fails the test when unset. */
const char *rpbt_pg_standby_dsn(void);

/* Opens a fresh, empty store of the named backend; asserts success.
 * "postgres_replica" is the postgres backend reading from the test
 * server's standby (postgres.read_dsn). */
void rpbt_open(struct rpbt_store *s, const char *backend);
/* As rpbt_open, with the store opened (and made) under a persistence
 * profile ("durable", "fedora-4.5"; NULL = durable). */
void rpbt_open_profile(struct rpbt_store *s, const char *backend, const char *profile);
/* Closes and opens the same store again. */
void rpbt_reopen(struct rpbt_store *s);
/* Closes the store and removes what the fixture created on disk. */
void rpbt_close(struct rpbt_store *s);

/* Makes a fresh directory under /tmp; returns it in buf. */
void rpbt_tmpdir(char *buf, size_t n, const char *tag);
/* Removes a directory tree the test created (refuses paths outside /tmp). */
void rpbt_rmtree(const char *dir);

/* One-call helpers that assert success. */
struct rpb_session *rpbt_session(struct rpbt_store *s);
void rpbt_begin(struct rpbt_store *s, struct rpb_session *ss, enum rpb_txn_mode mode);
void rpbt_commit(struct rpbt_store *s, struct rpb_session *ss);
void rpbt_put(struct rpbt_store *s, struct rpb_session *ss, enum rpb_table t,
	      const char *key, const char *val);

#endif
