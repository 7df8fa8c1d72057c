/* User text quoted in messages (shown.h). */
#include <stdio.h>
#include <string.h>

#include "shown.h"

/* A control character would split the message's one line (a newline) or
 * reach the terminal (an escape). */
static const char *no_controls(char *out)
{
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = '?';
	return out;
}

const char *rpb_shown(char *out, size_t n, const char *value)
{
	if (!n)
		return out;
	if (!value || !*value) {
		snprintf(out, n, "(empty)");
		return out;
	}
	size_t len = strlen(value);
	size_t room = n > 4 ? n - 4 : 0;
	if (room > RPB_SHOWN_MAX)
		room = RPB_SHOWN_MAX;
	if (len < n && len <= RPB_SHOWN_MAX) {
		memcpy(out, value, len + 1);
		return no_controls(out);
	}
	/* Never end inside a UTF-8 sequence: back up over continuation bytes. */
	size_t cut = room;
	while (cut > 0 && ((unsigned char)value[cut] & 0xC0) == 0x80)
		cut--;
	snprintf(out, n, "%.*s...", (int)cut, value);
	return no_controls(out);
}
