/* The live ledger: which operations a run has acknowledged, kept on disk
 * while the run goes on, so verify can check a run that was killed (SIGKILL,
 * OOM killer, power cut of the client only) as strictly as a finished one.
 *
 * ledger.bin is a file mapped MAP_SHARED: each worker's slot holds how many
 * operations it started and how many have a known outcome. A store into the
 * mapping is a plain memory write (no system call in the timed loop) and
 * survives the death of the process because the page cache belongs to the
 * kernel. Failed operations (the error path only) are appended to
 * failures.log with one write() each, before the slot says the outcome is
 * known. An operation started but not finished when the process died is in
 * doubt: verify accepts it whole or absent, never partial. */
#ifndef RPB_LEDGER_H
#define RPB_LEDGER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define RPB_LEDGER_FILE "ledger.bin"
#define RPB_FAILURES_FILE "failures.log"

/* One worker's slot, a cache line of its own (no false sharing). */
struct rpb_ledger_slot {
	_Atomic uint64_t started;  /* operations 0..started-1 were begun */
	_Atomic uint64_t finished; /* operations 0..finished-1 have a known outcome */
	uint64_t pad[6];
};

struct rpb_live_ledger {
	void *map;
	size_t maplen;
	struct rpb_ledger_slot *slots;
	unsigned nworkers;
	int failfd;
};

/* Creates ledger.bin and failures.log in dir for nworkers workers. Returns
 * non-zero with a one-line msg on failure. */
int rpb_live_ledger_open(struct rpb_live_ledger *L, const char *dir, unsigned nworkers,
			 char *msg, size_t n);
/* Appends one failed operation (the error path only). */
void rpb_live_ledger_failure(struct rpb_live_ledger *L, unsigned worker, uint64_t op,
			     enum rpb_status st, bool in_doubt);
void rpb_live_ledger_close(struct rpb_live_ledger *L);

struct rpb_result_file;
/* Fills rf's ledger from ledger.bin and failures.log in dir (a run that did
 * not finish). Returns non-zero with msg on failure. */
int rpb_live_ledger_read(struct rpb_result_file *rf, const char *dir, char *msg, size_t n);

#endif
