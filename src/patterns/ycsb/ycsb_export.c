/* YCSB's exporters and what each measurementtype writes through them
 * (ycsb_meas.h), as site.ycsb.measurements.exporter.* and the
 * OneMeasurement*.exportMeasurements methods write it:
 *
 *   text:       [READ], AverageLatency(us), 4419.7        (one line each)
 *   JSON:       Jackson 1.9's pretty printer, one object after another,
 *               {\n  "metric" : "READ",\n  "measurement" : ...,\n  "value" : 4419.7\n} {...
 *   JSON array: the same objects in one array, "[ {" ... "}, {" ... "} ]"
 *
 * Numbers as Java prints them: integers as they are, doubles by
 * Double.toString in text and in JSON alike, where NaN and Infinity become
 * the strings "NaN" and "Infinity" (Jackson's QUOTE_NON_NUMERIC_NUMBERS). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ycsb_meas.h"

void ycsb_exp_begin(struct ycsb_exporter *e, FILE *f, int kind)
{
	e->f = f;
	e->kind = kind;
	e->written = 0;
	if (kind == YE_JSON_ARRAY)
		fputc('[', f);
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04X", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* One object: {, the fields each on an indented line, } on a line of its own. */
static void json_open(struct ycsb_exporter *e, const char *metric, const char *measurement)
{
	if (e->written)
		fputs(e->kind == YE_JSON_ARRAY ? ", " : " ", e->f); /* value / root separator */
	else if (e->kind == YE_JSON_ARRAY)
		fputc(' ', e->f);
	fputs("{\n  \"metric\" : ", e->f);
	json_string(e->f, metric);
	fputs(",\n  \"measurement\" : ", e->f);
	json_string(e->f, measurement);
	fputs(",\n  \"value\" : ", e->f);
}

void ycsb_exp_long(struct ycsb_exporter *e, const char *metric, const char *measurement, int64_t v)
{
	if (e->kind == YE_TEXT) {
		fprintf(e->f, "[%s], %s, %" PRId64 "\n", metric, measurement, v);
	} else {
		json_open(e, metric, measurement);
		fprintf(e->f, "%" PRId64 "\n}", v);
	}
	e->written++;
}

void ycsb_exp_double(struct ycsb_exporter *e, const char *metric, const char *measurement,
		     double v)
{
	char d[64];
	ycsb_jdouble(d, sizeof d, v);
	if (e->kind == YE_TEXT) {
		fprintf(e->f, "[%s], %s, %s\n", metric, measurement, d);
	} else {
		json_open(e, metric, measurement);
		if (isfinite(v))
			fputs(d, e->f);
		else
			json_string(e->f, d);
		fputs("\n}", e->f);
	}
	e->written++;
}

void ycsb_exp_end(struct ycsb_exporter *e)
{
	if (e->kind == YE_JSON_ARRAY)
		fputs(" ]", e->f);
}

/* exportStatusCounts: the statuses in the order Java's map of Status
 * objects iterates them (their hash codes put OK, UNEXPECTED_STATE,
 * NOT_FOUND, ERROR in bins 5, 8, 11 and 15). */
static void statuses(struct ycsb_exporter *e, const char *name, const struct ycsb_merged *g)
{
	static const enum ycsb_st order[] = {YS_OK, YS_UNEXPECTED_STATE, YS_NOT_FOUND, YS_ERROR};
	for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
		if (!g->status[order[i]])
			continue;
		char what[64];
		snprintf(what, sizeof what, "Return=%s", ycsb_status_names[order[i]]);
		ycsb_exp_long(e, name, what, (int64_t)g->status[order[i]]);
	}
}

static void export_hdr(struct ycsb_exporter *e, const struct ycsb_export_in *in, const char *name,
		       const struct ycsb_merged *g)
{
	enum ycsb_hdr_version ver = in->c->master ? YCSB_HDR_2_1_12 : YCSB_HDR_2_1_4;
	ycsb_exp_long(e, name, "Operations", (int64_t)ycsb_hdr_total(g->hdr));
	ycsb_exp_double(e, name, "AverageLatency(us)", ycsb_hdr_mean(g->hdr, ver));
	ycsb_exp_long(e, name, "MinLatency(us)", ycsb_hdr_min(g->hdr, ver));
	ycsb_exp_long(e, name, "MaxLatency(us)", ycsb_hdr_max(g->hdr));
	for (unsigned i = 0; i < in->npct; i++) {
		char ord[64], what[96];
		ycsb_jordinal(ord, sizeof ord, in->pct[i]);
		snprintf(what, sizeof what, "%sPercentileLatency(us)", ord);
		ycsb_exp_long(e, name, what, ycsb_hdr_percentile(g->hdr, in->pct[i], ver));
	}
	statuses(e, name, g);
	if (!in->verbose)
		return;
	for (unsigned i = 0; i < YCSB_HDR_LEN; i++) {
		if (!g->hdr[i])
			continue;
		int64_t v = ycsb_hdr_highest(ycsb_hdr_value(i));
		char what[32];
		snprintf(what, sizeof what, "%" PRId64, v > INT32_MAX ? (int64_t)INT32_MAX : v);
		ycsb_exp_double(e, name, what, (double)g->hdr[i]);
	}
}

static void export_buckets(struct ycsb_exporter *e, const struct ycsb_export_in *in,
			   const char *name, const struct ycsb_merged *g, bool with_status)
{
	double ops = (double)g->count;
	double mean = (double)g->sum / ops;
	ycsb_exp_long(e, name, "Operations", (int64_t)g->count);
	ycsb_exp_double(e, name, "AverageLatency(us)", mean);
	ycsb_exp_double(e, name, "LatencyVariance(us)", (double)g->sumsq / ops - mean * mean);
	ycsb_exp_long(e, name, "MinLatency(us)", g->min);
	ycsb_exp_long(e, name, "MaxLatency(us)", g->max);
	uint64_t seen = 0;
	bool done95 = false;
	for (uint32_t i = 0; i < in->c->buckets; i++) {
		seen += g->buckets[i];
		if (!done95 && (double)seen / ops >= 0.95) {
			ycsb_exp_long(e, name, "95thPercentileLatency(us)", (int64_t)i * 1000);
			done95 = true;
		}
		if ((double)seen / ops >= 0.99) {
			ycsb_exp_long(e, name, "99thPercentileLatency(us)", (int64_t)i * 1000);
			break;
		}
	}
	if (with_status)
		statuses(e, name, g);
	if (!in->verbose)
		return;
	for (uint32_t i = 0; i < in->c->buckets; i++) {
		char what[32];
		snprintf(what, sizeof what, "%" PRIu32, i);
		ycsb_exp_long(e, name, what, (int64_t)g->buckets[i]);
	}
	char over[32];
	snprintf(over, sizeof over, ">%" PRIu32, in->c->buckets);
	ycsb_exp_long(e, name, over, (int64_t)g->overflow);
}

static void export_series(struct ycsb_exporter *e, const struct ycsb_export_in *in,
			  const char *name, const struct ycsb_merged *g)
{
	ycsb_exp_long(e, name, "Operations", (int64_t)g->count);
	ycsb_exp_double(e, name, "AverageLatency(us)", (double)g->sum / (double)g->count);
	ycsb_exp_long(e, name, "MinLatency(us)", g->min);
	ycsb_exp_long(e, name, "MaxLatency(us)", g->max);
	statuses(e, name, g);
	/* Units of granularity ms from the measurement's first sample, each
	 * with the average of its samples; the export closes the last one (a
	 * measurement that only had statuses closes an empty unit 0: NaN). */
	uint64_t gr = in->granularity_ms ? in->granularity_ms : 1;
	if (!g->npts) {
		ycsb_exp_double(e, name, "0", NAN);
		return;
	}
	uint64_t start = in->c->wall0_ms + (g->pts[0].t_ns - in->c->t0_ns) / 1000000;
	uint64_t unit = 0, count = 0, sum = 0;
	for (size_t i = 0; i <= g->npts; i++) {
		uint64_t u = unit;
		if (i < g->npts) {
			uint64_t ms = in->c->wall0_ms + (g->pts[i].t_ns - in->c->t0_ns) / 1000000;
			u = (ms - start) / gr * gr;
		}
		if (i == g->npts || (u > unit && count)) {
			char what[32];
			snprintf(what, sizeof what, "%" PRIu64, unit);
			ycsb_exp_double(e, name, what, (double)sum / (double)count);
			count = sum = 0;
		}
		if (i == g->npts)
			break;
		unit = u;
		count++;
		sum += (uint64_t)g->pts[i].us;
	}
}

static int by_latency(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

static void export_raw(struct ycsb_exporter *e, const struct ycsb_export_in *in, const char *name,
		       const struct ycsb_merged *g, bool with_status)
{
	int64_t total = (int64_t)g->npts;
	ycsb_exp_long(e, name, "Total Operations", total);
	int32_t *v = total > 0 && !in->raw_no_summary ? malloc((size_t)total * sizeof *v) : NULL;
	if (v) {
		int64_t sum = 0; /* totalLatency, a long */
		for (size_t i = 0; i < g->npts; i++)
			sum += v[i] = g->pts[i].us;
		qsort(v, g->npts, sizeof *v, by_latency);
		ycsb_exp_long(e, name, "Below is a summary of latency in microseconds:", -1);
		ycsb_exp_double(e, name, "Average", (double)sum / (double)total);
		ycsb_exp_long(e, name, "Min", v[0]);
		ycsb_exp_long(e, name, "Max", v[total - 1]);
		static const struct { const char *name; double f; } at[] = {
			{"p1", 0.01},  {"p5", 0.05},  {"p50", 0.5},      {"p90", 0.9},
			{"p95", 0.95}, {"p99", 0.99}, {"p99.9", 0.999}, {"p99.99", 0.9999},
		};
		for (size_t i = 0; i < sizeof at / sizeof *at; i++)
			ycsb_exp_long(e, name, at[i].name, v[(int64_t)((double)total * at[i].f)]);
		free(v);
	}
	if (with_status)
		statuses(e, name, g);
}

/* One measurement as its type exports it. */
static void export_one(struct ycsb_exporter *e, const struct ycsb_export_in *in, int map,
		       enum ycsb_mname k)
{
	const struct ycsb_merged *g = &in->r->m[map][k];
	char name[96], second[96];
	switch (in->c->type) {
	case YT_HDR:
		ycsb_display_name(name, sizeof name, in->c, map, k, NULL);
		export_hdr(e, in, name, g);
		break;
	case YT_HISTOGRAM:
		ycsb_display_name(name, sizeof name, in->c, map, k, NULL);
		export_buckets(e, in, name, g, true);
		break;
	case YT_TIMESERIES:
		ycsb_display_name(name, sizeof name, in->c, map, k, NULL);
		export_series(e, in, name, g);
		break;
	case YT_RAW:
		ycsb_display_name(name, sizeof name, in->c, map, k, NULL);
		export_raw(e, in, name, g, true);
		break;
	case YT_HDR_HISTOGRAM: /* TwoInOneMeasurement: the statuses go to the first */
		ycsb_display_name(name, sizeof name, in->c, map, k, "Hdr");
		ycsb_display_name(second, sizeof second, in->c, map, k, "Bucket");
		export_hdr(e, in, name, g);
		export_buckets(e, in, second, g, false);
		break;
	case YT_HDR_RAW:
		ycsb_display_name(name, sizeof name, in->c, map, k, "Hdr");
		ycsb_display_name(second, sizeof second, in->c, map, k, "Raw");
		export_hdr(e, in, name, g);
		export_raw(e, in, second, g, false);
		break;
	}
}

void ycsb_export(struct ycsb_exporter *e, const struct ycsb_export_in *in)
{
	ycsb_exp_long(e, "OVERALL", "RunTime(ms)", in->runtime_ms);
	/* 1000.0 * (opcount) / (runtime): Infinity after 0 ms, NaN for nothing. */
	ycsb_exp_double(e, "OVERALL", "Throughput(ops/sec)",
			1000.0 * (double)in->ops / (double)in->runtime_ms);
	for (int map = 0; map < YCSB_MAPS; map++)
		for (unsigned i = 0; i < in->r->norder[map]; i++)
			export_one(e, in, map, (enum ycsb_mname)in->r->order[map][i]);
}

/* The raw part's name of a measurement ("READ", or "RawREAD" beside Hdr). */
static void raw_name(char *buf, size_t n, const struct ycsb_export_in *in, int map,
		     enum ycsb_mname k)
{
	ycsb_display_name(buf, n, in->c, map, k, in->c->type == YT_HDR_RAW ? "Raw" : NULL);
}

void ycsb_export_raw_notices(FILE *f, const struct ycsb_export_in *in, const char *file)
{
	if (in->c->type != YT_RAW && in->c->type != YT_HDR_RAW)
		return;
	for (int map = 0; map < YCSB_MAPS; map++)
		for (unsigned i = 0; i < in->r->norder[map]; i++) {
			if (file && *file)
				fprintf(f, "Raw data measurement: will output to result file: %s\n", file);
			else
				fprintf(f, "Raw data measurement: will output to stdout.\n");
		}
}

void ycsb_export_raw(FILE *f, const struct ycsb_export_in *in)
{
	if (in->c->type != YT_RAW && in->c->type != YT_HDR_RAW)
		return;
	for (int map = 0; map < YCSB_MAPS; map++)
		for (unsigned i = 0; i < in->r->norder[map]; i++) {
			enum ycsb_mname k = (enum ycsb_mname)in->r->order[map][i];
			const struct ycsb_merged *g = &in->r->m[map][k];
			char name[96];
			raw_name(name, sizeof name, in, map, k);
			fprintf(f, "%s latency raw data: op, timestamp(ms), latency(us)\n", name);
			for (size_t p = 0; p < g->npts; p++)
				fprintf(f, "%s,%" PRIu64 ",%" PRId32 "\n", name,
					in->c->wall0_ms + (g->pts[p].t_ns - in->c->t0_ns) / 1000000,
					g->pts[p].us);
		}
}
