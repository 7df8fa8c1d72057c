/* A reader of YCSB's output, written from YCSB's exporter code
 * (site.ycsb.measurements.exporter.TextMeasurementsExporter,
 * JSONMeasurementsExporter, JSONArrayMeasurementsExporter and each
 * OneMeasurement*.exportMeasurements, YCSB 0.17.0 and master), for the
 * tests: it reads what rpbench writes as YCSB would have written it, checks
 * the layout of every measurement of a measurementtype, and recomputes what
 * can be recomputed (the throughput from the run time and the operations,
 * a raw measurement's summary from its samples). Any deviation is a
 * message in why. */
#ifndef RPBT_YCSB_OUTPUT_H
#define RPBT_YCSB_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One exporter.write(metric, measurement, value). */
struct yo_rec {
	char metric[128], measurement[128];
	bool dbl;           /* written as a double (Double.toString) */
	double d;           /* the value (integers too) */
	int64_t l;          /* an integer's value */
	char text[64];      /* as printed */
};

/* One raw sample line ("READ,1700000000000,12"). */
struct yo_sample {
	char metric[64];
	int64_t ms, us;
};

struct yo_out {
	struct yo_rec *r;
	size_t n;
	struct yo_sample *s;
	size_t ns;
	unsigned raw_headers; /* "NAME latency raw data: op, timestamp(ms), latency(us)" */
};

/* measurementtype, as YCSB names it. */
enum yo_type { YO_HDR, YO_HISTOGRAM, YO_HDR_HISTOGRAM, YO_HDR_RAW, YO_TIMESERIES, YO_RAW };

/* What a reading expects. */
struct yo_expect {
	enum yo_type type;
	unsigned npct;         /* hdr: the percentile lines each measurement has */
	const char *pct[8];    /* their ordinals ("95th", "99.9") */
	uint64_t granularity;  /* timeseries */
	bool raw_summary;      /* raw: the summary after Total Operations (not no_summary) */
};

void yo_free(struct yo_out *o);
/* Reads the text exporter's lines, after the raw samples YCSB prints
 * first; 0, or -1 with why. */
int yo_read_text(const char *text, struct yo_out *o, char *why, size_t n);
/* Reads the JSON exporters' output (array: JSONArrayMeasurementsExporter)
 * and checks it is Jackson 1.9's pretty-printed layout byte for byte. */
int yo_read_json(const char *text, bool array, struct yo_out *o, char *why, size_t n);
/* Checks every measurement's lines against its type's exportMeasurements,
 * the raw summaries against the samples, and the throughput: 1000.0 x
 * operations / RunTime(ms), operations from the statuses (every READ,
 * UPDATE, INSERT and SCAN, less one READ and one UPDATE per
 * READ-MODIFY-WRITE). *ops is the operations found. */
int yo_check(const struct yo_out *o, const struct yo_expect *x, uint64_t *ops, char *why, size_t n);
/* The record of metric and measurement, or NULL. */
const struct yo_rec *yo_find(const struct yo_out *o, const char *metric, const char *measurement);
/* Whether two readings hold the same records (metric, measurement, kind, value). */
bool yo_same(const struct yo_out *a, const struct yo_out *b, char *why, size_t n);

#endif
