/* End-to-end helpers: run the real rpbench-<backend> binaries (posix_spawn,
 * no shell), capture their output, read their result files, and look into
 * the stores they leave behind through the store interface. */
#ifndef RPBT_E2E_UTIL_H
#define RPBT_E2E_UTIL_H

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "testutil.h"
#include "timelimit.h"

#define E2E_MAX_ARGS 64
#define E2E_PATH 512

/* Paths into the source tree and to the binaries under test. */
#define E2E_WORKLOAD(name) RPB_SOURCE_DIR "/data/workloads/" name
#define E2E_FIXTURE(name) RPB_SOURCE_DIR "/tests/data/" name
#define E2E_CI_INGEST E2E_WORKLOAD("ci-ingest.ini")
/* The compare and report program. */
#define RPBENCH RPB_BINARY_DIR "/bin/rpbench"
/* ci-harvest's writers over a smaller corpus (each harvester completes two
 * 80-page harvests), paced to leave the cores to the tests beside. The
 * harvesters begin once the writers have finished 20 operations, so every
 * harvest meets creates and updates however fast it runs. */
#define E2E_HARVEST_WRITERS \
	"--set", "writers=2", "--set", "writer_rate=300", "--set", "writer_lead=20", "--set", \
	"records=8000", "--set", "ops=160"
/* --set for a run that ends only when killed or stopped (31 days). */
#define E2E_UNTIL_KILLED "duration=744h"

/* An argument vector; the strings are borrowed and must outlive the run. */
struct e2e_args {
	const char *v[E2E_MAX_ARGS + 1];
	int n;
};
/* Appends the arguments up to a NULL. */
void e2e_args_add(struct e2e_args *a, ...) __attribute__((sentinel));
/* Appends the arguments of ap up to a NULL: a variadic helper's tail. */
void e2e_args_addv(struct e2e_args *a, va_list ap);
/* Appends "--set", s for each s of ap up to a NULL. */
void e2e_args_setv(struct e2e_args *a, va_list ap);

/* One child process and what it printed. */
struct e2e_proc {
	pid_t pid;
	int code;        /* exit status; 128 + N if killed by signal N; -1 not run */
	char *out, *err; /* captured stdout and stderr, NUL-terminated, never NULL */
	char outpath[E2E_PATH], errpath[E2E_PATH];
	char cmd[1024];  /* the command line, for failure messages */
};

/* Starts argv with stdin from /dev/null and stdout/stderr into files in
 * capdir; SIGINT and SIGTERM at their defaults. Returns 0 or an errno and
 * never asserts (safe between a mount and its umount). A child not yet
 * waited for is killed by e2e_cleanup. */
int e2e_spawn(struct e2e_proc *p, const char *capdir, const struct e2e_args *a);
/* Waits for the child: a hang, one still running after
 * rpbt_limit_s(RPBT_CHILD_LIMIT_S), is killed (code = 128 + SIGKILL). Then
 * reads the captured output. Never asserts. */
void e2e_wait(struct e2e_proc *p);
/* spawn + wait; code -1 if it could not start. Never asserts. */
void e2e_exec(struct e2e_proc *p, const char *capdir, const struct e2e_args *a);
void e2e_proc_free(struct e2e_proc *p);

/* A fresh test directory and the names a run needs. */
struct e2e_env {
	const char *backend;
	char bin[E2E_PATH];   /* RPB_BINARY_DIR/bin/rpbench-<backend> */
	char tmp[256];        /* /tmp/rpbt-e2e-XXXXXX, removed by e2e_env_fini */
	char cap[300];        /* tmp/cap: captured output, apart from the run's files */
	char out[300];        /* tmp/out: the default --out */
	char store[E2E_PATH]; /* out/store: an embedded backend's default store */
	char schema[64];      /* server backends: a schema unique to this test */
	const char *dsn;      /* server backends: the test server */
	bool server;
};
void e2e_env_init(struct e2e_env *e, const char *backend);
/* Skips the test when bin/rpbench is not built (a null-only build). */
void e2e_need_rpbench(void);
/* As e2e_env_init, with the program of the tests' own build,
 * tests/bin/rpbench-example-<backend> (the example pattern registered; a
 * backend of the tests only has no other). */
void e2e_env_init_example(struct e2e_env *e, const char *backend);
void e2e_env_fini(struct e2e_env *e);
/* Kills every child not yet waited for and removes every test directory
 * not yet finished: the .fini hook of each e2e test, so a failed assertion
 * leaves nothing running and nothing under /tmp either. */
void e2e_cleanup(void);
/* Kills (and reaps) every child not yet waited for. */
void e2e_kill_children(void);
/* A path inside the test directory. */
const char *e2e_path(const struct e2e_env *e, char *buf, const char *name);

/* "BIN run WORKLOAD --quiet --out OUT" plus --dsn/--schema for a server. */
void e2e_run_args(struct e2e_args *a, const struct e2e_env *e, const char *workload,
		  const char *out);
/* Runs ci-ingest into e->out (extra args up to NULL) and asserts exit 0. */
void e2e_run_ci(const struct e2e_env *e, ...) __attribute__((sentinel));

/* Runs "BIN verify OUT" (with --dsn for a server), asserts exit code want
 * and an empty stderr; returns its stdout (malloc'd). */
char *e2e_verify(const struct e2e_env *e, const char *out, int want);
/* Runs verify on out and asserts it found exactly n objects and nothing
 * missing, corrupt or unexpected. */
void e2e_verify_clean(const struct e2e_env *e, const char *out, long long n);

/* Runs a; asserts exit code want and an empty stderr (the messages name the
 * command and show its output). Returns its stdout (malloc'd). */
char *e2e_exec_expect(const char *capdir, const struct e2e_args *a, int want);
/* Runs a; asserts exit 0 and an empty stderr. */
void e2e_exec_ok(const char *capdir, const struct e2e_args *a);

/* Asserts the exit code, with the command and its stderr in the message. */
void e2e_assert_code(const struct e2e_proc *p, int want);
/* Asserts an empty stderr: a successful command complains about nothing
 * (this also catches sanitizer reports that keep the exit code). */
void e2e_assert_quiet(const struct e2e_proc *p);
/* Asserts a refusal: exit code want, nothing on stdout, and stderr exactly
 * one line that contains every needle (up to a NULL). */
void e2e_assert_refusal(const struct e2e_proc *p, int want, ...) __attribute__((sentinel));

/* A run's live ledger (ledger.bin) as verify reads it. */
#define E2E_LEDGER_THREADS 8
struct e2e_ledger {
	unsigned n; /* threads */
	uint64_t started[E2E_LEDGER_THREADS], finished[E2E_LEDGER_THREADS];
};
/* Reads out/ledger.bin; false while it is not there (or not complete). */
bool e2e_ledger_read(const char *out, struct e2e_ledger *lv);
uint64_t e2e_ledger_finished(const struct e2e_ledger *lv);
/* Spawns a run whose results go to out and returns once its live ledger
 * shows `want` finished operations: an event, not a guess at how long that
 * takes. Fails the test (the child killed) if the run ends first or does
 * not get there within the child limit. */
void e2e_spawn_until(struct e2e_proc *p, const char *capdir, const struct e2e_args *a,
		     const char *out, uint64_t want);

/* An ingest (ci-ingest into e->out, sync = commit, extra --set up to NULL)
 * that ends only when killed or stopped, returned once its live ledger
 * shows `want` finished operations. */
void e2e_spawn_ingest_until(struct e2e_proc *p, const struct e2e_env *e, uint64_t want, ...)
	__attribute__((sentinel));
/* SIGKILLs a run and reaps it (code 128 + SIGKILL). */
void e2e_kill_run(struct e2e_proc *p);

/* Seconds on the monotonic clock, for deadlines. */
double e2e_now_s(void);

/* Reads a whole file (NUL-terminated); NULL if it cannot be read. */
char *e2e_slurp(const char *path, size_t *len);
/* dir/name read whole; asserts it is there. */
char *e2e_slurp_in(const char *dir, const char *name);
bool e2e_exists(const char *path);
/* Files under dir whose name holds infix (NULL: every file), counted on disk;
 * dot-files (rpbench's marks) are not counted. */
long e2e_count_files(const char *dir, const char *infix);
void e2e_write_file(const char *path, const char *text);

/* result.json of a results directory; asserts it parses. */
json_t *e2e_result(const char *outdir);

/* Crafted results for compare (a real run's result.json with the figures a
 * test sets, so nothing depends on the machine's speed): writes r as
 * DIR/result.json, DIR = e's directory/name (made here, returned in dir). */
void e2e_write_result(const struct e2e_env *e, const json_t *r, const char *name, char *dir);
/* rpbench compare --results over dirs[0..n-1] into e->out, exit 0 asserted;
 * returns compare.json, the terminal's table in *table (to free). */
json_t *e2e_compare_results(const struct e2e_env *e, char dirs[][E2E_PATH], size_t n,
			    char **table);
/* compare.json: column i's stat of figure key (asserted present). */
const json_t *e2e_col_stat(const json_t *cmp, size_t i, const char *key);
/* The line of compare's terminal table whose heading is heading (then a
 * space), into out (asserted present). */
void e2e_table_row(const char *table, const char *heading, char *out, size_t n);
/* An integer at a dotted path ("totals.acked"); asserts it is there. */
json_int_t e2e_jint(json_t *root, const char *path);
/* A string at a dotted path; asserts it is there. */
const char *e2e_jstr(json_t *root, const char *path);
/* Epoch ms of the manifest's ISO-8601 "start" or "end". */
uint64_t e2e_jtime_ms(json_t *root, const char *path);

/* Asserts that secret appears in no regular file under dir (captured
 * output included), read as bytes, except the inputs: files an e2e_tree
 * listing of dir names (NULL: none). what names the check in a failure. */
void e2e_assert_no_secret(const char *what, const char *dir, const char *inputs,
			  const char *secret);

/* A listing of a tree: one line "path type size fnv1a" per entry, sorted.
 * Lines of before missing from after name what was deleted or changed. */
char *e2e_tree(const char *dir);
void e2e_assert_tree_kept(const char *before, const char *after, const char *what);

/* A store left behind by a run, opened through the interface. */
struct e2e_store {
	const struct rpb_backend *b;
	struct rpb_store *st;
	struct rpb_session *s;
};
void e2e_store_open(struct e2e_store *s, const char *backend, const char *dir);
void e2e_store_close(struct e2e_store *s);
/* Calls fn for every key of t that starts with prefix, in key order, in one
 * read transaction; returns the count. fn may be NULL. */
typedef void (*e2e_entry_fn)(void *ctx, rpb_slice key, rpb_slice val);
uint64_t e2e_scan_prefix(struct e2e_store *s, enum rpb_table t, const char *prefix,
			 e2e_entry_fn fn, void *ctx);

/* The single integer a CLI query tool printed (sqlite3, psql -At). */
long long e2e_query_count(const struct e2e_env *e, const struct e2e_args *a);

#endif
