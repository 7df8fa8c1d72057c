/* Text in gnuplot scripts (gnuplot_text.h). */
#include <string.h>

#include "gnuplot_text.h"

#define APOSTROPHE "\xe2\x80\x99" /* U+2019, shown for a quote */

const char *rpb_gp_quote(char *buf, size_t n, const char *s)
{
	size_t len = 0;
	buf[len++] = '\'';
	for (; s && *s; s++) {
		const char *put = *s == '\'' ? APOSTROPHE : *s >= ' ' && *s <= '~' ? s : "?";
		size_t k = *s == '\'' ? strlen(APOSTROPHE) : 1;
		if (len + k + 2 > n) /* room for the closing quote and the NUL */
			break;
		memcpy(buf + len, put, k);
		len += k;
	}
	buf[len++] = '\'';
	buf[len] = '\0';
	return buf;
}
