/* Checks of a ledger read from disk (ledger.h): every count against what
 * the run's own manifest allows, before a count sizes an allocation or a
 * loop of verify. One rule per count:
 *
 * - workers: exactly the run's threads plus the pattern's extra workers;
 * - issued: at most run.ops for a thread of a run with an ops limit, and,
 *   for every worker, at most RPB_LEDGER_OPS_PER_MS operations per
 *   millisecond of the run (manifest start to end; to now for a run that
 *   did not finish), plus a second of slack. No operation of any backend
 *   takes less than 10 ns, so an honest ledger always passes, and verify's
 *   loops over a ledger are bounded by the run's own length;
 * - failures: a known class, an operation the worker started, each once, in
 *   order; side steps by operation then label, with a label of the pattern
 *   other than the main one. */
#include <inttypes.h>
#include <stdio.h>

#include "ledger.h"
#include "results.h"

static uint64_t time_bound(const struct rpb_result_file *rf, uint64_t *span_ms)
{
	uint64_t end = rf->end_ms ? rf->end_ms : rf->now_ms;
	*span_ms = end > rf->start_ms ? end - rf->start_ms : 0;
	uint64_t bound;
	if (__builtin_mul_overflow(*span_ms + 1000, RPB_LEDGER_OPS_PER_MS, &bound))
		bound = UINT64_MAX;
	return bound;
}

int rpb_failure_check(const struct rpb_failure *f, const struct rpb_failure *prev, bool step,
		      uint64_t issued, const char *where, const char *field, char *msg, size_t n)
{
	char name[160], value[32], why[160];
	snprintf(value, sizeof value, "%" PRIu64, f->op);
	snprintf(name, sizeof name, "%s op", field);
	if (step && f->label == 0) {
		snprintf(name, sizeof name, "%s step", field);
		return rpb_ledger_damaged(msg, n, where, name, "the main operation",
					  "a side step has a label other than the main one");
	}
	if (f->op >= issued) {
		snprintf(why, sizeof why, "the worker started %" PRIu64 " operations", issued);
		return rpb_ledger_damaged(msg, n, where, name, value, why);
	}
	if (prev && (f->op < prev->op || (f->op == prev->op && f->label <= prev->label))) {
		snprintf(why, sizeof why,
			 "listed after op %" PRIu64 "; a ledger lists each failure once, in order",
			 prev->op);
		return rpb_ledger_damaged(msg, n, where, name, value, why);
	}
	return 0;
}

int rpb_workers_check(const struct rpb_result_file *rf, size_t nworkers, bool live,
		      const char *where, char *msg, size_t n)
{
	char value[32], why[200];
	if (nworkers == rf->nworkers)
		return 0;
	snprintf(value, sizeof value, "%zu", nworkers);
	snprintf(why, sizeof why, "run.threads = %" PRIu64 " and %u more of the %s pattern",
		 rf->job.run.threads, rf->nworkers - (unsigned)rf->job.run.threads,
		 rpb_job_pattern_name(&rf->job));
	return rpb_ledger_damaged(msg, n, where, live ? "workers" : "ledger.workers", value, why);
}

int rpb_issued_check(const struct rpb_result_file *rf, unsigned t, uint64_t issued, bool live,
		     const char *where, char *msg, size_t n)
{
	char field[96], value[32], why[200];
	uint64_t ops = rf->job.run.ops, span_ms, bound = time_bound(rf, &span_ms);
	if (live)
		snprintf(field, sizeof field, "slot %u started", t);
	else
		snprintf(field, sizeof field, "ledger.workers[%u].issued", t);
	snprintf(value, sizeof value, "%" PRIu64, issued);
	if (t < rf->job.run.threads && ops && issued > ops) {
		snprintf(why, sizeof why, "run.ops = %" PRIu64 " per thread", ops);
		return rpb_ledger_damaged(msg, n, where, field, value, why);
	}
	if (issued > bound) {
		snprintf(why, sizeof why,
			 "over %d operations per ms of the run's %" PRIu64 " ms from manifest.start%s",
			 RPB_LEDGER_OPS_PER_MS, span_ms, rf->end_ms ? " to end" : " to now");
		return rpb_ledger_damaged(msg, n, where, field, value, why);
	}
	return 0;
}
