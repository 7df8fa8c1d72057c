/* index.html of a report directory: the tables, the runs, the options and
 * the figures, readable offline. */
#ifndef RPB_REPORT_HTML_H
#define RPB_REPORT_HTML_H

#include <stddef.h>

#include "compare.h"

/* Writes index.html into dir, given the figures plot.c made. */
struct rpb_figure;
int rpb_report_html(const struct rpb_cmp *c, const char *dir, const struct rpb_figure *figs,
		    size_t nfigs, char *msg, size_t n);

#endif
