/* HdrHistogram's V2 encoding, DEFLATE-compressed and in base64, one line per
 * label (hdrlog.h). The layout: lowest discernible value 1 (unit magnitude
 * 0), 2^11 sub-buckets, bucket b >= 1 holding [2^(b+10), 2^(b+11)) in 1024
 * steps of 2^b. The encoding: a 40-byte big-endian header, then the counts
 * up to the highest nonzero one as zigzag LEB128 (at most 9 bytes, the 9th
 * carrying 8 bits), a run of k > 1 zero counts written as -k. */
#include "hdrlog.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#define HDR_HEADER 40

unsigned rpb_hdr_index(uint64_t v)
{
	unsigned pow2ceil = 64u - (unsigned)__builtin_clzll(v | (2u * RPB_HDR_SUB_HALF - 1));
	unsigned b = pow2ceil - (RPB_HDR_SUB_HALF_MAG + 1);
	return ((b + 1) << RPB_HDR_SUB_HALF_MAG) + (unsigned)(v >> b) - RPB_HDR_SUB_HALF;
}

uint64_t rpb_hdr_value(unsigned i)
{
	int b = (int)(i >> RPB_HDR_SUB_HALF_MAG) - 1;
	uint64_t sub = (i & (RPB_HDR_SUB_HALF - 1)) + RPB_HDR_SUB_HALF;
	if (b < 0) {
		sub -= RPB_HDR_SUB_HALF;
		b = 0;
	}
	return sub << b;
}

static void put_be(unsigned char *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
}

/* One zigzag LEB128 value as HdrHistogram's ZigZagEncoding writes it. */
static size_t put_zigzag(unsigned char *p, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	size_t n = 0;
	while (n < 8 && z >= 0x80) {
		p[n++] = (unsigned char)(z | 0x80);
		z >>= 7;
	}
	p[n++] = (unsigned char)z;
	return n;
}

/* The counts in HdrHistogram's layout: each rpbench bucket's samples at the
 * value rpbench reports for it. */
static void convert(const struct rpb_hist_snap *s, uint64_t *counts)
{
	for (unsigned i = 0; i < RPB_HIST_BUCKETS; i++) {
		if (!s->buckets[i])
			continue;
		uint64_t lo = rpb_hist_bucket_low(i), hi = rpb_hist_bucket_high(i);
		uint64_t v = lo + (hi - lo) / 2;
		if (s->min <= s->max) { /* the clamp of rpb_snap_percentile */
			v = v < s->min ? s->min : v;
			v = v > s->max ? s->max : v;
		}
		counts[rpb_hdr_index(v > RPB_HIST_MAX ? RPB_HIST_MAX : v)] += s->buckets[i];
	}
}

/* The uncompressed V2 encoding into buf (HDR_HEADER + 9 bytes a count);
 * returns its length. */
static size_t encode_v2(const uint64_t *counts, unsigned char *buf)
{
	unsigned limit = RPB_HDR_COUNTS;
	while (limit > 1 && !counts[limit - 1])
		limit--;
	size_t n = HDR_HEADER;
	for (unsigned i = 0; i < limit;) {
		uint64_t c = counts[i++];
		int64_t zeros = 0;
		if (!c) {
			zeros = 1;
			while (i < limit && !counts[i])
				zeros++, i++;
		}
		n += put_zigzag(buf + n, zeros > 1 ? -zeros : (int64_t)(c > INT64_MAX ? INT64_MAX : c));
	}
	double ratio = 1.0;
	uint64_t ratio_bits;
	memcpy(&ratio_bits, &ratio, sizeof ratio_bits);
	put_be(buf, RPB_HDR_COOKIE, 4);
	put_be(buf + 4, n - HDR_HEADER, 4);
	put_be(buf + 8, 0, 4); /* normalizing index offset */
	put_be(buf + 12, RPB_HDR_DIGITS, 4);
	put_be(buf + 16, 1, 8); /* lowest discernible value */
	put_be(buf + 24, RPB_HIST_MAX, 8);
	put_be(buf + 32, ratio_bits, 8); /* integer to double conversion ratio */
	return n;
}

char *rpb_hdr_encode(const struct rpb_hist_snap *s)
{
	uint64_t *counts = calloc(RPB_HDR_COUNTS, sizeof *counts);
	unsigned char *raw = malloc(HDR_HEADER + 9 * (size_t)RPB_HDR_COUNTS);
	uLongf zlen = compressBound(HDR_HEADER + 9 * (uLong)RPB_HDR_COUNTS);
	unsigned char *z = malloc(8 + zlen);
	char *b64 = NULL;
	if (counts && raw && z) {
		convert(s, counts);
		size_t n = encode_v2(counts, raw);
		if (compress2(z + 8, &zlen, raw, (uLong)n, Z_BEST_COMPRESSION) == Z_OK) {
			put_be(z, RPB_HDR_COMPRESSED_COOKIE, 4);
			put_be(z + 4, zlen, 4);
			b64 = malloc(4 * ((8 + zlen + 2) / 3) + 1);
			if (b64)
				EVP_EncodeBlock((unsigned char *)b64, z, (int)(8 + zlen));
		}
	}
	free(counts), free(raw), free(z);
	return b64;
}

/* Appends to a growing string; false when out of memory. */
static int append(char **buf, size_t *len, const char *piece)
{
	size_t k = strlen(piece);
	char *grown = realloc(*buf, *len + k + 1);
	if (!grown)
		return 0;
	memcpy(grown + *len, piece, k + 1);
	*buf = grown;
	*len += k;
	return 1;
}

char *rpb_hdrlog_text(uint64_t base_ms, double start_s, double length_s,
		      const struct rpb_hdrlog_label *labels, unsigned n)
{
	char line[512], when[64] = "";
	time_t t = (time_t)(base_ms / 1000);
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof when, "%a %b %d %H:%M:%S UTC %Y", &tm);
	double base = (double)base_ms / 1000.0;
	snprintf(line, sizeof line,
		 "#[Histogram log format version 1.3]\n"
		 "#[StartTime: %.3f (seconds since epoch), %s]\n"
		 "#[BaseTime: %.3f (seconds since epoch)]\n"
		 "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n",
		 base + start_s, when, base);
	char *text = NULL;
	size_t len = 0;
	int ok = append(&text, &len, line);
	for (unsigned l = 0; ok && l < n; l++) {
		char *b64 = rpb_hdr_encode(labels[l].snap);
		const struct rpb_hist_snap *s = labels[l].snap;
		/* Interval_Max in ms, as HistogramLogWriter's default unit ratio
		 * (10^6) gives for nanosecond values: the exact maximum. */
		snprintf(line, sizeof line, "Tag=%s,%.3f,%.3f,%.3f,", labels[l].tag, start_s, length_s,
			 s->count ? (double)s->max / 1e6 : 0.0);
		ok = b64 && append(&text, &len, line) && append(&text, &len, b64) &&
		     append(&text, &len, "\n");
		free(b64);
	}
	if (!ok) {
		free(text);
		return NULL;
	}
	return text;
}
