/* The runner: worker threads, sessions, stop conditions, error policy,
 * warm-up, open-model rate, progress lines, and the per-thread measurements
 * merged once at the end. Shared by every pattern; knows no backend beyond
 * the store interface.
 *
 * Hot-loop rule: a worker touches only its own struct rpb_worker (no locks,
 * no allocation); the progress reporter reads the workers' relaxed atomics. */
#ifndef RPB_RUNNER_H
#define RPB_RUNNER_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gauges.h"
#include "hostinfo.h"
#include "hist.h"
#include "pattern.h"
#include "store.h"
#include "workload.h"

#define RPB_MAX_LABELS 12

struct rpb_runner;
struct rpb_worker;
struct rpb_ledger;
struct rpb_verify_result;
struct rpb_ledger_slot;
struct rpb_live_ledger;
struct rpb_injector;

/* Why a run ended. */
enum rpb_stop {
	RPB_STOP_NONE = 0,
	RPB_STOP_COMPLETED, /* every thread did its ops */
	RPB_STOP_DURATION,  /* the duration limit */
	RPB_STOP_BYTES,     /* the bytes limit */
	RPB_STOP_ERROR,     /* an error whose policy is stop (or retries ran out) */
	RPB_STOP_SLOW,      /* max_slow samples slower than slow_ms */
	RPB_STOP_SIGNAL,    /* SIGINT or SIGTERM */
};
const char *rpb_stop_name(enum rpb_stop s);
/* Whether name is a stop.reason a result.json may hold: a stop name other
 * than none, or "running" (written before the first operation). */
bool rpb_stop_reason_known(const char *name);

/* One record per failed main operation, or per failed side step of an
 * operation (label > 0: a probe step of ingest), for verify. */
struct rpb_failure {
	uint64_t op;            /* the worker's operation index */
	enum rpb_status status;
	bool in_doubt;          /* failed inside commit: outcome unknown */
	unsigned label;         /* 0: the main operation; else the failed step's label */
};

/* A list of failures, grown on the error path only. */
struct rpb_failure_list {
	struct rpb_failure *v;
	size_t n, cap;
};

/* A worker's open transaction as the reaper sees it (txn_timeout). The
 * worker arms it in rpb_txn_begin and disarms it when the transaction ends;
 * the reaper moves ARMED past its deadline to REAPING, interrupts the
 * session, then marks it REAPED. A worker that finds REAPING when it
 * disarms waits for REAPED, so an interrupt never hits a later transaction. */
enum rpb_watch_state { RPB_WATCH_IDLE = 0, RPB_WATCH_ARMED, RPB_WATCH_REAPING, RPB_WATCH_REAPED };
struct rpb_txn_watch {
	/* generation << 2 | state: every arm starts a new generation, so the
	 * reaper's compare-and-swap can never act on a later transaction. */
	_Atomic uint64_t word;
	_Atomic uint64_t deadline;            /* monotonic ns */
	struct rpb_session *_Atomic session;
	uint64_t begun;                       /* when the transaction began (ns) */
	/* profile = fedora-4.5: the watch covers a whole request (its JTA
	 * transaction), not one store transaction; once the request writes
	 * its documents it is committing, and Narayana's reaper only logs a
	 * committing transaction that timed out, it aborts an active one. */
	_Atomic bool committing;
	_Atomic bool logged;                  /* the reaper reported it once */
	uint64_t op;                          /* the request's operation, for the log */
};

/* Measurements of one label in one worker (written by that worker only). */
struct rpb_label_stats {
	struct rpb_hist hist;      /* latency of measured samples (after warm-up) */
	_Atomic uint64_t samples;  /* every sample, warm-up included */
	_Atomic uint64_t errors;   /* failed samples, slow ones included */
	_Atomic uint64_t bytes;
};

struct rpb_worker {
	/* Each worker on its own cache lines (rpb_calloc_lines): the loop
	 * writes its fields on every operation. */
	_Alignas(64) struct rpb_runner *rn;
	unsigned id;                   /* 0-based thread index */
	struct rpb_session **sessions; /* job->run.clients of them */
	unsigned nsessions;
	unsigned next_client;          /* round-robin cursor */
	void *state;                   /* the pattern's per-worker state */

	/* Set by the pattern's op. */
	uint64_t op_bytes;
	bool in_doubt;

	/* Measurements. */
	struct rpb_label_stats labels[RPB_MAX_LABELS];
	_Atomic uint64_t acked;        /* main operations acknowledged */
	_Atomic uint64_t acked_bytes;  /* their op_bytes: the payload they stored */
	_Atomic uint64_t issued;       /* main operations started (retries once) */
	_Atomic uint64_t errors[RPB_STATUS_COUNT]; /* failed samples per class */
	_Atomic uint64_t retries;
	_Atomic uint64_t slow;
	struct rpb_hist lag;           /* open model: actual - intended start */
	struct rpb_err first_err[RPB_STATUS_COUNT]; /* first native message per class */
	bool warm;                     /* past the warm-up */
	/* At the end of the warm-up the worker snapshots its labels here; the
	 * measured statistics are the final state minus this baseline. */
	struct rpb_hist_snap *baseline; /* RPB_MAX_LABELS + 1 (lag last) */
	uint64_t base_samples[RPB_MAX_LABELS], base_errors[RPB_MAX_LABELS],
		base_bytes[RPB_MAX_LABELS];
	bool done;                     /* left its loop */
	bool ended_on_error;           /* error_ends_thread: a failure ended it */
	uint64_t end_op;               /* ... at this operation */
	struct rpb_err end_err;        /* ... with this error */
	uint64_t t_start, t_end;       /* the worker's own active time (ns) */
	uint64_t t_warm;               /* when its warm-up ended (ns) */
	uint64_t intended;             /* open model: this op's intended start */
	uint64_t clock_ns;             /* the end of the last sample ... */
	bool clock_fresh;              /* ... taken since the loop last read the clock */

	struct rpb_failure_list failures; /* failed main operations (error path only) */
	struct rpb_failure_list steps;    /* failed side steps (rpb_step_failed) */

	struct rpb_ledger_slot *slot;  /* the live ledger's slot, or NULL */
	struct rpb_txn_watch watch;
	_Atomic uint64_t reaped;       /* transactions the reaper interrupted (reaper writes) */
	_Atomic uint64_t late;         /* commits that succeeded past their deadline */
	/* inject = leak: the session of the transaction this worker abandoned,
	 * left open for the reaper, which rolls it back at leak_deadline and
	 * closes the session (leak_state: the worker sets OPEN, the reaper
	 * DONE). */
	struct rpb_session *leaked;
	uint64_t leak_begun, leak_deadline, leak_op;
	_Atomic int leak_state;
	bool was_reaped;               /* the last transaction was interrupted by the reaper */
	uint64_t reaped_ms;            /* how long that transaction had been open */
};

struct rpb_runner {
	const struct rpb_backend *backend;
	struct rpb_store *store;
	const struct rpb_job *job;
	const struct rpb_pattern *pattern;
	char run_tag[16];              /* names this run's keys in the store */
	const char *out_dir;           /* results directory */
	const char *store_dir;         /* the store's directory; NULL for a server's store */
	const char *store_id;          /* names the store in the marks of directories it owns:
					* its directory, or its schema and server */
	bool quiet;                    /* no progress lines on stdout */
	bool summary_only;             /* quiet, but the final summariser line (--quiet) */
	FILE *say;                     /* lines for people: stdout, or stderr when the
					* pattern's own output is stdout's (NULL: stdout) */

	struct rpb_worker *workers;
	unsigned nworkers;             /* nthreads, then the pattern's extra workers */
	unsigned nthreads;             /* job->run.threads */
	_Atomic unsigned threads_active; /* of the nthreads: extra workers end at 0 */

	_Atomic int stop;              /* enum rpb_stop; first reason wins */
	_Atomic uint64_t bytes_total;
	_Atomic uint64_t slow_total;   /* samples slower than slow_ms, all threads */
	struct rpb_err stop_err;       /* the error that stopped the run */
	unsigned stop_worker;
	uint64_t stop_op;
	_Atomic unsigned active;

	uint64_t t_start, t_end;       /* monotonic ns */
	uint64_t wall_start_ms, wall_end_ms;
	uint64_t objects_at_start;     /* informational */
	FILE *jtl;                     /* samples.jtl or NULL */
	const char *jtl_host;          /* several ranks: samples.jtl's Hostname, else NULL */
	uint64_t jtl_rows, jtl_zero_ms; /* samples.jtl's rows, those of 0 ms (under jtl's lock) */
	unsigned rank;                 /* this load node's MPI rank (0 standalone) */
	void *pattern_state;           /* shared pattern state from prepare */
	struct rpb_live_ledger *live;  /* acknowledgements on disk while running, or NULL */
	bool checkpoint_failed;        /* a durable point of the live ledger failed (noted once) */
	struct rpb_injector *injector; /* inject = lock: the session that holds locks */
	bool stop_reaped;              /* the stopping error came from the reaper */
	bool stop_by_peer;             /* another rank's stop ended this one (dist.h) */
	struct rpb_gauge_stats gauges; /* the backend's gauges (main thread only) */
	struct rpb_rss_peak rss_peak;  /* with each gauge reading (main thread only) */
	enum rpb_latency latency;      /* [run] latency resolved (never auto), by rpb_run */
};

/* Records one sample of label l on worker w, timed from start to end (ns,
 * monotonic). Under rate (the open model) with latency = intended or both,
 * the latency of every sample, whatever its label, counts from its
 * operation's intended start instead (rpb_sample_from): a later step of the
 * operation (YCSB's UPDATE within a READ-MODIFY-WRITE, an ingest probe)
 * includes the earlier ones, as YCSB measures them. A failed sample
 * (st != RPB_OK) counts as an error of its class; a sample slower than
 * slow_ms counts as an error too. */
void rpb_sample(struct rpb_worker *w, unsigned l, uint64_t start, uint64_t end,
		enum rpb_status st, uint64_t bytes, const struct rpb_err *err);

/* Where the latency of a sample that started at start counts from: the
 * operation's intended start under rate unless latency = op, else start. */
static inline uint64_t rpb_sample_from(const struct rpb_worker *w, uint64_t start)
{
	return w->intended && w->rn->latency != RPB_LAT_OP ? w->intended : start;
}

/* The operation's intended start under rate (YCSB's intended start time),
 * else start: what latency = intended measures from, whatever latency says. */
static inline uint64_t rpb_intended_start(const struct rpb_worker *w, uint64_t start)
{
	return w->intended ? w->intended : start;
}

/* Records that side step label (> 0) of operation op failed with st (in
 * doubt when it failed inside commit): a pattern calls it for steps whose
 * failure the runner's policy never sees (ingest's probes), so the ledger
 * says what they may have left behind. Error path only: it may allocate. */
void rpb_step_failed(struct rpb_worker *w, uint64_t op, unsigned label, enum rpb_status st,
		     bool in_doubt);

/* The session for the next operation (round-robin over the clients). */
static inline struct rpb_session *rpb_next_session(struct rpb_worker *w)
{
	struct rpb_session *s = w->sessions[w->next_client];
	if (++w->next_client == w->nsessions)
		w->next_client = 0;
	return s;
}

/* Transactions of a pattern's operations go through these so txn_timeout
 * applies: begin arms the worker's deadline, commit and rollback disarm it.
 * A commit that succeeds after the reaper fired is counted as late. */
enum rpb_status rpb_txn_begin(struct rpb_worker *w, struct rpb_session *s,
			      enum rpb_txn_mode mode, struct rpb_err *err);
enum rpb_status rpb_txn_commit(struct rpb_worker *w, struct rpb_session *s, struct rpb_err *err);
void rpb_txn_rollback(struct rpb_worker *w, struct rpb_session *s);
/* Ends the transaction as st says: commits after RPB_OK, else rolls back;
 * returns st or the commit's outcome. */
enum rpb_status rpb_txn_finish(struct rpb_worker *w, struct rpb_session *s, enum rpb_status st,
			       struct rpb_err *err);

/* profile = fedora-4.5: the request's transaction, as Narayana sees it.
 * begin arms the worker's watch for the whole request (the store
 * transactions inside it use the backend directly and check
 * rpb_txn_reaped between them); committing marks the point after which the
 * reaper only logs; end disarms it and returns true when the reaper had
 * aborted it. */
void rpb_request_begin(struct rpb_worker *w, struct rpb_session *s, uint64_t op);
bool rpb_request_committing(struct rpb_worker *w); /* false: the reaper aborted it */
bool rpb_request_end(struct rpb_worker *w);
/* True once the reaper has interrupted w's open transaction (or request). */
bool rpb_txn_reaped(struct rpb_worker *w);

/* inject = leak: w abandons the transaction open on s (its writes made,
 * neither committed nor rolled back), as a request whose thread went
 * away: the session, with it, goes to the reaper, which logs and rolls it
 * back at its txn_timeout; a new session takes its place among w's. Fails
 * (s rolled back, nothing left open) only when the new session cannot be
 * opened. */
enum rpb_leak_state { RPB_LEAK_NONE = 0, RPB_LEAK_OPEN, RPB_LEAK_DONE };
enum rpb_status rpb_txn_abandon(struct rpb_worker *w, struct rpb_session *s, uint64_t op,
				struct rpb_err *err);
/* Waits until the transaction worker `owner` abandoned is rolled back (or
 * the run stops): what a request that needs its locks does. */
void rpb_leak_wait(struct rpb_worker *w, unsigned owner);

/* The inject option's fault point, called by a pattern for main operation i.
 * Before its transaction (before_begin = true) a lock fault makes another
 * session hold a conflicting write of key in table; inside the transaction
 * (before_begin = false) a stall fault sleeps. Does nothing on other ops. */
void rpb_inject_point(struct rpb_worker *w, uint64_t i, bool before_begin, enum rpb_table table,
		      rpb_slice key);

/* inject = partial: K when operation i is to fail after K of its documents
 * are written, else 0. */
uint64_t rpb_inject_partial(const struct rpb_worker *w, uint64_t i);

/* inject = leak@N: true for main operation N - 1 (the N-th) of each worker. */
bool rpb_inject_leak(const struct rpb_worker *w, uint64_t i);

/* inject = kill: kills the process (SIGKILL, as kill -9 does) when main
 * operation i of any worker reaches point p and it is the every-th. */
void rpb_inject_kill(struct rpb_worker *w, uint64_t i, enum rpb_kill_point p);

/* Requests a stop; the first reason is kept. Returns true if this call set it. */
bool rpb_request_stop(struct rpb_runner *rn, enum rpb_stop why);

/* Runs the pattern: opens the sessions, starts the workers, prints progress,
 * waits, closes the sessions. Errors before the start (sessions, prepare) are
 * returned; failures during the run end it with a stop reason instead. */
enum rpb_status rpb_run(struct rpb_runner *rn, struct rpb_err *err);
/* Frees what rpb_run allocated for the workers (after results are written). */
void rpb_runner_free(struct rpb_runner *rn);

#endif
