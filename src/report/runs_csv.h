/* OUT/runs.csv of rpbench compare: one row per run with its figures, for
 * loading into a spreadsheet or a data frame (docs/results.md, "runs.csv").
 * Fields are quoted as RFC 4180 says, so a label, path or message holding a
 * comma, a double quote or a line break stays one field. */
#ifndef RPB_RUNS_CSV_H
#define RPB_RUNS_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"

/* Writes s as one RFC 4180 field: as it is, or in double quotes (each
 * quote doubled) when it holds a comma, a quote, CR or LF. */
void rpb_csv_field(FILE *f, const char *s);

/* Writes DIR/runs.csv: a header row, then one row per run of c in run order
 * (dir relative to DIR). -1 with one line in msg when it cannot be written. */
int rpb_runs_csv_write(const struct rpb_cmp *c, const char *dir, char *msg, size_t n);

#endif
