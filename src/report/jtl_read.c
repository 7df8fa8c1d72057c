/* Reading samples.jtl (jtl_read.h). */
#include <stdio.h>
#include <string.h>

#include "jtl_read.h"
#include "result_check.h"

enum { FIELDS = 3 };

/* One record: its first FIELDS fields (each cut at RPB_JTL_FIELD_MAX - 1
 * bytes, then *cut is set), the rest read past. *whole is false when the
 * file ended inside the record. false at the end of the file. */
static bool record(FILE *f, char field[FIELDS][RPB_JTL_FIELD_MAX], size_t *nfields, bool *whole,
		   bool *cut)
{
	size_t k = 0, flen = 0, len = 0;
	bool quoted = false, any = false;
	*cut = *whole = false;
	for (size_t i = 0; i < FIELDS; i++)
		field[i][0] = '\0';
	int ch;
	while ((ch = getc(f)) != EOF) {
		any = true;
		if (quoted && ch == '"') {
			int next = getc(f);
			if (next != '"') { /* the closing quote; "" is a quote */
				quoted = false;
				if (next != EOF)
					ungetc(next, f);
				continue;
			}
		} else if (!quoted && ch == '"' && !flen) {
			quoted = true;
			flen++;
			continue;
		} else if (!quoted && ch == ',') {
			k++;
			flen = len = 0;
			continue;
		} else if (!quoted && ch == '\n') {
			*whole = true;
			break;
		} else if (!quoted && ch == '\r') {
			continue;
		}
		flen++;
		if (k >= FIELDS)
			continue;
		if (len + 1 < RPB_JTL_FIELD_MAX) {
			field[k][len++] = (char)ch;
			field[k][len] = '\0';
		} else {
			*cut = true;
		}
	}
	*nfields = k + 1;
	return any;
}

bool rpb_jtl_next(struct rpb_csv *c, const json_t *labels, struct rpb_jtl_row *row,
		  struct rpb_skips *skips)
{
	char field[FIELDS][RPB_JTL_FIELD_MAX];
	size_t nf;
	bool whole, cut;
	while (record(c->f, field, &nf, &whole, &cut)) {
		c->lineno++;
		enum rpb_unfit why = nf < FIELDS ? RPB_UNFIT_FIELDS : RPB_FIT;
		if (why == RPB_FIT)
			why = rpb_plot_value(field[0], &row->ts);
		if (why == RPB_FIT)
			why = rpb_plot_value(field[1], &row->ms);
		if (why == RPB_FIT && row->ms < 0)
			why = RPB_UNFIT_RANGE;
		if (why == RPB_FIT && (cut || !rpb_cmp_name_ok(field[2]) ||
				       !json_object_get(labels, field[2])))
			why = RPB_UNFIT_LABEL;
		if (why == RPB_FIT) {
			memcpy(row->label, field[2], sizeof row->label);
			return true;
		}
		if (skips && whole)
			skips->n[why]++;
	}
	return false;
}
