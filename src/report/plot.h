/* The report's figures: data files extracted from each backend's plotted run
 * (intervals.csv, probe.csv, result.json) and a gnuplot script per figure,
 * run by gnuplot as a child into an SVG and a PNG. */
#ifndef RPB_PLOT_H
#define RPB_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"

/* The figures of every report, then one of backend gauges per run that
 * has them (at most RPB_PLOT_MAX_GAUGE_FIGURES, and one entry that says
 * how many more were not drawn). */
#define RPB_PLOT_MAX_GAUGE_FIGURES 16
#define RPB_PLOT_MAX_FIGURES (8 + RPB_PLOT_MAX_GAUGE_FIGURES + 1)

struct rpb_figure {
	char name[32];     /* figures/<name>.svg, figures/<name>.png, figures/<name>.gp */
	char title[512];
	char caption[768]; /* what is plotted, from which file, and any approximation */
	bool made;
	char skipped[256]; /* why it was not drawn, when !made */
};

/* Draws every figure into dir/figures (data files in dir/data). A figure
 * whose data no backend has is skipped with the reason. Returns -1 with
 * one line in msg when gnuplot is missing or fails. */
int rpb_plot_all(const struct rpb_cmp *c, const char *dir, struct rpb_figure *figs,
		 size_t *nfigs, char *msg, size_t n);

/* A figure's gnuplot script being written: figures/<name>.gp. */
struct rpb_plot_script {
	FILE *f;
	char path[RPB_CMP_PATH + 64];
};
/* Opens the script and writes the settings every figure shares: the
 * backends' line styles (ls 1, 2, ... in backend order) and the title. */
bool rpb_plot_script_open(struct rpb_plot_script *sc, const char *dir, const struct rpb_cmp *c,
			  const struct rpb_figure *fig);
/* Ends the script with plot (drawn into the SVG and the PNG), runs gnuplot
 * and marks the figure made. Returns -1 with one line in msg. */
int rpb_plot_draw(const char *dir, struct rpb_figure *fig, struct rpb_plot_script *sc,
		  const char *plot, int width, int height, char *msg, size_t n);

/* The colour of a backend in every figure and table: "#0072b2". */
const char *rpb_plot_colour(const struct rpb_cmp *c, const char *backend);

#endif
