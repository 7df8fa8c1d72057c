/* Number and string formatting for the timed loop. snprintf parses its
 * format on every call and was most of an ingest create's CPU time with the
 * null backend; these append to a buffer whose size the caller has bounded
 * and return the new end. No NUL is written: callers terminate. */
#ifndef RPB_FMT_H
#define RPB_FMT_H

#include <stdint.h>
#include <string.h>

/* v in decimal, at least width digits (zero-padded; more when v needs them,
 * as printf's %0*u does). */
static inline char *rpb_fmt_u64(char *p, uint64_t v, unsigned width)
{
	char tmp[20];
	unsigned n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (width > n) {
		*p++ = '0';
		width--;
	}
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* v as 16 lower-case hex digits. */
static inline char *rpb_fmt_hex64(char *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	for (int shift = 60; shift >= 0; shift -= 4)
		*p++ = digits[(v >> shift) & 15];
	return p;
}

static inline char *rpb_fmt_mem(char *p, const void *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static inline char *rpb_fmt_str(char *p, const char *s)
{
	return rpb_fmt_mem(p, s, strlen(s));
}

#endif
