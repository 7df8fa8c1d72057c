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
 * doubt: verify accepts it whole or absent, never partial.
 *
 * failures.log has one line per failed main operation, "THREAD OP CLASS
 * IN_DOUBT", and one per failed side step of an operation (a probe step),
 * "THREAD OP CLASS IN_DOUBT LABEL" (docs/results.md). */
#ifndef RPB_LEDGER_H
#define RPB_LEDGER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define RPB_LEDGER_FILE "ledger.bin"
#define RPB_FAILURES_FILE "failures.log"

/* ledger.bin: this header, then one slot per worker (native byte order). */
#define RPB_LEDGER_MAGIC "RPBLEDG1"
struct rpb_ledger_header {
	char magic[8];
	uint32_t nworkers;
	uint32_t slot_size;
	uint64_t pad[6];
};

/* One worker's slot, a cache line of its own (no false sharing). */
struct rpb_ledger_slot {
	_Atomic uint64_t started;  /* operations 0..started-1 were begun */
	_Atomic uint64_t finished; /* operations 0..finished-1 have a known outcome */
	uint64_t pad[6];
};

/* The size of ledger.bin for nworkers workers. */
static inline size_t rpb_ledger_size(unsigned nworkers)
{
	return sizeof(struct rpb_ledger_header) + (size_t)nworkers * sizeof(struct rpb_ledger_slot);
}

struct rpb_live_ledger {
	void *map;
	size_t maplen;
	struct rpb_ledger_slot *slots;
	unsigned nworkers;
	int failfd;
};

/* Creates dir/name, which must not exist yet (open(2) flags plus O_CREAT |
 * O_EXCL); a descriptor, or -1 with a one-line msg. For a pattern's own
 * files beside the ledger too. */
int rpb_results_file_create(const char *dir, const char *name, int flags, char *msg, size_t n);
/* Creates ledger.bin and failures.log in dir for nworkers workers. Returns
 * non-zero with a one-line msg on failure. */
int rpb_live_ledger_open(struct rpb_live_ledger *L, const char *dir, unsigned nworkers,
			 char *msg, size_t n);
struct rpb_failure;
/* Appends one failed operation or side step (the error path only); labels
 * are the pattern's, naming a step. */
void rpb_live_ledger_failure(struct rpb_live_ledger *L, unsigned worker,
			     const struct rpb_failure *f, const char *const *labels);
void rpb_live_ledger_close(struct rpb_live_ledger *L);

/* ---- reading back (ledger_read.c) ---- */

struct rpb_result_file;
/* Fills rf's ledger from ledger.bin and failures.log in dir (a run that did
 * not finish; rf holds its manifest). Returns non-zero with a one-line msg
 * naming the file and the first damaged slot or line. */
int rpb_live_ledger_read(struct rpb_result_file *rf, const char *dir, char *msg, size_t n);
/* The same from the files' bytes (dir names them in messages), for tests
 * and fuzzing. */
int rpb_live_ledger_parse(struct rpb_result_file *rf, const void *bin, size_t binlen,
			  const char *log, size_t loglen, const char *dir, char *msg, size_t n);

/* ---- checks of a ledger read from disk (ledger_check.c) ---- */

/* No operation takes less than 10 ns: the most a worker can have issued
 * per millisecond of its run. */
#define RPB_LEDGER_OPS_PER_MS 100000

/* Checks failure f (a side step when step) of a worker that issued
 * operations, listed after prev (NULL for its first); field names the
 * entry in messages. Returns 0, or -1 with rpb_ledger_damaged's msg. */
int rpb_failure_check(const struct rpb_failure *f, const struct rpb_failure *prev, bool step,
		      uint64_t issued, const char *where, const char *field, char *msg, size_t n);
/* Checks a ledger's worker count, and worker t's issued count, against rf's
 * manifest (ledger_check.c has the rules); live names the fields as
 * ledger.bin's. Return 0, or -1 with rpb_ledger_damaged's msg. */
int rpb_workers_check(const struct rpb_result_file *rf, size_t nworkers, bool live,
		      const char *where, char *msg, size_t n);
int rpb_issued_check(const struct rpb_result_file *rf, unsigned t, uint64_t issued, bool live,
		     const char *where, char *msg, size_t n);

#endif
