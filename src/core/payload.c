/* Object sizes and contents (see payload.h). */
#include "payload.h"

#include <endian.h>
#include <string.h>

/* One draw, no rejection, so the size always consumes exactly one value and
 * the content that follows starts at a fixed stream position. The high word
 * of x * n is off uniform by at most n / 2^64 per size: below 1e-9 even for
 * terabyte ranges, far under any measurable effect. */
uint64_t rpb_payload_size(struct rpb_rng *r, uint64_t size_min, uint64_t size_max)
{
	uint64_t x = rpb_rng_next(r);
	if (size_max <= size_min)
		return size_min;
	uint64_t n = size_max - size_min;
	return size_min + (uint64_t)(((unsigned __int128)x * n) >> 64);
}

/* ASCII: each 64-bit word gives five 12-bit chunks c, mapped by Lemire's
 * multiply-shift: m = c * 95, character = m >> 12. Every character has
 * exactly floor(4096 / 95) = 43 chunk values whose low part m & 0xfff is
 * >= 4096 mod 95 = 11, so rejecting low parts below 11 (11/4096 = 0.27% of
 * chunks) leaves all 95 characters exactly equally likely. The rare rejection
 * keeps the branch predictable; 12-bit chunks balance characters per word
 * against the rejection rate (8-bit chunks would reject 26%). */
#define ASCII_FIRST 0x20
#define ASCII_COUNT 95
#define CHUNK_BITS 12
#define CHUNK_MASK ((1u << CHUNK_BITS) - 1)
#define CHUNKS_PER_WORD 5
#define REJECT_BELOW ((1u << CHUNK_BITS) % ASCII_COUNT)

/* Chunk j of w times 95: character in the high bits, acceptance in the low. */
static inline uint32_t ascii_mul(uint64_t w, int j)
{
	return (uint32_t)((w >> (CHUNK_BITS * j)) & CHUNK_MASK) * ASCII_COUNT;
}

/* Appends the accepted characters of one word's chunks; returns the new
 * fill position. Never writes more than CHUNKS_PER_WORD bytes or past n. */
static size_t ascii_word(uint64_t w, unsigned char *buf, size_t i, size_t n)
{
	for (int j = 0; j < CHUNKS_PER_WORD && i < n; j++, w >>= CHUNK_BITS) {
		uint32_t m = (uint32_t)(w & CHUNK_MASK) * ASCII_COUNT;
		if ((m & CHUNK_MASK) >= REJECT_BELOW)
			buf[i++] = (unsigned char)(ASCII_FIRST + (m >> CHUNK_BITS));
	}
	return i;
}

static void fill_ascii(struct rpb_rng *r, unsigned char *buf, size_t n)
{
	size_t i = 0;
	/* Fast path: 98.7% of words have all five chunks accepted; their five
	 * independent characters are stored at once, with no per-character
	 * dependency on the fill position. */
	while (n - i >= CHUNKS_PER_WORD) {
		uint64_t w = rpb_rng_next(r);
		uint32_t m0 = ascii_mul(w, 0), m1 = ascii_mul(w, 1), m2 = ascii_mul(w, 2),
			 m3 = ascii_mul(w, 3), m4 = ascii_mul(w, 4);
		uint32_t low = (m0 & CHUNK_MASK) < (m1 & CHUNK_MASK) ? m0 & CHUNK_MASK : m1 & CHUNK_MASK;
		low = (m2 & CHUNK_MASK) < low ? m2 & CHUNK_MASK : low;
		low = (m3 & CHUNK_MASK) < low ? m3 & CHUNK_MASK : low;
		low = (m4 & CHUNK_MASK) < low ? m4 & CHUNK_MASK : low;
		if (__builtin_expect(low < REJECT_BELOW, 0)) {
			i = ascii_word(w, buf, i, n);
			continue;
		}
		buf[i] = (unsigned char)(ASCII_FIRST + (m0 >> CHUNK_BITS));
		buf[i + 1] = (unsigned char)(ASCII_FIRST + (m1 >> CHUNK_BITS));
		buf[i + 2] = (unsigned char)(ASCII_FIRST + (m2 >> CHUNK_BITS));
		buf[i + 3] = (unsigned char)(ASCII_FIRST + (m3 >> CHUNK_BITS));
		buf[i + 4] = (unsigned char)(ASCII_FIRST + (m4 >> CHUNK_BITS));
		i += CHUNKS_PER_WORD;
	}
	while (i < n)
		i = ascii_word(rpb_rng_next(r), buf, i, n);
}

/* Binary: each word's bytes in little-endian order whatever the host, so a
 * payload regenerates identically everywhere. */
static void fill_binary(struct rpb_rng *r, unsigned char *buf, size_t n)
{
	size_t i = 0;
	for (; n - i >= 8; i += 8) {
		uint64_t le = htole64(rpb_rng_next(r));
		memcpy(buf + i, &le, 8);
	}
	if (i < n) {
		uint64_t w = rpb_rng_next(r);
		for (; i < n; i++, w >>= 8)
			buf[i] = (unsigned char)w;
	}
}

void rpb_payload_fill(struct rpb_rng *r, enum rpb_content kind, unsigned char *buf, size_t n)
{
	if (kind == RPB_CONTENT_BINARY)
		fill_binary(r, buf, n);
	else
		fill_ascii(r, buf, n);
}
