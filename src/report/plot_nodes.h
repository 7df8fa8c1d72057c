/* The figure of runs of several load nodes (docs/distributed.md): each
 * node's throughput as a bar, next to the run's total. */
#ifndef RPB_PLOT_NODES_H
#define RPB_PLOT_NODES_H

#include "figure.h"

/* Appends the figure when a run has a nodes array; nothing otherwise.
 * Returns -1 with one line in msg when a file cannot be written or gnuplot
 * fails. */
int rpb_plot_nodes(const struct rpb_cmp *c, const char *dir, const char *where,
		   struct rpb_figure *figs, size_t *nfigs, char *msg, size_t n);

#endif
