/* The result files of a finished run: summary.txt and result.json, and the
 * final lines on stdout. */
#ifndef RPB_RESULTS_H
#define RPB_RESULTS_H

#include <stddef.h>

#include "hostinfo.h"
#include "quota_env.h"
#include "runner.h"
#include "verify.h"

/* Exit codes, documented in docs/results.md and --help. */
enum rpb_exit {
	RPB_EXIT_OK = 0,        /* completed: ops, duration or bytes limit reached */
	RPB_EXIT_USAGE = 1,     /* bad command line or workload file */
	RPB_EXIT_ENV = 2,       /* the store, server or results directory failed */
	RPB_EXIT_STOPPED = 3,   /* ended by a stop condition: an error or slow samples */
	RPB_EXIT_VERIFY = 4,    /* verify found a discrepancy */
	RPB_EXIT_SIGNAL = 5,    /* stopped by SIGINT/SIGTERM; results are complete */
};

/* Where the store lives, as recorded in the manifest (no password). */
struct rpb_store_where {
	const char *dir;     /* embedded backends */
	const char *dsn;     /* server backends, redacted */
	const char *name;    /* server backends: schema */
	const char *command; /* the command line, redacted */
	const char *out;     /* the results directory, absolute */
	const char *workload; /* the workload file, absolute */
	const struct rpb_quota *quota; /* NULL or no fs: not under bench/quota-run */
};

/* One line in the seed report's words: "Test ended when ...". */
void rpb_status_line(struct rpb_runner *rn, char *buf, size_t n);
enum rpb_exit rpb_exit_code(struct rpb_runner *rn);
/* Writes the result.json of a run that has begun: its manifest and status
 * "running", synced with the results directory's entry. Verify of a run
 * that died reads it with the live ledger. */
int rpb_results_begin(struct rpb_runner *rn, const struct rpb_store_where *where, char *msg,
		      size_t n);
/* Writes summary.txt and result.json; prints the final lines unless quiet.
 * Returns non-zero with msg set when a file cannot be written. */
int rpb_results_write(struct rpb_runner *rn, const struct rpb_store_where *where, char *msg,
		      size_t n);

/* Writes DIR/NAME through a temporary file, synced, renamed, the directory
 * synced: a reader never sees half a file, nor a power cut (on a file
 * system that keeps what fsync returned for). 0, or -1 with msg. */
int rpb_results_file(const char *dir, const char *name, const char *text, char *msg, size_t n);
/* Syncs the files names (NULL-terminated) in dir that exist: streamed
 * result files, once written. */
void rpb_results_sync_files(const char *dir, const char *const *names);
/* Writes DIR/report.txt (a new file) with the pattern's write_report on
 * root. 0, or -1 with msg. */
int rpb_results_report(struct rpb_runner *rn, const json_t *root, const char *dir, char *msg,
		       size_t n);
/* One label's measured latencies (after warm-up), summed over the workers,
 * with the exact min and max when nothing was excluded: what result.json's
 * labels report, for merging across ranks (dist.h). -1: out of memory. */
int rpb_label_measured_snap(struct rpb_runner *rn, unsigned l, struct rpb_hist_snap *out);
/* A label's object in result.json: counts, throughput over seconds, mean,
 * standard deviation, min, percentiles and max of s. */
json_t *rpb_hist_json(const struct rpb_hist_snap *s, uint64_t samples, uint64_t errors,
		      uint64_t bytes, double seconds);

/* A run's result.json read back for verify: the job, backend name, run
 * tag, store location and ledger. Every byte of a results directory is
 * untrusted: each field is checked for its type and range, and every count
 * of the ledger against what the run's own manifest allows (ledger_check.c)
 * before it sizes an allocation or a loop. */
struct rpb_result_file {
	json_t *root;
	struct rpb_job job;
	const char *backend;
	const char *run_tag;
	uint64_t seed;
	char *dir, *dsn, *name; /* exact bytes (jsontext.h), owned; NULL when absent */
	uint64_t start_ms, end_ms;  /* manifest start and end (0: no end, the run did not finish) */
	uint64_t now_ms;            /* when it was read: a run that did not finish ended before */
	unsigned nworkers;          /* the run's workers: threads + the pattern's extra ones */
	struct rpb_ledger ledger;
	struct rpb_ledger_worker *workers;
	struct rpb_failure *failures; /* every worker's failures, then every worker's steps */
	/* The file-system instance verify reads the results on (hostinfo.h): a
	 * live ledger written on another one is read as it reached the disk.
	 * rpb_result_read fills it; unknown (zeros) reads every ledger so. */
	struct rpb_fs_instance here;
	bool lost;                  /* refused: its files never reached the disk (a power cut) */
};
/* Reads DIR/result.json (and, for a run that did not finish, its live
 * ledger). Returns non-zero with a one-line msg naming the file and the
 * first problem. */
int rpb_result_read(struct rpb_result_file *rf, const char *result_dir, char *msg, size_t n);
/* The same from the bytes of a result.json (path names it in messages),
 * for tests and fuzzing. A result.json without a ledger leaves rf->ledger
 * empty with rf->ledger.interrupted set: the live ledger is to be read
 * (rpb_live_ledger_parse). now_ms bounds how long a run that did not
 * finish can have run. */
int rpb_result_parse(struct rpb_result_file *rf, const char *text, size_t len, const char *path,
		     uint64_t now_ms, char *msg, size_t n);
/* The store directory of an embedded run, into dir: as recorded when it is
 * absolute. An older result.json recorded the path as given, relative to
 * the run's working directory, which is result_dir less the --out the run
 * was given (manifest.command; results/NAME by default). Returns non-zero
 * with msg when that cannot be told. */
int rpb_result_store_dir(const struct rpb_result_file *rf, const char *result_dir, char *dir,
			 size_t n, char *msg, size_t mn);
void rpb_result_free(struct rpb_result_file *rf);

#endif
