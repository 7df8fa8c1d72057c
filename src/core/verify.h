/* What verify needs from a run (the ledger, read back from result.json,
 * or from the live ledger of a run that died) and what it reports. */
#ifndef RPB_VERIFY_H
#define RPB_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "runner.h"

struct rpb_ledger_worker {
	uint64_t issued;                /* main operations 0..issued-1 were started */
	const struct rpb_failure *failures; /* by op, each op once; all others acknowledged */
	size_t nfailures;
	const struct rpb_failure *steps; /* failed side steps (label > 0), by op then label */
	size_t nsteps;
	bool in_flight;                 /* op issued-1 was running when the run died */
	/* A live ledger read from a file system mounted again since the run (a
	 * power cut): the store may hold operations the ledger on disk does
	 * not record, and only operations below trusted have a known fate
	 * (below issued when the ledger reached the disk whole, else below its
	 * last durable point). Everything else is unprovable. */
	bool stale;
	uint64_t trusted;               /* == issued unless stale */
	uint64_t durable;               /* finished at the last durable point (live ledgers) */
};

struct rpb_ledger {
	const char *run_tag;
	unsigned nworkers;
	const struct rpb_ledger_worker *workers;
	bool interrupted;               /* read from the live ledger: the run died */
	bool stale;                     /* ... and read as it reached the disk (workers' stale) */
	uint64_t durable_ms;            /* the ledger's last durable point (wall ms; 0: its start) */
	const char *torn;               /* stale: why its tail is not used, or NULL */
	/* Where the run kept its files: the store's directory (NULL for a
	 * server's store) and the results directory verify was given. */
	const char *store_dir, *results_dir;
};

/* What the ledger says of operation op of one worker: acknowledged, in
 * doubt (failed inside commit, or running when the run died), failed,
 * never started, or, for a stale ledger, unprovable (at or after trusted:
 * the store may hold it whole or not at all). */
enum rpb_op_state { RPB_OP_ACKED = 0, RPB_OP_IN_DOUBT, RPB_OP_FAILED, RPB_OP_NOT_ISSUED,
		    RPB_OP_UNPROVABLE /* stale ledger: after what it proves; whole or absent */ };
enum rpb_op_state rpb_ledger_op_state(const struct rpb_ledger_worker *lw, uint64_t op);

struct rpb_verify_result {
	uint64_t checked;     /* acknowledged objects checked */
	uint64_t missing;     /* acknowledged, not (completely) in the store */
	uint64_t corrupt;     /* present but wrong size, digest or description */
	uint64_t unexpected;  /* in the store though never acknowledged */
	uint64_t in_doubt;    /* failed inside commit: either state accepted if whole */
	uint64_t unprovable;  /* operations of a stale ledger's unprovable part that left
			       * records in the store (accepted whole) */
	uint64_t left;        /* records that failed side steps listed in the ledger left
			       * behind (expected, not unexpected) */
	const char *left_by;  /* what left them: "failed probe steps" */
	bool damaged;         /* the ledger is impossible for this run: the error says why */
	const char *damaged_in; /* the results directory's file that is, when not the
				 * ledger (or result.json) itself: a pattern's own */
	char note[256];       /* a pattern's own line, printed after the counts (ycsb: its
			       * run inserts and failed operations by label), or empty */
	char first_problem[512]; /* one line describing the first discrepancy */
};

/* Keeps the first discrepancy's description; later ones only count. */
__attribute__((format(printf, 2, 3)))
void rpb_verify_problem(struct rpb_verify_result *res, const char *fmt, ...);

/* The one form of every refusal of a ledger read from disk:
 * "WHERE: damaged ledger: FIELD = VALUE is impossible for this run (WHY);
 * give the results directory of an rpbench run". WHERE names the file (and
 * line); VALUE is shown only when it is short printable text; why may be
 * NULL. Returns -1. */
int rpb_ledger_damaged(char *msg, size_t n, const char *where, const char *field,
		       const char *value, const char *why);

/* For a pattern's verify: a ledger the pattern finds impossible (field =
 * value, why) sets res->damaged and fills err; returns RPB_INVALID. The
 * driver names the ledger's file. */
enum rpb_status rpb_verify_damaged(struct rpb_verify_result *res, struct rpb_err *err,
				   const char *field, uint64_t value, const char *why);
/* The same for one of the pattern's own files in the results directory
 * (file, res->damaged_in) that is absent, cut short or holds text that is
 * not what the run wrote: "damaged ledger: " and the formatted reason. */
__attribute__((format(printf, 4, 5)))
enum rpb_status rpb_verify_file_damaged(struct rpb_verify_result *res, struct rpb_err *err,
					const char *file, const char *fmt, ...);

#endif
