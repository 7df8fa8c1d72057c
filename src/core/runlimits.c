#include <inttypes.h>
#include <stdio.h>

#include "runlimits.h"
#include "pattern.h"
#include "runner.h"

uint64_t rpb_thread_limit(const struct rpb_runner *rn, unsigned w)
{
	uint64_t limit = rn->job->run.ops ? rn->job->run.ops : UINT64_MAX;
	if (rn->pattern->thread_ops) {
		uint64_t own = rn->pattern->thread_ops(rn->job, w);
		limit = own < limit ? own : limit;
	}
	return limit;
}

const char *rpb_ended_limit(const struct rpb_runner *rn)
{
	switch ((enum rpb_stop)atomic_load(&rn->stop)) {
	case RPB_STOP_DURATION:
		return "duration";
	case RPB_STOP_BYTES:
		return "bytes";
	case RPB_STOP_COMPLETED:
		/* The ops limit when some thread stopped at it, else the
		 * pattern's own work (its thread_ops, or an end of its own). */
		for (unsigned w = 0; rn->job->run.ops && w < rn->nthreads; w++)
			if (rpb_thread_limit(rn, w) == rn->job->run.ops)
				return "ops";
		return "work";
	default:
		return NULL;
	}
}

/* "ops = 1500", "duration = 3 s", "bytes = 1048576": limit as the
 * workload file sets it. */
static int limit_text(char *buf, size_t n, const struct rpb_run_opts *run, const char *which)
{
	if (which[0] == 'o')
		return snprintf(buf, n, "ops = %" PRIu64, run->ops);
	if (which[0] == 'd')
		return snprintf(buf, n, "duration = %g s", run->duration);
	return snprintf(buf, n, "bytes = %" PRIu64, run->bytes);
}

bool rpb_ended_line(const struct rpb_runner *rn, char *buf, size_t n)
{
	const struct rpb_run_opts *run = &rn->job->run;
	const char *ended = rpb_ended_limit(rn);
	if (n)
		buf[0] = '\0';
	if (!ended || !n)
		return false;
	const char *others[3];
	size_t k = 0;
	if (run->ops && ended[0] != 'o')
		others[k++] = "ops";
	if (run->duration > 0 && ended[0] != 'd')
		others[k++] = "duration";
	if (run->bytes && ended[0] != 'b')
		others[k++] = "bytes";
	if (!k)
		return false;
	size_t used = ended[0] == 'w'
			      ? (size_t)snprintf(buf, n, "the %s pattern's work was done before ",
						 rn->pattern->name)
			      : 0;
	if (ended[0] != 'w') {
		used = (size_t)limit_text(buf, n, run, ended);
		if (used < n)
			used += (size_t)snprintf(buf + used, n - used, " reached before ");
	}
	for (size_t i = 0; i < k && used < n; i++) {
		if (i)
			used += (size_t)snprintf(buf + used, n - used, i + 1 == k ? " and " : ", ");
		if (used < n)
			used += (size_t)limit_text(buf + used, n - used, run, others[i]);
	}
	return true;
}

/* Records a limit's share done; the remaining time from the rate so far. */
static void consider(double share, double elapsed, double *done, double *eta_s)
{
	share = share < 0 ? 0 : share > 1 ? 1 : share;
	if (share > *done)
		*done = share;
	if (share > 0) {
		double eta = elapsed * (1 - share) / share;
		if (eta < *eta_s)
			*eta_s = eta;
	}
}

bool rpb_run_done(const struct rpb_runner *rn, double elapsed, double *done, double *eta_s)
{
	const struct rpb_run_opts *run = &rn->job->run;
	bool any = false;
	*done = 0;
	*eta_s = 1e300;
	uint64_t total = 0, started = 0;
	bool bounded = rn->nthreads > 0;
	for (unsigned w = 0; w < rn->nthreads && w < rn->nworkers; w++) {
		uint64_t limit = rpb_thread_limit(rn, w);
		if (limit == UINT64_MAX) {
			bounded = false;
			break;
		}
		uint64_t issued = atomic_load_explicit(&rn->workers[w].issued, memory_order_relaxed);
		total += limit;
		started += issued < limit ? issued : limit;
	}
	if (bounded && total) {
		consider((double)started / (double)total, elapsed, done, eta_s);
		any = true;
	}
	if (run->bytes) {
		uint64_t b = atomic_load_explicit(&rn->bytes_total, memory_order_relaxed);
		consider((double)b / (double)run->bytes, elapsed, done, eta_s);
		any = true;
	}
	if (run->duration > 0) {
		double share = elapsed / run->duration;
		consider(share, elapsed, done, eta_s); /* its ETA: duration - elapsed */
		any = true;
	}
	if (!any || *eta_s > 1e299)
		*eta_s = -1;
	return any;
}
