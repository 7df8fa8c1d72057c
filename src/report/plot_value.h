/* The one rule for a number read from a results directory's data files
 * (intervals.csv, probe.csv, samples.jtl) before it reaches a figure: a
 * whole decimal number, finite, within +-RPB_PLOT_LIMIT. A row holding a
 * value that is not is skipped by every figure and counted once per file,
 * by its first reason; the report says how many (report_html.c) and
 * rpbench exits 4 (docs/results.md). */
#ifndef RPB_PLOT_VALUE_H
#define RPB_PLOT_VALUE_H

#include <stdbool.h>
#include <stddef.h>

/* Beyond every figure rpbench writes (result.json's are below 4.6e18;
 * samples.jtl's epoch milliseconds about 1.8e12), within what gnuplot's
 * ranges and tics handle. */
#define RPB_PLOT_LIMIT 1e19

enum rpb_unfit {
	RPB_FIT = 0,
	RPB_UNFIT_TEXT,      /* not a decimal number */
	RPB_UNFIT_INFINITE,  /* nan, inf */
	RPB_UNFIT_RANGE,     /* beyond +-RPB_PLOT_LIMIT, or negative where a figure cannot be */
	RPB_UNFIT_FIELDS,    /* a row of other than the header's number of fields */
	RPB_UNFIT_LABEL,     /* samples.jtl: a label not among result.json's labels */
	RPB_UNFIT_COUNT
};

/* The data files whose rows are counted. */
enum rpb_data_file { RPB_DATA_INTERVALS, RPB_DATA_PROBE, RPB_DATA_JTL, RPB_DATA_COUNT };

/* Rows skipped, by reason. */
struct rpb_skips {
	size_t n[RPB_UNFIT_COUNT];
};

/* text as a number fit to plot into *v; the reason when it is not. */
enum rpb_unfit rpb_plot_value(const char *text, double *v);
/* Whether v (from JSON, or computed) is fit to plot. */
bool rpb_plot_fit(double v);
/* "not finite", "not a number", ... */
const char *rpb_unfit_reason(enum rpb_unfit why);
/* "intervals.csv", ... */
const char *rpb_data_file_name(enum rpb_data_file f);
/* The rows skipped in all. */
size_t rpb_skips_total(const struct rpb_skips *s);
/* "12 rows skipped: not finite; 1 row: not a number" into buf (""
 * when none). */
void rpb_skips_text(const struct rpb_skips *s, char *buf, size_t n);

#endif
