/* YCSB's status lines (StatusThread.computeStats with each
 * OneMeasurement's getSummary), one at the start, one every
 * status.interval and one at the end, on stderr as YCSB prints them:
 *
 *   2026-12-01 17:00:10:042 10 sec: 12345 operations; 1234.5 current ops/sec;
 *   est completion in 1 minute [READ: Count=6000, Max=1234, Min=12, Avg=45.67,
 *   90=80, 99=300, 99.9=900, 99.99=1200] [UPDATE: ...]
 *
 * (one line; master adds ", 50=" before ", 90="). The latencies are those
 * since the previous line, from the workers' own measurements. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "options.h"
#include "ycsb_status.h"

int ycsb_status_init(struct ycsb_status *s)
{
	memset(s, 0, sizeof *s);
	s->cur = calloc(YCSB_HDR_LEN, sizeof *s->cur);
	return s->cur ? 0 : -1;
}

void ycsb_status_free(struct ycsb_status *s)
{
	for (int m = 0; m < YCSB_MAPS; m++)
		for (int k = 0; k < YM_COUNT; k++)
			free(s->prev_hdr[m][k]);
	free(s->cur);
	memset(s, 0, sizeof *s);
}

/* Java's (long) of a double: NaN is 0, beyond the range its bound. */
static int64_t java_long(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9.2233720368547758e18)
		return INT64_MAX;
	if (v <= -9.2233720368547758e18)
		return INT64_MIN;
	return (int64_t)v;
}

/* HdrHistogram's getSummary over the interval's counts. */
static void hdr_summary(char *buf, size_t n, const struct ycsb_mconf *c, const char *name,
			const uint64_t *d)
{
	enum ycsb_hdr_version ver = c->master ? YCSB_HDR_2_1_12 : YCSB_HDR_2_1_4;
	char avg[48], p[5][48];
	static const double at[5] = {50, 90, 99, 99.9, 99.99};
	ycsb_jdecimal2(avg, sizeof avg, ycsb_hdr_mean(d, ver));
	for (int i = 0; i < 5; i++)
		ycsb_jdecimal2(p[i], sizeof p[i], (double)ycsb_hdr_percentile(d, at[i], ver));
	rpb_cat(buf, n, "[%s: Count=%" PRIu64 ", Max=%" PRId64 ", Min=%" PRId64 ", Avg=%s", name,
		ycsb_hdr_total(d), ycsb_hdr_max(d), ycsb_hdr_min(d, ver), avg);
	if (c->master)
		rpb_cat(buf, n, ", 50=%s", p[0]);
	rpb_cat(buf, n, ", 90=%s, 99=%s, 99.9=%s, 99.99=%s]", p[1], p[2], p[3], p[4]);
}

/* OneMeasurementHistogram's and OneMeasurementTimeSeries' getSummary. */
static void avg_summary(char *buf, size_t n, const char *name, uint64_t count, uint64_t sum)
{
	if (!count)
		return;
	char avg[48];
	ycsb_jdecimal2(avg, sizeof avg, (double)sum / (double)count);
	rpb_cat(buf, n, "[%s AverageLatency(us)=%s]", name, avg);
}

/* OneMeasurementRaw's getSummary. */
static void raw_summary(char *buf, size_t n, const char *name, uint64_t count, uint64_t sum)
{
	if (!count)
		return;
	char avg[48];
	ycsb_jfixed2(avg, sizeof avg, (double)sum / (double)count);
	rpb_cat(buf, n, "%s count: %" PRIu64 ", average latency(us): %s", name, count, avg);
}

/* One measurement's part of the line, for its interval. */
static void summary(struct ycsb_status *s, const struct ycsb_status_in *in, int map,
		    enum ycsb_mname k, char *buf, size_t n)
{
	const struct ycsb_mconf *c = in->c;
	uint64_t count = 0, sum = 0;
	bool hdr = ycsb_mtype_hdr(c->type);
	if (hdr) {
		if (!s->prev_hdr[map][k] && !(s->prev_hdr[map][k] = calloc(YCSB_HDR_LEN, sizeof(uint64_t))))
			return;
		memset(s->cur, 0, YCSB_HDR_LEN * sizeof *s->cur);
	}
	for (unsigned t = 0; t < in->nw; t++) {
		const struct ycsb_wslot *ws = &in->w[t]->s[map][k];
		if (!atomic_load_explicit(&ws->first_ns, memory_order_acquire))
			continue;
		count += atomic_load_explicit(&ws->count, memory_order_relaxed);
		sum += atomic_load_explicit(&ws->sum, memory_order_relaxed);
		for (unsigned i = 0; hdr && ws->hdr && i < YCSB_HDR_LEN; i++)
			s->cur[i] += atomic_load_explicit(&ws->hdr[i], memory_order_relaxed);
	}
	uint64_t dc = count - s->prev_count[map][k], ds = sum - s->prev_sum[map][k];
	s->prev_count[map][k] = count;
	s->prev_sum[map][k] = sum;
	char name[96], second[96];
	if (hdr) {
		uint64_t *prev = s->prev_hdr[map][k];
		for (unsigned i = 0; i < YCSB_HDR_LEN; i++) {
			uint64_t now = s->cur[i];
			s->cur[i] = now - prev[i];
			prev[i] = now;
		}
	}
	switch (c->type) {
	case YT_HDR:
		ycsb_display_name(name, sizeof name, c, map, k, NULL);
		hdr_summary(buf, n, c, name, s->cur);
		break;
	case YT_HISTOGRAM:
	case YT_TIMESERIES:
		ycsb_display_name(name, sizeof name, c, map, k, NULL);
		avg_summary(buf, n, name, dc, ds);
		break;
	case YT_RAW:
		ycsb_display_name(name, sizeof name, c, map, k, NULL);
		raw_summary(buf, n, name, dc, ds);
		break;
	case YT_HDR_HISTOGRAM: /* TwoInOneMeasurement: both, a line apart */
	case YT_HDR_RAW:
		ycsb_display_name(name, sizeof name, c, map, k, "Hdr");
		ycsb_display_name(second, sizeof second, c, map, k,
				  c->type == YT_HDR_RAW ? "Raw" : "Bucket");
		hdr_summary(buf, n, c, name, s->cur);
		rpb_cat(buf, n, "\n");
		if (c->type == YT_HDR_RAW)
			raw_summary(buf, n, second, dc, ds);
		else
			avg_summary(buf, n, second, dc, ds);
		break;
	}
}

void ycsb_status_line(struct ycsb_status *s, const struct ycsb_status_in *in, FILE *f, FILE *also)
{
	if (!s->cur)
		return;
	static char line[1 << 16];
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	char stamp[64];
	strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(line, sizeof line, "%s%s:%03ld %" PRIu64 " sec: %" PRIu64 " operations; ", in->label,
		 stamp, ts.tv_nsec / 1000000, in->ms / 1000, in->ops);
	double throughput = 1000.0 * ((double)in->ops / (double)in->ms);
	double current = 1000.0 * ((double)(in->ops - s->ops_at) / (double)(in->ms - s->prev_ms));
	int64_t left = java_long(ceil((double)in->todo / throughput));
	char num[64];
	if (in->ops) {
		ycsb_jdecimal2(num, sizeof num, current);
		rpb_cat(line, sizeof line, "%s current ops/sec; ", num);
	}
	if (in->todo) {
		char rem[160];
		ycsb_jremaining(rem, sizeof rem, left);
		rpb_cat(line, sizeof line, "est completion in %s", rem);
	}
	/* Measurements.getSummary: each measurement and a space, the actual
	 * start's map first, each in Java's iteration order of its map. */
	for (int map = 0; map < YCSB_MAPS; map++) {
		unsigned byage[YM_COUNT], order[YM_COUNT], nk = 0;
		uint64_t first[YM_COUNT];
		for (unsigned k = 0; k < YM_COUNT; k++) {
			uint64_t at = 0;
			for (unsigned t = 0; t < in->nw; t++) {
				uint64_t f0 = atomic_load_explicit(&in->w[t]->s[map][k].first_ns,
								   memory_order_acquire);
				if (f0 && (!at || f0 < at))
					at = f0;
			}
			if (!at)
				continue;
			unsigned i = nk++;
			while (i > 0 && at < first[i - 1]) {
				byage[i] = byage[i - 1];
				first[i] = first[i - 1];
				i--;
			}
			byage[i] = k;
			first[i] = at;
		}
		ycsb_chm_order(byage, nk, order);
		for (unsigned i = 0; i < nk; i++) {
			summary(s, in, map, (enum ycsb_mname)order[i], line, sizeof line);
			rpb_cat(line, sizeof line, " ");
		}
	}
	fprintf(f, "%s\n", line);
	fflush(f);
	if (also) {
		fprintf(also, "%s\n", line);
		fflush(also);
	}
	s->prev_ms = in->ms;
	s->ops_at = in->ops;
	s->lines++;
}
