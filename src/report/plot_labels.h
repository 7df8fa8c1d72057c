/* The labels-time figure: each label's samples per second and mean
 * latency over time, from samples.jtl (runs with jtl = on). intervals.csv
 * sums every label into one series; this one keeps them apart, so work
 * beside the main operation (harvest's background snapshot filler, whose
 * transactions are sampled as snapshot-build; ingest's probes) shows next
 * to what it competes with. */
#ifndef RPB_PLOT_LABELS_H
#define RPB_PLOT_LABELS_H

#include <stddef.h>

#include "compare.h"
#include "figure.h"

/* Appends the figure to figs, drawn or skipped with the reason. Returns -1
 * with one line in msg when a file cannot be written or gnuplot fails. */
int rpb_plot_labels(const struct rpb_cmp *c, const char *dir, const char *where,
		    struct rpb_figure *figs, size_t *nfigs, char *msg, size_t n);

#endif
