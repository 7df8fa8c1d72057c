/* What an accepted ledger must be before verify loops over it (the rules
 * of src/core/ledger_check.c, checked on the result). */
#ifndef RPB_FUZZ_LEDGER_H
#define RPB_FUZZ_LEDGER_H

#include "fuzz.h"
#include "results.h"

static inline void fuzz_list_ok(const struct rpb_failure *f, size_t n, uint64_t issued,
				bool steps, unsigned nlabels)
{
	FUZZ_ASSERT(n <= issued * (steps ? nlabels : 1), "%zu entries for %llu operations", n,
		    (unsigned long long)issued);
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(f[i].op < issued, "op %llu of %llu", (unsigned long long)f[i].op,
			    (unsigned long long)issued);
		FUZZ_ASSERT(f[i].status != RPB_OK && f[i].status < RPB_STATUS_COUNT, "class %d",
			    (int)f[i].status);
		FUZZ_ASSERT(steps ? f[i].label > 0 && f[i].label < nlabels : f[i].label == 0,
			    "label %u", f[i].label);
		FUZZ_ASSERT(i == 0 || f[i].op > f[i - 1].op ||
				    (steps && f[i].op == f[i - 1].op && f[i].label > f[i - 1].label),
			    "entry %zu out of order", i);
	}
}

static inline void fuzz_ledger_ok(const struct rpb_result_file *rf)
{
	const struct rpb_ledger *l = &rf->ledger;
	FUZZ_ASSERT(rf->job.pattern, "a ledger without a pattern");
	FUZZ_ASSERT(l->nworkers == rpb_job_workers(&rf->job), "%u workers", l->nworkers);
	for (unsigned w = 0; w < l->nworkers; w++) {
		const struct rpb_ledger_worker *lw = &l->workers[w];
		fuzz_list_ok(lw->failures, lw->nfailures, lw->issued, false, rf->job.pattern->nlabels);
		fuzz_list_ok(lw->steps, lw->nsteps, lw->issued, true, rf->job.pattern->nlabels);
		FUZZ_ASSERT(!lw->in_flight || lw->issued > 0, "in flight with nothing issued");
		FUZZ_ASSERT(!lw->stale || (lw->trusted <= lw->issued && lw->durable <= lw->issued),
			    "trusted %llu, durable %llu of %llu issued", (unsigned long long)lw->trusted,
			    (unsigned long long)lw->durable, (unsigned long long)lw->issued);
	}
}

#endif
