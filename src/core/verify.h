/* What verify needs from a run (the ledger, read back from result.json,
 * or from the live ledger of a run that died) and what it reports. */
#ifndef RPB_VERIFY_H
#define RPB_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "runner.h"

struct rpb_ledger_worker {
	uint64_t issued;                /* main operations 0..issued-1 were started */
	const struct rpb_failure *failures; /* sorted by op; all others acknowledged */
	size_t nfailures;
	bool in_flight;                 /* op issued-1 was running when the run died */
};

struct rpb_ledger {
	const char *run_tag;
	unsigned nworkers;
	const struct rpb_ledger_worker *workers;
	bool interrupted;               /* read from the live ledger: the run died */
	/* Where the run kept its files: the store's directory (NULL for a
	 * server's store) and the results directory verify was given. */
	const char *store_dir, *results_dir;
};

/* What the ledger says of operation op of one worker: acknowledged, in
 * doubt (failed inside commit, or running when the run died), failed, or
 * never started. */
enum rpb_op_state { RPB_OP_ACKED = 0, RPB_OP_IN_DOUBT, RPB_OP_FAILED, RPB_OP_NOT_ISSUED };
enum rpb_op_state rpb_ledger_op_state(const struct rpb_ledger_worker *lw, uint64_t op);

struct rpb_verify_result {
	uint64_t checked;     /* acknowledged objects checked */
	uint64_t missing;     /* acknowledged, not (completely) in the store */
	uint64_t corrupt;     /* present but wrong size, digest or description */
	uint64_t unexpected;  /* in the store though never acknowledged */
	uint64_t in_doubt;    /* failed inside commit: either state accepted if whole */
	char first_problem[512]; /* one line describing the first discrepancy */
};

/* Keeps the first discrepancy's description; later ones only count. */
__attribute__((format(printf, 2, 3)))
void rpb_verify_problem(struct rpb_verify_result *res, const char *fmt, ...);

#endif
