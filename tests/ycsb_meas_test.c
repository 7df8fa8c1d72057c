/* YCSB's arithmetic and formats as the ycsb pattern reproduces them
 * (src/patterns/ycsb/ycsb_meas.h), against what Java and YCSB's libraries
 * print: the expected texts below were printed by OpenJDK 17 (Double
 * toString, DecimalFormat("#.##"), String.format("%.2f"), a
 * ConcurrentHashMap's keySet after each put), but where Java 19 changed
 * Double.toString (the shortest digits: 1.0E23, which Java 8-18 print as
 * 9.999999999999999E22). HdrHistogram's figures follow its
 * AbstractHistogram (2.1.4 and 2.1.12); RemainingFormatter Client.java's. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ycsb_meas.h"

Test(ycsb_meas, java_double_to_string)
{
	static const struct { double v; const char *java; } cases[] = {
		{1.0e7, "1.0E7"},
		{9999999.0, "9999999.0"},
		{0.001, "0.001"},
		{9.99e-4, "9.99E-4"},
		{1.0 / 3, "0.3333333333333333"},
		{100.0, "100.0"},
		{4.9e-324, "4.9E-324"},
		{1.7976931348623157e308, "1.7976931348623157E308"},
		{2500.0, "2500.0"},
		{0.1 + 0.2, "0.30000000000000004"},
		{1e21, "1.0E21"},
		{123456789.0, "1.23456789E8"},
		{437636.761487965, "437636.761487965"},
		{0.029726372087636736, "0.029726372087636736"},
		{2e-3, "0.002"},
		{1e23, "1.0E23"}, /* Java 19 on */
		{0.0, "0.0"},
		{-0.0, "-0.0"},
		{-2.5, "-2.5"},
		{NAN, "NaN"},
		{INFINITY, "Infinity"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char buf[64];
		ycsb_jdouble(buf, sizeof buf, cases[i].v);
		cr_assert_str_eq(buf, cases[i].java, "%.17g", cases[i].v);
	}
}

Test(ycsb_meas, java_decimal_formats)
{
	static const struct { double v; const char *decimal2, *fixed2; } cases[] = {
		{2.675, "2.67", "2.68"},  {0.125, "0.12", "0.13"},  {0.375, "0.38", "0.38"},
		{45.0, "45", "45.00"},    {1.005, "1", "1.01"},     {333333.3333, "333333.33", "333333.33"},
		{0.0, "0", "0.00"},       {0.004, "0", "0.00"},     {0.005, "0.01", "0.01"},
		{9.995, "9.99", "10.00"}, {123.456, "123.46", "123.46"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char a[64], b[64];
		ycsb_jdecimal2(a, sizeof a, cases[i].v);
		ycsb_jfixed2(b, sizeof b, cases[i].v);
		cr_assert_str_eq(a, cases[i].decimal2, "DecimalFormat(\"#.##\") of %.17g", cases[i].v);
		cr_assert_str_eq(b, cases[i].fixed2, "%%.2f of %.17g", cases[i].v);
	}
	char buf[32];
	ycsb_jdecimal2(buf, sizeof buf, NAN);
	cr_assert_str_eq(buf, "NaN");
	ycsb_jdecimal2(buf, sizeof buf, INFINITY);
	cr_assert_str_eq(buf, "\xe2\x88\x9e");
}

Test(ycsb_meas, remaining_formatter)
{
	static const struct { int64_t s; const char *text; } cases[] = {
		{0, "0 second "},	 {5, "5 second "},	   {45, "45 seconds "},
		{60, "1 minute "},	 {61, "1 minute "},	   {150, "2 minutes "},
		{3600, "1 hour "},	 {3661, "1 hour 1 minute "}, {86400, "1 day "},
		{90061, "1 day 1 hour "}, {2 * 86400 + 59, "2 days "},
		{INT64_MAX, "106751991167300 days 15 hours "},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char buf[96];
		ycsb_jremaining(buf, sizeof buf, cases[i].s);
		cr_assert_str_eq(buf, cases[i].text, "%lld s", (long long)cases[i].s);
	}
}

Test(ycsb_meas, percentile_ordinals)
{
	static const struct { double p; const char *text; } cases[] = {
		{95, "95th"}, {1, "1st"},     {2, "2nd"},	   {3, "3rd"},	  {11, "11th"},
		{12, "12th"}, {13, "13th"},   {21, "21st"},	   {111, "111th"}, {100, "100th"},
		{99.9, "99.9"}, {12.5, "12.5"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char buf[32];
		ycsb_jordinal(buf, sizeof buf, cases[i].p);
		cr_assert_str_eq(buf, cases[i].text);
	}
}

/* Three significant digits: exact below 2048, then buckets of 2, 4, ... */
Test(ycsb_meas, hdrhistogram_buckets)
{
	static const struct { int64_t v, lo, hi; } cases[] = {
		{0, 0, 0},	    {1, 1, 1},		 {2047, 2047, 2047}, {2048, 2048, 2049},
		{3001, 3000, 3001}, {16200, 16200, 16207}, {1000000, 999936, 1000447},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		cr_assert_eq(ycsb_hdr_lowest(cases[i].v), cases[i].lo, "%lld", (long long)cases[i].v);
		cr_assert_eq(ycsb_hdr_highest(cases[i].v), cases[i].hi, "%lld", (long long)cases[i].v);
		cr_assert_eq(ycsb_hdr_value(ycsb_hdr_index(cases[i].v)), cases[i].lo);
	}
	cr_assert_eq(ycsb_hdr_index(INT32_MAX), YCSB_HDR_LEN - 1, "the last count is 2^31 - 1's");
}

/* getValueAtPercentile: 2.1.4 rounds the count to the nearest, 2.1.12
 * takes its ceiling; getMinValue and getMean of an empty histogram:
 * Long.MAX_VALUE and NaN in 2.1.4, 0 and 0.0 in 2.1.12; the mean counts
 * each value as its bucket's median. */
Test(ycsb_meas, hdrhistogram_figures)
{
	static uint64_t c[YCSB_HDR_LEN];
	memset(c, 0, sizeof c);
	cr_assert_eq(ycsb_hdr_min(c, YCSB_HDR_2_1_4), INT64_MAX);
	cr_assert(isnan(ycsb_hdr_mean(c, YCSB_HDR_2_1_4)));
	cr_assert_eq(ycsb_hdr_min(c, YCSB_HDR_2_1_12), 0);
	cr_assert_eq(ycsb_hdr_mean(c, YCSB_HDR_2_1_12), 0.0);
	cr_assert_eq(ycsb_hdr_max(c), 0);
	for (int v = 1; v <= 10; v++)
		c[ycsb_hdr_index(v)]++;
	cr_assert_eq(ycsb_hdr_percentile(c, 91, YCSB_HDR_2_1_4), 9);
	cr_assert_eq(ycsb_hdr_percentile(c, 91, YCSB_HDR_2_1_12), 10);
	cr_assert_eq(ycsb_hdr_percentile(c, 50, YCSB_HDR_2_1_4), 5);
	cr_assert_eq(ycsb_hdr_percentile(c, 100, YCSB_HDR_2_1_4), 10);
	cr_assert_eq(ycsb_hdr_mean(c, YCSB_HDR_2_1_4), 5.5);
	cr_assert_eq(ycsb_hdr_min(c, YCSB_HDR_2_1_4), 1);
	memset(c, 0, sizeof c);
	c[ycsb_hdr_index(2048)]++;
	c[ycsb_hdr_index(2049)]++;
	cr_assert_eq(ycsb_hdr_mean(c, YCSB_HDR_2_1_12), 2049.0, "both at the bucket's median");
	cr_assert_eq(ycsb_hdr_max(c), 2049);
	cr_assert_eq(ycsb_hdr_min(c, YCSB_HDR_2_1_12), 2048);
}

static unsigned name_of(const char *s)
{
	for (unsigned k = 0; k < YM_COUNT; k++)
		if (!strcmp(ycsb_mnames[k], s))
			return k;
	cr_assert_fail("no measurement %s", s);
	return 0;
}

/* The order Java 8's ConcurrentHashMap iterates its keys after each put:
 * bins by hash, insertion order within a bin, and from the twelfth key a
 * table of 32 (the transfer reverses part of a bin). */
Test(ycsb_meas, concurrent_hash_map_order)
{
	static const char *const put[] = {"UPDATE", "READ-FAILED", "INSERT", "VERIFY", "READ", "SCAN",
		"READ-MODIFY-WRITE", "SCAN-LATENCY-PER-RECORD", "UPDATE-FAILED", "INSERT-FAILED",
		"SCAN-FAILED", "READ-NOT_FOUND", "UPDATE-ERROR", "SCAN-ERROR"};
	static const char *const java[] = {
		"UPDATE",
		"UPDATE,READ-FAILED",
		"UPDATE,READ-FAILED,INSERT",
		"UPDATE,READ-FAILED,INSERT,VERIFY",
		"READ,UPDATE,READ-FAILED,INSERT,VERIFY",
		"READ,UPDATE,READ-FAILED,INSERT,VERIFY,SCAN",
		"READ,READ-MODIFY-WRITE,UPDATE,READ-FAILED,INSERT,VERIFY,SCAN",
		"READ,READ-MODIFY-WRITE,SCAN-LATENCY-PER-RECORD,UPDATE,READ-FAILED,INSERT,VERIFY,SCAN",
		"READ,UPDATE-FAILED,READ-MODIFY-WRITE,SCAN-LATENCY-PER-RECORD,UPDATE,READ-FAILED,INSERT,"
		"VERIFY,SCAN",
		"READ,UPDATE-FAILED,READ-MODIFY-WRITE,SCAN-LATENCY-PER-RECORD,UPDATE,READ-FAILED,INSERT,"
		"VERIFY,SCAN,INSERT-FAILED",
		"READ,UPDATE-FAILED,SCAN-FAILED,READ-MODIFY-WRITE,SCAN-LATENCY-PER-RECORD,UPDATE,"
		"READ-FAILED,INSERT,VERIFY,SCAN,INSERT-FAILED",
		"READ-MODIFY-WRITE,READ-NOT_FOUND,SCAN-LATENCY-PER-RECORD,READ-FAILED,VERIFY,INSERT-FAILED,"
		"READ,UPDATE-FAILED,SCAN-FAILED,INSERT,UPDATE,SCAN",
		"READ-MODIFY-WRITE,READ-NOT_FOUND,UPDATE-ERROR,SCAN-LATENCY-PER-RECORD,READ-FAILED,VERIFY,"
		"INSERT-FAILED,READ,UPDATE-FAILED,SCAN-FAILED,INSERT,UPDATE,SCAN",
		"READ-MODIFY-WRITE,READ-NOT_FOUND,UPDATE-ERROR,SCAN-LATENCY-PER-RECORD,READ-FAILED,VERIFY,"
		"INSERT-FAILED,READ,UPDATE-FAILED,SCAN-ERROR,SCAN-FAILED,INSERT,UPDATE,SCAN",
	};
	unsigned names[YM_COUNT], order[YM_COUNT];
	for (unsigned n = 1; n <= sizeof put / sizeof *put; n++) {
		names[n - 1] = name_of(put[n - 1]);
		ycsb_chm_order(names, n, order);
		char got[512] = "";
		for (unsigned i = 0; i < n; i++) {
			strcat(got, i ? "," : "");
			strcat(got, ycsb_mnames[order[i]]);
		}
		cr_assert_str_eq(got, java[n - 1], "after %u keys", n);
	}
}
