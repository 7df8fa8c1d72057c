/* The server of each server backend a compare, sweep or scale runs: its
 * DSN from --dsn (bare, for the one server backend listed, or NAME=DSN) or
 * a throwaway server of --start-servers (the backend's own script,
 * rpb_exec_server_start), always stopped again at the end. */
#ifndef RPB_SERVERS_H
#define RPB_SERVERS_H

#include <stdbool.h>
#include <stddef.h>

#define RPB_SERVERS_MAX 16

struct rpb_server {
	char backend[64];
	const char *dsn;        /* the server's DSN: --dsn's, or started's */
	bool start;             /* a throwaway server starts for it */
	char dir[256];          /* the started server's directory; "" when none runs */
	char started[1024];     /* its DSN, as the script printed it */
};

struct rpb_servers {
	const char *bare;       /* --dsn DSN, naming no backend */
	struct rpb_server s[RPB_SERVERS_MAX];
	size_t n;
};

/* One --dsn ARG: NAME=DSN when NAME is a backend of this build (it must be
 * a server backend, named once), else a DSN for the one server backend
 * (given once). A NAME=key=value that names no backend is refused. -1 with
 * a one-line msg (no DSN in it). */
int rpb_servers_dsn_option(struct rpb_servers *sv, const char *arg, char *msg, size_t n);
/* The length of NAME when arg is NAME=DSN for a backend of this build, else 0. */
size_t rpb_servers_dsn_named(const char *arg);

/* Matches the --dsn options with the backends listed: every server backend
 * among them gets its DSN or, with start_all (--start-servers), or
 * start_pg for postgres (--start-postgres), a throwaway server. Refuses a
 * named backend not listed, a bare --dsn with other than one server backend
 * listed, a server backend with neither. -1 with msg. */
int rpb_servers_plan(struct rpb_servers *sv, const char *const *backends, size_t nb, bool start_all,
		     bool start_pg, char *msg, size_t n);

/* Starts every throwaway server of the plan (printing a line each unless
 * quiet); when one fails, those started are stopped again. -1 with msg. */
int rpb_servers_start(struct rpb_servers *sv, bool quiet, char *msg, size_t n);

/* Stops every started server, all of them even when one fails; -1 with msg
 * naming the first that did not stop and how to stop it. */
int rpb_servers_stop(struct rpb_servers *sv, bool quiet, char *msg, size_t n);

/* A server backend's DSN in the plan; NULL for any other backend. */
const char *rpb_servers_dsn(const struct rpb_servers *sv, const char *backend);

#endif
