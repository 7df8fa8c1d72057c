/* Log-linear latency histogram (see hist.h).
 *
 * Bucket layout, with S = RPB_HIST_SUB = 128:
 *   magnitude 0 (idx 0..127):   values 0..127, one value per bucket;
 *   magnitude m >= 1 (idx m*S .. m*S+127): values [2^(m+6), 2^(m+7)), split
 *     into 128 buckets of width 2^(m-1).
 * A bucket of magnitude m starts at >= 2^(m+6) = 128 * 2^(m-1), so its width
 * is at most low/128 and its midpoint is within low/256 of any value in it:
 * the reported value is off by less than 0.4%. Magnitudes 0 and 1 are exact.
 * Magnitude 42 ends at 2^49 - 1 = RPB_HIST_MAX; larger values land in the top
 * bucket.
 *
 * With s = max(msb(v), 7) - 7 (the shift of v's magnitude, 0 for m <= 1),
 * v >> s lies in [128, 256) for v >= 128 and is v itself below, and
 * idx = s*S + (v >> s) covers both cases without a branch. */
#include "hist.h"

#include <math.h>
#include <string.h>

_Static_assert(RPB_HIST_SUB == 128, "the index formula assumes 7 sub-bucket bits");

/* The bucket shift of v: 0 below 256, else msb(v) - 7. v | 0xff keeps clzll
 * defined for 0 and folds magnitudes 0 and 1 (both width 1) together. */
static inline unsigned hist_shift(uint64_t v)
{
	return (unsigned)(63 - __builtin_clzll(v | 0xff)) - RPB_HIST_SUB_BITS;
}

unsigned rpb_hist_bucket(uint64_t ns)
{
	uint64_t v = ns > RPB_HIST_MAX ? RPB_HIST_MAX : ns;
	unsigned s = hist_shift(v);
	return (s << RPB_HIST_SUB_BITS) + (unsigned)(v >> s);
}

/* Inverse of the index formula: idx = s*S + mantissa, mantissa in [S, 2S)
 * for s >= 1; below 2S the index is the value. */
static unsigned bucket_shift(unsigned idx)
{
	return idx < 2 * RPB_HIST_SUB ? 0 : (idx >> RPB_HIST_SUB_BITS) - 1;
}

uint64_t rpb_hist_bucket_low(unsigned idx)
{
	if (idx >= RPB_HIST_BUCKETS)
		idx = RPB_HIST_BUCKETS - 1;
	unsigned s = bucket_shift(idx);
	return (uint64_t)(idx - (s << RPB_HIST_SUB_BITS)) << s;
}

uint64_t rpb_hist_bucket_high(unsigned idx)
{
	if (idx >= RPB_HIST_BUCKETS)
		idx = RPB_HIST_BUCKETS - 1;
	return rpb_hist_bucket_low(idx) + (UINT64_C(1) << bucket_shift(idx)) - 1;
}

void rpb_hist_init(struct rpb_hist *h)
{
	atomic_init(&h->count, 0);
	atomic_init(&h->sum, 0);
	atomic_init(&h->sumsq_lo, 0);
	atomic_init(&h->sumsq_hi, 0);
	atomic_init(&h->min, UINT64_MAX);
	atomic_init(&h->max, 0);
	for (unsigned i = 0; i < RPB_HIST_BUCKETS; i++)
		atomic_init(&h->buckets[i], 0);
}

/* Single writer: a relaxed load then store is an increment nobody else can
 * interleave with, and compiles to plain moves (no lock prefix). */
static inline void bump(_Atomic uint64_t *a, uint64_t d)
{
	atomic_store_explicit(a, atomic_load_explicit(a, memory_order_relaxed) + d,
			      memory_order_relaxed);
}

void rpb_hist_record(struct rpb_hist *h, uint64_t ns)
{
	bump(&h->buckets[rpb_hist_bucket(ns)], 1);
	bump(&h->count, 1);
	bump(&h->sum, ns);
	/* 128-bit add by words: the carry goes to the high word. */
	unsigned __int128 sq = (unsigned __int128)ns * ns;
	uint64_t lo = atomic_load_explicit(&h->sumsq_lo, memory_order_relaxed);
	uint64_t add_lo = (uint64_t)sq, nlo = lo + add_lo;
	atomic_store_explicit(&h->sumsq_lo, nlo, memory_order_relaxed);
	bump(&h->sumsq_hi, (uint64_t)(sq >> 64) + (nlo < lo));
	if (ns < atomic_load_explicit(&h->min, memory_order_relaxed))
		atomic_store_explicit(&h->min, ns, memory_order_relaxed);
	if (ns > atomic_load_explicit(&h->max, memory_order_relaxed))
		atomic_store_explicit(&h->max, ns, memory_order_relaxed);
}

/* The count is taken as the sum of the copied buckets, not the count field:
 * a copy made while the writer records may catch a bucket bumped before the
 * count, and percentile ranks must always be found in the buckets. */
void rpb_hist_snapshot(const struct rpb_hist *h, struct rpb_hist_snap *out)
{
	uint64_t total = 0;
	out->sum = atomic_load_explicit(&h->sum, memory_order_relaxed);
	/* A copy taken while the writer records may pair words of two sums;
	 * the final results are read after the writers end. */
	out->sumsq = (unsigned __int128)atomic_load_explicit(&h->sumsq_hi, memory_order_relaxed) << 64 |
		     atomic_load_explicit(&h->sumsq_lo, memory_order_relaxed);
	out->min = atomic_load_explicit(&h->min, memory_order_relaxed);
	out->max = atomic_load_explicit(&h->max, memory_order_relaxed);
	for (unsigned i = 0; i < RPB_HIST_BUCKETS; i++) {
		out->buckets[i] = atomic_load_explicit(&h->buckets[i], memory_order_relaxed);
		total += out->buckets[i];
	}
	out->count = total;
}

void rpb_snap_init(struct rpb_hist_snap *s)
{
	memset(s, 0, sizeof *s);
	s->min = UINT64_MAX;
}

void rpb_snap_add(struct rpb_hist_snap *dst, const struct rpb_hist_snap *src)
{
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (unsigned i = 0; i < RPB_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

/* Saturating, so snapshots passed in the wrong order give zeros, not 2^64. */
static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void rpb_snap_diff(struct rpb_hist_snap *dst, const struct rpb_hist_snap *now,
		   const struct rpb_hist_snap *before)
{
	unsigned lo = RPB_HIST_BUCKETS, hi = 0;
	dst->count = 0;
	for (unsigned i = 0; i < RPB_HIST_BUCKETS; i++) {
		dst->buckets[i] = sub0(now->buckets[i], before->buckets[i]);
		if (dst->buckets[i]) {
			lo = lo < i ? lo : i;
			hi = i;
		}
		dst->count += dst->buckets[i];
	}
	dst->sum = sub0(now->sum, before->sum);
	dst->sumsq = now->sumsq > before->sumsq ? now->sumsq - before->sumsq : 0;
	if (lo == RPB_HIST_BUCKETS) {
		dst->min = UINT64_MAX;
		dst->max = 0;
		return;
	}
	/* Bucket bounds, tightened by the whole run's exact extremes; the top
	 * bucket also holds values above RPB_HIST_MAX, which only now->max
	 * bounds. */
	uint64_t bmin = rpb_hist_bucket_low(lo), bmax = rpb_hist_bucket_high(hi);
	dst->min = now->min > bmin && now->min <= rpb_hist_bucket_high(lo) ? now->min : bmin;
	if (hi == RPB_HIST_BUCKETS - 1 ||
	    (now->max < bmax && now->max >= rpb_hist_bucket_low(hi)))
		dst->max = now->max;
	else
		dst->max = bmax;
}

uint64_t rpb_snap_percentile(const struct rpb_hist_snap *s, double p)
{
	if (s->count == 0)
		return 0;
	if (p >= 100.0)
		return s->max;
	double r = p * (double)s->count / 100.0; /* exact for p = 99.9 and round counts */
	uint64_t rank = 1; /* also for p <= 0 and NaN */
	if (r > 1.0) {
		rank = (uint64_t)r;
		if ((double)rank < r)
			rank++; /* ceil, without libm */
	}
	uint64_t seen = 0;
	unsigned i = 0;
	for (; i < RPB_HIST_BUCKETS - 1; i++) {
		seen += s->buckets[i];
		if (seen >= rank)
			break;
	}
	uint64_t low = rpb_hist_bucket_low(i), high = rpb_hist_bucket_high(i);
	uint64_t v = low + (high - low) / 2;
	/* Skip the clamp when a live snapshot caught buckets before min/max. */
	if (s->min <= s->max) {
		if (v < s->min)
			v = s->min;
		if (v > s->max)
			v = s->max;
	}
	return v;
}

double rpb_snap_mean(const struct rpb_hist_snap *s)
{
	return s->count ? (double)s->sum / (double)s->count : 0.0;
}

double rpb_snap_stddev(const struct rpb_hist_snap *s)
{
	if (s->count < 2)
		return 0.0;
	long double n = (long double)s->count, mean = (long double)s->sum / n;
	long double var = (long double)s->sumsq / n - mean * mean;
	return var > 0 ? (double)sqrtl(var) : 0.0;
}
