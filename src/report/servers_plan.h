/* Which server each server backend of a compare, sweep or scale gets:
 * --dsn's or a throwaway one of --start-servers, started and stopped. */
#ifndef RPB_SERVERS_PLAN_H
#define RPB_SERVERS_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "servers.h"

/* One --dsn ARG: NAME=DSN when NAME is a backend of this build (it must be
 * a server backend, named once), else a DSN for the one server backend
 * (given once). A NAME=key=value that names no backend is refused. -1 with
 * a one-line msg (no DSN in it). */
int rpb_servers_dsn_option(struct rpb_servers *sv, const char *arg, char *msg, size_t n);
/* The length of NAME when arg is NAME=DSN for a backend of this build, else 0. */
size_t rpb_servers_dsn_named(const char *arg);

/* Matches the --dsn options with the backends listed: every server backend
 * among them gets its DSN or, with start_all (--start-servers), or
 * start_one for that backend alone (--start-postgres names postgres), a
 * throwaway server. Refuses a
 * named backend not listed, a bare --dsn with other than one server backend
 * listed, a server backend with neither. -1 with msg. */
int rpb_servers_plan(struct rpb_servers *sv, const char *const *backends, size_t nb, bool start_all,
		     const char *start_one, char *msg, size_t n);

/* Starts every throwaway server of the plan (printing a line each unless
 * quiet); when one fails, those started are stopped again. -1 with msg. */
int rpb_servers_start(struct rpb_servers *sv, bool quiet, char *msg, size_t n);

/* Stops every started server, all of them even when one fails; -1 with msg
 * naming the first that did not stop and how to stop it. */
int rpb_servers_stop(struct rpb_servers *sv, bool quiet, char *msg, size_t n);

#endif
