/* The report's figures: data files extracted from each backend's plotted run
 * (intervals.csv, probe.csv, result.json) and a gnuplot script per figure,
 * run by gnuplot as a child into an SVG and a PNG. */
#ifndef RPB_PLOT_H
#define RPB_PLOT_H

#include <stddef.h>

#include "compare.h"
#include "figure.h"

/* Draws every figure into dir/figures (data files in dir/data). A figure
 * whose data no backend has is skipped with the reason. Returns -1 with
 * one line in msg when gnuplot is missing or fails. */
int rpb_plot_all(const struct rpb_cmp *c, const char *dir, struct rpb_figure *figs,
		 size_t *nfigs, char *msg, size_t n);

#endif
