/* Worker threads, stop conditions, error policy, warm-up, open-model pacing
 * and the progress reporter. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "dist.h"
#include "fsutil.h"
#include "ledger.h"
#include "runlimits.h"
#include "progress.h"
#include "runner.h"
#include "txnwatch.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

const char *rpb_stop_name(enum rpb_stop s)
{
	static const char *const names[] = {
		[RPB_STOP_NONE] = "none",         [RPB_STOP_COMPLETED] = "completed",
		[RPB_STOP_DURATION] = "duration", [RPB_STOP_BYTES] = "bytes",
		[RPB_STOP_ERROR] = "error",       [RPB_STOP_SLOW] = "slow",
		[RPB_STOP_SIGNAL] = "signal",
	};
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

bool rpb_stop_reason_known(const char *name)
{
	if (!strcmp(name, "running"))
		return true;
	for (int s = RPB_STOP_COMPLETED; s <= RPB_STOP_SIGNAL; s++)
		if (!strcmp(name, rpb_stop_name((enum rpb_stop)s)))
			return true;
	return false;
}

bool rpb_request_stop(struct rpb_runner *rn, enum rpb_stop why)
{
	int expected = RPB_STOP_NONE;
	return atomic_compare_exchange_strong(&rn->stop, &expected, (int)why);
}

static inline void bump(_Atomic uint64_t *c, uint64_t by)
{
	/* Single writer: a relaxed load and store, no locked instruction. */
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + by,
			      memory_order_relaxed);
}

static void note_error(struct rpb_worker *w, enum rpb_status st, const struct rpb_err *err)
{
	if ((unsigned)st >= RPB_STATUS_COUNT)
		st = RPB_IO;
	if (atomic_load_explicit(&w->errors[st], memory_order_relaxed) == 0 && err)
		w->first_err[st] = *err;
	bump(&w->errors[st], 1);
}

void rpb_sample(struct rpb_worker *w, unsigned l, uint64_t start, uint64_t end,
		enum rpb_status st, uint64_t bytes, const struct rpb_err *err)
{
	const struct rpb_run_opts *run = &w->rn->job->run;
	start = rpb_sample_from(w, start); /* every label alike */
	uint64_t lat = end > start ? end - start : 0;
	w->clock_ns = end;
	w->clock_fresh = true;
	struct rpb_label_stats *ls = &w->labels[l];
	rpb_hist_record(&ls->hist, lat);
	bump(&ls->samples, 1);
	bump(&ls->bytes, bytes);
	bool failed = st != RPB_OK;
	if (failed)
		note_error(w, st, err);
	if (lat > run->slow_ms * 1000000u) {
		/* The test plan's duration assertion: a slow response is a failed
		 * sample even though the operation itself succeeded. */
		bump(&w->slow, 1);
		failed = true;
		/* max_slow counts over the whole run, as the test plan's listener
		 * does: one shared counter, touched only by slow samples. */
		uint64_t slow_total = atomic_fetch_add(&w->rn->slow_total, 1) + 1;
		if (run->max_slow && slow_total >= run->max_slow &&
		    rpb_request_stop(w->rn, RPB_STOP_SLOW)) {
			w->rn->stop_worker = w->id;
			w->rn->stop_op = atomic_load_explicit(&w->issued, memory_order_relaxed) - 1;
			rpb_err_set(&w->rn->stop_err, RPB_TXN_TIMEOUT, 0, NULL,
				    "%s took %.0f ms, over slow_ms = %llu ms", w->rn->pattern->labels[l],
				    (double)lat / 1e6, (unsigned long long)run->slow_ms);
		}
	}
	if (failed)
		bump(&ls->errors, 1);
	if (w->rn->jtl)
		rpb_jtl_row(w, l, end, lat, st, failed, bytes, err);
}

static void end_warmup(struct rpb_worker *w)
{
	for (unsigned l = 0; l < w->rn->pattern->nlabels; l++) {
		rpb_hist_snapshot(&w->labels[l].hist, &w->baseline[l]);
		w->base_samples[l] = atomic_load_explicit(&w->labels[l].samples, memory_order_relaxed);
		w->base_errors[l] = atomic_load_explicit(&w->labels[l].errors, memory_order_relaxed);
		w->base_bytes[l] = atomic_load_explicit(&w->labels[l].bytes, memory_order_relaxed);
	}
	rpb_hist_snapshot(&w->lag, &w->baseline[RPB_MAX_LABELS]);
	w->t_warm = rpb_now_ns();
	w->warm = true;
}

static void record_failure(struct rpb_failure_list *l, struct rpb_failure f)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct rpb_failure *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return; /* verify then finds the ledger damaged: loud, not silent */
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = f;
}

void rpb_step_failed(struct rpb_worker *w, uint64_t op, unsigned label, enum rpb_status st,
		     bool in_doubt)
{
	struct rpb_failure f = {op, st, in_doubt, label};
	record_failure(&w->steps, f);
	if (w->rn->live && w->slot)
		rpb_live_ledger_failure(w->rn->live, w->id, &f, w->rn->pattern->labels);
}

/* Says in the message that the reaper, not the store, ended the transaction. */
static void note_reaped(struct rpb_worker *w, struct rpb_err *err)
{
	char native[sizeof err->msg], sqlstate[sizeof err->sqlstate];
	snprintf(native, sizeof native, "%s", err->msg);
	snprintf(sqlstate, sizeof sqlstate, "%s", err->sqlstate);
	rpb_err_set(err, RPB_TXN_TIMEOUT, err->native, sqlstate[0] ? sqlstate : NULL,
		    "the reaper interrupted a transaction open for %llu ms (txn_timeout = %llu ms): %s",
		    (unsigned long long)w->reaped_ms, (unsigned long long)w->rn->job->run.txn_timeout,
		    native);
}

/* Runs main operation i with the error policy; returns false to end the loop. */
static bool do_op(struct rpb_worker *w, uint64_t i)
{
	struct rpb_runner *rn = w->rn;
	const struct rpb_run_opts *run = &rn->job->run;
	struct rpb_err err;
	for (unsigned attempt = 0;; attempt++) {
		w->op_bytes = 0;
		w->in_doubt = false;
		w->was_reaped = false;
		enum rpb_status st = rn->pattern->op(w, i, &err);
		if (run->txn_timeout)
			w->was_reaped |= rpb_txn_disarm(w); /* a pattern that left it armed */
		if (st == RPB_TXN_TIMEOUT && w->was_reaped)
			note_reaped(w, &err);
		if (st == RPB_OK) {
			rpb_inject_kill(w, i, RPB_KILL_ACKED);
			bump(&w->acked, 1);
			bump(&w->acked_bytes, w->op_bytes);
			if (run->bytes) {
				uint64_t total = atomic_fetch_add(&rn->bytes_total, w->op_bytes) + w->op_bytes;
				if (total >= run->bytes)
					rpb_request_stop(rn, RPB_STOP_BYTES);
			}
			return true;
		}
		const struct rpb_policy *pol = &run->on_error[(unsigned)st < RPB_STATUS_COUNT ? st : RPB_IO];
		if (pol->action == RPB_ACT_RETRY && attempt < pol->retries &&
		    !atomic_load_explicit(&rn->stop, memory_order_relaxed)) {
			bump(&w->retries, 1);
			continue;
		}
		struct rpb_failure f = {i, st, w->in_doubt, 0};
		record_failure(&w->failures, f);
		if (rn->live && w->slot)
			rpb_live_ledger_failure(rn->live, w->id, &f, rn->pattern->labels);
		if (pol->action == RPB_ACT_CONTINUE)
			return true;
		if (rn->pattern->error_ends_thread) {
			/* Only this thread ends; rpb_run names the stop when all are done. */
			w->ended_on_error = true;
			w->end_op = i;
			w->end_err = err;
			return false;
		}
		if (rpb_request_stop(rn, RPB_STOP_ERROR)) {
			rn->stop_err = err;
			rn->stop_reaped = st == RPB_TXN_TIMEOUT && w->was_reaped;
			rn->stop_worker = w->id;
			rn->stop_op = i;
		}
		return false;
	}
}

static void *worker_main(void *arg)
{
	struct rpb_worker *w = arg;
	struct rpb_runner *rn = w->rn;
	const struct rpb_run_opts *run = &rn->job->run;
	uint64_t t0 = rn->t_start;
	uint64_t deadline = run->duration > 0 ? t0 + (uint64_t)(run->duration * 1e9) : UINT64_MAX;
	uint64_t warm_at = t0 + (uint64_t)(run->warmup.seconds * 1e9);
	/* Open model: each thread paces rate/threads, phases spread evenly. */
	bool extra = w->id >= rn->nthreads;
	double gap = run->rate > 0 && !extra ? 1e9 * (double)rn->nthreads / run->rate : 0;
	uint64_t phase = extra ? 0 : (uint64_t)(gap * w->id / rn->nthreads);

	uint64_t limit = extra ? UINT64_MAX : rpb_thread_limit(rn, w->id);
	w->t_start = rpb_now_ns();
	if (run->warmup.ops == 0 && run->warmup.seconds <= 0)
		end_warmup(w);
	for (uint64_t i = 0;; i++) {
		if (atomic_load_explicit(&rn->stop, memory_order_relaxed))
			break;
		if (!extra && i >= limit)
			break;
		if (extra && atomic_load_explicit(&rn->threads_active, memory_order_acquire) == 0)
			break;
		/* The end of the last operation's sample is the time now, near
		 * enough for the stop rules: two clock reads per operation. */
		uint64_t now = w->clock_fresh && gap == 0 ? w->clock_ns : rpb_now_ns();
		w->clock_fresh = false;
		if (now >= deadline) {
			rpb_request_stop(rn, RPB_STOP_DURATION);
			break;
		}
		if (!w->warm && i >= run->warmup.ops && now >= warm_at)
			end_warmup(w);
		if (gap > 0) {
			w->intended = t0 + phase + (uint64_t)(gap * (double)i);
			if (w->intended > now) {
				rpb_sleep_until(w->intended);
				now = rpb_now_ns();
			}
			rpb_hist_record(&w->lag, now - w->intended);
		}
		atomic_store_explicit(&w->issued, i + 1, memory_order_relaxed);
		if (w->slot)
			atomic_store_explicit(&w->slot->started, i + 1, memory_order_relaxed);
		bool go_on = do_op(w, i);
		if (w->slot)
			atomic_store_explicit(&w->slot->finished, i + 1, memory_order_release);
		if (!go_on)
			break;
	}
	w->t_end = rpb_now_ns();
	if (!w->warm)
		end_warmup(w); /* nothing measured: the baseline is the whole run */
	if (!extra)
		atomic_fetch_sub(&rn->threads_active, 1);
	atomic_fetch_sub(&rn->active, 1);
	return NULL;
}

static enum rpb_status open_sessions(struct rpb_runner *rn, struct rpb_err *err)
{
	const struct rpb_run_opts *run = &rn->job->run;
	for (unsigned t = 0; t < rn->nworkers; t++) {
		struct rpb_worker *w = &rn->workers[t];
		w->nsessions = (unsigned)run->clients;
		w->sessions = calloc(w->nsessions, sizeof *w->sessions);
		if (!w->sessions)
			return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for sessions");
		for (unsigned c = 0; c < w->nsessions; c++) {
			enum rpb_status st = rn->backend->session_open(rn->store, &w->sessions[c], err);
			if (st)
				return st;
		}
	}
	return RPB_OK;
}

static void close_sessions(struct rpb_runner *rn)
{
	for (unsigned t = 0; t < rn->nworkers; t++) {
		struct rpb_worker *w = &rn->workers[t];
		for (unsigned c = 0; w->sessions && c < w->nsessions; c++)
			rn->backend->session_close(w->sessions[c]);
		free(w->sessions);
		w->sessions = NULL;
	}
}

static enum rpb_status init_workers(struct rpb_runner *rn, struct rpb_err *err)
{
	rn->nthreads = (unsigned)rn->job->run.threads;
	rn->nworkers = rpb_job_workers(rn->job);
	rn->workers = rpb_calloc_lines(rn->nworkers, sizeof *rn->workers);
	if (!rn->workers)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for %u workers", rn->nworkers);
	for (unsigned t = 0; t < rn->nworkers; t++) {
		struct rpb_worker *w = &rn->workers[t];
		w->rn = rn;
		w->id = t;
		/* A live ledger made for fewer workers has no slot for the rest. */
		w->slot = rn->live && t < rn->live->nworkers ? &rn->live->slots[t] : NULL;
		for (unsigned l = 0; l < RPB_MAX_LABELS; l++)
			rpb_hist_init(&w->labels[l].hist);
		rpb_hist_init(&w->lag);
		w->baseline = calloc(RPB_MAX_LABELS + 1, sizeof *w->baseline);
		if (!w->baseline)
			return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for histograms");
		for (unsigned l = 0; l <= RPB_MAX_LABELS; l++)
			rpb_snap_init(&w->baseline[l]);
	}
	return RPB_OK;
}

void rpb_runner_free(struct rpb_runner *rn)
{
	if (rn->pattern && rn->pattern->fini)
		rn->pattern->fini(rn);
	for (unsigned t = 0; rn->workers && t < rn->nworkers; t++) {
		free(rn->workers[t].baseline);
		free(rn->workers[t].failures.v);
		free(rn->workers[t].steps.v);
	}
	free(rn->workers);
	rn->workers = NULL;
}

/* This rank's stop that every rank must follow: an error, a slow limit or
 * a signal (limits of ops, duration and bytes hold per rank). */
static int own_stop(struct rpb_runner *rn)
{
	int why = atomic_load(&rn->stop);
	return why == RPB_STOP_ERROR || why == RPB_STOP_SLOW || why == RPB_STOP_SIGNAL ? why : 0;
}

/* The main thread: wait for the workers, read the backend's gauges every
 * RPB_GAUGE_PERIOD_MS (here, so a slow reading never delays a worker), print
 * progress every interval, turn SIGINT/SIGTERM into a graceful stop. */
/* What this rank brings to an exchange (dist.h): its samples so far and
 * the extremes of those since its previous exchange. */
struct dist_window {
	struct rpb_hist_snap *prev, *cur, *tmp;
};

static void dist_state(struct rpb_runner *rn, struct dist_window *dw, struct rpb_dist_state *st)
{
	st->min_ns = UINT64_MAX;
	for (unsigned t = 0; t < rn->nworkers; t++) {
		for (unsigned l = 0; l < rn->pattern->nlabels; l++)
			st->errors += atomic_load_explicit(&rn->workers[t].labels[l].errors,
							   memory_order_relaxed);
	}
	st->active = atomic_load(&rn->active);
	st->workers = rn->nworkers;
	if (!dw->prev || !dw->cur || !dw->tmp)
		return;
	rpb_merge_all(rn, dw->cur, dw->tmp);
	st->count = dw->cur->count;
	st->sum_ns = dw->cur->sum;
	rpb_snap_diff(dw->tmp, dw->cur, dw->prev);
	if (dw->tmp->count) {
		st->min_ns = dw->tmp->min;
		st->max_ns = dw->tmp->max;
	}
	struct rpb_hist_snap *swap = dw->prev;
	dw->prev = dw->cur;
	dw->cur = swap;
}

/* Under sync = commit, what the store made durable at each commit the
 * ledger makes durable at each progress interval and at the end: after a
 * power cut verify checks everything acknowledged before that point. Off
 * the operations' path (the supervisor's), so a worker's ledger stays
 * plain memory stores. A checkpoint that fails (a full disk) is noted
 * once; the run goes on, and verify proves less. */
static void durable_point(struct rpb_runner *rn)
{
	if (!rn->live || rn->job->run.sync != RPB_SYNC_COMMIT)
		return;
	if (rpb_live_ledger_checkpoint(rn->live, rpb_wall_ms()) != 0 && !rn->checkpoint_failed) {
		rn->checkpoint_failed = true;
		if (!rn->quiet)
			fprintf(stderr, "rpbench: cannot make the live ledger durable in %s: %s; verify "
				"after a power cut proves only what reached the disk\n", rn->out_dir,
				strerror(errno));
	}
}

static void supervise(struct rpb_runner *rn, struct rpb_progress *pg)
{
	struct dist_window dw = {0};
	if (rpb_dist_on()) {
		dw.prev = malloc(sizeof *dw.prev);
		dw.cur = malloc(sizeof *dw.cur);
		dw.tmp = malloc(sizeof *dw.tmp);
		if (dw.prev)
			rpb_snap_init(dw.prev);
	}
	const uint64_t gauge_step = RPB_GAUGE_PERIOD_MS * 1000000ull;
	uint64_t step = (uint64_t)(rn->job->run.interval * 1e9);
	/* The first line after one second (or the interval if shorter), then
	 * every interval from the start; a pattern's own lines (YCSB's status
	 * lines) every interval, after the one rpb_run printed at the start. */
	uint64_t next = rn->t_start + (rn->pattern->progress || step < 1000000000u ? step : 1000000000u);
	uint64_t next_gauge = rn->backend->gauges ? rn->t_start + gauge_step : UINT64_MAX;
	for (;;) {
		/* Under mpirun every rank's supervisor trades its state with the
		 * others' at each pass: a stop by an error, a slow limit or a
		 * signal on one rank stops all, and all leave together. */
		int peer_stop, stopper;
		bool all_done, done = atomic_load(&rn->active) == 0;
		struct rpb_dist_state mine = {0};
		if (rpb_dist_sync_idle())
			dist_state(rn, &dw, &mine);
		if (rpb_dist_sync(own_stop(rn), done, &mine, &peer_stop, &stopper, &all_done)) {
			if (peer_stop && rpb_request_stop(rn, (enum rpb_stop)peer_stop)) {
				rn->stop_by_peer = true;
				rpb_err_set(&rn->stop_err, RPB_OK, 0, NULL,
					    "rank %d stopped the run (%s); this rank stopped with it",
					    stopper, rpb_stop_name((enum rpb_stop)peer_stop));
			}
			if (all_done)
				break;
		}
		uint64_t now = rpb_now_ns();
		uint64_t wake = now + 50000000u; /* 50 ms: signal and end latency */
		if (next < wake)
			wake = next;
		if (next_gauge < wake)
			wake = next_gauge;
		rpb_sleep_until(wake);
		if (got_signal && rpb_request_stop(rn, RPB_STOP_SIGNAL))
			rpb_err_set(&rn->stop_err, RPB_OK, got_signal, NULL, "stopped by %s",
				    got_signal == SIGINT ? "SIGINT" : "SIGTERM");
		if (rpb_now_ns() >= next_gauge) {
			rpb_gauges_sample(rn);
			/* A reading slower than the period skips slots, never piles up. */
			next_gauge += gauge_step;
			now = rpb_now_ns();
			if (next_gauge <= now)
				next_gauge = now + gauge_step;
		}
		if (rpb_now_ns() >= next) {
			rpb_progress_tick(pg, rn, false);
			durable_point(rn);
			next = next < rn->t_start + step ? rn->t_start + step : next + step;
		}
	}
	free(dw.prev);
	free(dw.cur);
	free(dw.tmp);
}

/* error_ends_thread: once every thread is done, the thread that failed
 * first names the run's stop. A duration or bytes limit the others reached
 * meanwhile does not hide the failure; a signal or max_slow stop stays. */
static void stop_on_thread_errors(struct rpb_runner *rn)
{
	struct rpb_worker *first = NULL;
	for (unsigned t = 0; t < rn->nworkers; t++) {
		struct rpb_worker *w = &rn->workers[t];
		if (w->ended_on_error && (!first || w->t_end < first->t_end))
			first = w;
	}
	int why = atomic_load(&rn->stop);
	if (!first || (why != RPB_STOP_NONE && why != RPB_STOP_DURATION && why != RPB_STOP_BYTES))
		return;
	atomic_store(&rn->stop, RPB_STOP_ERROR);
	rn->stop_err = first->end_err;
	rn->stop_reaped = first->end_err.status == RPB_TXN_TIMEOUT && first->was_reaped;
	rn->stop_worker = first->id;
	rn->stop_op = first->end_op;
}

enum rpb_status rpb_run(struct rpb_runner *rn, struct rpb_err *err)
{
	rpb_clock_init(); /* before any thread that reads the clock */
	const struct rpb_pattern *pat = rn->pattern;
	rn->latency = rn->job->run.latency != RPB_LAT_AUTO ? rn->job->run.latency
		      : pat->latency_auto != RPB_LAT_AUTO  ? pat->latency_auto
							   : RPB_LAT_INTENDED;
	rpb_gauges_init(&rn->gauges);
	enum rpb_status st = init_workers(rn, err);
	if (!st)
		st = open_sessions(rn, err);
	for (unsigned t = 0; !st && pat->worker_init && t < rn->nworkers; t++)
		st = pat->worker_init(&rn->workers[t], err);
	if (!st && pat->prepare)
		st = pat->prepare(rn, err);
	if (!st)
		st = rpb_injector_start(rn, err);
	/* Before the first operation, whatever the sync setting: the ledger's
	 * header and empty slots, and the pattern's own live files, on the
	 * disk, so a power cut at any moment leaves a ledger verify can read. */
	if (!st && rn->live && rpb_live_ledger_checkpoint(rn->live, 0) != 0)
		st = rpb_err_set(err, rpb_errno_class(errno), errno, NULL,
				 "cannot sync the live ledger in %s: %s; check the results directory "
				 "(--out)", rn->out_dir, strerror(errno));
	struct rpb_reaper reaper;
	if (!st)
		st = rpb_reaper_start(&reaper, rn, err);
	/* Under mpirun: every rank has opened its store and sessions. */
	if (!rpb_dist_agree(!st) && !st) {
		rpb_reaper_stop(&reaper);
		st = rpb_err_set(err, RPB_INVALID, 0, NULL, "another rank could not start (its own "
				 "message says why), so no rank ran");
	}
	if (st) {
		rpb_injector_stop(rn);
		for (unsigned t = 0; pat->worker_fini && rn->workers && t < rn->nworkers; t++)
			pat->worker_fini(&rn->workers[t]);
		close_sessions(rn);
		return st;
	}

	struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	got_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	/* Workers block the signals so the supervisor is the one woken. */
	sigset_t block, prev;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &prev);

	/* One reading before the start: the store's state before the first
	 * operation, and the gauges' names for intervals.csv's header. */
	rpb_gauges_sample(rn);
	struct rpb_progress pg;
	rpb_progress_init(&pg, rn);
	pthread_t *th = calloc(rn->nworkers, sizeof *th);
	if (!th) {
		pthread_sigmask(SIG_SETMASK, &prev, NULL);
		rpb_reaper_stop(&reaper);
		rpb_injector_stop(rn);
		close_sessions(rn);
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for threads");
	}
	rpb_dist_agree(true); /* the ranks start together */
	rn->wall_start_ms = rpb_wall_ms();
	rn->t_start = rpb_now_ns();
	atomic_store(&rn->active, rn->nworkers);
	atomic_store(&rn->threads_active, rn->nthreads);
	/* A pattern's own lines begin before the first operation, as YCSB's
	 * status thread starts before its clients. */
	if (pat->progress && !rn->quiet)
		pat->progress(rn, 0.0, false);
	unsigned started = 0;
	for (; started < rn->nworkers; started++) {
		int rc = pthread_create(&th[started], NULL, worker_main, &rn->workers[started]);
		if (rc) {
			rpb_err_set(err, RPB_NOMEM, rc, NULL, "cannot start worker thread: %s", strerror(rc));
			if (rpb_request_stop(rn, RPB_STOP_ERROR))
				rn->stop_err = *err;
			atomic_fetch_sub(&rn->active, rn->nworkers - started);
			if (started < rn->nthreads)
				atomic_fetch_sub(&rn->threads_active, rn->nthreads - started);
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &prev, NULL);
	supervise(rn, &pg);
	for (unsigned t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	free(th);
	rpb_reaper_stop(&reaper);
	rpb_injector_stop(rn);
	rn->t_end = rpb_now_ns();
	rn->wall_end_ms = rpb_wall_ms();
	/* The run ended with its last worker, not when the supervisor next
	 * woke (up to 50 ms later: a run of 0.4 s would lose a tenth of its
	 * throughput to it) nor, under mpirun, when the other ranks were done
	 * too (supervise waits for them). */
	uint64_t last = rn->t_start;
	for (unsigned t = 0; t < started; t++)
		if (rn->workers[t].t_end > last)
			last = rn->workers[t].t_end;
	rn->wall_end_ms -= (rn->t_end - last) / 1000000u;
	rn->t_end = last;
	/* The lag the writes left behind when they stopped (after t_end, so a
	 * slow reading does not lengthen the measured run). */
	rpb_gauges_sample(rn);
	if (got_signal && rpb_request_stop(rn, RPB_STOP_SIGNAL))
		rpb_err_set(&rn->stop_err, RPB_OK, got_signal, NULL, "stopped by %s",
			    got_signal == SIGINT ? "SIGINT" : "SIGTERM");
	stop_on_thread_errors(rn);
	rpb_request_stop(rn, RPB_STOP_COMPLETED);
	durable_point(rn); /* every operation's outcome is known now */
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);

	rpb_progress_tick(&pg, rn, true);
	rpb_progress_fini(&pg);
	for (unsigned t = 0; pat->worker_fini && t < rn->nworkers; t++)
		pat->worker_fini(&rn->workers[t]);
	close_sessions(rn);
	return RPB_OK;
}
