/* Exact text and numbers in result files (jsontext.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "options.h"

/* Length of the UTF-8 sequence at s (1 to 4 bytes), or 0 when it is not
 * one JSON allows: no overlong forms, surrogates or code points past
 * U+10FFFF. s is NUL-terminated, so a short sequence fails at the NUL. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0], cp, min;
	size_t n;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2, cp = c & 0x1F, min = 0x80;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3, cp = c & 0x0F, min = 0x800;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

bool rpb_utf8_valid(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_len(p);
		if (!n)
			return false;
		p += n;
	}
	return true;
}

json_t *rpb_json_text(const char *s)
{
	if (!s)
		s = "";
	if (rpb_utf8_valid(s))
		return json_string(s);
	/* At most 3 bytes (U+FFFD) for each byte of s. */
	size_t len = strlen(s);
	char *t = malloc(3 * len + 1), *o = t;
	if (!t)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_len(p);
		if (n) {
			memcpy(o, p, n);
			o += n, p += n;
		} else {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3, p++;
		}
	}
	*o = '\0';
	json_t *j = json_string(t);
	free(t);
	return j;
}

static bool needs_pct(unsigned char c)
{
	return c < 0x20 || c > 0x7E || c == '%';
}

int rpb_json_set_exact(json_t *obj, const char *key, const char *s)
{
	if (json_object_set_new(obj, key, rpb_json_text(s)) != 0)
		return -1;
	if (rpb_utf8_valid(s))
		return 0;
	size_t len = strlen(s);
	char *pct = malloc(3 * len + 1), *o = pct;
	char twin[256];
	if (!pct)
		return -1;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		o += needs_pct(*p) ? sprintf(o, "%%%02X", *p) : (*o = (char)*p, 1);
	*o = '\0';
	snprintf(twin, sizeof twin, "%s_pct", key);
	int rc = json_object_set_new(obj, twin, json_string(pct));
	free(pct);
	return rc;
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0'
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
				      : -1;
}

char *rpb_json_get_exact(const json_t *obj, const char *key)
{
	char twin[256];
	snprintf(twin, sizeof twin, "%s_pct", key);
	const char *pct = json_string_value(json_object_get(obj, twin));
	if (!pct) {
		const char *s = json_string_value(json_object_get(obj, key));
		return s ? strdup(s) : NULL;
	}
	char *out = malloc(strlen(pct) + 1), *o = out;
	for (const char *p = pct; out && *p; o++) {
		if (*p != '%') {
			*o = *p++;
			continue;
		}
		int hi = hex(p[1]), lo = hi < 0 ? -1 : hex(p[2]);
		if (lo < 0 || (hi == 0 && lo == 0)) {
			free(out);
			return NULL;
		}
		*o = (char)(hi << 4 | lo);
		p += 3;
	}
	if (out)
		*o = '\0';
	return out;
}

json_t *rpb_json_u64(uint64_t v)
{
	char text[24];
	snprintf(text, sizeof text, "%llu", (unsigned long long)v);
	return json_string(text);
}

bool rpb_json_get_u64(const json_t *v, uint64_t *out)
{
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return true;
	}
	const char *s = json_string_value(v);
	return s && rpb_parse_u64(s, out);
}
