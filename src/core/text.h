/* Text read from files that anyone may have written (a results directory),
 * before it is shown: what a terminal prints as it is. */
#ifndef RPB_TEXT_H
#define RPB_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Whether s is valid UTF-8 of 1 to max bytes without a control character
 * (C0, DEL, C1): no escape sequence, no line break. */
bool rpb_text_printable(const char *s, size_t max);

/* A number read from a results file: 1..20 decimal digits without a sign,
 * a blank or a leading zero, at most UINT64_MAX, ending at stop (which
 * must be there before end); advances *p past stop. */
bool rpb_text_decimal(const char **p, const char *end, char stop, uint64_t *out);

/* Every text file rpbench reads (workload files, YCSB property and
 * histogram files, CSV) may begin with a UTF-8 byte-order mark, which
 * editors on some systems write: f, a regular file at its start, is left after the mark
 * when there is one, else at its start. Returns whether there was one. */
bool rpb_skip_bom(FILE *f);

/* v with thousands separators: "1,412". */
const char *rpb_text_grouped(char *buf, size_t n, uint64_t v);
/* v bytes in binary units with a decimal: "5.5 MiB" ("512 B"). */
const char *rpb_text_bytes(char *buf, size_t n, uint64_t v);

#endif
