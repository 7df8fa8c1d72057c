/* HdrHistogram interval log reader for the tests (hdrlog_decode.h). */
#include "hdrlog_decode.h"

#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint64_t be(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* ZigZagEncoding.getLong: 7 bits a byte, the 9th byte 8 bits. */
static bool zigzag(const unsigned char **p, const unsigned char *end, int64_t *out)
{
	uint64_t z = 0;
	for (unsigned i = 0; i < 9; i++) {
		if (*p >= end)
			return false;
		unsigned b = *(*p)++;
		if (i == 8) {
			z |= (uint64_t)b << 56;
			break;
		}
		z |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			break;
	}
	*out = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
	return true;
}

#define FAIL(...) (snprintf(why, wn, __VA_ARGS__), hdrt_free(h), false)

bool hdrt_decode_line(const char *line, struct hdrt_hist *h, char *why, unsigned wn)
{
	memset(h, 0, sizeof *h);
	int tagn = 0;
	if (sscanf(line, "Tag=%63[^,],%lf,%lf,%lf,%n", h->tag, &h->start_s, &h->length_s,
		   &h->max_ms, &tagn) != 4 || !tagn)
		return FAIL("not an interval line with a tag");
	const char *b64 = line + tagn;
	size_t blen = strcspn(b64, "\r\n");
	unsigned char *bin = malloc(blen + 4);
	int n = bin ? EVP_DecodeBlock(bin, (const unsigned char *)b64, (int)blen) : -1;
	if (n < 8) {
		free(bin);
		return FAIL("bad base64");
	}
	uint32_t cookie = (uint32_t)be(bin, 4), zlen = (uint32_t)be(bin + 4, 4);
	if ((cookie & 0xffffff0fu) != 0x1c849304u || zlen > (uint32_t)n - 8) {
		free(bin);
		return FAIL("compressed cookie %#x, length %u of %d", cookie, zlen, n);
	}
	uLongf rawlen = 64u << 20;
	unsigned char *raw = malloc(rawlen);
	int zr = raw ? uncompress(raw, &rawlen, bin + 8, zlen) : Z_MEM_ERROR;
	free(bin);
	if (zr != Z_OK || rawlen < 40) {
		free(raw);
		return FAIL("inflate failed (%d)", zr);
	}
	uint32_t icookie = (uint32_t)be(raw, 4), plen = (uint32_t)be(raw + 4, 4);
	h->digits = (int32_t)be(raw + 12, 4);
	h->lowest = (int64_t)be(raw + 16, 8);
	h->highest = (int64_t)be(raw + 24, 8);
	if ((icookie & 0xffffff0fu) != 0x1c849303u || plen != rawlen - 40 || be(raw + 8, 4) ||
	    h->digits < 1 || h->digits > 5 || h->lowest != 1 || h->highest < 2) {
		free(raw);
		return FAIL("bad V2 header (cookie %#x, payload %u of %lu)", icookie, plen,
			    (unsigned long)rawlen);
	}
	/* HdrHistogram's layout from the header (lowest 1: unit magnitude 0). */
	uint32_t sub_mag = (uint32_t)ceil(log2(2.0 * pow(10.0, h->digits)));
	h->sub_half_mag = sub_mag - 1;
	uint32_t buckets = 1;
	for (uint64_t untrackable = UINT64_C(1) << sub_mag; untrackable <= (uint64_t)h->highest;
	     untrackable <<= 1)
		buckets++;
	h->ncounts = (buckets + 1) << h->sub_half_mag;
	h->counts = calloc(h->ncounts, sizeof *h->counts);
	const unsigned char *p = raw + 40, *end = raw + rawlen;
	uint32_t i = 0;
	while (h->counts && p < end) {
		int64_t v;
		if (!zigzag(&p, end, &v))
			break;
		uint64_t run = v < 0 ? (uint64_t)-v : 1;
		if (i + run > h->ncounts) {
			free(raw);
			return FAIL("counts past the layout's %u", h->ncounts);
		}
		if (v > 0)
			h->counts[i] = (uint64_t)v, h->total += (uint64_t)v;
		i += (uint32_t)run;
	}
	free(raw);
	if (!h->counts || p != end)
		return FAIL("truncated counts");
	return true;
}

void hdrt_free(struct hdrt_hist *h)
{
	free(h->counts);
	h->counts = NULL;
}

uint64_t hdrt_value(const struct hdrt_hist *h, uint32_t i)
{
	int b = (int)(i >> h->sub_half_mag) - 1;
	uint64_t half = UINT64_C(1) << h->sub_half_mag, sub = (i & (half - 1)) + half;
	if (b < 0)
		sub -= half, b = 0;
	return sub << b;
}

uint64_t hdrt_percentile(const struct hdrt_hist *h, double p)
{
	if (!h->total)
		return 0;
	uint64_t rank = (uint64_t)ceil(p * (double)h->total / 100.0), seen = 0;
	rank = rank ? rank : 1;
	for (uint32_t i = 0; i < h->ncounts; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			return hdrt_value(h, i);
	}
	return 0;
}
