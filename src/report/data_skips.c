/* Counting the rows no figure can use (data_skips.h). */
#include <stdio.h>

#include "csv_read.h"
#include "data_skips.h"
#include "jtl_read.h"

void rpb_run_skips_read(struct rpb_cmp_run *r)
{
	struct rpb_csv in;
	for (int f = RPB_DATA_INTERVALS; f <= RPB_DATA_PROBE; f++) {
		r->skips[f] = (struct rpb_skips){0};
		if (!rpb_csv_open_data(&in, r->dir, (enum rpb_data_file)f))
			continue;
		while (rpb_csv_next_fit(&in, &r->skips[f]))
			;
		rpb_csv_close(&in);
	}
	r->skips[RPB_DATA_JTL] = (struct rpb_skips){0};
	if (!rpb_csv_open_data(&in, r->dir, RPB_DATA_JTL))
		return;
	struct rpb_jtl_row row;
	const json_t *labels = json_object_get(r->root, "labels");
	while (rpb_jtl_next(&in, labels, &row, &r->skips[RPB_DATA_JTL]))
		;
	rpb_csv_close(&in);
}

size_t rpb_cmp_skips_text(const struct rpb_cmp *c, char *buf, size_t n)
{
	size_t total = 0, len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < c->nruns; i++)
		for (int f = 0; f < RPB_DATA_COUNT; f++) {
			const struct rpb_skips *s = &c->runs[i].skips[f];
			char why[256];
			if (!rpb_skips_total(s))
				continue;
			total += rpb_skips_total(s);
			rpb_skips_text(s, why, sizeof why);
			if (len < n)
				len += (size_t)snprintf(buf + len, n - len, "%s%s/%s %s", len ? ", " : "",
							c->runs[i].dir, rpb_data_file_name((enum rpb_data_file)f), why);
		}
	return total;
}
