/* The notes under the comparison's table (report_notes.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report_notes.h"

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

size_t rpb_report_notes(const struct rpb_cmp *c, char lines[RPB_NOTE_MAX][RPB_NOTE_SIZE])
{
	size_t k = 0;
	bool bytes = false;
	for (size_t b = 0; b < c->nbackends; b++)
		bytes |= c->backends[b].stat[RPB_M_STORE_BYTES].have;
	if (bytes)
		wal_note(c, lines[k++], RPB_NOTE_SIZE);
	return k;
}
