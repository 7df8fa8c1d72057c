/* snapshot_build = background, as the harvest in the FOLIO report ran: the
 * matching ids are transferred into the harvest's own table by a worker
 * beside the harvester, in batches, while the first requests are answered
 * from what has already arrived. A request whose page lies beyond the fill
 * frontier waits for it; that wait is part of its latency (and counted
 * apart in the report). Each batch is one operation of the filler, sampled
 * as snapshot-build, so the transfer's cost shows over time.
 *
 * The hand-over (struct hv_fill) is a mutex and a condition variable per
 * harvester: the only place the pattern blocks, and only when the store is
 * slower than the harvest. Waits are bounded slices, so a stop of the run
 * is seen within one. */
#include <errno.h>
#include <inttypes.h>
#include <time.h>

#include "clock.h"
#include "harvest_run.h"

#define FILL_SLICE_NS (20 * 1000 * 1000ull)

/* Waits on f->cv for one slice (f->mu held). */
static void wait_slice(struct hv_fill *f)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t ns = (uint64_t)ts.tv_nsec + FILL_SLICE_NS;
	ts.tv_sec += (time_t)(ns / 1000000000u);
	ts.tv_nsec = (long)(ns % 1000000000u);
	int rc = pthread_cond_timedwait(&f->cv, &f->mu, &ts);
	(void)rc; /* ETIMEDOUT or a wake-up: the caller checks its condition */
}

static bool stopping(const struct rpb_runner *rn)
{
	return atomic_load_explicit(&rn->stop, memory_order_relaxed) != RPB_STOP_NONE;
}

static struct hv_fill *fill_of(struct rpb_worker *w)
{
	struct hv_shared *sh = w->rn->pattern_state;
	return &sh->fill[w->id];
}

/* Ends the filler's current job, if any, and waits until it is idle; the
 * entries it copied are then hw->snap_count, for the drop. */
static enum rpb_status cancel_job(struct rpb_worker *w, struct hv_worker *hw, struct hv_fill *f,
				  struct rpb_err *err)
{
	enum rpb_status st = RPB_OK;
	pthread_mutex_lock(&f->mu);
	f->pending = false;
	if (f->busy) {
		f->cancel = true;
		pthread_cond_broadcast(&f->cv);
	}
	while (f->busy && !stopping(w->rn))
		wait_slice(f);
	if (f->busy)
		st = rpb_err_set(err, RPB_INVALID, 0, NULL,
				 "the run stopped while harvest %" PRIx64 "'s snapshot was being filled",
				 f->t.harvest);
	hw->snap_count = f->count;
	pthread_mutex_unlock(&f->mu);
	return st;
}

void hv_fill_settle(struct rpb_worker *w, struct hv_worker *hw)
{
	struct hv_fill *f = fill_of(w);
	/* Every worker has left its loop: nothing is copying any more. */
	pthread_mutex_lock(&f->mu);
	f->pending = false;
	f->busy = false;
	hw->snap_count = f->count;
	pthread_mutex_unlock(&f->mu);
}

enum rpb_status hv_fill_start(struct rpb_worker *w, struct hv_worker *hw, struct rpb_session *s,
			      const struct hv_token *t, struct rpb_err *err)
{
	struct hv_fill *f = fill_of(w);
	if (hw->snap_live) {
		enum rpb_status st = cancel_job(w, hw, f, err);
		if (!st)
			st = hv_snapshot_drop(w, hw, s, err);
		if (st)
			return st;
	}
	hw->snap_live = true;
	hw->snap_harvest = t->harvest;
	hw->snap_count = 0;
	pthread_mutex_lock(&f->mu);
	f->t = *t;
	f->count = 0;
	f->done = false;
	f->st = RPB_OK;
	f->pending = true;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	return RPB_OK;
}

enum rpb_status hv_fill_wait(struct rpb_worker *w, struct hv_worker *hw, uint64_t need,
			     struct rpb_err *err)
{
	struct hv_fill *f = fill_of(w);
	struct hv_shared *sh = w->rn->pattern_state;
	enum rpb_status st = RPB_OK;
	uint64_t t0 = 0;
	pthread_mutex_lock(&f->mu);
	while (!f->done && f->count < need) {
		if (!t0)
			t0 = rpb_now_ns();
		if (stopping(w->rn)) {
			st = rpb_err_set(err, RPB_INVALID, 0, NULL,
					 "the run stopped while harvest %" PRIx64 "'s snapshot was "
					 "being filled (%" PRIu64 " entries copied)",
					 f->t.harvest, f->count);
			break;
		}
		wait_slice(f);
	}
	if (!st && f->done && f->st) {
		st = f->st;
		*err = f->err;
	}
	hw->snap_count = f->count;
	pthread_mutex_unlock(&f->mu);
	if (t0) {
		sh->res[w->id].fill_waits++;
		sh->res[w->id].fill_wait_ns += rpb_now_ns() - t0;
	}
	return st;
}

/* The filler takes its next job, or sees that there is none to come. */
static bool next_job(struct rpb_worker *w, struct hv_worker *hw, struct hv_fill *f)
{
	pthread_mutex_lock(&f->mu);
	for (;;) {
		if (f->cancel) {
			f->cancel = false;
			f->busy = false;
			pthread_cond_broadcast(&f->cv);
		}
		if (f->busy)
			break;
		if (f->pending) {
			f->pending = false;
			f->busy = true;
			hw->fill_t = f->t;
			hw->fill_ds = 0;
			hw->fill_n = 0;
			break;
		}
		if (stopping(w->rn) ||
		    atomic_load_explicit(&w->rn->threads_active, memory_order_acquire) == 0)
			break;
		wait_slice(f);
	}
	bool busy = f->busy;
	pthread_mutex_unlock(&f->mu);
	return busy;
}

enum rpb_status hv_fill_op(struct rpb_worker *w, uint64_t i, struct rpb_err *err)
{
	(void)i;
	struct hv_worker *hw = w->state;
	struct hv_fill *f = &((struct hv_shared *)w->rn->pattern_state)->fill[hw->fill_h];
	if (!next_job(w, hw, f))
		return RPB_OK; /* the harvesters are done: this filler's last operation */
	unsigned copied = 0;
	uint64_t t0 = rpb_now_ns();
	enum rpb_status st = hv_snapshot_chunk(w, hw, rpb_next_session(w), &hw->fill_t,
					       f->count == 0, &hw->fill_ds, &hw->fill_n, f->count,
					       &copied, err);
	rpb_sample(w, HV_L_BUILD, t0, rpb_now_ns(), st, 0, st ? err : NULL);
	pthread_mutex_lock(&f->mu);
	if (st) {
		f->st = st;
		f->err = *err;
		f->done = true;
		f->busy = false;
	} else {
		f->count += copied;
		f->batches++;
		f->entries += copied;
		if (copied < HV_SNAP_CHUNK) {
			f->done = true;
			f->busy = false;
		}
	}
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	return st;
}
