/* --help and the man pages from one source: a program describes its help
 * once through these calls, and they write it either as text for a terminal
 * (wrapped at words to rpb_help_width() columns, never inside a word) or
 * as a roff man page. */
#ifndef RPB_HELP_H
#define RPB_HELP_H

#include <stdio.h>

/* The text's width: COLUMNS when it is a number, clamped to 40..200 (a
 * narrower text has no room for a term and its meaning, a wider one is
 * hard to read), else 80. */
int rpb_help_width(void);

enum rpb_help_format { RPB_HELP_TEXT, RPB_HELP_MAN };

struct rpb_help {
	FILE *f;
	enum rpb_help_format format;
	int term; /* text: width of the term column of rpb_help_item */
};

/* Text: "NAME: SUMMARY" and a blank line. Man: the title line and the NAME
 * section (section: 1 for programs, 5 for file formats). */
void rpb_help_title(struct rpb_help *h, const char *name, int section, const char *summary);
/* The usage lines (NULL-terminated): "usage: " before the first in text,
 * SYNOPSIS in a man page. Each line is written as given. */
void rpb_help_usage(struct rpb_help *h, const char *const *lines);
/* A section heading: "\nTitle:" in text, .SH TITLE in a man page. */
void rpb_help_section(struct rpb_help *h, const char *title);
/* A paragraph, filled to the width (text indented by indent). */
void rpb_help_para(struct rpb_help *h, int indent, const char *text);
/* A term and its description: text puts the description beside the term
 * (h->term columns wide; below it when the term is wider), wrapped. */
void rpb_help_item(struct rpb_help *h, const char *term, const char *text);
/* Lines shown as they are (a table's head in text, .nf in a man page). */
void rpb_help_verbatim(struct rpb_help *h, const char *text);

/* Writes text from column col to the width, breaking only at spaces (a
 * word longer than the room gets a line of its own); the first line starts
 * at the current column, first_col. */
void rpb_help_wrap(FILE *f, const char *text, int col, int first_col);

#endif
