/* Number and string formatting for the timed loop. snprintf parses its
 * format on every call and was most of an ingest create's CPU time with the
 * null backend; these append to a buffer whose size the caller has bounded
 * and return the new end. No NUL is written: callers terminate. */
#ifndef RPB_FMT_H
#define RPB_FMT_H

#include <stdint.h>
#include <string.h>

/* "00" "01" ... "99": two digits per division, half the chain of dependent
 * divisions one digit at a time makes. */
static const char rpb_fmt_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* The 8 digits of v < 10^8 ending at end: two halves, two pairs each, so
 * no division waits for another's quotient beyond the first split. */
static inline void rpb_fmt_dec8(char *end, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;
	memcpy(end - 8, rpb_fmt_pairs + 2 * (hi / 100), 2);
	memcpy(end - 6, rpb_fmt_pairs + 2 * (hi % 100), 2);
	memcpy(end - 4, rpb_fmt_pairs + 2 * (lo / 100), 2);
	memcpy(end - 2, rpb_fmt_pairs + 2 * (lo % 100), 2);
}

/* Exactly width digits ending at end: the low width decimal digits of v,
 * zero-padded. Returns the start (end - width). */
static inline char *rpb_fmt_dec_back(char *end, uint64_t v, size_t width)
{
	for (; width >= 8; width -= 8, end -= 8) {
		rpb_fmt_dec8(end, (uint32_t)(v % 100000000u));
		v /= 100000000u;
	}
	uint32_t r = (uint32_t)(v % 100000000u);
	for (; width >= 2; width -= 2, r /= 100) {
		end -= 2;
		memcpy(end, rpb_fmt_pairs + 2 * (r % 100), 2);
	}
	if (width)
		*--end = (char)('0' + r % 10);
	return end;
}

/* v in decimal, at least width digits (zero-padded; more when v needs them,
 * as printf's %0*u does). */
static inline char *rpb_fmt_u64(char *p, uint64_t v, unsigned width)
{
	static const uint64_t pow10[20] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
		UINT64_C(10000000000), UINT64_C(100000000000), UINT64_C(1000000000000),
		UINT64_C(10000000000000), UINT64_C(100000000000000), UINT64_C(1000000000000000),
		UINT64_C(10000000000000000), UINT64_C(100000000000000000),
		UINT64_C(1000000000000000000), UINT64_C(10000000000000000000),
	};
	unsigned n = 1; /* digits: compares, no division */
	while (n < 20 && v >= pow10[n])
		n++;
	if (width < n)
		width = n;
	rpb_fmt_dec_back(p + width, v, width);
	return p + width;
}

/* v as 8 lower-case hex digits: each nibble spread to a byte of its own,
 * then turned into its digit for all eight bytes at once. */
static inline char *rpb_fmt_hex32_swar(char *p, uint32_t v)
{
	uint64_t x = v;
	x = ((x & UINT64_C(0xffff0000)) << 16) | (x & UINT64_C(0xffff));
	x = ((x & UINT64_C(0x0000ff000000ff00)) << 8) | (x & UINT64_C(0x000000ff000000ff));
	x = ((x & UINT64_C(0x00f000f000f000f0)) << 4) | (x & UINT64_C(0x000f000f000f000f));
	/* A byte of 10..15 gets 'a' - '0' - 10 more than '0' + its value. */
	uint64_t letters = ((x + UINT64_C(0x0606060606060606)) >> 4) & UINT64_C(0x0101010101010101);
	x += UINT64_C(0x3030303030303030) + letters * (uint64_t)('a' - '0' - 10);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x); /* the most significant digit first in memory */
#endif
	memcpy(p, &x, 8);
	return p + 8;
}

/* v as 16 lower-case hex digits. */
static inline char *rpb_fmt_hex64(char *p, uint64_t v)
{
	return rpb_fmt_hex32_swar(rpb_fmt_hex32_swar(p, (uint32_t)(v >> 32)), (uint32_t)v);
}

/* Copies n bytes. The keys, tags and fields of the timed loop are a few
 * dozen bytes whose length is known only at run time: copied inline in
 * two overlapping words, not by a call to memcpy. */
static inline char *rpb_fmt_mem(char *p, const void *s, size_t n)
{
	const char *q = s;
	if (__builtin_constant_p(n) || n > 32) {
		memcpy(p, q, n);
	} else if (n >= 16) {
		memcpy(p, q, 16);
		memcpy(p + n - 16, q + n - 16, 16);
	} else if (n >= 8) {
		memcpy(p, q, 8);
		memcpy(p + n - 8, q + n - 8, 8);
	} else if (n >= 4) {
		memcpy(p, q, 4);
		memcpy(p + n - 4, q + n - 4, 4);
	} else {
		for (size_t i = 0; i < n; i++)
			p[i] = q[i];
	}
	return p + n;
}

static inline char *rpb_fmt_str(char *p, const char *s)
{
	return rpb_fmt_mem(p, s, strlen(s));
}

#endif
