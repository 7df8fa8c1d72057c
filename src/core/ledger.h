/* The live ledger: which operations a run has acknowledged, kept on disk
 * while the run goes on, so verify can check a run that was killed (SIGKILL,
 * OOM killer) as strictly as a finished one, and a run whose machine lost
 * power up to the ledger's last durable point (rpb_live_ledger_checkpoint).
 *
 * ledger.bin is a file mapped MAP_SHARED: each worker's slot holds how many
 * operations it started and how many have a known outcome. A store into the
 * mapping is a plain memory write (no system call in the timed loop) and
 * survives the death of the process because the page cache belongs to the
 * kernel. Failed operations (the error path only) are appended to
 * failures.log with one write() each, before the slot says the outcome is
 * known; the slot counts them. An operation started but not finished when
 * the process died is in doubt: verify accepts it whole or absent, never
 * partial. The page cache survives the process, not a power cut: verify
 * trusts what the slots say beyond their last durable point only on the
 * file-system instance the run wrote them on (ledger_read.c).
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
#define RPB_LEDGER_MAGIC "RPBLEDG2"
struct rpb_ledger_header {
	char magic[8];
	uint32_t nworkers;
	uint32_t slot_size;
	/* The last durable point (rpb_live_ledger_checkpoint): failures.log's
	 * length then, and when (wall ms; 0 before the first one). */
	uint64_t durable_log;
	uint64_t durable_ms;
	/* Where the results lived when the run began (hostinfo.h): verify
	 * trusts the page cache's view only on the same instance. */
	unsigned char boot_id[16];
	uint64_t mount_id;
	uint64_t pad;
};

/* One worker's slot, a cache line of its own (no false sharing). */
struct rpb_ledger_slot {
	_Atomic uint64_t started;  /* operations 0..started-1 were begun */
	_Atomic uint64_t finished; /* operations 0..finished-1 have a known outcome */
	_Atomic uint64_t failures; /* lines this worker appended to failures.log */
	uint64_t durable;          /* finished at the last durable point */
	uint64_t pad[4];
};

/* The size of ledger.bin for nworkers workers. */
static inline size_t rpb_ledger_size(unsigned nworkers)
{
	return sizeof(struct rpb_ledger_header) + (size_t)nworkers * sizeof(struct rpb_ledger_slot);
}

#define RPB_LEDGER_TRACKED 4
struct rpb_live_ledger {
	void *map;
	size_t maplen;
	struct rpb_ledger_slot *slots;
	unsigned nworkers;
	int failfd;
	uint64_t *snap;                  /* finished, read at a checkpoint */
	/* A pattern's own live files, made durable with the ledger. */
	struct { void *addr; size_t len; } maps[RPB_LEDGER_TRACKED];
	int fds[RPB_LEDGER_TRACKED];
	unsigned nmaps, nfds;
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
/* A durable point, off the operations' path (the supervisor calls it at
 * every progress interval and at the end under sync = commit, and the
 * driver once before the first operation): each slot's finished count is
 * read, failures.log (and every tracked file) synced, then the counts are
 * stored as the slots' durable and the ledger synced. After a power cut
 * the ledger on disk is at least what it was at its last durable point,
 * and failures.log holds every failure of the operations before it.
 * 0, or -1 with errno. */
int rpb_live_ledger_checkpoint(struct rpb_live_ledger *L, uint64_t wall_ms);
/* A pattern's own live file made durable at each checkpoint: a mapping of
 * it (msync), or a descriptor (fsync). Before the run starts. */
void rpb_live_ledger_track_map(struct rpb_live_ledger *L, void *addr, size_t len);
void rpb_live_ledger_track_fd(struct rpb_live_ledger *L, int fd);
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

/* Whether a result file's bytes are what a file leaves that was created
 * but whose content never reached the disk: none, or only zero bytes (a
 * power cut, or a crash of the machine, before it was synced). */
bool rpb_never_written(const char *bytes, size_t len);
/* The one-line explanation for such a file (what names it in the text):
 * "PATH is empty (0 bytes) ...". Returns -1. */
int rpb_lost_file(char *msg, size_t n, const char *path, size_t len, const char *what);

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
