/* The rows of a run's data files that no figure can use (plot_value.h),
 * counted once when the run is read, so the report can say how many. */
#ifndef RPB_DATA_SKIPS_H
#define RPB_DATA_SKIPS_H

#include <stddef.h>

#include "compare.h"

/* Fills r->skips from r->dir's intervals.csv, probe.csv and samples.jtl. */
void rpb_run_skips_read(struct rpb_cmp_run *r);

/* "r/intervals.csv 1 row skipped: not finite, r/samples.jtl 2 rows
 * skipped: label not in result.json" over every run into buf; the rows in
 * all (0: none, buf ""). */
size_t rpb_cmp_skips_text(const struct rpb_cmp *c, char *buf, size_t n);

#endif
