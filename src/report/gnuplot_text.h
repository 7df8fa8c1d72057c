/* The one way text gets into a gnuplot script. A script is code: gnuplot
 * runs system(), backquotes and @macros wherever its parser meets them. So
 * every string the report writes into a script (titles, labels, key
 * entries, data file names) goes through rpb_gp_quote, even when it was
 * checked against a vocabulary first. */
#ifndef RPB_GNUPLOT_TEXT_H
#define RPB_GNUPLOT_TEXT_H

#include <stddef.h>

/* s as a gnuplot single-quoted string literal, quotes included, in buf (n
 * >= 3). Inside single quotes gnuplot expands nothing (no backslash
 * escapes, no `...`, no @macro), so the literal holds no quote at all: a
 * quote in s is shown as a typographic apostrophe (U+2019; gnuplot's own
 * escape, two quotes, is read as an empty string at the start of a
 * literal). Other bytes outside printable ASCII (a newline would end the
 * command) become '?'. Text that does not fit is cut, never the closing
 * quote. Returns buf. */
const char *rpb_gp_quote(char *buf, size_t n, const char *s);

#endif
