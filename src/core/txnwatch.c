/* txn_timeout: the transaction watch of each worker and the reaper thread
 * that interrupts transactions past their deadline, as an application
 * server's transaction reaper does (the Fedora seed run on LevelDB ended on
 * one after 5.7 hours). */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "txnwatch.h"

#define WATCH_STATE(word) ((int)((word) & 3u))
#define WATCH_GEN(word) ((word) >> 2)
#define WATCH_WORD(gen, state) ((gen) << 2 | (uint64_t)(state))

static void arm(struct rpb_worker *w, struct rpb_session *s)
{
	struct rpb_txn_watch *wa = &w->watch;
	uint64_t gen = WATCH_GEN(atomic_load_explicit(&wa->word, memory_order_relaxed)) + 1;
	wa->begun = rpb_now_ns();
	atomic_store_explicit(&wa->committing, false, memory_order_relaxed);
	atomic_store_explicit(&wa->logged, false, memory_order_relaxed);
	atomic_store_explicit(&wa->session, s, memory_order_relaxed);
	atomic_store_explicit(&wa->deadline, wa->begun + w->rn->job->run.txn_timeout * 1000000u,
			      memory_order_relaxed);
	/* Release: the reaper that sees ARMED sees this session and deadline. */
	atomic_store_explicit(&wa->word, WATCH_WORD(gen, RPB_WATCH_ARMED), memory_order_release);
}

bool rpb_txn_disarm(struct rpb_worker *w)
{
	struct rpb_txn_watch *wa = &w->watch;
	uint64_t word = atomic_load_explicit(&wa->word, memory_order_acquire);
	uint64_t gen = WATCH_GEN(word);
	if (WATCH_STATE(word) == RPB_WATCH_IDLE)
		return false;
	if (WATCH_STATE(word) == RPB_WATCH_ARMED &&
	    atomic_compare_exchange_strong(&wa->word, &word, WATCH_WORD(gen, RPB_WATCH_IDLE)))
		return false;
	/* The reaper got there first: wait until its interrupt call is over
	 * (microseconds; the error path only). */
	while (WATCH_STATE(atomic_load(&wa->word)) == RPB_WATCH_REAPING)
		sched_yield();
	w->reaped_ms = (rpb_now_ns() - wa->begun) / 1000000u;
	atomic_store(&wa->word, WATCH_WORD(gen, RPB_WATCH_IDLE));
	return true;
}

bool rpb_txn_reaped(struct rpb_worker *w)
{
	return WATCH_STATE(atomic_load_explicit(&w->watch.word, memory_order_acquire)) ==
	       RPB_WATCH_REAPED;
}

enum rpb_status rpb_txn_begin(struct rpb_worker *w, struct rpb_session *s,
			      enum rpb_txn_mode mode, struct rpb_err *err)
{
	bool watched = w->rn->job->run.txn_timeout > 0;
	if (watched)
		arm(w, s);
	enum rpb_status st = w->rn->backend->begin(s, mode, err);
	if (st && watched)
		w->was_reaped |= rpb_txn_disarm(w);
	return st;
}

enum rpb_status rpb_txn_commit(struct rpb_worker *w, struct rpb_session *s, struct rpb_err *err)
{
	enum rpb_status st = w->rn->backend->commit(s, err);
	if (w->rn->job->run.txn_timeout > 0 && rpb_txn_disarm(w)) {
		w->was_reaped = true;
		/* Past its deadline, yet the store could not stop it: counted,
		 * not hidden. */
		if (st == RPB_OK)
			atomic_store_explicit(&w->late, atomic_load_explicit(&w->late, memory_order_relaxed) + 1,
					      memory_order_relaxed);
	}
	return st;
}

void rpb_txn_rollback(struct rpb_worker *w, struct rpb_session *s)
{
	w->rn->backend->rollback(s);
	if (w->rn->job->run.txn_timeout > 0)
		w->was_reaped |= rpb_txn_disarm(w);
}

enum rpb_status rpb_txn_finish(struct rpb_worker *w, struct rpb_session *s, enum rpb_status st,
			       struct rpb_err *err)
{
	if (st == RPB_OK)
		return rpb_txn_commit(w, s, err);
	rpb_txn_rollback(w, s);
	return st;
}

/* ---- a request's transaction (profile = fedora-4.5) ---- */

void rpb_request_begin(struct rpb_worker *w, struct rpb_session *s, uint64_t op)
{
	w->watch.op = op;
	if (w->rn->job->run.txn_timeout > 0)
		arm(w, s);
}

bool rpb_request_committing(struct rpb_worker *w)
{
	struct rpb_txn_watch *wa = &w->watch;
	atomic_store(&wa->committing, true);
	if (w->rn->job->run.txn_timeout == 0)
		return true;
	uint64_t word;
	while (WATCH_STATE(word = atomic_load(&wa->word)) == RPB_WATCH_REAPING)
		sched_yield();
	return WATCH_STATE(word) != RPB_WATCH_REAPED;
}

bool rpb_request_end(struct rpb_worker *w)
{
	if (w->rn->job->run.txn_timeout == 0)
		return false;
	bool reaped = rpb_txn_disarm(w);
	w->was_reaped |= reaped;
	return reaped;
}

/* ---- inject = leak: a transaction its request abandoned ---- */

enum rpb_status rpb_txn_abandon(struct rpb_worker *w, struct rpb_session *s, uint64_t op,
				struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	struct rpb_session *fresh = NULL;
	enum rpb_status st = rn->backend->session_open(rn->store, &fresh, err);
	uint64_t begun = w->watch.begun;
	/* The worker's watch lets go of it: from here the leak's own record
	 * is the reaper's to act on (a watch the reaper already fired on has
	 * interrupted it; the reaper's rollback below ends it all the same). */
	w->was_reaped |= rpb_txn_disarm(w);
	if (st) {
		rn->backend->rollback(s); /* nothing stays open that no one watches */
		return st;
	}
	for (unsigned c = 0; c < w->nsessions; c++)
		if (w->sessions[c] == s)
			w->sessions[c] = fresh;
	w->leaked = s;
	w->leak_op = op;
	w->leak_begun = begun;
	w->leak_deadline = begun + rn->job->run.txn_timeout * 1000000u;
	atomic_store_explicit(&w->leak_state, RPB_LEAK_OPEN, memory_order_release);
	return RPB_OK;
}

void rpb_leak_wait(struct rpb_worker *w, unsigned owner)
{
	struct rpb_runner *rn = w->rn;
	struct rpb_worker *o = &rn->workers[owner];
	while (atomic_load_explicit(&o->leak_state, memory_order_acquire) == RPB_LEAK_OPEN &&
	       !atomic_load_explicit(&rn->stop, memory_order_relaxed))
		rpb_sleep_until(rpb_now_ns() + 1000000u);
}

/* Rolls back and closes an abandoned transaction's session: the session is
 * the reaper's alone now, no thread runs a statement on it, so the store
 * interface's rollback ends it (an interrupt would find nothing to stop). */
static void end_leak(struct rpb_runner *rn, struct rpb_worker *w)
{
	rn->backend->rollback(w->leaked);
	rn->backend->session_close(w->leaked);
	w->leaked = NULL;
	atomic_store_explicit(&w->leak_state, RPB_LEAK_DONE, memory_order_release);
}

/* ---- the reaper ---- */

/* Narayana's TransactionReaper.check logs every transaction it finds past
 * its timeout, with the reaper element's state: RUN on first detection. */
static void log_timeout(struct rpb_runner *rn, struct rpb_worker *w, bool committing)
{
	struct rpb_txn_watch *wa = &w->watch;
	if (atomic_exchange(&wa->logged, true))
		return;
	fprintf(stderr,
		"reaper: timeout for the transaction of operation %llu of thread %u in state RUN "
		"(open %llu ms, txn_timeout = %llu ms): %s\n",
		(unsigned long long)wa->op, w->id,
		(unsigned long long)((rpb_now_ns() - wa->begun) / 1000000u),
		(unsigned long long)rn->job->run.txn_timeout,
		committing ? "it is committing, so it is left to finish" : "it is active: aborting it");
}

static void reap_due(struct rpb_runner *rn, uint64_t now)
{
	for (unsigned t = 0; t < rn->nworkers; t++) {
		struct rpb_worker *w = &rn->workers[t];
		if (atomic_load_explicit(&w->leak_state, memory_order_acquire) == RPB_LEAK_OPEN &&
		    now >= w->leak_deadline) {
			/* No one is committing it: Narayana's reaper cancels it. */
			fprintf(stderr,
				"reaper: timeout for the transaction of operation %llu of thread %u in "
				"state RUN (open %llu ms, txn_timeout = %llu ms): abandoned by its "
				"request (inject = leak), it is active: aborting it\n",
				(unsigned long long)w->leak_op, w->id,
				(unsigned long long)((now - w->leak_begun) / 1000000u),
				(unsigned long long)rn->job->run.txn_timeout);
			end_leak(rn, w);
			atomic_store_explicit(&w->reaped,
					      atomic_load_explicit(&w->reaped, memory_order_relaxed) + 1,
					      memory_order_relaxed);
		}
		struct rpb_txn_watch *wa = &w->watch;
		uint64_t word = atomic_load_explicit(&wa->word, memory_order_acquire);
		if (WATCH_STATE(word) != RPB_WATCH_ARMED ||
		    now < atomic_load_explicit(&wa->deadline, memory_order_relaxed))
			continue;
		/* Fails if the transaction ended or a new one began meanwhile. */
		if (!atomic_compare_exchange_strong(&wa->word, &word,
						    WATCH_WORD(WATCH_GEN(word), RPB_WATCH_REAPING)))
			continue;
		if (rn->job->run.profile == RPB_PROFILE_FEDORA45) {
			/* Only a transaction still running is cancelled (ReaperElement,
			 * _control.running()); a committing one is logged. Read after
			 * the swap: a request that marks itself committing then waits
			 * out REAPING (rpb_request_committing). */
			bool committing = atomic_load(&wa->committing);
			log_timeout(rn, w, committing);
			if (committing) {
				atomic_store(&wa->word, WATCH_WORD(WATCH_GEN(word), RPB_WATCH_ARMED));
				continue;
			}
		}
		rn->backend->interrupt(atomic_load_explicit(&wa->session, memory_order_relaxed));
		atomic_store_explicit(&w->reaped, atomic_load_explicit(&w->reaped, memory_order_relaxed) + 1,
				      memory_order_relaxed);
		atomic_store(&wa->word, WATCH_WORD(WATCH_GEN(word), RPB_WATCH_REAPED));
	}
}

static void *reaper_main(void *arg)
{
	struct rpb_reaper *r = arg;
	/* Checks twenty times per timeout, between 1 and 10 ms apart: a
	 * transaction is interrupted at most 5% (or 10 ms) after its deadline. */
	uint64_t step = r->rn->job->run.txn_timeout * 1000000u / 20;
	step = step < 1000000u ? 1000000u : step > 10000000u ? 10000000u : step;
	while (!atomic_load(&r->quit)) {
		uint64_t now = rpb_now_ns();
		reap_due(r->rn, now);
		rpb_sleep_until(now + step);
	}
	return NULL;
}

enum rpb_status rpb_reaper_start(struct rpb_reaper *r, struct rpb_runner *rn, struct rpb_err *err)
{
	memset(r, 0, sizeof *r);
	r->rn = rn;
	if (rn->job->run.txn_timeout == 0)
		return RPB_OK;
	int rc = pthread_create(&r->thread, NULL, reaper_main, r);
	if (rc)
		return rpb_err_set(err, RPB_NOMEM, rc, NULL, "cannot start the reaper thread: %s",
				   strerror(rc));
	r->running = true;
	return RPB_OK;
}

void rpb_reaper_stop(struct rpb_reaper *r)
{
	if (!r->running)
		return;
	atomic_store(&r->quit, true);
	pthread_join(r->thread, NULL);
	r->running = false;
	/* A run that ended before a leaked transaction's deadline: it is
	 * rolled back now, so nothing of it outlives the run. */
	for (unsigned t = 0; t < r->rn->nworkers; t++)
		if (atomic_load(&r->rn->workers[t].leak_state) == RPB_LEAK_OPEN) {
			fprintf(stderr, "reaper: the run ended before the deadline of the transaction "
					"of operation %llu of thread %u (inject = leak): rolling it back\n",
				(unsigned long long)r->rn->workers[t].leak_op, t);
			end_leak(r->rn, &r->rn->workers[t]);
		}
}
