/* The server of each server backend a compare, sweep or scale runs: its
 * DSN from --dsn (bare, for the one server backend listed, or NAME=DSN) or
 * a throwaway server of --start-servers (the backend's own script,
 * rpb_exec_server_start), always stopped again at the end; planned,
 * started and stopped by servers_plan.h, read by the runs here. */
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

/* A server backend's DSN in the plan; NULL for any backend it does not hold. */
const char *rpb_servers_dsn(const struct rpb_servers *sv, const char *backend);

#endif
