/* The backends built into this binary, and each backend's pure error
 * classifier (testable without a database). A backend switched off at
 * configure time is declared here but neither built nor registered. */
#ifndef RPB_BACKENDS_H
#define RPB_BACKENDS_H

#include "store.h"

extern const struct rpb_backend rpb_backend_null;
extern const struct rpb_backend rpb_backend_leveldb;
extern const struct rpb_backend rpb_backend_sqlite;
extern const struct rpb_backend rpb_backend_postgres;

/* Maps a LevelDB status string ("IO error: ...: No space left on device",
 * "Corruption: ...", ...) to an error class. */
enum rpb_status rpb_leveldb_classify(const char *status_msg);
/* Maps an SQLite result code, primary or extended, to an error class. */
enum rpb_status rpb_sqlite_classify(int code);
/* Maps a SQLSTATE (may be NULL or "") and whether the connection is bad to an
 * error class. */
enum rpb_status rpb_postgres_classify(const char *sqlstate, bool connection_bad);

/* Debug counters, so tests can see that a fast path stays taken: LevelDB
 * snapshots taken since the store was opened (a transaction of one get or
 * of plain writes takes none). */
uint64_t rpb_leveldb_snapshots(struct rpb_store *st);
/* SQLite statements a session stepped since it opened, BEGIN and COMMIT
 * included (a transaction of one put steps one; a scan counts once). */
uint64_t rpb_sqlite_statements(const struct rpb_session *s);
/* Waits of a PostgreSQL session for the server since it opened: a
 * synchronous statement, a statement's first PREPARE, a pipeline's sync. */
uint64_t rpb_postgres_round_trips(const struct rpb_session *s);
/* The durability level a session really runs with, asked of the library or
 * server itself: SQLite's PRAGMA synchronous (0 OFF, 1 NORMAL, 2 FULL,
 * 3 EXTRA; -1 on error), PostgreSQL's SHOW synchronous_commit (false on
 * error; between transactions only). */
int rpb_sqlite_synchronous(const struct rpb_session *s);
bool rpb_postgres_synchronous_commit(const struct rpb_session *s, char *out, size_t n);

/* NULL-terminated list of the backends built in, null last. */
extern const struct rpb_backend *const rpb_backends[];
/* Finds a built-in backend by name; NULL when not built in. */
const struct rpb_backend *rpb_backend_find(const char *name);

#endif
