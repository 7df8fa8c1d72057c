/* The pattern interface: what a workload pattern gives the core, as
 * store.h is what a backend gives it. Each pattern lives in its own folder
 * under src/patterns/ and exports one const struct rpb_pattern;
 * src/patterns/registry.c lists them. The core reaches patterns only
 * through this table and the registry functions below: it parses the
 * pattern's section with the pattern's option table into a config struct it
 * does not know (struct rpb_job's config), and calls the hooks.
 *
 * Every hook says whether it is required. A pattern's operations open
 * transactions only through rpb_txn_begin/commit/rollback (runner.h), so
 * txn_timeout and inject apply to all of them alike. */
#ifndef RPB_PATTERN_H
#define RPB_PATTERN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "store.h"

struct rpb_job;
struct rpb_ledger;
struct rpb_runner;
struct rpb_verify_result;
struct rpb_worker;

/* Which way a sample label's payload bytes went (rpb_sample's bytes):
 * written into the store (a create, an update), read back from it (a get,
 * a scan, the harvest's response), or none (the label's samples carry no
 * payload: a delete, a rename, a snapshot). samples.jtl's sentBytes and
 * bytes columns follow it. 0 is no value,
 * so a label_dirs row left out is seen (tests/pattern_table_test.c checks
 * every registered pattern). */
enum rpb_bytes_dir {
	RPB_BYTES_SENT = 1,
	RPB_BYTES_RECEIVED,
	RPB_BYTES_NONE,
};

/* rpb_job_set's shape (workload.h), for load_foreign. */
typedef int (*rpb_job_setter)(struct rpb_job *job, const char *assignment, char *msg, size_t n);

struct rpb_pattern {
	/* ---- What the pattern is: its name, its operations' labels and what they carry ---- */
	/* Required: the name, which is also the workload file's section. */
	const char *name;
	/* Required: what label 0 is called in status lines ("creates"). */
	const char *noun;
	/* Required: sample labels; label 0 is the main operation ("create").
	 * At most RPB_MAX_LABELS. */
	const char *const *labels;
	unsigned nlabels;
	/* Required: label_dirs[l] is the direction of label l's sample bytes,
	 * one for each of the nlabels labels (the core never guesses it from a
	 * label's name). */
	const enum rpb_bytes_dir *label_dirs;
	/* Each acknowledged main operation stores one object (ingest's
	 * create): the progress line counts them beside the store's size. */
	bool stores_objects;
	/* Optional: true when the payloads are binary, not text (samples.jtl's
	 * dataType). */
	bool (*binary_payload)(const void *config);
	/* Optional: result files the pattern writes beside the core's (trace.csv),
	 * NULL-terminated; a results directory that holds one is refused. */
	const char *const *files;
	/* stdout carries the pattern's own output only (YCSB's exporter): the
	 * driver's and the core's lines for people go to stderr. */
	bool stdout_output;

	/* ---- Reading the workload: the pattern's section, its own file format and flags ---- */
	/* Options of the pattern's section: a table (options.h) whose rows'
	 * off are offsets into a struct of config_size bytes that the core
	 * allocates, fills with the defaults and hands back as job->config.
	 * Optional (NULL: a pattern without options). */
	const struct rpb_optdef *options;
	size_t config_size;
	/* Optional: checks rules across the pattern's options (and the [run]
	 * options of job, whose config this is) and resolves derived fields,
	 * once all options are set. where prefixes the message ("FILE: " or
	 * ""); returns 0, or -1 with a one-line "problem; fix". */
	int (*finish)(void *config, const struct rpb_job *job, const char *where, char *msg,
		      size_t n);
	/* Optional: the option ("run.threads") a bare key of the pattern's own
	 * vocabulary stands for ("threadcount"), or NULL; --set consults it. */
	const char *(*alias)(const char *key);
	/* Optional: reads a workload file that is not INI (no [section] line)
	 * in the pattern's own format (YCSB's properties) into job, which has
	 * chosen the pattern already; the first pattern with the hook takes such
	 * files. Options are set through set (rpb_job_set, handed in so the
	 * pattern does not call back into the workload parser); shown names the
	 * file in messages; 0, or -1 with "FILE:LINE: problem; fix". */
	int (*load_foreign)(struct rpb_job *job, FILE *f, const char *shown, rpb_job_setter set,
			    char *msg, size_t n);
	/* Optional: applies one property of the pattern's own command-line
	 * form (YCSB's -p key=value), as its source reads it: 0 when applied,
	 * 1 when the pattern has no use for it (the driver names it as
	 * ignored, as YCSB takes any property), -1 with "problem; fix". set is
	 * rpb_job_set (which returns RPB_JOB_UNKNOWN for a key no section has).
	 * NULL: -p is --set. */
	int (*property)(struct rpb_job *job, const char *key, const char *value, rpb_job_setter set,
			char *msg, size_t n);
	/* What [run] latency = auto means for this pattern under rate (its
	 * source's own rule: ycsb, YCSB's default measurement.interval = op);
	 * RPB_LAT_AUTO (0) means intended. */
	enum rpb_latency latency_auto;
	/* The store must be filled by the verb load before a run (YCSB's two
	 * phases); rpbench compare loads each store first. Needs load_phase. */
	bool loads_first;
	/* Optional: the assignment within the pattern's own section that makes
	 * a run its load phase ("phase=load"); the verb load applies it as
	 * --set <name>.<load_phase>, after the command line's. NULL: the
	 * pattern has no load phase and load refuses its workloads. */
	const char *load_phase;

	/* ---- The run: once before the workers, then per worker, per operation, per interval ---- */
	/* Optional: once, before the workers start (corpus load, preload, side
	 * files); may use its own session of the store. Shared state goes to
	 * rn->pattern_state. */
	enum rpb_status (*prepare)(struct rpb_runner *rn, struct rpb_err *err);
	/* Optional: workers beside the run's threads, with ids threads.. : a
	 * pattern's second role, such as the harvest's writers. They are not
	 * bounded by ops or paced by rate; each ends when every one of the
	 * threads has ended (or on a stop). */
	unsigned (*extra_workers)(const struct rpb_job *job);
	/* Optional: how many operations thread w of the job's threads does (YCSB
	 * splits its operation count unevenly); UINT64_MAX for no limit. [run]
	 * ops, when set, limits them further. */
	uint64_t (*thread_ops)(const struct rpb_job *job, unsigned w);
	/* Optional: per worker, before its loop: allocate everything the loop
	 * needs (w->state). */
	enum rpb_status (*worker_init)(struct rpb_worker *w, struct rpb_err *err);
	void (*worker_fini)(struct rpb_worker *w);
	/* Required. Performs main operation i of worker w (and any side
	 * operations due at i, such as probes), records every sample with
	 * rpb_sample(), sets w->op_bytes to the payload bytes written, and sets
	 * w->in_doubt when a failure happened inside commit. RPB_OK means the
	 * main operation was acknowledged (committed). The same i may be retried
	 * after a failure, so an operation must be repeatable. It must not
	 * allocate or lock. */
	enum rpb_status (*op)(struct rpb_worker *w, uint64_t i, struct rpb_err *err);
	/* Optional: the label of main operation i of worker w when a pattern's
	 * operations differ (metadata's cycle, YCSB's operation chooser); NULL
	 * means label 0. A function of the job (its options and seed), w and i
	 * alone, so it names a failed operation of the ledger at any time, also
	 * in verify. */
	unsigned (*op_label)(const struct rpb_job *job, unsigned w, uint64_t i);
	/* When a failure's policy is stop, end only the failing thread; the
	 * others go on and the run then ends as stopped by that error
	 * (tachyon-perf: a failed operation ends its thread). */
	bool error_ends_thread;
	/* Optional: bytes the pattern keeps on disk beside the backend's own
	 * files (the Fedora model's file binary store; a backend's usage counts
	 * its own files only), so store_bytes and space amplification count
	 * them. Called by the main thread while the workers run. */
	uint64_t (*extra_bytes)(struct rpb_runner *rn);
	/* Optional: prints the progress lines of each interval instead of the
	 * summariser's (YCSB's status lines); seconds since the start; final on
	 * the last call. Main thread, reads the workers' counters only. */
	void (*progress)(struct rpb_runner *rn, double seconds, bool final);

	/* ---- The results: written at the end, then the pattern's state freed ---- */
	/* Optional: adds pattern figures to result.json's "pattern" object. */
	void (*report_json)(struct rpb_runner *rn, json_t *obj);
	/* Optional: writes the body of report.txt (created by the results
	 * writer) from the result JSON just built, so both agree. */
	void (*write_report)(struct rpb_runner *rn, const json_t *result, FILE *f);
	/* Optional: once, after the results are written: frees what prepare made. */
	void (*fini)(struct rpb_runner *rn);

	/* ---- The verbs besides run: preload and verify ---- */
	/* Optional: the verb preload (docs/workloads.md, "Preload"): readies
	 * config (the job's, finished) so that the pattern's op fills the store
	 * at its fastest path, many operations per store transaction, with
	 * what a measured run of the same workload and seed leaves after
	 * objects main operations. The driver has made the run ops = (objects -
	 * before) / threads per thread, sync none, no rate, warm-up, duration, bytes,
	 * samples.jtl or txn_timeout, and syncs the store once after it.
	 * before: the operations already in the store (preload --continue,
	 * which has set the pattern's own start to it; 0 for a new store).
	 * Returns 0, or -1 with "problem; fix" (a model without a preload).
	 * NULL: preload refuses the pattern's workloads. */
	int (*preload)(void *config, const struct rpb_job *job, uint64_t objects, uint64_t before,
		       char *msg, size_t n);
	/* Optional (verify refuses a pattern without it): checks the store
	 * against the ledger of a run; fills res. Returns an error only when the
	 * check itself could not run. The job comes from result.json and has
	 * not been through finish. */
	enum rpb_status (*verify)(const struct rpb_backend *b, struct rpb_store *st,
				  const struct rpb_job *job, const struct rpb_ledger *ledger,
				  struct rpb_verify_result *res, struct rpb_err *err);
	/* optional: verify can check a live ledger read as it reached the disk
	 * after a power cut (verify.h's stale ledgers: the store may hold
	 * operations the ledger does not record, which it accepts whole as
	 * RPB_OP_UNPROVABLE). Without it verify refuses such a ledger in one
	 * line rather than count those operations' records as discrepancies. */
	bool verify_stale;
};

/* The registry (src/patterns/registry.c): the patterns built in, in the
 * order --help lists them. */
size_t rpb_pattern_count(void);
const struct rpb_pattern *rpb_pattern_at(size_t i);
/* The pattern named name, or NULL. */
const struct rpb_pattern *rpb_pattern_find(const char *name);

/* Checks a pattern table at start-up (the driver does, for every pattern
 * of the registry): required fields and hooks present, labels within
 * RPB_MAX_LABELS with a byte direction each, no field that needs another
 * without it. RPB_OK, or RPB_INVALID with "pattern NAME: what" in err. */
enum rpb_status rpb_pattern_validate(const struct rpb_pattern *p, struct rpb_err *err);

/* Whether label l's bytes come back from the store (label_dirs). */
static inline bool rpb_label_received(const struct rpb_pattern *p, unsigned l)
{
	return l < p->nlabels && p->label_dirs[l] == RPB_BYTES_RECEIVED;
}

#endif
