/* Running a comparison: the per-backend binaries (rpbench-<backend>, found
 * beside the running rpbench) run one after another on the same workload
 * file and --set list, once per profile and sync of a durability matrix,
 * interleaved over the repeats (A B C A B C ...) so drift of the machine
 * hits every column alike; and the throwaway servers of --start-servers
 * (each server backend's script, scripts/pg-throwaway for postgres). */
#ifndef RPB_COMPARE_EXEC_H
#define RPB_COMPARE_EXEC_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"
#include "servers.h"
#include "store.h"

struct rpb_cmp_plan {
	const char *workload;
	const char *const *sets; /* "key=value", handed on as --set */
	size_t nsets;
	const char *const *backends;
	size_t nbackends;
	/* The durability matrix: each run once per profile and per sync, handed
	 * on as --set profile=P --set sync=S (none given: the workload's). */
	const char *const *profiles;
	size_t nprofiles;
	const char *const *syncs;
	size_t nsyncs;
	unsigned repeat;
	const char *out;         /* the compare directory: runs/, stores/, logs/ go below */
	const struct rpb_servers *servers; /* each server backend's DSN (servers.h) */
	bool quiet;              /* children quiet, nothing printed */
	bool load_first;         /* each run is preceded by a load of its store (YCSB) */
	char bindir[RPB_CMP_PATH];
};

/* The backends the runs may name (ended by a NULL name: rpbench's
 * catalogue, rpb_backend_kinds; the list stays the caller's) and each
 * server backend's throwaway-server script (rpb_backend_server_script):
 * report knows none of its own, only their flags and scripts. */
void rpb_exec_backends(const struct rpb_backend_kind *list,
		       const char *(*server_script)(const char *));
/* Whether a backend is one of the list. */
bool rpb_exec_is_backend(const char *backend);
/* Whether a backend is a server backend (RPB_BF_SERVER: runs take
 * --dsn/--schema, not --dir); false for one not in the list. */
bool rpb_exec_is_server(const char *backend);
/* Whether a backend keeps nothing (RPB_BF_STORES_NOTHING: no store to give). */
bool rpb_exec_stores_nothing(const char *backend);

/* The directory of the running executable (/proc/self/exe). */
int rpb_exec_bindir(char *buf, size_t n, char *msg, size_t mn);

/* SIGINT and SIGTERM set a flag (forwarded to a running child) instead of
 * ending the process, so the server is stopped and the report written. */
void rpb_exec_catch_signals(void);
int rpb_exec_signal(void); /* the signal caught, or 0 */

/* What a per-backend binary's exit status means: "completed", ... */
const char *rpb_exec_exit_meaning(int code);

/* Runs the plan; each run's results directory is added to c, in run
 * order. A run that wrote no result.json is added as a bare entry (no
 * results, its exit code kept). Returns -1 with msg only when a run cannot
 * be started at all or its results directory is unreadable. */
int rpb_exec_runs(const struct rpb_cmp_plan *p, struct rpb_cmp *c, char *msg, size_t n);

/* rpbench-<backend> verify DIR (the DSN handed on for a server backend,
 * out of argv when it holds a password): its exit code, or -2 when it could
 * not start (msg); line gets verify's one-line result (its first line of
 * output, or its error line). */
int rpb_exec_verify(const char *bindir, const char *backend, const char *dir, const char *dsn,
		    char *line, size_t ln, char *msg, size_t n);

/* The throwaway-server script of a server backend as it is run: the
 * program RPB_<SCRIPT> names when set (its script's file name in capitals,
 * '-' as '_': RPB_PG_THROWAWAY), else its script in share/rpbench beside
 * the executable; into buf (a phrase that
 * says what is missing when there is none). */
const char *rpb_exec_server_script(const char *backend, char *buf, size_t n);
/* SCRIPT start: makes a new directory under /tmp (dir), starts the server
 * there and returns its DSN. The script's own messages go to stderr. On
 * failure the directory is already removed again. */
int rpb_exec_server_start(const char *backend, char *dir, size_t dn, char *dsn, size_t n, char *msg,
			  size_t mn);
/* SCRIPT stop: stops the server and removes dir. */
int rpb_exec_server_stop(const char *backend, const char *dir, char *msg, size_t n);

#endif
