/* The backend gauges figures of a report: one per run whose intervals.csv
 * has gauge_<name> columns, completed or not (the gauges often explain why
 * a run ended), with the end of the run and its stop reason marked. */
#ifndef RPB_PLOT_GAUGES_H
#define RPB_PLOT_GAUGES_H

#include <stddef.h>

#include "compare.h"
#include "figure.h"

/* Appends the figures to figs (at most RPB_PLOT_MAX_GAUGE_FIGURES drawn,
 * then one entry naming how many more runs had gauges). where is the
 * figures' common title tail. Returns -1 with one line in msg when a file
 * cannot be written or gnuplot fails. */
int rpb_plot_gauges(const struct rpb_cmp *c, const char *dir, const char *where,
		    struct rpb_figure *figs, size_t *nfigs, char *msg, size_t n);

#endif
