/* Latency histogram: log-linear buckets in the HdrHistogram style.
 *
 * Values are nanoseconds from 0 to RPB_HIST_MAX (~78 hours); larger values
 * are clamped into the top bucket and still counted, and the exact maximum is
 * kept separately. Each power-of-two range is split into RPB_HIST_SUB linear
 * sub-buckets, so a bucket's width is at most 1/RPB_HIST_SUB of its lower
 * edge: the relative error of any reported value is below 1%. Memory is fixed
 * (no allocation after init), histograms of equal shape merge by addition.
 *
 * One thread writes a histogram; another may read it at the same time (the
 * progress reporter): counters are relaxed atomics written with plain
 * load+store, so recording costs no locked instruction and stays race-free. */
#ifndef RPB_HIST_H
#define RPB_HIST_H

#include <stdatomic.h>
#include <stdint.h>

#define RPB_HIST_SUB_BITS 7 /* 128 sub-buckets: <= 0.78% relative error */
#define RPB_HIST_SUB (1u << RPB_HIST_SUB_BITS)
#define RPB_HIST_MAGNITUDES 42 /* 2^(42+7) ns ~ 6.5 days */
#define RPB_HIST_BUCKETS ((RPB_HIST_MAGNITUDES + 1) * RPB_HIST_SUB)
#define RPB_HIST_MAX ((UINT64_C(1) << (RPB_HIST_MAGNITUDES + RPB_HIST_SUB_BITS)) - 1)

struct rpb_hist {
	_Atomic uint64_t count;
	_Atomic uint64_t sum;  /* sum of recorded values (ns), for the mean */
	/* Sum of squared values (ns^2), 128 bits as two words, for an exact
	 * standard deviation: (2^49)^2 overflows 64 bits at the first sample
	 * above 4.3 s, and bucket midpoints would add up to 0.4% per value. */
	_Atomic uint64_t sumsq_lo, sumsq_hi;
	_Atomic uint64_t min;  /* exact, UINT64_MAX while empty */
	_Atomic uint64_t max;  /* exact */
	_Atomic uint64_t buckets[RPB_HIST_BUCKETS];
};

/* A plain (non-atomic) copy, for merging and percentile queries. */
struct rpb_hist_snap {
	uint64_t count, sum, min, max;
	unsigned __int128 sumsq;
	uint64_t buckets[RPB_HIST_BUCKETS];
};

void rpb_hist_init(struct rpb_hist *h);
/* Records one value; single writer per histogram. */
void rpb_hist_record(struct rpb_hist *h, uint64_t ns);
/* Copies h (safe while its writer records). */
void rpb_hist_snapshot(const struct rpb_hist *h, struct rpb_hist_snap *out);

void rpb_snap_init(struct rpb_hist_snap *s);
void rpb_snap_add(struct rpb_hist_snap *dst, const struct rpb_hist_snap *src);
/* dst = now - before: the samples recorded between two snapshots of one
 * histogram. min and max of the interval are bucket bounds, not exact. */
void rpb_snap_diff(struct rpb_hist_snap *dst, const struct rpb_hist_snap *now,
		   const struct rpb_hist_snap *before);
/* The value at percentile p (0..100]: the smallest recorded value v such that
 * at least p% of the samples are <= v, reported as the midpoint of v's bucket
 * (clamped to [min, max]). 0 for an empty histogram. */
uint64_t rpb_snap_percentile(const struct rpb_hist_snap *s, double p);
double rpb_snap_mean(const struct rpb_hist_snap *s);
/* Population standard deviation (ns) from the exact sums: sqrt(sumsq/n -
 * mean^2), in long double. 0 for fewer than two samples. */
double rpb_snap_stddev(const struct rpb_hist_snap *s);

/* Bucket index <-> value range, exposed for tests and exporters. */
unsigned rpb_hist_bucket(uint64_t ns);
uint64_t rpb_hist_bucket_low(unsigned idx);
uint64_t rpb_hist_bucket_high(unsigned idx); /* inclusive */

#endif
