/* The table's rows beyond the fixed figures (compare.h rpb_cmp_row): one
 * throughput and one p99 row per label after the main one, in order of
 * first appearance over the runs; a YCSB run's load phase; harvest's
 * records per second and time of a harvest of the whole corpus. */
#ifndef RPB_COMPARE_ROWS_H
#define RPB_COMPARE_ROWS_H

#include "compare.h"

/* Reads DIR-load/result.json beside a YCSB run's results into
 * r->load_root when it is there and passes result_check.h's rules. */
void rpb_cmp_rows_load(struct rpb_cmp *c, struct rpb_cmp_run *r);

/* Fills c->rows and every included run's rv/rhave. */
void rpb_cmp_rows(struct rpb_cmp *c);

#endif
