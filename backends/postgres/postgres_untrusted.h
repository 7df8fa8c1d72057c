/* Connection parameters for a DSN that came from a results directory
 * (verify without --dsn): whoever wrote the result.json chose the server,
 * so the connection must carry none of the user's credentials. */
#ifndef RPB_POSTGRES_UNTRUSTED_H
#define RPB_POSTGRES_UNTRUSTED_H

#include <libpq-fe.h>
#include <stddef.h>

/* Room for the keywords pg_untrusted_params fills, NULL included. */
#define PG_UNTRUSTED_MAX 24

/* Fills keys/vals (for PQconnectdbParams with expand_dbname 0) with the
 * DSN's keywords that say where to connect and as whom (host, port,
 * dbname, user, sslmode, ...; not service, passfile or any file of
 * certificates or keys), then keywords that point libpq's password file,
 * client certificate and key nowhere and switch GSSAPI off; clears
 * PGPASSWORD and PGSERVICE, which libpq would read for keywords left unset
 * (an empty value counts as unset). *parsed holds the strings: free it with
 * PQconninfoFree. Returns 0, or -1 with why when libpq cannot parse conninfo. */
int pg_untrusted_params(const char *conninfo, const char **keys, const char **vals,
			PQconninfoOption **parsed, char *why, size_t n);

#endif
