/* YCSB's status lines (ycsb_status.c): the ycsb pattern's progress output. */
#ifndef RPB_YCSB_STATUS_H
#define RPB_YCSB_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"

struct rpb_runner;

struct ycsb_status {
	struct rpb_hist_snap *prev; /* each label at the previous line */
	struct rpb_hist_snap *cur, *tmp;
	double printed_at;          /* seconds of the previous line */
	uint64_t ops_at;            /* operations done then */
};

int ycsb_status_init(struct ycsb_status *s);
void ycsb_status_free(struct ycsb_status *s);
/* Prints one status line: seconds since the start; final at the end (not
 * printed again when the last line was just now). */
void ycsb_status_line(struct ycsb_status *s, struct rpb_runner *rn, double seconds, bool final);

#endif
