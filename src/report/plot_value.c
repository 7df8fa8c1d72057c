/* A number fit to plot (plot_value.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plot_value.h"

bool rpb_plot_fit(double v)
{
	return isfinite(v) && fabs(v) <= RPB_PLOT_LIMIT;
}

enum rpb_unfit rpb_plot_value(const char *text, double *v)
{
	const char *p = text + (*text == '-' || *text == '+');
	if (!strcasecmp(p, "nan") || !strcasecmp(p, "inf") || !strcasecmp(p, "infinity"))
		return RPB_UNFIT_INFINITE;
	/* Decimal only: strtod would also take blanks, hex and "nan(...)". */
	if (!*p || strspn(p, "0123456789.eE+-") != strlen(p) || !strchr("0123456789.", *p))
		return RPB_UNFIT_TEXT;
	char *end;
	double x = strtod(text, &end);
	if (*end)
		return RPB_UNFIT_TEXT;
	if (!rpb_plot_fit(x)) /* 1e400 overflows to inf: out of range, as 1e308 */
		return RPB_UNFIT_RANGE;
	*v = x;
	return RPB_FIT;
}

const char *rpb_unfit_reason(enum rpb_unfit why)
{
	static const char *const text[RPB_UNFIT_COUNT] = {
		[RPB_FIT] = "fit",
		[RPB_UNFIT_TEXT] = "not a number",
		[RPB_UNFIT_INFINITE] = "not finite",
		[RPB_UNFIT_RANGE] = "out of range",
		[RPB_UNFIT_FIELDS] = "not as many fields as the header",
		[RPB_UNFIT_LABEL] = "label not in result.json",
	};
	return why < RPB_UNFIT_COUNT ? text[why] : "?";
}

const char *rpb_data_file_name(enum rpb_data_file f)
{
	static const char *const names[RPB_DATA_COUNT] = {"intervals.csv", "probe.csv", "samples.jtl"};
	return f < RPB_DATA_COUNT ? names[f] : "?";
}

size_t rpb_skips_total(const struct rpb_skips *s)
{
	size_t t = 0;
	for (int i = RPB_FIT + 1; i < RPB_UNFIT_COUNT; i++)
		t += s->n[i];
	return t;
}

void rpb_skips_text(const struct rpb_skips *s, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = RPB_FIT + 1; i < RPB_UNFIT_COUNT && len < n; i++)
		if (s->n[i])
			len += (size_t)snprintf(buf + len, n - len, "%s%zu row%s%s: %s", len ? "; " : "",
						s->n[i], s->n[i] == 1 ? "" : "s", len ? "" : " skipped",
						rpb_unfit_reason((enum rpb_unfit)i));
}
