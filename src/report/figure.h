/* A figure of the report: what index.html says of it, its gnuplot script
 * (figures/<name>.gp) and gnuplot run on it into an SVG and a PNG. The
 * figures of plot.c and plot_gauges.c are all drawn this way. */
#ifndef RPB_FIGURE_H
#define RPB_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"

/* The decision figure, the figures of every report, then one of backend
 * gauges per column that has them (a column's runs overlaid). */
#define RPB_PLOT_MAX_GAUGE_FIGURES RPB_CMP_MAX_BACKENDS
#define RPB_PLOT_MAX_FIGURES (10 + RPB_PLOT_MAX_GAUGE_FIGURES)

struct rpb_figure {
	char name[32];     /* figures/<name>.svg, figures/<name>.png, figures/<name>.gp */
	char title[512];
	char caption[768]; /* what is plotted, from which file, and any approximation */
	bool made;
	char skipped[256]; /* why it was not drawn, when !made */
};

/* The colour of a backend in every figure and table rpbench draws:
 * "#0072b2" (figure.c has the palette). */
const char *rpb_palette_colour(const char *backend);
/* The colour of a column (its label) or backend (its name) of c. */
const char *rpb_plot_colour(const struct rpb_cmp *c, const char *column);
/* 0 for a backend's first column, 1 for its second, ...: its dash and point type. */
unsigned rpb_plot_variant(const struct rpb_cmp *c, size_t b);

/* A log y axis: tics at 1-2-5 steps (..., 0.5, 1, 2, 5, 10, ..., 1k, 2k,
 * ...), so values can be read between the decades, and, given the data's
 * least and greatest value (lo > 0), a range from the step below to the
 * step above, so at least two tics are labelled and no point sits on the
 * frame. Into buf (snprintf's count), or into a script. */
int rpb_plot_log_y(char *buf, size_t n, double lo, double hi);
void rpb_plot_log_y_file(FILE *f, double lo, double hi);

/* The gnuplot commands that mark where a run ended early: a dashed line
 * (arrow tag) in colour at x from the bottom to the top of the plot, and
 * mark, quoted, just above the plot (row 0, 1, ... stacks the marks of
 * several runs), beside the line: to its left when right is set, else to
 * its right. Above the frame the words never hide data; the figure makes
 * room with rpb_plot_end_margin. Returns snprintf's count. */
int rpb_plot_end_mark(char *buf, size_t n, int tag, double x, unsigned row, bool right,
		      const char *colour, const char *mark);
/* The top margin for rows of marks above the plot (the title above them). */
void rpb_plot_end_margin(FILE *f, unsigned rows);

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
