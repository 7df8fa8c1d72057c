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

/* One nonzero count of HdrHistogram's layout. */
struct hdr_count {
	unsigned index;
	uint64_t count;
};

/* The counts in HdrHistogram's layout, sparse and in index order: each
 * rpbench bucket's samples at the value rpbench reports for it (values
 * grow with the bucket, so indexes never go down; equal ones merge).
 * Returns how many; out holds at most RPB_HIST_BUCKETS. Kept sparse so
 * the encoding's memory follows the label's buckets in use, not the
 * layout's whole range. */
static size_t convert(const struct rpb_hist_snap *s, struct hdr_count *out)
{
	size_t n = 0;
	for (unsigned i = 0; i < RPB_HIST_BUCKETS; i++) {
		if (!s->buckets[i])
			continue;
		uint64_t lo = rpb_hist_bucket_low(i), hi = rpb_hist_bucket_high(i);
		uint64_t v = lo + (hi - lo) / 2;
		if (s->min <= s->max) { /* the clamp of rpb_snap_percentile */
			v = v < s->min ? s->min : v;
			v = v > s->max ? s->max : v;
		}
		unsigned idx = rpb_hdr_index(v > RPB_HIST_MAX ? RPB_HIST_MAX : v);
		if (n && out[n - 1].index >= idx)
			out[n - 1].count += s->buckets[i];
		else
			out[n++] = (struct hdr_count){idx, s->buckets[i]};
	}
	return n;
}

/* The uncompressed V2 encoding into buf (HDR_HEADER + 18 bytes a nonzero
 * count: the count and the run of zeros before it); returns its length. */
static size_t encode_v2(const struct hdr_count *c, size_t nc, unsigned char *buf)
{
	size_t n = HDR_HEADER;
	unsigned next = 0; /* the index the encoding has reached */
	for (size_t k = 0; k < nc; k++) {
		unsigned zeros = c[k].index - next;
		if (zeros == 1)
			n += put_zigzag(buf + n, 0);
		else if (zeros > 1)
			n += put_zigzag(buf + n, -(int64_t)zeros);
		uint64_t v = c[k].count;
		n += put_zigzag(buf + n, (int64_t)(v > INT64_MAX ? INT64_MAX : v));
		next = c[k].index + 1;
	}
	if (nc == 0) /* an empty histogram: one zero count */
		n += put_zigzag(buf + n, 0);
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
	size_t used = 0;
	for (unsigned i = 0; i < RPB_HIST_BUCKETS; i++)
		used += s->buckets[i] != 0;
	struct hdr_count *counts = malloc((used ? used : 1) * sizeof *counts);
	size_t cap = HDR_HEADER + 18 * (used + 1);
	unsigned char *raw = malloc(cap);
	uLongf zlen = compressBound((uLong)cap);
	unsigned char *z = malloc(8 + zlen);
	char *b64 = NULL;
	if (counts && raw && z) {
		size_t n = encode_v2(counts, convert(s, counts), raw);
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
