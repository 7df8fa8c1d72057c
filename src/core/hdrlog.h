/* histograms.hlog: each label's measured latencies as an HdrHistogram
 * interval log (HdrHistogram's HistogramLogWriter format, log format 1.3),
 * so HdrHistogram's own tools and libraries can merge and recompute them.
 *
 * rpbench's buckets (hist.h, 128 per power of two) are not HdrHistogram's:
 * every sample of an rpbench bucket is recorded at the value rpbench reports
 * for that bucket (its midpoint, clamped to the exact min and max), into an
 * HdrHistogram of lowest discernible value 1 ns, highest trackable value
 * RPB_HIST_MAX and RPB_HDR_DIGITS significant digits (2048 sub-buckets).
 * A value read back is thus within 1/1024 of what result.json reports for
 * the same rank; what the conversion loses is each sample's place within
 * its rpbench bucket (< 0.4%, as in result.json) and the exact mean. */
#ifndef RPB_HDRLOG_H
#define RPB_HDRLOG_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"

#define RPB_HDR_DIGITS 3
#define RPB_HDR_SUB_HALF_MAG 10 /* 2 * 10^3 fits in 2^11 sub-buckets */
#define RPB_HDR_SUB_HALF (1u << RPB_HDR_SUB_HALF_MAG)
#define RPB_HDR_BUCKETS 39 /* 2^11 doubled 38 times passes RPB_HIST_MAX */
#define RPB_HDR_COUNTS ((RPB_HDR_BUCKETS + 1) * RPB_HDR_SUB_HALF)
/* The cookies HdrHistogram writes: its bases 0x1c849303 (V2 encoding) and
 * 0x1c849304 (compressed) with 0x10, the LEB128 word-size mark readers
 * mask off (base64 "HISTFAAA..."). */
#define RPB_HDR_COOKIE 0x1c849313u
#define RPB_HDR_COMPRESSED_COOKIE 0x1c849314u
#define RPB_HDR_COOKIE_MASK 0xffffff0fu

/* HdrHistogram's counts index of v and the lowest value of index i. */
unsigned rpb_hdr_index(uint64_t v);
uint64_t rpb_hdr_value(unsigned i);

/* The base64 of s's compressed V2 encoding, NUL-terminated, malloc'd; NULL
 * when out of memory. */
char *rpb_hdr_encode(const struct rpb_hist_snap *s);

struct rpb_hdrlog_label {
	const char *tag;                 /* no comma, no white space */
	const struct rpb_hist_snap *snap;
};
/* The whole log: header lines for a run whose base time is base_ms (epoch
 * ms), then one interval line per label that starts start_s after it and
 * lasts length_s. malloc'd; NULL when out of memory. */
char *rpb_hdrlog_text(uint64_t base_ms, double start_s, double length_s,
		      const struct rpb_hdrlog_label *labels, unsigned n);

#endif
