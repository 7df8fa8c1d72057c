/* Connection strings in output: the password never appears. */
#ifndef RPB_DSN_H
#define RPB_DSN_H

#include <stdbool.h>
#include <stddef.h>

/* Copies dsn to out with any password replaced by "***": key=value form
 * (password=..., quoted or not) and URI form (postgresql://user:pw@host). */
void rpb_dsn_redact(const char *dsn, char *out, size_t n);
/* Whether an option key of len bytes names a connection string (ends in
 * "dsn", as postgres.read_dsn does): its value is shown redacted. */
bool rpb_key_is_dsn(const char *key, size_t len);
/* The command line argv joined by spaces, the value of every --dsn (or
 * --dsn=) and of every --set KEY=VALUE whose KEY names a connection string
 * redacted, for result files; whole, however long (malloc'd; NULL when out
 * of memory). */
char *rpb_command_redact(int argc, char **argv);

#endif
