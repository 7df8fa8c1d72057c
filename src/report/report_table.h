/* The comparison's tables: one column per backend, one row per figure,
 * as cells of text with the documented rounding, printed as an aligned
 * Markdown table (also the terminal form) or as HTML (report_html.c).
 *
 * Rounding of the text tables (compare.json keeps the exact values):
 * throughput (ops/s) and latency (µs) to 0.1, bytes on disk in MiB
 * (2^20 bytes) to 0.01, space amplification and ratios to 0.01, acked
 * operations and error counts exact; "%.Nf" rounding of the C library. */
#ifndef RPB_REPORT_TABLE_H
#define RPB_REPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"

/* The table: rows of cells, the first row the backend names, the first
 * column the row headings. */
struct rpb_grid {
	char ***cell; /* cell[row][col], owned */
	size_t rows, cols;
	bool *numeric_row; /* right-aligned cells */
};

/* The main table: one column per backend, one row per figure. */
int rpb_report_table(const struct rpb_cmp *c, struct rpb_grid *t);
/* Every label of every backend: throughput, p50 and p99 (median run). */
int rpb_report_label_table(const struct rpb_cmp *c, struct rpb_grid *t);
void rpb_grid_free(struct rpb_grid *t);
/* A Markdown table padded into aligned columns (also the terminal form). */
void rpb_grid_markdown(const struct rpb_grid *t, FILE *f);

/* The text of one figure of one backend, with the documented rounding:
 * "5052.9", "5052.9 [4900.1–5100.0]" with repeats whose rounded values
 * differ; "n/a" when absent. */
void rpb_report_value(char *buf, size_t n, enum rpb_cmp_metric m, const struct rpb_cmp_stat *s);
/* "best", "×2.41", or "" when the figure has no ratio. */
void rpb_report_ratio(char *buf, size_t n, enum rpb_cmp_metric m, const struct rpb_cmp_stat *s);

/* The headline: "ingest (ci-ingest.ini), sync = none, 2 threads x 2
 * clients, seed 42". */
void rpb_report_headline(const struct rpb_cmp *c, char *buf, size_t n);

/* target as a path relative to the directory base (both must exist);
 * target itself when that cannot be worked out. */
void rpb_relpath(const char *base, const char *target, char *buf, size_t n);

#endif
