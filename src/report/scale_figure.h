/* rpbench scale's figures and page: OUT/figures/scale-<metric>.gp drawn by
 * gnuplot into .svg and .png (the metric against objects on a log x axis,
 * each backend in its palette colour: measured points joined, its fit
 * dashed out to 10^7 objects), and OUT/index.html with every figure and
 * the projection lines of scale.txt. */
#ifndef RPB_SCALE_FIGURE_H
#define RPB_SCALE_FIGURE_H

#include <stddef.h>

#include "scale_model.h"

int rpb_scale_figures(const struct rpb_scale_plan *p, const struct rpb_scale_backend *sbs,
		      size_t nb, char *msg, size_t n);

#endif
