/* The PostgreSQL backend's table, its pure error classifier (testable
 * without a server) and its debug counters. */
#ifndef RPB_POSTGRES_BACKEND_H
#define RPB_POSTGRES_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

extern const struct rpb_backend rpb_backend_postgres;

/* Maps a SQLSTATE (may be NULL or "") and whether the connection is bad to an
 * error class. */
enum rpb_status rpb_postgres_classify(const char *sqlstate, bool connection_bad);

/* Waits of a PostgreSQL session for the server since it opened: a
 * synchronous statement, a statement's first PREPARE, a pipeline's sync. */
uint64_t rpb_postgres_round_trips(const struct rpb_session *s);
/* The durability level a session really runs with, asked of the server:
 * SHOW synchronous_commit (false on error; between transactions only). */
bool rpb_postgres_synchronous_commit(const struct rpb_session *s, char *out, size_t n);

#endif
