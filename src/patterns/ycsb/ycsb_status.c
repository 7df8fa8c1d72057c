/* YCSB's status lines as the progress output of the ycsb pattern, one per
 * interval (YCSB's StatusThread with HdrHistogram measurements):
 *
 *   2026-12-01 17:00:10:042 10 sec: 12345 operations; 1234.5 current ops/sec;
 *   est completion in 1 minute [READ: Count=6000, Max=1234, Min=12, Avg=45.67,
 *   90=80, 99=300, 99.9=900, 99.99=1200] [UPDATE: ...]
 *
 * (one line). Latencies in microseconds over the interval, as YCSB's. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "progress.h"
#include "runner.h"
#include "ycsb.h"
#include "ycsb_status.h"

/* Java's DecimalFormat("#.##"): at most two decimals, no trailing zeros. */
static void two_decimals(char *buf, size_t n, double v)
{
	snprintf(buf, n, "%.2f", v);
	char *dot = strchr(buf, '.');
	if (!dot)
		return;
	char *end = buf + strlen(buf);
	while (end > dot + 1 && end[-1] == '0')
		*--end = '\0';
	if (end == dot + 1)
		*dot = '\0';
}

/* YCSB's RemainingFormatter: the largest two units of the time left. */
static void remaining(char *buf, size_t n, uint64_t secs)
{
	static const struct { const char *name; uint64_t s; } units[] = {
		{"day", 86400}, {"hour", 3600}, {"minute", 60}, {"second", 1},
	};
	buf[0] = '\0';
	int shown = 0;
	for (size_t i = 0; i < 4 && shown < 2; i++) {
		uint64_t k = secs / units[i].s;
		if (!k && !(shown == 0 && i == 3))
			continue;
		secs -= k * units[i].s;
		rpb_cat(buf, n, "%s%" PRIu64 " %s%s", shown ? " " : "", k, units[i].name,
			k == 1 ? "" : "s");
		shown++;
	}
}

int ycsb_status_init(struct ycsb_status *s)
{
	s->prev = calloc(YCSB_NOPS, sizeof *s->prev);
	s->cur = calloc(1, sizeof *s->cur);
	s->tmp = calloc(1, sizeof *s->tmp);
	if (!s->prev || !s->cur || !s->tmp) {
		ycsb_status_free(s);
		return -1;
	}
	for (int l = 0; l < YCSB_NOPS; l++)
		rpb_snap_init(&s->prev[l]);
	return 0;
}

void ycsb_status_free(struct ycsb_status *s)
{
	free(s->prev);
	free(s->cur);
	free(s->tmp);
	s->prev = s->cur = s->tmp = NULL;
}

void ycsb_status_line(struct ycsb_status *s, struct rpb_runner *rn, double seconds, bool final)
{
	if (!s->prev || (final && s->printed_at == seconds))
		return;
	const struct rpb_ycsb_opts *o = ycsb_opts(rn->job);
	uint64_t ops = 0;
	for (unsigned t = 0; t < rn->nworkers; t++)
		ops += atomic_load_explicit(&rn->workers[t].acked, memory_order_relaxed);
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	char stamp[64], rate[32], eta[64];
	strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
	printf("%s:%03ld %.0f sec: %" PRIu64 " operations;", stamp, ts.tv_nsec / 1000000,
	       (double)(uint64_t)seconds, ops);
	double dt = seconds - s->printed_at;
	if (ops) {
		two_decimals(rate, sizeof rate, dt > 0 ? (double)(ops - s->ops_at) / dt : 0);
		printf(" %s current ops/sec;", rate);
	}
	uint64_t todo = o->phase == YCSB_LOAD ? o->inserts : o->operationcount;
	if (todo && ops < todo && ops) {
		remaining(eta, sizeof eta, (uint64_t)(seconds / (double)ops * (double)(todo - ops)));
		printf(" est completion in %s", eta);
	}
	for (int l = 0; l < YCSB_NOPS; l++) {
		rpb_snap_init(s->cur);
		for (unsigned t = 0; t < rn->nworkers; t++) {
			rpb_hist_snapshot(&rn->workers[t].labels[l].hist, s->tmp);
			rpb_snap_add(s->cur, s->tmp);
		}
		rpb_snap_diff(s->tmp, s->cur, &s->prev[l]);
		s->prev[l] = *s->cur;
		if (!s->cur->count)
			continue;
		const struct rpb_hist_snap *d = s->tmp;
		char avg[32];
		two_decimals(avg, sizeof avg, d->count ? rpb_snap_mean(d) / 1e3 : 0);
		printf(" [%s: Count=%" PRIu64 ", Max=%" PRIu64 ", Min=%" PRIu64 ", Avg=%s, 90=%" PRIu64
		       ", 99=%" PRIu64 ", 99.9=%" PRIu64 ", 99.99=%" PRIu64 "]",
		       ycsb_op_names[l], d->count, d->count ? d->max / 1000 : 0,
		       d->count ? d->min / 1000 : 0, avg, rpb_snap_percentile(d, 90) / 1000,
		       rpb_snap_percentile(d, 99) / 1000, rpb_snap_percentile(d, 99.9) / 1000,
		       rpb_snap_percentile(d, 99.99) / 1000);
	}
	printf("\n");
	s->printed_at = seconds;
	s->ops_at = ops;
	if (rpb_stdout_lost())
		rn->quiet = true;
}
