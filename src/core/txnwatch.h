/* Inside the runner: the reaper thread that enforces txn_timeout, and the
 * session that holds locks for inject = lock. */
#ifndef RPB_TXNWATCH_H
#define RPB_TXNWATCH_H

#include <pthread.h>
#include <stdbool.h>

#include "runner.h"

struct rpb_reaper {
	struct rpb_runner *rn;
	pthread_t thread;
	_Atomic bool quit;
	bool running;
};

/* Starts the reaper when the job has a txn_timeout (else does nothing). */
enum rpb_status rpb_reaper_start(struct rpb_reaper *r, struct rpb_runner *rn, struct rpb_err *err);
void rpb_reaper_stop(struct rpb_reaper *r);

/* Disarms w's watch at the end of a transaction; true if the reaper had
 * interrupted it (waits until the interrupt call has returned). */
bool rpb_txn_disarm(struct rpb_worker *w);

/* inject = lock: opens the holding session and starts its thread. */
enum rpb_status rpb_injector_start(struct rpb_runner *rn, struct rpb_err *err);
void rpb_injector_stop(struct rpb_runner *rn);

#endif
