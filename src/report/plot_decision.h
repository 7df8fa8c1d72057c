/* The report's first figure, the one a reader decides by: each column's
 * throughput against its p99 latency (the main label's medians), a point
 * per column sized by its bytes on disk per acknowledged object. */
#ifndef RPB_PLOT_DECISION_H
#define RPB_PLOT_DECISION_H

#include <stddef.h>

#include "figure.h"

/* The figure's name: index.html puts it above the tables. */
#define RPB_PLOT_DECISION "decision"

/* Appends the figure (drawn, or with the reason it is not). where is the
 * figures' common title tail. Returns -1 with one line in msg when a file
 * cannot be written or gnuplot fails. */
int rpb_plot_decision(const struct rpb_cmp *c, const char *dir, const char *where,
		      struct rpb_figure *figs, size_t *nfigs, char *msg, size_t n);

#endif
