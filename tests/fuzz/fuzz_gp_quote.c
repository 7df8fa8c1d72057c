/* The one way text enters a gnuplot script (rpb_gp_quote): for any text
 * and any buffer size, the result is one single-quoted literal that fits,
 * holds no quote, newline or other byte outside printable ASCII but the
 * whole U+2019 shown for a quote, and keeps the text when there is room. */
#include <stdint.h>

#include "fuzz.h"
#include "gnuplot_text.h"

#define APOSTROPHE "\xe2\x80\x99"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	/* The first byte sizes the buffer: 3 (the least) to 258. */
	size_t n = 3 + data[0];
	char *s = fuzz_string(data + 1, size - 1);
	char *buf = malloc(n);
	if (!buf)
		abort();
	FUZZ_ASSERT(rpb_gp_quote(buf, n, s) == buf, "returns another buffer");
	size_t len = strlen(buf);
	FUZZ_ASSERT(len < n && len >= 2 && buf[0] == '\'' && buf[len - 1] == '\'', "%s", buf);
	size_t shown = 0; /* characters of s the literal shows */
	for (size_t i = 1; i < len - 1; shown++) {
		unsigned char want = (unsigned char)s[shown];
		FUZZ_ASSERT(want, "the literal shows more than the text");
		if (want == '\'') {
			FUZZ_ASSERT(i + 3 <= len - 1 && memcmp(buf + i, APOSTROPHE, 3) == 0,
				    "a quote not shown as U+2019: %s", buf);
			i += 3;
			continue;
		}
		unsigned char c = (unsigned char)buf[i];
		FUZZ_ASSERT(c == (want >= ' ' && want <= '~' ? want : '?'), "byte %#x for %#x", c, want);
		i++;
	}
	/* Nothing is cut while the next character still fits. */
	if (s[shown]) {
		size_t next = s[shown] == '\'' ? 3 : 1;
		FUZZ_ASSERT(len + next + 1 > n, "cut with room left: %zu of %zu", len, n);
	}
	free(buf);
	free(s);
	return 0;
}
