/* What a comparison is written as: the side-by-side table on the terminal
 * and in compare.md, compare.json with the exact values, and the report
 * directory (index.html and the figures of plot.c). The tables themselves
 * are report_table.h's. */
#ifndef RPB_REPORT_H
#define RPB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"

/* Prints the headline, the table and its legend (the terminal form). */
void rpb_report_print(const struct rpb_cmp *c, FILE *f);
/* DIR/compare.md, DIR/compare.json and DIR/runs.csv; paths in them are relative to DIR.
 * command is the compare command line (NULL: not recorded). */
int rpb_report_compare_files(const struct rpb_cmp *c, const char *dir, const char *command,
			     char *msg, size_t n);

/* The report directory: figures (plot.c) and index.html. dir must be new
 * or empty; it is created. */
int rpb_report_write(const struct rpb_cmp *c, const char *dir, char *msg, size_t n);

/* Makes dir (and its parents) if missing; refuses one that holds anything,
 * so nothing rpbench did not write is ever overwritten. */
int rpb_report_new_dir(const char *dir, const char *flag, char *msg, size_t n);

#endif
