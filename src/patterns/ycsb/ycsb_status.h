/* YCSB's status lines (ycsb_status.c): the ycsb pattern's progress output. */
#ifndef RPB_YCSB_STATUS_H
#define RPB_YCSB_STATUS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ycsb_meas.h"

struct ycsb_status {
	/* Every measurement as of the previous line: HdrHistogram counts
	 * (made when the measurement first shows), latencies and their sum. */
	uint64_t *prev_hdr[YCSB_MAPS][YM_COUNT];
	uint64_t *cur;
	uint64_t prev_count[YCSB_MAPS][YM_COUNT], prev_sum[YCSB_MAPS][YM_COUNT];
	uint64_t prev_ms;           /* the previous line's time since the start */
	uint64_t ops_at;            /* operations done then */
	unsigned lines;             /* lines written */
};

/* What one line reports besides the measurements. */
struct ycsb_status_in {
	const struct ycsb_mconf *c;
	struct ycsb_wmeas *const *w; /* each worker's measurements */
	unsigned nw;
	const char *label;          /* -l */
	uint64_t ms;                /* since the start */
	uint64_t ops, todo;         /* operations done, and left to do */
};

int ycsb_status_init(struct ycsb_status *s);
void ycsb_status_free(struct ycsb_status *s);
/* Writes one status line (StatusThread.computeStats) to f, and to also
 * when it is not NULL. */
void ycsb_status_line(struct ycsb_status *s, const struct ycsb_status_in *in, FILE *f, FILE *also);

#endif
