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

#include "fsutil.h"
#include "hostinfo.h"
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
	if (!(L->snap = calloc(nworkers ? nworkers : 1, sizeof *L->snap))) {
		snprintf(msg, n, "out of memory for the live ledger");
		return -1;
	}
	int fd = rpb_results_file_create(dir, RPB_LEDGER_FILE, O_RDWR, msg, n);
	if (fd < 0) {
		rpb_live_ledger_close(L);
		return -1;
	}
	L->maplen = rpb_ledger_size(nworkers);
	if (ftruncate(fd, (off_t)L->maplen) != 0 ||
	    (L->map = mmap(NULL, L->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		snprintf(msg, n, "cannot map %s/%s: %s; check the results directory (--out)", dir,
			 RPB_LEDGER_FILE, strerror(errno));
		L->map = NULL;
		close(fd);
		rpb_live_ledger_close(L);
		return -1;
	}
	close(fd); /* the mapping keeps the file */
	struct rpb_ledger_header *h = L->map;
	memcpy(h->magic, RPB_LEDGER_MAGIC, sizeof h->magic);
	h->nworkers = nworkers;
	h->slot_size = sizeof(struct rpb_ledger_slot);
	struct rpb_fs_instance fi;
	rpb_fs_instance_of(dir, &fi);
	memcpy(h->boot_id, fi.boot_id, sizeof h->boot_id);
	h->mount_id = fi.mount_id;
	L->slots = (struct rpb_ledger_slot *)(h + 1);
	L->nworkers = nworkers;
	L->failfd = rpb_results_file_create(dir, RPB_FAILURES_FILE, O_WRONLY | O_APPEND, msg, n);
	if (L->failfd < 0) {
		rpb_live_ledger_close(L);
		return -1;
	}
	/* On the disk at once: a power cut during the pattern's preparation
	 * leaves a ledger of no operations, not zeros. */
	if (rpb_live_ledger_checkpoint(L, 0) != 0) {
		snprintf(msg, n, "cannot sync %s/%s: %s; check the results directory (--out)", dir,
			 RPB_LEDGER_FILE, strerror(errno));
		rpb_live_ledger_close(L);
		return -1;
	}
	return 0;
}

void rpb_live_ledger_track_map(struct rpb_live_ledger *L, void *addr, size_t len)
{
	if (L->nmaps < RPB_LEDGER_TRACKED) {
		L->maps[L->nmaps].addr = addr;
		L->maps[L->nmaps++].len = len;
	}
}

void rpb_live_ledger_track_fd(struct rpb_live_ledger *L, int fd)
{
	if (L->nfds < RPB_LEDGER_TRACKED)
		L->fds[L->nfds++] = fd;
}

int rpb_live_ledger_checkpoint(struct rpb_live_ledger *L, uint64_t wall_ms)
{
	if (!L->map)
		return 0;
	/* First what the workers have finished: every failure of those
	 * operations was appended before its finished count moved (release). */
	for (unsigned w = 0; w < L->nworkers; w++)
		L->snap[w] = atomic_load_explicit(&L->slots[w].finished, memory_order_acquire);
	struct stat sb;
	if (fstat(L->failfd, &sb) != 0 || fsync(L->failfd) != 0)
		return -1;
	for (unsigned i = 0; i < L->nfds; i++)
		if (fsync(L->fds[i]) != 0)
			return -1;
	for (unsigned i = 0; i < L->nmaps; i++)
		if (msync(L->maps[i].addr, L->maps[i].len, MS_SYNC) != 0)
			return -1;
	/* Then the point itself: only this thread writes these fields. */
	struct rpb_ledger_header *h = L->map;
	for (unsigned w = 0; w < L->nworkers; w++)
		L->slots[w].durable = L->snap[w];
	h->durable_log = (uint64_t)sb.st_size;
	h->durable_ms = wall_ms;
	return msync(L->map, L->maplen, MS_SYNC);
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
	/* Only this worker writes its slot's count. */
	uint64_t k = atomic_load_explicit(&L->slots[worker].failures, memory_order_relaxed);
	atomic_store_explicit(&L->slots[worker].failures, k + 1, memory_order_relaxed);
}

void rpb_live_ledger_close(struct rpb_live_ledger *L)
{
	if (L->map)
		munmap(L->map, L->maplen);
	if (L->failfd >= 0)
		close(L->failfd);
	free(L->snap);
	memset(L, 0, sizeof *L);
	L->failfd = -1;
}
