/* A figure of the report: what index.html says of it, its gnuplot script
 * (figures/<name>.gp) and gnuplot run on it into an SVG and a PNG. The
 * figures of plot.c and plot_gauges.c are all drawn this way. */
#ifndef RPB_FIGURE_H
#define RPB_FIGURE_H

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

/* The colour of a backend in every figure and table: "#0072b2". */
const char *rpb_plot_colour(const struct rpb_cmp *c, const char *backend);

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

#endif
