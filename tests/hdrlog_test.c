/* histograms.hlog read back by a decoder written from HdrHistogram's format
 * (hdrlog_decode.c): the layout, the counts, and p50/p99 against
 * result.json's, within the log's precision (1/1024 of the value). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_util.h"
#include "hdrlog.h"
#include "hdrlog_decode.h"
#include "hist.h"

/* |got - want| within the log's precision: HdrHistogram's 3 digits give
 * sub-buckets of at most 1/1024 of their value. */
static void assert_close(uint64_t got, uint64_t want, const char *what)
{
	uint64_t d = got > want ? got - want : want - got;
	cr_assert_leq(d, want / 1024 + 1, "%s: %llu from the log, %llu expected", what,
		      (unsigned long long)got, (unsigned long long)want);
}

Test(hdrlog, layout_matches_hdrhistograms)
{
	/* 3 digits, lowest 1: values below 2048 exact, then 1024 steps a power of two. */
	cr_assert_eq(rpb_hdr_index(0), 0);
	cr_assert_eq(rpb_hdr_index(2047), 2047);
	cr_assert_eq(rpb_hdr_index(2048), 2048);
	cr_assert_eq(rpb_hdr_index(2049), 2048);
	cr_assert_eq(rpb_hdr_index(4096), 3072);
	cr_assert_lt(rpb_hdr_index(RPB_HIST_MAX), RPB_HDR_COUNTS);
	for (uint64_t v = 1; v < RPB_HIST_MAX; v = v * 3 + 1) {
		uint64_t low = rpb_hdr_value(rpb_hdr_index(v));
		cr_assert(low <= v && v - low <= v / 1024, "v %llu low %llu", (unsigned long long)v,
			  (unsigned long long)low);
	}
}

/* A log of two labels read back: tags, times, every count, percentiles. */
Test(hdrlog, decodes_to_rpbenchs_percentiles)
{
	static struct rpb_hist h1, h2;
	static struct rpb_hist_snap s1, s2;
	rpb_hist_init(&h1);
	rpb_hist_init(&h2);
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		rpb_hist_record(&h1, 500 + x % 2000000); /* 0.5 µs .. 2 ms */
		if (i % 10 == 0)
			rpb_hist_record(&h2, (x % 1000) * 1000000ull); /* up to 1 s */
	}
	rpb_hist_snapshot(&h1, &s1);
	rpb_hist_snapshot(&h2, &s2);
	struct rpb_hdrlog_label labels[] = {{"put", &s1}, {"READ-MODIFY-WRITE", &s2}};
	char *text = rpb_hdrlog_text(1700000000123ull, 0.25, 12.5, labels, 2);
	cr_assert(text);
	cr_assert(strstr(text, "#[BaseTime: 1700000000.123 (seconds since epoch)]\n"));
	cr_assert(strstr(text, "\n\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
			       "\"Interval_Compressed_Histogram\"\n"));
	const char *line = strstr(text, "\nTag=");
	for (unsigned l = 0; l < 2; l++) {
		cr_assert(line, "interval line %u", l);
		struct hdrt_hist d;
		char why[128];
		cr_assert(hdrt_decode_line(line + 1, &d, why, sizeof why), "%s", why);
		const struct rpb_hist_snap *s = labels[l].snap;
		cr_assert_str_eq(d.tag, labels[l].tag);
		cr_assert_float_eq(d.start_s, 0.25, 1e-9);
		cr_assert_float_eq(d.length_s, 12.5, 1e-9);
		cr_assert_float_eq(d.max_ms, (double)s->max / 1e6, 0.0006);
		cr_assert_eq(d.digits, 3);
		cr_assert_eq(d.total, s->count);
		for (double p = 1; p < 100; p += 0.5)
			assert_close(hdrt_percentile(&d, p), rpb_snap_percentile(s, p), labels[l].tag);
		hdrt_free(&d);
		line = strstr(line + 1, "\nTag=");
	}
	cr_assert_null(line, "one line per label");
	free(text);
}

/* An empty label still decodes: no counts. */
Test(hdrlog, empty_histogram)
{
	static struct rpb_hist_snap s;
	rpb_snap_init(&s);
	struct rpb_hdrlog_label label = {"idle", &s};
	char *text = rpb_hdrlog_text(0, 0, 1, &label, 1);
	struct hdrt_hist d;
	char why[128];
	cr_assert(hdrt_decode_line(strstr(text, "Tag="), &d, why, sizeof why), "%s", why);
	cr_assert_eq(d.total, 0);
	hdrt_free(&d);
	free(text);
}

#ifdef RPB_HAVE_SQLITE
/* A real run's histograms.hlog: each label of result.json, its measured
 * count and its p50 and p99. */
Test(e2e_hdrlog, run_matches_result_json, .fini = e2e_cleanup)
{
	struct e2e_env e;
	char out[PATH_MAX];
	e2e_env_init(&e, "sqlite");
	e2e_path(&e, out, "o");
	struct e2e_args a = {0};
	e2e_run_args(&a, &e, E2E_WORKLOAD("raw-ci.ini"), out);
	e2e_args_add(&a, "--set", "num=300", NULL);
	e2e_exec_ok(e.cap, &a);
	json_t *r = e2e_result(out), *labels = json_object_get(r, "labels");
	char *log = e2e_slurp_in(out, "histograms.hlog");
	cr_assert(log && strncmp(log, "#[Histogram log format version 1.3]\n", 36) == 0);
	unsigned lines = 0;
	for (const char *line = strstr(log, "\nTag="); line; line = strstr(line + 1, "\nTag=")) {
		struct hdrt_hist d;
		char why[128];
		cr_assert(hdrt_decode_line(line + 1, &d, why, sizeof why), "%s", why);
		json_t *lab = json_object_get(labels, d.tag);
		cr_assert(lab, "label %s is in result.json", d.tag);
		cr_assert_eq(d.total, (uint64_t)json_integer_value(json_object_get(lab, "measured")),
			     "%s", d.tag);
		uint64_t p50 = (uint64_t)llround(json_number_value(json_object_get(lab, "p50_us")) * 1e3);
		uint64_t p99 = (uint64_t)llround(json_number_value(json_object_get(lab, "p99_us")) * 1e3);
		assert_close(hdrt_percentile(&d, 50), p50, d.tag);
		assert_close(hdrt_percentile(&d, 99), p99, d.tag);
		cr_assert_float_eq(d.max_ms, json_number_value(json_object_get(lab, "max_us")) / 1e3,
				   0.0006, "%s", d.tag);
		hdrt_free(&d);
		lines++;
	}
	cr_assert_eq(lines, json_object_size(labels), "one line per label of result.json");
	free(log);
	json_decref(r);
	e2e_env_fini(&e);
}
#endif
