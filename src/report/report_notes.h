/* The lines under the comparison's table that say what its figures leave
 * out: where each backend's WAL is counted, and a PostgreSQL server left at
 * its small default shared_buffers. */
#ifndef RPB_REPORT_NOTES_H
#define RPB_REPORT_NOTES_H

#include <stddef.h>

#include "compare.h"

#define RPB_NOTE_MAX 8
#define RPB_NOTE_SIZE 512

/* Fills lines[0..] with the notes for c's columns and returns how many. */
size_t rpb_report_notes(const struct rpb_cmp *c, char lines[RPB_NOTE_MAX][RPB_NOTE_SIZE]);

#endif
