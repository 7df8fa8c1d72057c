/* samples.jtl's rows as the report reads them: CSV as JMeter writes it (a
 * quoted field may hold commas, doubled quotes and line breaks), of which
 * only the first three fields are used: timeStamp, elapsed and label. */
#ifndef RPB_JTL_READ_H
#define RPB_JTL_READ_H

#include <jansson.h>
#include <stdbool.h>

#include "csv_read.h"

#define RPB_JTL_FIELD_MAX 128 /* a label name is at most 64 bytes */

struct rpb_jtl_row {
	double ts, ms; /* timeStamp (ms since the epoch), elapsed (ms) */
	char label[RPB_JTL_FIELD_MAX];
};

/* The next row (of c, opened with rpb_csv_open) fit to plot: timeStamp and
 * elapsed numbers fit to plot (plot_value.h), elapsed >= 0, and the label
 * a key of labels (result.json's) that is a label name. Rows that are not
 * are counted in skips (NULL: not counted), but for a last one cut short
 * by the end of the file. false at the end. */
bool rpb_jtl_next(struct rpb_csv *c, const json_t *labels, struct rpb_jtl_row *row,
		  struct rpb_skips *skips);

#endif
