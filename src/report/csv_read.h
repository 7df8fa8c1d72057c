/* The CSV files of a run (intervals.csv, probe.csv; samples.jtl is only
 * opened here, its rows are read by jtl_read.c) as the report reads
 * them: a header of column names, then rows of as many comma-separated
 * fields; any other line is skipped. A line longer than RPB_CSV_LINE_MAX
 * is read as several lines (each then skipped or checked like any other).
 * Numbers are read by plot_value.h's rule, the one for every figure. */
#ifndef RPB_CSV_READ_H
#define RPB_CSV_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plot_value.h"

#define RPB_CSV_MAX_COLS 32
#define RPB_CSV_LINE_MAX 4096

struct rpb_csv {
	FILE *f;
	char line[RPB_CSV_LINE_MAX];
	char *field[RPB_CSV_MAX_COLS];
	size_t nfields;
	size_t lineno;             /* of the row just read, 1 = the header */
	char head[RPB_CSV_LINE_MAX];
	char *name[RPB_CSV_MAX_COLS];
	size_t nnames;
	bool text[RPB_CSV_MAX_COLS]; /* columns of text (probe.csv's label, status), not numbers */
};

/* Opens dir/file and reads its header; false when there is none. */
bool rpb_csv_open(struct rpb_csv *c, const char *dir, const char *file);
/* Opens one of a run's data files, its columns of text marked. */
bool rpb_csv_open_data(struct rpb_csv *c, const char *dir, enum rpb_data_file file);
/* The index of a column, or -1. */
int rpb_csv_col(const struct rpb_csv *c, const char *name);
/* The next row with as many fields as the header; false at the end. */
bool rpb_csv_next(struct rpb_csv *c);
/* The next row with as many fields as the header whose every number is
 * fit to plot (plot_value.h); a row that is not is counted in skips (NULL:
 * not counted) by its first reason, except a last line without its
 * newline: the one being written when the run ended is no row. */
bool rpb_csv_next_fit(struct rpb_csv *c, struct rpb_skips *skips);
/* A field as a number fit to plot (plot_value.h); NAN when the column is
 * missing or the field is not one. */
double rpb_csv_num(const struct rpb_csv *c, int col);
void rpb_csv_close(struct rpb_csv *c);

#endif
