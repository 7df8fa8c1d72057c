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
#include "runner.h"

_Static_assert(sizeof(struct rpb_ledger_header) == 64, "header is one cache line");
_Static_assert(sizeof(struct rpb_ledger_slot) == 64, "slot is one cache line");

int rpb_results_file_create(const char *dir, const char *name, int flags, char *msg, size_t n)
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
	int fd = rpb_results_file_create(dir, RPB_LEDGER_FILE, O_RDWR, msg, n);
	if (fd < 0)
		return -1;
	L->maplen = rpb_ledger_size(nworkers);
	if (ftruncate(fd, (off_t)L->maplen) != 0 ||
	    (L->map = mmap(NULL, L->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		snprintf(msg, n, "cannot map %s/%s: %s; check the results directory (--out)", dir,
			 RPB_LEDGER_FILE, strerror(errno));
		L->map = NULL;
		close(fd);
		return -1;
	}
	close(fd); /* the mapping keeps the file */
	struct rpb_ledger_header *h = L->map;
	memcpy(h->magic, RPB_LEDGER_MAGIC, sizeof h->magic);
	h->nworkers = nworkers;
	h->slot_size = sizeof(struct rpb_ledger_slot);
	L->slots = (struct rpb_ledger_slot *)(h + 1);
	L->nworkers = nworkers;
	L->failfd = rpb_results_file_create(dir, RPB_FAILURES_FILE, O_WRONLY | O_APPEND, msg, n);
	if (L->failfd < 0) {
		rpb_live_ledger_close(L);
		return -1;
	}
	return 0;
}

void rpb_live_ledger_failure(struct rpb_live_ledger *L, unsigned worker,
			     const struct rpb_failure *f, const char *const *labels)
{
	if (L->failfd < 0)
		return;
	char line[160];
	int len = snprintf(line, sizeof line, "%u %" PRIu64 " %s %d%s%s\n", worker, f->op,
			   rpb_status_name(f->status), f->in_doubt ? 1 : 0, f->label ? " " : "",
			   f->label ? labels[f->label] : "");
	/* One write of a short line to an O_APPEND file: whole even when several
	 * workers fail at once. A failed write makes verify find the ledger
	 * damaged: loud, not silent. */
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
