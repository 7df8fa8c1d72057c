/* inject: deterministic faults for tests and demos. stall sleeps inside the
 * worker's open transaction; lock has a separate session take a conflicting
 * write and hold it, so the worker really blocks inside the library or the
 * server and the reaper has to interrupt it there; kill ends the process
 * at a named point, as a crash there would. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "txnwatch.h"

enum inj_state { INJ_IDLE, INJ_REQUEST, INJ_HELD, INJ_QUIT };

struct rpb_injector {
	struct rpb_runner *rn;
	struct rpb_session *s;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	enum inj_state state;
	enum rpb_table table;
	char key[RPB_KEY_MAX];
	size_t klen;
	enum rpb_status st; /* of the last request's lock */
	uint64_t *locked;   /* per worker: 1 + the op whose lock was last taken */
	struct rpb_buf readback; /* the held key's value, read back */
};

/* Waits until the state leaves `from`, or until the absolute time `until`
 * (CLOCK_MONOTONIC ns; 0 = no limit). Called with mu held. */
static void wait_while(struct rpb_injector *in, enum inj_state from, uint64_t until)
{
	while (in->state == from) {
		if (!until) {
			pthread_cond_wait(&in->cv, &in->mu);
			continue;
		}
		struct timespec ts = {(time_t)(until / 1000000000u), (long)(until % 1000000000u)};
		if (pthread_cond_timedwait(&in->cv, &in->mu, &ts) == ETIMEDOUT)
			return;
	}
}

static bool stopping(struct rpb_runner *rn)
{
	return atomic_load_explicit(&rn->stop, memory_order_relaxed) != 0;
}

static void *injector_main(void *arg)
{
	struct rpb_injector *in = arg;
	const struct rpb_backend *b = in->rn->backend;
	uint64_t hold_ns = in->rn->job->run.inject.ms * 1000000u;
	pthread_mutex_lock(&in->mu);
	for (;;) {
		wait_while(in, INJ_IDLE, 0);
		if (in->state == INJ_QUIT)
			break;
		struct rpb_err err;
		enum rpb_status st;
		/* A write lock another session holds for a moment (SQLite's
		 * single writer, busy_timeout short) is waited out: the fault is
		 * that the worker meets this session's lock, not that it has none. */
		do {
			st = b->begin(in->s, RPB_TXN_WRITE, &err);
			if (!st)
				st = b->put(in->s, in->table, rpb_slice_make(in->key, in->klen),
					    rpb_slice_make("", 0), &err);
			/* Reading the key back makes a backend that defers its first
			 * write (SQLite's lazy BEGIN) apply it, so the lock is held. */
			if (!st)
				st = b->get(in->s, in->table, rpb_slice_make(in->key, in->klen),
					    &in->readback, &err);
			if (st)
				b->rollback(in->s);
		} while (st == RPB_CONFLICT && !stopping(in->rn));
		in->st = st;
		if (st) {
			in->state = INJ_IDLE;
			pthread_cond_broadcast(&in->cv);
			continue;
		}
		in->state = INJ_HELD;
		pthread_cond_broadcast(&in->cv);
		/* Hold the lock for ms, or until the run stops: a worker that meets
		 * it is freed by its own timeout or the reaper, one that waits for
		 * its own fault's turn by this. */
		uint64_t until = rpb_now_ns() + hold_ns;
		for (uint64_t now = rpb_now_ns(); in->state == INJ_HELD && now < until && !stopping(in->rn);
		     now = rpb_now_ns()) {
			uint64_t step = now + 10000000u;
			wait_while(in, INJ_HELD, step < until ? step : until);
		}
		b->rollback(in->s); /* nothing of the injector stays */
		if (in->state == INJ_QUIT)
			break;
		in->state = INJ_IDLE;
		pthread_cond_broadcast(&in->cv);
	}
	pthread_mutex_unlock(&in->mu);
	return NULL;
}

enum rpb_status rpb_injector_start(struct rpb_runner *rn, struct rpb_err *err)
{
	if (rn->job->run.inject.kind != RPB_INJECT_LOCK)
		return RPB_OK;
	if (!(rn->backend->flags & RPB_BF_LOCKS))
		return rpb_err_set(err, RPB_INVALID, 0, NULL,
				   "inject = lock needs a backend whose writers wait for another "
				   "session's lock (sqlite, postgres); on %s use inject = stall:MS@N",
				   rn->backend->name);
	struct rpb_injector *in = calloc(1, sizeof *in);
	if (in && !(in->locked = calloc(rn->nworkers, sizeof *in->locked))) {
		free(in);
		in = NULL;
	}
	if (!in)
		return rpb_err_set(err, RPB_NOMEM, 0, NULL, "out of memory for the lock injector");
	in->rn = rn;
	enum rpb_status st = rn->backend->session_open(rn->store, &in->s, err);
	if (st) {
		free(in->locked);
		free(in);
		return st;
	}
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&in->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&in->mu, NULL);
	int rc = pthread_create(&in->thread, NULL, injector_main, in);
	if (rc) {
		rn->backend->session_close(in->s);
		pthread_cond_destroy(&in->cv);
		pthread_mutex_destroy(&in->mu);
		free(in->locked);
		free(in);
		return rpb_err_set(err, RPB_NOMEM, rc, NULL, "cannot start the lock injector: %s",
				   strerror(rc));
	}
	rn->injector = in;
	return RPB_OK;
}

void rpb_injector_stop(struct rpb_runner *rn)
{
	struct rpb_injector *in = rn->injector;
	if (!in)
		return;
	pthread_mutex_lock(&in->mu);
	in->state = INJ_QUIT;
	pthread_cond_broadcast(&in->cv);
	pthread_mutex_unlock(&in->mu);
	pthread_join(in->thread, NULL);
	rn->backend->session_close(in->s);
	pthread_cond_destroy(&in->cv);
	pthread_mutex_destroy(&in->mu);
	rpb_buf_free(&in->readback);
	free(in->locked);
	free(in);
	rn->injector = NULL;
}

/* Blocks until the injector holds a write of key (or could not take it).
 * Once per op: a retry of it meets the same lock, still held or released,
 * as it would meet another session's, so a retry policy can outlast it. */
static void hold_lock(struct rpb_injector *in, unsigned worker, uint64_t op,
		      enum rpb_table table, rpb_slice key)
{
	if (in->locked[worker] == op + 1)
		return;
	in->locked[worker] = op + 1; /* only this worker touches its entry */
	pthread_mutex_lock(&in->mu);
	while (in->state != INJ_IDLE && in->state != INJ_QUIT)
		pthread_cond_wait(&in->cv, &in->mu); /* another worker's fault first */
	if (in->state == INJ_IDLE && !stopping(in->rn)) {
		in->table = table;
		in->klen = key.len < sizeof in->key ? key.len : sizeof in->key;
		memcpy(in->key, key.data, in->klen);
		in->state = INJ_REQUEST;
		pthread_cond_broadcast(&in->cv);
		wait_while(in, INJ_REQUEST, 0);
	}
	pthread_mutex_unlock(&in->mu);
}

/* Sleeps ms inside the open transaction; wakes early when the run stops or
 * the reaper has interrupted the transaction (its commit fails either way),
 * so a stall far past txn_timeout lasts until the reaper, not longer. */
static void stall(struct rpb_worker *w, uint64_t ms)
{
	uint64_t until = rpb_now_ns() + ms * 1000000u;
	for (uint64_t now = rpb_now_ns(); now < until; now = rpb_now_ns()) {
		if (atomic_load_explicit(&w->rn->stop, memory_order_relaxed) || rpb_txn_reaped(w))
			return;
		uint64_t step = now + 10000000u;
		rpb_sleep_until(step < until ? step : until);
	}
}

void rpb_inject_kill(struct rpb_worker *w, uint64_t i, enum rpb_kill_point p)
{
	const struct rpb_inject *in = &w->rn->job->run.inject;
	if (in->kind == RPB_INJECT_KILL && in->point == p && (i + 1) % in->every == 0)
		raise(SIGKILL);
}

void rpb_inject_point(struct rpb_worker *w, uint64_t i, bool before_begin, enum rpb_table table,
		      rpb_slice key)
{
	const struct rpb_inject *in = &w->rn->job->run.inject;
	if (in->kind == RPB_INJECT_OFF || (i + 1) % in->every != 0)
		return;
	if (in->kind == RPB_INJECT_KILL)
		rpb_inject_kill(w, i, before_begin ? RPB_KILL_BEGIN : RPB_KILL_COMMIT);
	if (in->kind == RPB_INJECT_LOCK && before_begin && w->rn->injector)
		hold_lock(w->rn->injector, w->id, i, table, key);
	else if (in->kind == RPB_INJECT_STALL && !before_begin)
		stall(w, in->ms);
}

bool rpb_inject_leak(const struct rpb_worker *w, uint64_t i)
{
	const struct rpb_inject *in = &w->rn->job->run.inject;
	return in->kind == RPB_INJECT_LEAK && i + 1 == in->every;
}

uint64_t rpb_inject_partial(const struct rpb_worker *w, uint64_t i)
{
	const struct rpb_inject *in = &w->rn->job->run.inject;
	return in->kind == RPB_INJECT_PARTIAL && (i + 1) % in->every == 0 ? in->ms : 0;
}
