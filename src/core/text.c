/* Printable text (text.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "text.h"

/* The length of the UTF-8 sequence at p (at most end - p bytes), 0 if it
 * is not one (overlong forms and surrogates included). */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end, uint32_t *cp)
{
	size_t len = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3
		   : (*p & 0xf8) == 0xf0 ? 4 : 0;
	if (!len || (size_t)(end - p) < len)
		return 0;
	*cp = len == 1 ? *p : *p & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3fu);
	}
	static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
	if (*cp < min[len] || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

bool rpb_text_printable(const char *s, size_t max)
{
	size_t len = s ? strlen(s) : 0;
	if (len < 1 || len > max)
		return false;
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		uint32_t cp;
		size_t k = utf8_seq(p, end, &cp);
		if (!k || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
			return false;
		p += k;
	}
	return true;
}

bool rpb_skip_bom(FILE *f)
{
	static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
	unsigned char got[3];
	size_t n = fread(got, 1, sizeof got, f);
	if (n == sizeof got && memcmp(got, bom, sizeof bom) == 0)
		return true;
	/* Not a mark: back to the start (every caller's f is a regular file). */
	rewind(f);
	return false;
}

bool rpb_text_decimal(const char **p, const char *end, char stop, uint64_t *out)
{
	const char *q = *p;
	uint64_t x = 0;
	for (; q < end && *q >= '0' && *q <= '9'; q++)
		if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, (uint64_t)(*q - '0'), &x))
			return false;
	if (q == *p || (*(*p) == '0' && q - *p > 1) || q >= end || *q != stop)
		return false;
	*p = q + 1;
	*out = x;
	return true;
}

const char *rpb_text_grouped(char *buf, size_t n, uint64_t v)
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%" PRIu64, v);
	size_t o = 0;
	for (int i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

const char *rpb_text_bytes(char *buf, size_t n, uint64_t v)
{
	const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double x = (double)v;
	unsigned u = 0;
	while (x >= 1024 && u < 4)
		x /= 1024, u++;
	snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", x, unit[u]);
	return buf;
}
