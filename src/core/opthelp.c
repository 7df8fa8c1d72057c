/* Option tables in --help and the man pages (opthelp.h). */
#include <stdio.h>
#include <string.h>

#include "opthelp.h"

/* The range column is capped (a longer range pushes its meaning to the
 * next line) so the meaning keeps room for words. */
#define RANGE_COLUMN_MAX 24
struct help_widths {
	int key, dflt, range;
};

/* Column widths of one table (at least the column titles'). */
static struct help_widths table_widths(const struct rpb_optdef *table)
{
	struct help_widths w = {0, 7, 5};
	for (const struct rpb_optdef *d = table; d && d->key; d++) {
		char r[128];
		rpb_opt_range(r, sizeof r, d);
		int k = (int)strlen(d->key), fl = (int)strlen(d->dflt), g = (int)strlen(r);
		w.key = k > w.key ? k : w.key;
		w.dflt = fl > w.dflt ? fl : w.dflt;
		w.range = g > w.range && g <= RANGE_COLUMN_MAX ? g : w.range;
	}
	return w;
}

static void print_row(struct rpb_help *h, const struct help_widths *w, const struct rpb_optdef *d)
{
	char r[128], f[128], text[1024];
	rpb_opt_range(r, sizeof r, d);
	if (h->format == RPB_HELP_MAN) {
		char term[256];
		rpb_opt_default_text(f, sizeof f, d);
		snprintf(term, sizeof term, "%s = %s", d->key, *f ? f : "(empty)");
		snprintf(text, sizeof text, "%s (%s)", d->help, r);
		rpb_help_item(h, term, text);
		return;
	}
	/* A profile's own default goes with the meaning: the default column
	 * stays narrow. */
	snprintf(text, sizeof text, "%s", d->help);
	if (d->dflt_fedora45)
		rpb_cat(text, sizeof text, " (fedora-4.5: %s)", d->dflt_fedora45);
	int col = 2 + w->key + 2 + w->dflt + 2 + w->range + 2;
	int at = fprintf(h->f, "  %-*s  %-*s  %-*s  ", w->key, d->key, w->dflt, d->dflt, w->range, r);
	if (at > col) {
		fprintf(h->f, "\n%*s", col, "");
		at = col;
	}
	rpb_help_wrap(h->f, text, col, at);
}

void rpb_opt_help_table(struct rpb_help *h, const char *title, const struct rpb_optdef *table)
{
	struct help_widths w = table_widths(table);
	if (h->format == RPB_HELP_MAN) {
		fprintf(h->f, ".SS \"%s\"\n", title);
	} else {
		fprintf(h->f, "\n%s\n", title);
		fprintf(h->f, "  %-*s  %-*s  %-*s  %s\n", w.key, "key", w.dflt, "default", w.range,
			"range", "meaning");
	}
	for (const struct rpb_optdef *d = table; d && d->key; d++)
		print_row(h, &w, d);
}
