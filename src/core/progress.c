#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "hostinfo.h"
#include "paths.h"
#include "progress.h"
#include "runlimits.h"
#include "text.h"
#include "usage.h"

#define JTL_HEAD "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
#define JTL_TAIL "grpThreads,allThreads,URL,Latency,IdleTime,Connect"
/* JMeter's order with saveservice.hostname: Hostname after Latency. */
#define JTL_TAIL_HOST "grpThreads,allThreads,URL,Latency,Hostname,IdleTime,Connect"

const char *rpb_jtl_header(enum rpb_jtl_columns cols)
{
	return cols == RPB_JTL_5 ? JTL_HEAD "sentBytes," JTL_TAIL : JTL_HEAD JTL_TAIL;
}

const char *rpb_jtl_header_host(enum rpb_jtl_columns cols)
{
	return cols == RPB_JTL_5 ? JTL_HEAD "sentBytes," JTL_TAIL_HOST : JTL_HEAD JTL_TAIL_HOST;
}

void rpb_hms(char *buf, size_t n, double seconds)
{
	uint64_t s = seconds > 0 ? (uint64_t)llround(seconds) : 0;
	snprintf(buf, n, "%02" PRIu64 ":%02" PRIu64 ":%02" PRIu64, s / 3600, s / 60 % 60, s % 60);
}

void rpb_run_until(char *buf, size_t n, const struct rpb_run_opts *run)
{
	char limits[160] = "";
	size_t used = 0;
	if (run->duration > 0)
		used += (size_t)snprintf(limits, sizeof limits, "%g s", run->duration);
	if (run->ops && used < sizeof limits)
		used += (size_t)snprintf(limits + used, sizeof limits - used, "%s%" PRIu64 " ops per thread",
					 used ? " or " : "", run->ops);
	if (run->bytes && used < sizeof limits)
		snprintf(limits + used, sizeof limits - used, "%s%" PRIu64 " payload bytes",
			 used ? " or " : "", run->bytes);
	if (*limits)
		snprintf(buf, n, "stops after %s, or on an error or a signal", limits);
	else
		snprintf(buf, n, "stops when the pattern's work is done, on an error or a signal");
}

static uint64_t ms_round(uint64_t ns)
{
	return (ns + 500000u) / 1000000u;
}

void rpb_summary_line(char *buf, size_t n, char sign, const struct rpb_hist_snap *s,
		      uint64_t errors, double seconds, int active, int started, int finished)
{
	char hms[32];
	rpb_hms(hms, sizeof hms, seconds);
	double rate = seconds > 0 ? (double)s->count / seconds : 0;
	double pct = s->count ? 100.0 * (double)errors / (double)s->count : 0;
	uint64_t avg = s->count ? ms_round(s->sum / s->count) : 0;
	uint64_t mn = s->count ? ms_round(s->min) : 0, mx = s->count ? ms_round(s->max) : 0;
	int len = snprintf(buf, n,
			   "summary %c %6" PRIu64 " in %s = %6.1f/s Avg: %5" PRIu64 " Min: %5" PRIu64
			   " Max: %5" PRIu64 " Err: %5" PRIu64 " (%.2f%%)",
			   sign, s->count, hms, rate, avg, mn, mx, errors, pct);
	if (active >= 0 && len > 0 && (size_t)len < n)
		snprintf(buf + len, n - (size_t)len, " Active: %d Started: %d Finished: %d", active,
			 started, finished);
}

void rpb_precise_line(char *buf, size_t n, const struct rpb_hist_snap *s, double dt,
		      double elapsed, double done, double eta)
{
	int len = snprintf(buf, n, "progress: interval %.3f s, elapsed %.3f s; Avg: %.1f Min: %.1f Max: "
				   "%.1f us",
			   dt, elapsed, s->count ? rpb_snap_mean(s) / 1e3 : 0,
			   s->count ? (double)s->min / 1e3 : 0, s->count ? (double)s->max / 1e3 : 0);
	if (done < 0 || len < 0 || (size_t)len >= n)
		return;
	/* Under 100 s to the tenth, as the interval; longer as hh:mm:ss. */
	char left[32] = "\u2014";
	if (eta >= 0 && eta < 100)
		snprintf(left, sizeof left, "%.1f s", eta);
	else if (eta >= 100)
		rpb_hms(left, sizeof left, eta);
	snprintf(buf + len, n - (size_t)len, "; %.1f%% done, ETA %s", 100 * done, left);
}

double rpb_disk_full_minutes(const double *t, const uint64_t *bytes, unsigned n, uint64_t free)
{
	if (n < 4 || t[n - 1] <= t[0])
		return -1;
	if (bytes[n - 1] <= bytes[0])
		return -2;
	double per_s = (double)(bytes[n - 1] - bytes[0]) / (t[n - 1] - t[0]);
	return (double)free / per_s / 60;
}

void rpb_store_part(char *buf, size_t n, int64_t objects, uint64_t store, bool have_free,
		    uint64_t free, double minutes)
{
	char count[32] = "", size[32], room[32], full[48] = "\u2014";
	if (objects >= 0)
		snprintf(count, sizeof count, "%s", rpb_text_grouped(size, sizeof size, (uint64_t)objects));
	rpb_text_bytes(size, sizeof size, store);
	if (!have_free) {
		snprintf(buf, n, "; stored %s%sstore %s", count, *count ? " objects, " : "", size);
		return;
	}
	rpb_text_bytes(room, sizeof room, free);
	if (minutes == -2)
		snprintf(full, sizeof full, "not growing");
	else if (minutes >= 0 && minutes < 1)
		snprintf(full, sizeof full, "< 1 min");
	else if (minutes >= 1)
		snprintf(full, sizeof full, "~%.0f min", minutes);
	snprintf(buf, n, "; stored %s%sstore %s, %s free, disk full in %s", count,
		 *count ? " objects, " : "", size, room, full);
}

void rpb_behind_line(char *buf, size_t n, uint64_t started, double dt, double rate)
{
	buf[0] = '\0';
	if (rate <= 0 || dt <= 0 || rate * dt < 10 || (double)started >= 0.9 * rate * dt)
		return;
	snprintf(buf, n, "warning: behind rate: %.0f/s of %g/s asked; the backend cannot keep up, "
			 "latencies include queueing", (double)started / dt, rate);
}

/* The main operations the run's threads have started. */
static uint64_t threads_issued(struct rpb_runner *rn)
{
	uint64_t n = 0;
	for (unsigned t = 0; t < rn->nthreads && t < rn->nworkers; t++)
		n += atomic_load_explicit(&rn->workers[t].issued, memory_order_relaxed);
	return n;
}

/* The store part of the progress line: its size now joins the readings the
 * disk-full estimate takes its growth from. */
static void store_part(struct rpb_progress *pg, struct rpb_runner *rn, double total_t, bool have_store,
		       uint64_t store, uint64_t acked, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!have_store)
		return;
	if (pg->grow_n == RPB_GROWTH_TICKS) {
		memmove(pg->grow_t, pg->grow_t + 1, sizeof pg->grow_t - sizeof pg->grow_t[0]);
		memmove(pg->grow_bytes, pg->grow_bytes + 1, sizeof pg->grow_bytes - sizeof pg->grow_bytes[0]);
		pg->grow_n--;
	}
	pg->grow_t[pg->grow_n] = total_t;
	pg->grow_bytes[pg->grow_n++] = store;
	char type[64];
	uint64_t free = 0, total = 0;
	if (rn->store_dir)
		rpb_fs_info(rn->store_dir, type, sizeof type, &free, &total);
	bool have_free = total > 0;
	rpb_store_part(buf, n, rn->pattern->stores_objects ? (int64_t)acked : -1, store, have_free, free,
		       have_free ? rpb_disk_full_minutes(pg->grow_t, pg->grow_bytes, pg->grow_n, free) : -1);
}

void rpb_merge_all(struct rpb_runner *rn, struct rpb_hist_snap *out, struct rpb_hist_snap *tmp)
{
	rpb_snap_init(out);
	for (unsigned t = 0; t < rn->nworkers; t++)
		for (unsigned l = 0; l < rn->pattern->nlabels; l++) {
			rpb_hist_snapshot(&rn->workers[t].labels[l].hist, tmp);
			rpb_snap_add(out, tmp);
		}
}

/* Failed samples (slow ones included), summed over labels and workers. */
static uint64_t failed_samples(struct rpb_runner *rn)
{
	uint64_t n = 0;
	for (unsigned t = 0; t < rn->nworkers; t++)
		for (unsigned l = 0; l < rn->pattern->nlabels; l++)
			n += atomic_load_explicit(&rn->workers[t].labels[l].errors, memory_order_relaxed);
	return n;
}

uint64_t rpb_total_errors(struct rpb_runner *rn)
{
	uint64_t n = 0;
	for (unsigned t = 0; t < rn->nworkers; t++)
		for (unsigned c = 0; c < RPB_STATUS_COUNT; c++)
			n += atomic_load_explicit(&rn->workers[t].errors[c], memory_order_relaxed);
	return n;
}

bool rpb_stdout_lost(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return false;
	clearerr(stdout);
	return true;
}

void rpb_progress_init(struct rpb_progress *pg, struct rpb_runner *rn)
{
	memset(pg, 0, sizeof *pg);
	pg->prev = calloc(1, sizeof *pg->prev);
	pg->cur = calloc(1, sizeof *pg->cur);
	if (pg->prev)
		rpb_snap_init(pg->prev);
	char path[PATH_MAX];
	if (rn->out_dir && rpb_path_join(path, sizeof path, rn->out_dir, "intervals.csv") == 0) {
		pg->csv = fopen(path, "w");
		if (pg->csv) {
			fprintf(pg->csv, "elapsed_s,samples,throughput_per_s,mean_us,p50_us,p99_us,max_us,"
					 "errors,acked,store_bytes,rss_bytes");
			pg->gauge_cols = rn->gauges.n;
			for (size_t g = 0; g < pg->gauge_cols; g++)
				fprintf(pg->csv, ",gauge_%s", rn->gauges.g[g].name);
			fputc('\n', pg->csv);
		}
	}
}

/* A gauge in a CSV cell: counts and bytes whole, others with 6 decimals. */
static void gauge_cell(FILE *f, double v)
{
	if (v == (double)(int64_t)v && fabs(v) < 0x1p53)
		fprintf(f, ",%" PRId64, (int64_t)v);
	else
		fprintf(f, ",%.6f", v);
}

/* Rank 0 of several: JMeter's distributed summariser, every rank's samples
 * in one "summary +" (since the previous tick) and "summary =" line, as of
 * the ranks' last exchange (rpb_dist_sync, every 50 ms or so). Only count,
 * latency sum, min and max reach rank 0, which is all these lines show. */
static void merged_lines(struct rpb_progress *pg, struct rpb_hist_snap *s, bool final)
{
	struct rpb_dist_state all;
	if (!rpb_dist_progress(&all))
		return;
	struct rpb_dist_state *was = &pg->dist_prev;
	if (!pg->dist_min)
		pg->dist_min = UINT64_MAX;
	if (all.min_ns < pg->dist_min)
		pg->dist_min = all.min_ns;
	if (all.max_ns > pg->dist_max)
		pg->dist_max = all.max_ns;
	uint64_t n = all.count - was->count;
	char line[256];
	if (!final || n) {
		s->count = n;
		s->sum = all.sum_ns - was->sum_ns;
		s->min = all.min_ns;
		s->max = all.max_ns;
		rpb_summary_line(line, sizeof line, '+', s, all.errors - was->errors, pg->dist_dt,
				 (int)all.active, (int)all.workers, (int)(all.workers - all.active));
		printf("%s\n", line);
	}
	if (!final) {
		s->count = all.count;
		s->sum = all.sum_ns;
		s->min = pg->dist_min;
		s->max = pg->dist_max;
		rpb_summary_line(line, sizeof line, '=', s, all.errors, pg->dist_total, -1, 0, 0);
		printf("%s\n", line);
	}
	*was = all;
	rpb_stdout_lost();
}

void rpb_progress_tick(struct rpb_progress *pg, struct rpb_runner *rn, bool final)
{
	if (!pg->prev || !pg->cur)
		return;
	struct rpb_hist_snap *tmp = malloc(sizeof *tmp), *delta = malloc(sizeof *delta);
	if (!tmp || !delta) {
		free(tmp);
		free(delta);
		return;
	}
	uint64_t now = final ? rn->t_end : rpb_now_ns();
	if (!pg->prev_t)
		pg->prev_t = rn->t_start;
	if (now < pg->prev_t) /* several ranks: this one ended before the last tick */
		now = pg->prev_t;
	rpb_merge_all(rn, pg->cur, tmp);
	rpb_snap_diff(delta, pg->cur, pg->prev);
	uint64_t errors = failed_samples(rn);
	double dt = (double)(now - pg->prev_t) / 1e9, total_t = (double)(now - rn->t_start) / 1e9;
	unsigned active = atomic_load(&rn->active);
	/* The merged final line spans until every rank was done: now. */
	pg->dist_dt = final && rpb_dist_on() ? (double)(rpb_now_ns() - pg->prev_t) / 1e9 : dt;
	pg->dist_total = total_t;
	uint64_t acked = 0;
	for (unsigned t = 0; t < rn->nworkers; t++)
		acked += atomic_load_explicit(&rn->workers[t].acked, memory_order_relaxed);

	uint64_t store = 0;
	bool have_store = rpb_store_bytes(rn, &store);
	if (!have_store)
		store = 0;
	/* The open model falling behind its rate over the interval (not the
	 * last, partial one, nor once a thread is done: then fewer start). */
	uint64_t issued = threads_issued(rn);
	if (!final && !rn->quiet && rn->job->run.rate > 0 && active == rn->nworkers) {
		char warn[256];
		rpb_behind_line(warn, sizeof warn, issued - pg->prev_issued, dt, rn->job->run.rate);
		if (*warn)
			fprintf(rn->say ? rn->say : stdout, "%s\n", warn);
	}
	pg->prev_issued = issued;

	/* A pattern with lines of its own (YCSB's status lines) prints those;
	 * rank 0 of several ranks prints every rank's samples merged. */
	bool own = rn->pattern->progress && !rn->quiet;
	if (own)
		rn->pattern->progress(rn, total_t, final);
	if (!own && !rn->quiet && rpb_dist_on()) {
		merged_lines(pg, delta, final);
	} else if (!own && !rn->quiet && (!final || delta->count)) {
		char line[256];
		rpb_summary_line(line, sizeof line, '+', delta, errors - pg->prev_errors, dt, (int)active,
				 (int)rn->nworkers, (int)(rn->nworkers - active));
		printf("%s\n", line);
		/* The final "summary =" comes with the results (warm-up excluded). */
		if (!final) {
			rpb_summary_line(line, sizeof line, '=', pg->cur, errors, total_t, -1, 0, 0);
			printf("%s\n", line);
			double done, eta;
			if (!rpb_run_done(rn, total_t, &done, &eta))
				done = -1;
			rpb_precise_line(line, sizeof line, delta, dt, total_t, done, eta);
			char stored[192];
			store_part(pg, rn, total_t, have_store, store, acked, stored, sizeof stored);
			printf("%s%s\n", line, stored);
			/* The backend's latest gauge readings (taken by the supervisor). */
			char gauges[512];
			rpb_gauges_latest(&rn->gauges, gauges, sizeof gauges);
			if (*gauges)
				printf("gauges: %s\n", gauges);
		}
		if (rpb_stdout_lost())
			rn->quiet = true;
	}
	if (pg->csv && (!final || delta->count)) {
		fprintf(pg->csv, "%.3f,%" PRIu64 ",%.2f,%.1f,%.1f,%.1f,%.1f,%" PRIu64 ",%" PRIu64 ",%" PRIu64
				 ",%" PRIu64,
			total_t, delta->count, dt > 0 ? (double)delta->count / dt : 0,
			rpb_snap_mean(delta) / 1e3, (double)rpb_snap_percentile(delta, 50) / 1e3,
			(double)rpb_snap_percentile(delta, 99) / 1e3, (double)delta->max / 1e3,
			errors - pg->prev_errors, acked, store, rpb_rss_bytes());
		/* Fixed columns: a gauge is matched by position, and the stats keep
		 * every name in the entry it first took. */
		for (size_t g = 0; g < pg->gauge_cols; g++)
			gauge_cell(pg->csv, rn->gauges.g[g].last);
		fputc('\n', pg->csv);
		fflush(pg->csv);
	}
	struct rpb_hist_snap *swap = pg->prev;
	pg->prev = pg->cur;
	pg->cur = swap;
	pg->prev_t = now;
	pg->prev_errors = errors;
	free(tmp);
	free(delta);
}

void rpb_progress_fini(struct rpb_progress *pg)
{
	if (pg->csv)
		fclose(pg->csv);
	free(pg->prev);
	free(pg->cur);
	memset(pg, 0, sizeof *pg);
}

/* CSV field: quoted, with quotes doubled. */
static void csv_field(FILE *f, const char *s)
{
	putc_unlocked('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc_unlocked('"', f);
		putc_unlocked(*s, f);
	}
	putc_unlocked('"', f);
}

void rpb_jtl_row(struct rpb_worker *w, unsigned label, uint64_t end_ns, uint64_t lat_ns,
		 enum rpb_status st, bool failed, uint64_t bytes, const struct rpb_err *err)
{
	struct rpb_runner *rn = w->rn;
	FILE *f = rn->jtl;
	uint64_t start_ns = end_ns - lat_ns;
	uint64_t ts = rn->wall_start_ms + (start_ns > rn->t_start ? (start_ns - rn->t_start) / 1000000u : 0);
	uint64_t ms = ms_round(lat_ns);
	const char *code = st == RPB_OK ? "200" : rpb_status_name(st);
	/* A successful sample's err, when given, is the pattern's note on it. */
	const char *msg = err ? err->msg : st == RPB_OK ? "OK" : "";
	const char *why = st != RPB_OK ? msg : (failed ? "slower than slow_ms" : "");
	unsigned active = atomic_load_explicit(&rn->active, memory_order_relaxed);
	flockfile(f);
	fprintf(f, "%" PRIu64 ",%" PRIu64 ",%s,%s,", ts, ms, rn->pattern->labels[label], code);
	csv_field(f, msg);
	/* Several ranks: the thread group number is the rank's, 1-based, so
	 * every thread of the run has its own name, as in JMeter's distributed
	 * mode. */
	fprintf(f, ",%s %u-%u,%s,%s,", rn->pattern->name, rn->jtl_host ? rn->rank + 1 : 1u, w->id + 1,
		rn->pattern->binary_payload && rn->pattern->binary_payload(rn->job->config) ? "bin"
											    : "text",
		failed ? "false" : "true");
	csv_field(f, why);
	/* Writes send their payload, reads receive it, as the pattern's
	 * label_dirs say; without a sentBytes column, bytes holds the payload
	 * either way. */
	if (rn->job->run.jtl_columns == RPB_JTL_5) {
		bool receives = rpb_label_received(rn->pattern, label);
		fprintf(f, ",%" PRIu64 ",%" PRIu64, receives ? bytes : 0, receives ? 0 : bytes);
	} else {
		fprintf(f, ",%" PRIu64, bytes);
	}
	fprintf(f, ",%u,%u,rpbench://%s/%s,%" PRIu64, active, active, rn->backend->name,
		rn->pattern->labels[label], ms);
	if (rn->jtl_host) {
		putc_unlocked(',', f);
		csv_field(f, rn->jtl_host);
	}
	fputs(",0,0", f);
	if (rn->job->run.jtl_us)
		fprintf(f, ",%" PRIu64, (lat_ns + 500u) / 1000u);
	putc_unlocked('\n', f);
	rn->jtl_rows++;
	rn->jtl_zero_ms += ms == 0;
	funlockfile(f);
}

bool rpb_jtl_zero_warning(const struct rpb_runner *rn, char *buf, size_t n)
{
	if (!rn->jtl || rn->job->run.jtl_us || !rn->jtl_rows || 2 * rn->jtl_zero_ms <= rn->jtl_rows)
		return false;
	snprintf(buf, n, "samples.jtl: %" PRIu64 "%% of elapsed values are 0 ms; set jtl_us = on for µs",
		 100 * rn->jtl_zero_ms / rn->jtl_rows);
	return true;
}
