/* HdrHistogram as YCSB's OneMeasurementHdrHistogram builds it (new
 * Recorder(3): three significant digits, lowest discernible value 1), over
 * the int microseconds YCSB records: the same buckets, and the figures YCSB
 * reads from them (getMaxValue, getMinValue, getMean, getValueAtPercentile,
 * recordedValues) computed as HdrHistogram 2.1.4 (YCSB 0.17.0) or 2.1.12
 * (YCSB master) computes them (ycsb_meas.h). Each figure is a function of
 * the bucket counts alone, so counts merged from every thread, or the
 * difference of two readings, give exactly what YCSB's shared recorder and
 * its interval histograms give. */
#include <math.h>
#include <stdint.h>

#include "ycsb_meas.h"

/* subBucketCount 2048 (2^ceil(log2(2 * 10^3))), half of it 1024, unit 1. */
#define HALF_MAG 10
#define HALF (1u << HALF_MAG)
#define SUB_MASK 2047u

static unsigned bucket_of(uint64_t v)
{
	/* leadingZeroCountBase (64 - 0 - 10 - 1) - numberOfLeadingZeros(v | mask) */
	return 53u - (unsigned)__builtin_clzll(v | SUB_MASK);
}

unsigned ycsb_hdr_index(int64_t us)
{
	uint64_t v = us < 0 ? 0 : us > INT32_MAX ? INT32_MAX : (uint64_t)us;
	unsigned b = bucket_of(v);
	unsigned sub = (unsigned)(v >> b);
	return ((b + 1) << HALF_MAG) + sub - HALF;
}

int64_t ycsb_hdr_value(unsigned idx)
{
	int b = (int)(idx >> HALF_MAG) - 1;
	unsigned sub = (idx & (HALF - 1)) + HALF;
	if (b < 0) {
		sub -= HALF;
		b = 0;
	}
	return (int64_t)sub << b;
}

int64_t ycsb_hdr_lowest(int64_t v)
{
	return ycsb_hdr_value(ycsb_hdr_index(v));
}

static int64_t range_size(int64_t v)
{
	return INT64_C(1) << bucket_of((uint64_t)v);
}

int64_t ycsb_hdr_highest(int64_t v)
{
	return ycsb_hdr_lowest(v) + range_size(v) - 1;
}

static int64_t median(int64_t v)
{
	return ycsb_hdr_lowest(v) + (range_size(v) >> 1);
}

uint64_t ycsb_hdr_total(const uint64_t *c)
{
	uint64_t t = 0;
	for (unsigned i = 0; i < YCSB_HDR_LEN; i++)
		t += c[i];
	return t;
}

int64_t ycsb_hdr_max(const uint64_t *c)
{
	for (unsigned i = YCSB_HDR_LEN; i-- > 0;)
		if (c[i])
			return ycsb_hdr_highest(ycsb_hdr_value(i));
	return 0;
}

int64_t ycsb_hdr_min(const uint64_t *c, enum ycsb_hdr_version ver)
{
	/* 0 when a 0 was recorded; else the lowest value's bucket, or, with
	 * nothing recorded, 2.1.4's Long.MAX_VALUE and 2.1.12's 0. */
	for (unsigned i = 0; i < YCSB_HDR_LEN; i++)
		if (c[i])
			return i == 0 ? 0 : ycsb_hdr_value(i);
	return ver == YCSB_HDR_2_1_4 ? INT64_MAX : 0;
}

double ycsb_hdr_mean(const uint64_t *c, enum ycsb_hdr_version ver)
{
	uint64_t total = ycsb_hdr_total(c);
	if (!total && ver == YCSB_HDR_2_1_12)
		return 0.0;
	/* The recorded values in ascending order, each bucket by its median. */
	double sum = 0;
	for (unsigned i = 0; i < YCSB_HDR_LEN; i++)
		if (c[i])
			sum += (double)median(ycsb_hdr_value(i)) * (double)c[i];
	return sum * 1.0 / (double)total; /* 2.1.4 with nothing recorded: NaN */
}

int64_t ycsb_hdr_percentile(const uint64_t *c, double p, enum ycsb_hdr_version ver)
{
	uint64_t total = ycsb_hdr_total(c);
	int64_t want;
	if (ver == YCSB_HDR_2_1_4) {
		double req = p < 100.0 ? p : 100.0;
		want = (int64_t)(((req / 100.0) * (double)total) + 0.5); /* round to nearest */
	} else {
		double req = fmin(fmax(nextafter(p, -INFINITY), 0.0), 100.0);
		want = (int64_t)ceil((req * (double)total) / 100.0);
	}
	if (want < 1)
		want = 1;
	uint64_t acc = 0;
	for (unsigned i = 0; i < YCSB_HDR_LEN; i++) {
		acc += c[i];
		if (acc >= (uint64_t)want)
			return p == 0.0 ? ycsb_hdr_value(i) : ycsb_hdr_highest(ycsb_hdr_value(i));
	}
	return 0;
}
