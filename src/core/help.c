/* Help text and man pages from the same calls (help.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "help.h"

int rpb_help_width(void)
{
	const char *cols = getenv("COLUMNS");
	char *end;
	long v = cols && *cols ? strtol(cols, &end, 10) : 0;
	if (!cols || !*cols || *end || v <= 0)
		return 80;
	return v < 40 ? 40 : v > 200 ? 200 : (int)v;
}

void rpb_help_wrap(FILE *f, const char *text, int col, int first_col)
{
	const int width = rpb_help_width();
	int at = first_col, room = width - col;
	bool line_empty = true;
	if (room < 20)
		room = 20;
	while (*text) {
		size_t len = strcspn(text, " ");
		if (len == 0) {
			text++;
			continue;
		}
		/* Keep "0 = never" together: a word of "=" carries its neighbours. */
		size_t unit = len;
		const char *next = text + len;
		if (next[0] == ' ' && next[1] == '=' && next[2] == ' ')
			unit += 3 + strcspn(next + 3, " ");
		if (!line_empty && at + 1 + (int)unit > width) {
			fprintf(f, "\n%*s", col, "");
			at = col;
			line_empty = true;
		}
		if (!line_empty) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", (int)unit, text);
		at += (int)unit;
		line_empty = false;
		text += unit;
	}
	fputc('\n', f);
}

/* roff: a backslash doubled, a leading dot or quote made plain, "-" as
 * the minus sign options are written with. */
static void man_text(FILE *f, const char *text)
{
	bool line_start = true;
	for (const char *p = text; *p; p++) {
		if (line_start && (*p == '.' || *p == '\''))
			fputs("\\&", f);
		if (*p == '\\')
			fputs("\\e", f);
		else if (*p == '-')
			fputs("\\-", f);
		else
			fputc(*p, f);
		line_start = *p == '\n';
	}
}

void rpb_help_title(struct rpb_help *h, const char *name, int section, const char *summary)
{
	if (h->format == RPB_HELP_TEXT) {
		fprintf(h->f, "%s: ", name);
		rpb_help_wrap(h->f, summary, 2, (int)strlen(name) + 2);
		fputc('\n', h->f);
		return;
	}
	fprintf(h->f, ".TH \"");
	for (const char *p = name; *p; p++)
		fputc(toupper((unsigned char)*p), h->f);
	/* Left-aligned, no hyphens: option and key names stay whole. */
	fprintf(h->f, "\" \"%d\" \"\" \"rpbench %s\" \"rpbench manual\"\n.nh\n.ad l\n.SH NAME\n",
		section, RPB_VERSION);
	man_text(h->f, name);
	fputs(" \\- ", h->f);
	man_text(h->f, summary);
	fputc('\n', h->f);
}

void rpb_help_usage(struct rpb_help *h, const char *const *lines)
{
	if (h->format == RPB_HELP_MAN)
		fputs(".SH SYNOPSIS\n.nf\n", h->f);
	for (size_t i = 0; lines[i]; i++) {
		if (h->format == RPB_HELP_TEXT) {
			fprintf(h->f, "%s%s\n", i ? "       " : "usage: ", lines[i]);
			continue;
		}
		man_text(h->f, lines[i]);
		fputc('\n', h->f);
	}
	if (h->format == RPB_HELP_MAN)
		fputs(".fi\n", h->f);
}

void rpb_help_section(struct rpb_help *h, const char *title)
{
	if (h->format == RPB_HELP_TEXT) {
		fprintf(h->f, "\n%s:\n", title);
		return;
	}
	fputs(".SH ", h->f);
	for (const char *p = title; *p; p++)
		fputc(toupper((unsigned char)*p), h->f);
	fputc('\n', h->f);
}

void rpb_help_para(struct rpb_help *h, int indent, const char *text)
{
	if (h->format == RPB_HELP_TEXT) {
		fprintf(h->f, "%*s", indent, "");
		rpb_help_wrap(h->f, text, indent, indent);
		return;
	}
	fputs(".PP\n", h->f);
	man_text(h->f, text);
	fputc('\n', h->f);
}

void rpb_help_item(struct rpb_help *h, const char *term, const char *text)
{
	if (h->format == RPB_HELP_TEXT) {
		int col = 2 + h->term + 2, len = (int)strlen(term);
		fprintf(h->f, "  %s", term);
		if (2 + len + 2 > col)
			fprintf(h->f, "\n%*s", col, "");
		else
			fprintf(h->f, "%*s", col - 2 - len, "");
		rpb_help_wrap(h->f, text, col, col);
		return;
	}
	fputs(".TP\n\\fB", h->f);
	man_text(h->f, term);
	fputs("\\fR\n", h->f);
	man_text(h->f, text);
	fputc('\n', h->f);
}

void rpb_help_verbatim(struct rpb_help *h, const char *text)
{
	if (h->format == RPB_HELP_TEXT) {
		fputs(text, h->f);
		return;
	}
	fputs(".PP\n.nf\n", h->f);
	man_text(h->f, text);
	fputs(".fi\n", h->f);
}
