/* How a run ended, as the report shows it: the last moment its
 * intervals.csv holds, and for a run that ended early (a fault, a signal,
 * a kill) the words of the mark drawn at that moment on every figure over
 * time or over acknowledged operations ("disk full after 1,258 creates",
 * "killed: results up to t = 12 s"). A killed run, whose result.json is
 * still the one written at the start, gets its figures from intervals.csv. */
#ifndef RPB_RUN_END_H
#define RPB_RUN_END_H

#include "compare.h"

/* Reads r->dir/intervals.csv into r->end_s, r->end_acked and
 * r->have_intervals; sets r->end_mark ("" for a run that completed). For a
 * run without results (killed), fills the figures intervals.csv gives:
 * all-label throughput, acked operations and bytes on disk. noun names
 * what the count counts (the pattern's: ingest's "creates"). */
void rpb_run_end_read(struct rpb_cmp_run *r, const char *noun);

/* "1,258": n with thousands separators. */
void rpb_thousands(char *buf, size_t n, unsigned long long v);

#endif
