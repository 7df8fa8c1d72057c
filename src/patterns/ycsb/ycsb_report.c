/* YCSB's text output (its TextMeasurementsExporter with HdrHistogram
 * measurements), written from result.json so ycsb.txt, report.txt and the
 * lines printed at the end agree:
 *
 *   [OVERALL], RunTime(ms), 10110
 *   [OVERALL], Throughput(ops/sec), 98.91196834817013
 *   [READ], Operations, 511
 *   [READ], AverageLatency(us), 4419.7
 *   [READ], MinLatency(us), 277
 *   [READ], MaxLatency(us), 123391
 *   [READ], 95thPercentileLatency(us), 17343
 *   [READ], 99thPercentileLatency(us), 30191
 *   [READ], Return=OK, 511
 *
 * Operations that did not occur are left out, as YCSB leaves them out. */
#include <math.h>
#include <stdio.h>

#include "ycsb.h"

static double num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : 0;
}

/* Java's Double.toString for the values YCSB prints: the shortest text
 * that reads back, with ".0" on whole numbers. */
static void java_double(char *buf, size_t n, double v)
{
	rpb_fmt_double(buf, n, v);
	bool plain = true;
	for (const char *p = buf; *p; p++)
		if (*p == '.' || *p == 'e' || *p == 'n' || *p == 'i')
			plain = false;
	if (plain)
		rpb_cat(buf, n, ".0");
}

void ycsb_format(FILE *f, const json_t *result)
{
	const json_t *totals = json_object_get(result, "totals");
	const json_t *labels = json_object_get(result, "labels");
	/* Operations done over the run time (YCSB divides by whole milliseconds;
	 * the exact time keeps a short run from dividing by zero). */
	double ms = floor(num(totals, "elapsed_s") * 1000), ops = num(totals, "acked");
	char d[64];
	fprintf(f, "[OVERALL], RunTime(ms), %.0f\n", ms);
	double secs = num(totals, "elapsed_s");
	java_double(d, sizeof d, secs > 0 ? ops / secs : 0);
	fprintf(f, "[OVERALL], Throughput(ops/sec), %s\n", d);
	for (int op = 0; op < YCSB_NOPS; op++) {
		const char *name = ycsb_op_names[op];
		const json_t *l = json_object_get(labels, name);
		double measured = num(l, "measured"), errors = num(l, "errors");
		if (!l || measured <= 0)
			continue;
		fprintf(f, "[%s], Operations, %.0f\n", name, measured);
		java_double(d, sizeof d, num(l, "mean_us"));
		fprintf(f, "[%s], AverageLatency(us), %s\n", name, d);
		fprintf(f, "[%s], MinLatency(us), %.0f\n", name, floor(num(l, "min_us")));
		fprintf(f, "[%s], MaxLatency(us), %.0f\n", name, ceil(num(l, "max_us")));
		fprintf(f, "[%s], 95thPercentileLatency(us), %.0f\n", name, ceil(num(l, "p95_us")));
		fprintf(f, "[%s], 99thPercentileLatency(us), %.0f\n", name, ceil(num(l, "p99_us")));
		if (measured > errors)
			fprintf(f, "[%s], Return=OK, %.0f\n", name, measured - errors);
		if (errors > 0)
			fprintf(f, "[%s], Return=ERROR, %.0f\n", name, errors);
	}
}
