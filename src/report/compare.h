/* The comparison model: result directories read back (result.json), the
 * refusal of runs whose workload differs, and per column -- one backend at
 * one profile and sync (the durability matrix) -- the median, min and max
 * of each compared figure with its ratio to the best.
 * Knows no process and no output format: compare_exec.c runs the binaries,
 * report.c, report_html.c and plot.c write what this computes. */
#ifndef RPB_COMPARE_H
#define RPB_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plot_value.h"

#define RPB_CMP_MAX_RUNS 256
#define RPB_CMP_MAX_BACKENDS 16
#define RPB_CMP_PATH 4096

/* The compared figures, in table order. All come from result.json: the
 * latencies and the throughput from the main label (the first key of
 * "labels"), the bytes from "totals". */
enum rpb_cmp_metric {
	RPB_M_THROUGHPUT = 0, /* labels.<main>.throughput_per_s, higher is better */
	RPB_M_P50,            /* labels.<main>.p50_us */
	RPB_M_P99,            /* labels.<main>.p99_us */
	RPB_M_P999,           /* labels.<main>.p99.9_us */
	RPB_M_MAX,            /* labels.<main>.max_us */
	RPB_M_ALL_THROUGHPUT, /* totals.throughput_per_s: every label's samples (metadata's
			       * four operations, ingest's probes too) per second */
	RPB_M_STORE_BYTES,    /* totals.store_bytes (absent: the backend cannot tell): a
			       * server's tables without its WAL; not ranked */
	RPB_M_DISK_BYTES,     /* store_bytes + the WAL a server wrote (totals.wal_bytes); an
			       * embedded store's log is in store_bytes already. Ranked only
			       * when every run acknowledged as many objects */
	RPB_M_BYTES_PER_OBJECT, /* disk bytes / totals.acked (none when acked = 0) */
	RPB_M_SPACE_AMP,      /* disk bytes / totals.acked_bytes, on disk per payload byte
			       * (none when acked_bytes = 0) */
	RPB_M_ACKED,          /* totals.acked: acknowledged main operations */
	RPB_M_COUNT
};

struct rpb_cmp_metric_def {
	const char *key;    /* compare.json member */
	const char *title;  /* table row heading; "%s" is the main label */
	bool higher_better;
	bool ratio;         /* has a ratio to the best */
};
extern const struct rpb_cmp_metric_def rpb_cmp_metrics[RPB_M_COUNT];

/* A row of the table beyond the fixed figures: every label but the main
 * one (throughput and p99), a YCSB run's load phase (from DIR-load, where
 * compare puts it), harvest's harvests of the whole corpus. */
#define RPB_CMP_MAX_ROWS 48
struct rpb_cmp_row {
	char key[96];     /* compare.json member of backends[].rows */
	char title[128];  /* the row's heading */
	bool higher_better;
	int digits;       /* decimals in the text */
};

/* One results directory. */
struct rpb_cmp_run {
	char dir[RPB_CMP_PATH];  /* as given */
	char real[RPB_CMP_PATH]; /* its real path ("" when it has none): one run, one entry */
	char name[64];           /* compare's name for it (runs/<name>), else the backend */
	char backend[32];
	char profile[16];        /* manifest.options run.profile ("durable" when absent) */
	char sync[16];           /* run.sync as the run resolved it, else manifest.sync */
	char backend_version[128];
	bool server;             /* a server backend (manifest.server or store.dsn): its WAL
				  * is outside store_bytes */
	bool have_wal;           /* totals.wal_bytes, else backend_gauges.wal_bytes.last */
	double wal_bytes;
	char server_version[128]; /* manifest.server.server_version, "" when absent */
	char shared_buffers[32];  /* manifest.server.shared_buffers as SHOW gave it, "" when absent */
	char main_label[64];
	char stop[96];           /* stop.reason, ":class" for error and slow stops */
	int exit_code;           /* the binary's exit status; -1 when not run by compare */
	bool have_results;       /* result.json has totals and labels: the run wrote its results */
	bool completed;          /* exit 0 (or, not run here, stop reason completed/duration/bytes) */
	bool included;           /* in the tables and figures: results, or at least intervals */
	bool have_intervals;     /* intervals.csv has rows */
	size_t nintervals;       /* its rows */
	double end_s;            /* its last elapsed_s: where the figures end */
	uint64_t end_acked;      /* its last acked */
	char end_mark[128];      /* the mark at the end of a run that ended early, else "" (run_end.h) */
	double v[RPB_M_COUNT];
	bool have[RPB_M_COUNT];
	double rv[RPB_CMP_MAX_ROWS]; /* the rows of rpb_cmp.rows */
	bool rhave[RPB_CMP_MAX_ROWS];
	json_t *load_root;       /* DIR-load/result.json of a YCSB run, owned; NULL if none */
	uint64_t acked, acked_bytes;
	json_t *root;            /* result.json, owned; NULL if it could not be read */
	struct rpb_skips skips[RPB_DATA_COUNT]; /* rows no figure can use (data_skips.h) */
};

/* Median, min and max of one figure over a column's completed runs. */
struct rpb_cmp_stat {
	bool have;        /* at least one run has it */
	unsigned n;
	double median, min, max;
	bool have_ratio;  /* ratio to the top column's median */
	double ratio;     /* >= 1; 1 = the top */
	bool top;         /* the best median of the row */
	bool best;        /* the top, with two runs or more in it and in the runner-up,
			   * and a [min, max] apart from the runner-up's */
	bool noise;       /* its [min, max] overlaps the top's (the top: the runner-up's) */
};

/* A column: the runs of one backend at one profile and sync. Repeats are
 * pooled within a column, never across. */
struct rpb_cmp_backend {
	char name[32];     /* the backend */
	char profile[16];
	char sync[16];
	char label[96];    /* the column's heading: the backend, or with a durability
			    * matrix "backend / profile / sync" */
	char key[96];      /* the same for file names: backend[-profile-sync] */
	char version[128]; /* "PostgreSQL 15.18 (libpq 15.18)" for a server, else the library's */
	/* The runs its figures come from, as indexes into rpb_cmp.runs in run
	 * order: the completed ones, or when none completed, every run that
	 * left results or intervals (each marked with how it ended). */
	size_t runs[RPB_CMP_MAX_RUNS];
	size_t nruns;
	size_t nincomplete;            /* runs of this backend that did not complete */
	bool ended_early;              /* its runs did not complete: the figures are theirs */
	size_t rep;                    /* the run plotted: median throughput */
	struct rpb_cmp_stat stat[RPB_M_COUNT];
	struct rpb_cmp_stat rstat[RPB_CMP_MAX_ROWS]; /* the rows of rpb_cmp.rows */
	json_t *errors;                /* class -> count summed over the runs */
	char stops[256];               /* "completed", or "completed 2, error:disk-full 1" */
};

struct rpb_cmp {
	struct rpb_cmp_run *runs;
	size_t nruns;
	struct rpb_cmp_backend *backends;
	size_t nbackends;
	/* From the first run with a manifest (all agree once checked, but for
	 * profile and sync: matrix says whether the columns differ in them). */
	char pattern[32], main_label[64], sync[16], profile[16], workload[256];
	bool matrix;
	struct rpb_cmp_row rows[RPB_CMP_MAX_ROWS]; /* after the main label's, in order */
	size_t nrows;
	uint64_t seed;   /* manifest.seed, exact */
	bool have_seed;
	json_t *options; /* borrowed from that run's manifest */
	/* The backends a result may name (the registry of the program). */
	bool (*backend_known)(const char *name);
};

/* backend_known: the vocabulary of manifest.backend (result_check.h). */
void rpb_cmp_init(struct rpb_cmp *c, bool (*backend_known)(const char *name));
void rpb_cmp_free(struct rpb_cmp *c);

/* Reads DIR/result.json. A directory without a readable result.json, one
 * whose result.json or probe.csv fails result_check.h's rules, and a
 * directory already added (compared by real path) are errors (-1, one line
 * in msg naming it and the fix); one without totals is kept as a run
 * without results. exit_code is the binary's status, or -1 when unknown.
 * name may be NULL. */
int rpb_cmp_add(struct rpb_cmp *c, const char *dir, const char *name, int exit_code, char *msg,
		size_t n);

/* Records a run that left no result.json (it failed before writing one). */
int rpb_cmp_add_missing(struct rpb_cmp *c, const char *dir, const char *name, const char *backend,
			int exit_code, char *msg, size_t n);

/* Refuses runs that did not run the same workload: every manifest.options
 * entry must agree but run.sync and run.profile (the durability matrix's
 * axes) and run.txn_timeout where each run has its profile's default. On a
 * difference returns -1 with one line naming the two runs and each
 * differing option with both values. */
int rpb_cmp_check(const struct rpb_cmp *c, char *msg, size_t n);

/* Groups the runs by column, (backend, profile, sync) in order of first
 * appearance, builds the rows of every further label (rpb_cmp_row), and
 * computes
 * each figure's median, min, max and ratio to the best over each backend's
 * completed runs, or, for a backend none of whose runs completed, over its
 * runs that left results or intervals (a disk full, a timeout, a signal,
 * a kill): every run with intervals is shown up to its end. */
void rpb_cmp_compute(struct rpb_cmp *c);

/* The label of the column run r is in, or its backend when it is in none. */
const char *rpb_cmp_run_column(const struct rpb_cmp *c, const struct rpb_cmp_run *r);

/* A JSON number (integer or real) at a dotted path below root; false if
 * absent. Path parts are separated by '/', so "labels/create/p99.9_us". */
bool rpb_cmp_number(const json_t *root, const char *path, double *out);

/* The median of v[0..k-1], k > 0, sorting v in place: the middle value, or
 * the mean of the two middle values when k is even. */
double rpb_cmp_median(double *v, size_t k);

#endif
