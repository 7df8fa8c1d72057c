/* The live ledger (ledger.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ledger.h"
#include "paths.h"
#include "results.h"

#define MAGIC "RPBLEDG1"

struct ledger_header {
	char magic[8];
	uint32_t nworkers;
	uint32_t slot_size;
	uint64_t pad[6];
};
_Static_assert(sizeof(struct ledger_header) == 64, "header is one cache line");
_Static_assert(sizeof(struct rpb_ledger_slot) == 64, "slot is one cache line");

static size_t map_size(unsigned nworkers)
{
	return sizeof(struct ledger_header) + (size_t)nworkers * sizeof(struct rpb_ledger_slot);
}

static int open_new(const char *dir, const char *name, int flags, char *msg, size_t n)
{
	char path[PATH_MAX];
	int fd = rpb_path_join(path, sizeof path, dir, name) == 0
			 ? open(path, flags | O_CREAT | O_EXCL | O_CLOEXEC, 0644)
			 : -1;
	if (fd < 0)
		snprintf(msg, n, "cannot create %s/%s: %s; give an empty results directory (--out)", dir,
			 name, strerror(errno));
	return fd;
}

int rpb_live_ledger_open(struct rpb_live_ledger *L, const char *dir, unsigned nworkers,
			 char *msg, size_t n)
{
	memset(L, 0, sizeof *L);
	L->failfd = -1;
	int fd = open_new(dir, RPB_LEDGER_FILE, O_RDWR, msg, n);
	if (fd < 0)
		return -1;
	L->maplen = map_size(nworkers);
	if (ftruncate(fd, (off_t)L->maplen) != 0 ||
	    (L->map = mmap(NULL, L->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		snprintf(msg, n, "cannot map %s/%s: %s; check the results directory (--out)", dir,
			 RPB_LEDGER_FILE, strerror(errno));
		L->map = NULL;
		close(fd);
		return -1;
	}
	close(fd); /* the mapping keeps the file */
	struct ledger_header *h = L->map;
	memcpy(h->magic, MAGIC, sizeof h->magic);
	h->nworkers = nworkers;
	h->slot_size = sizeof(struct rpb_ledger_slot);
	L->slots = (struct rpb_ledger_slot *)(h + 1);
	L->nworkers = nworkers;
	L->failfd = open_new(dir, RPB_FAILURES_FILE, O_WRONLY | O_APPEND, msg, n);
	if (L->failfd < 0) {
		rpb_live_ledger_close(L);
		return -1;
	}
	return 0;
}

void rpb_live_ledger_failure(struct rpb_live_ledger *L, unsigned worker, uint64_t op,
			     enum rpb_status st, bool in_doubt)
{
	if (L->failfd < 0)
		return;
	char line[96];
	int len = snprintf(line, sizeof line, "%u %" PRIu64 " %s %d\n", worker, op,
			   rpb_status_name(st), in_doubt ? 1 : 0);
	/* One write of a short line to an O_APPEND file: whole even when several
	 * workers fail at once. A failed write makes verify report the op as
	 * missing: loud, not silent. */
	if (write(L->failfd, line, (size_t)len) != len)
		return;
}

void rpb_live_ledger_close(struct rpb_live_ledger *L)
{
	if (L->map)
		munmap(L->map, L->maplen);
	if (L->failfd >= 0)
		close(L->failfd);
	memset(L, 0, sizeof *L);
	L->failfd = -1;
}

/* ---- reading back ---- */

static int fail(char *msg, size_t n, const char *dir, const char *what)
{
	snprintf(msg, n, "%s: %s; give the results directory of an rpbench run", dir, what);
	return -1;
}

static int read_slots(const char *dir, struct rpb_ledger_slot **slots, unsigned *nworkers,
		      char *msg, size_t n)
{
	char path[PATH_MAX];
	FILE *f = rpb_path_join(path, sizeof path, dir, RPB_LEDGER_FILE) == 0 ? fopen(path, "rb") : NULL;
	if (!f)
		return fail(msg, n, dir, "the run did not finish and has no " RPB_LEDGER_FILE);
	struct ledger_header h;
	int rc = -1;
	if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, MAGIC, sizeof h.magic) != 0 ||
	    h.slot_size != sizeof(struct rpb_ledger_slot) || h.nworkers == 0 || h.nworkers > 65536) {
		fail(msg, n, dir, RPB_LEDGER_FILE " is damaged");
	} else if (!(*slots = calloc(h.nworkers, sizeof **slots))) {
		fail(msg, n, dir, "out of memory reading " RPB_LEDGER_FILE);
	} else if (fread(*slots, sizeof **slots, h.nworkers, f) != h.nworkers) {
		fail(msg, n, dir, RPB_LEDGER_FILE " is truncated");
		free(*slots);
		*slots = NULL;
	} else {
		*nworkers = h.nworkers;
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* Failures per worker in file order (each worker appends in op order). */
static int read_failures(struct rpb_result_file *rf, const char *dir, char *msg, size_t n)
{
	char path[PATH_MAX], cls[32];
	FILE *f = rpb_path_join(path, sizeof path, dir, RPB_FAILURES_FILE) == 0 ? fopen(path, "r") : NULL;
	if (!f)
		return fail(msg, n, dir, "the run did not finish and has no " RPB_FAILURES_FILE);
	size_t cap = 0, count = 0;
	struct {
		unsigned t;
		struct rpb_failure f;
	} *all = NULL;
	unsigned t;
	uint64_t op;
	int doubt, rc = 0;
	while (fscanf(f, "%u %" SCNu64 " %31s %d", &t, &op, cls, &doubt) == 4) {
		if (t >= rf->ledger.nworkers) {
			rc = fail(msg, n, dir, RPB_FAILURES_FILE " names a thread the run did not have");
			break;
		}
		if (count == cap) {
			cap = cap ? cap * 2 : 64;
			void *p = realloc(all, cap * sizeof *all);
			if (!p) {
				rc = fail(msg, n, dir, "out of memory reading " RPB_FAILURES_FILE);
				break;
			}
			all = p;
		}
		all[count].t = t;
		all[count].f = (struct rpb_failure){op, rpb_status_parse(cls), doubt != 0};
		count++;
	}
	fclose(f);
	if (!rc && !(rf->failures = calloc(count + 1, sizeof *rf->failures)))
		rc = fail(msg, n, dir, "out of memory reading " RPB_FAILURES_FILE);
	struct rpb_failure *next = rf->failures;
	for (unsigned w = 0; !rc && w < rf->ledger.nworkers; w++) {
		rf->workers[w].failures = next;
		for (size_t i = 0; i < count; i++)
			if (all[i].t == w) {
				*next++ = all[i].f;
				rf->workers[w].nfailures++;
			}
	}
	free(all);
	return rc;
}

int rpb_live_ledger_read(struct rpb_result_file *rf, const char *dir, char *msg, size_t n)
{
	struct rpb_ledger_slot *slots = NULL;
	unsigned nw = 0;
	if (read_slots(dir, &slots, &nw, msg, n) != 0)
		return -1;
	rf->workers = calloc(nw, sizeof *rf->workers);
	if (!rf->workers) {
		free(slots);
		return fail(msg, n, dir, "out of memory reading " RPB_LEDGER_FILE);
	}
	for (unsigned w = 0; w < nw; w++) {
		uint64_t started = atomic_load(&slots[w].started);
		uint64_t finished = atomic_load(&slots[w].finished);
		rf->workers[w].issued = started;
		/* started - finished is 0 or 1: the op the process died in. */
		rf->workers[w].in_flight = started > finished;
	}
	free(slots);
	rf->ledger.run_tag = rf->run_tag;
	rf->ledger.nworkers = nw;
	rf->ledger.workers = rf->workers;
	rf->ledger.interrupted = true;
	return read_failures(rf, dir, msg, n);
}
