/* The notes under the comparison's table (report_notes.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_notes.h"

#define SMALL_SHARED_BUFFERS (128.0 * 1048576) /* PostgreSQL's default */

/* Whether some included run of the comparison is (or is not) a server's. */
static bool any_run(const struct rpb_cmp *c, bool server)
{
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].included && c->runs[i].server == server)
			return true;
	return false;
}

static void wal_note(const struct rpb_cmp *c, char *buf, size_t n)
{
	bool servers = any_run(c, true), embedded = any_run(c, false);
	snprintf(buf, n, "Bytes on disk: %s%s%s Bytes per object and space amplification divide "
		 "tables + WAL.",
		 servers ? "a server's tables (with indexes and TOAST) leave out its WAL; tables + "
			   "WAL adds the WAL the server wrote during the run (totals.wal_bytes), "
			   "which checkpoints recycle, so more than it holds at once."
			 : "",
		 servers && embedded ? " " : "",
		 embedded ? "an embedded store's log (LevelDB's .log, SQLite's -wal) is inside its "
			    "directory, so both rows are the same for it."
			  : "");
}

/* A setting as SHOW gives it ("32MB", "128kB", "4GB") in bytes; false when
 * it is none. */
static bool setting_bytes(const char *text, double *out)
{
	static const struct {
		const char *unit;
		double bytes;
	} units[] = {{"B", 1}, {"kB", 1024}, {"MB", 1048576}, {"GB", 1073741824},
		     {"TB", 1099511627776.0}};
	char *end;
	double v = strtod(text, &end);
	if (end == text || v < 0)
		return false;
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (!strcmp(end, units[i].unit)) {
			*out = v * units[i].bytes;
			return true;
		}
	return false;
}

/* A column whose PostgreSQL server kept the small default of shared_buffers
 * or less: initdb writes 128MB (so does Debian's postgresql.conf), a server
 * short of shared memory gets less (down to 128kB), scripts/pg-throwaway
 * sets 32MB. A tuned server gives it about a quarter of memory. */
static bool small_buffers(const struct rpb_cmp *c, const struct rpb_cmp_backend *b, char *buf,
			  size_t n)
{
	for (size_t i = 0; i < b->nruns; i++) {
		const struct rpb_cmp_run *r = &c->runs[b->runs[i]];
		double bytes;
		if (!r->server || !setting_bytes(r->shared_buffers, &bytes) ||
		    bytes > SMALL_SHARED_BUFFERS)
			continue;
		snprintf(buf, n, "Warning: %s ran with shared_buffers = %s, no more than PostgreSQL's "
			 "small default (128MB from initdb, 32MB from scripts/pg-throwaway): results "
			 "understate a tuned server, which typically gives it a quarter of memory.",
			 b->label, r->shared_buffers);
		return true;
	}
	return false;
}

size_t rpb_report_notes(const struct rpb_cmp *c, char lines[RPB_NOTE_MAX][RPB_NOTE_SIZE])
{
	size_t k = 0;
	bool bytes = false;
	for (size_t b = 0; b < c->nbackends; b++)
		bytes |= c->backends[b].stat[RPB_M_STORE_BYTES].have;
	if (bytes)
		wal_note(c, lines[k++], RPB_NOTE_SIZE);
	for (size_t b = 0; b < c->nbackends && k < RPB_NOTE_MAX; b++)
		k += small_buffers(c, &c->backends[b], lines[k], RPB_NOTE_SIZE);
	return k;
}
