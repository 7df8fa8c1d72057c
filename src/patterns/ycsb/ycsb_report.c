/* The ycsb pattern's output, as YCSB's Client writes it: the status lines
 * while it runs (-s, on stderr), and at the end what Client.exportMeasurements
 * writes, from the run's own YCSB measurements (ycsb_meas.h):
 *
 *   ycsb.txt      the text exporter's lines (after a raw measurement's
 *                 samples, which YCSB prints first), always;
 *   exportfile    the chosen exporter's output, a file of the results directory;
 *   stdout        what YCSB's stdout holds: the raw samples and, without
 *                 exportfile, the chosen exporter's output;
 *   report.txt    the text exporter's lines.
 *
 * Under mpirun the merged report.txt of every rank is written from the
 * merged result.json instead (ycsb_format_json): YCSB's layout over
 * rpbench's histograms. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "ycsb_run.h"

/* ---- the run's settings and counts ---- */

void ycsb_mconf_of(const struct rpb_runner *rn, struct ycsb_mconf *c)
{
	const struct rpb_ycsb_opts *o = ycsb_opts(rn->job);
	memset(c, 0, sizeof *c);
	c->type = o->measurementtype;
	c->interval = rn->latency == RPB_LAT_INTENDED ? 1 : rn->latency == RPB_LAT_BOTH ? 2 : 0;
	c->master = o->format == YCSB_FORMAT_MASTER;
	c->buckets = (uint32_t)o->buckets;
	c->per_status = o->per_error;
	memcpy(c->tracked, o->tracked_st, sizeof c->tracked);
	c->t0_ns = rn->t_start;
	c->wall0_ms = rn->wall_start_ms;
}

uint64_t ycsb_ops_done(struct rpb_runner *rn)
{
	bool load = ycsb_opts(rn->job)->phase == YCSB_LOAD;
	uint64_t ops = 0;
	for (unsigned t = 0; t < rn->nthreads; t++) {
		struct ycsb_worker *yw = rn->workers[t].state;
		ops += load ? atomic_load_explicit(&rn->workers[t].acked, memory_order_relaxed)
			    : yw ? atomic_load_explicit(&yw->done, memory_order_relaxed) : 0;
	}
	return ops;
}

/* ---- checks before the run ---- */

static int free_name(const char *dir, const char *name, const char *what, char *msg, size_t n)
{
	char path[4096];
	if (!*name)
		return 0;
	if (!dir || rpb_path_join(path, sizeof path, dir, name) != 0) {
		snprintf(msg, n, "%s = %s: no results directory to write it to", what, name);
		return -1;
	}
	if (access(path, F_OK) == 0) {
		snprintf(msg, n, "results directory %s already holds %s (%s); choose a new --out or "
			 "another %s", dir, name, what, what);
		return -1;
	}
	/* Every other result file of the run keeps its own name. */
	static const char *const taken[] = {"result.json", "summary.txt", "intervals.csv",
		"samples.jtl", "report.txt", "ledger.bin", "failures.log", "ycsb.txt",
		YCSB_ACK_FILE, YCSB_GIVEN_UP_FILE, "probe.csv", "histograms.hlog", "store", NULL};
	for (const char *const *t = taken; *t; t++)
		if (strcmp(name, *t) == 0) {
			snprintf(msg, n, "%s = %s is a result file of the run's own; give another name",
				 what, name);
			return -1;
		}
	return 0;
}

int ycsb_output_check(struct rpb_runner *rn, char *msg, size_t n)
{
	const struct rpb_ycsb_opts *o = ycsb_opts(rn->job);
	if (free_name(rn->out_dir, o->exportfile, "exportfile", msg, n) ||
	    free_name(rn->out_dir, o->raw_file, "measurement.raw.output_file", msg, n))
		return -1;
	/* What YCSB says about its output settings, in its words. */
	if (!o->exporter_known)
		fprintf(stderr, "Could not find exporter %s, will use default text reporter.\n",
			o->exporter);
	if (o->pct_bad)
		fprintf(stderr, "[WARN] Couldn't read hdrhistogram.percentiles value: '%s', the default "
			"of '%s' will be used.\n", o->percentiles,
			o->format == YCSB_FORMAT_MASTER ? "50,95,99" : "95,99");
	if (o->format == YCSB_FORMAT_MASTER && o->dataintegrity && !rn->quiet)
		printf("Data integrity is enabled.\n");
	return 0;
}

/* ---- status lines ---- */

void ycsb_progress(struct rpb_runner *rn, double seconds, bool final)
{
	struct ycsb_shared *sh = rn->pattern_state;
	const struct rpb_ycsb_opts *o = ycsb_opts(rn->job);
	(void)final; /* YCSB prints a last line at the end, whenever the one before was */
	if (!sh || !o->status)
		return;
	uint64_t todo = 0;
	for (unsigned t = 0; t < rn->nthreads; t++) {
		uint64_t share = ycsb_thread_ops(rn->job, t);
		struct ycsb_worker *yw = rn->workers[t].state;
		uint64_t done = o->phase == YCSB_LOAD
					? atomic_load_explicit(&rn->workers[t].acked, memory_order_relaxed)
					: yw ? atomic_load_explicit(&yw->done, memory_order_relaxed) : 0;
		if (share != UINT64_MAX && share > done) /* getOpsTodo: none without an end */
			todo += share - done;
	}
	/* YCSB's first line is computed as its status thread starts, before
	 * the clients: 0 ms, whatever the supervisor's first wake-up took. */
	struct ycsb_status_in in = {
		.c = &sh->mc, .w = sh->wm, .nw = sh->nw, .label = o->label,
		.ms = seconds > 0 && sh->status.lines ? (uint64_t)(seconds * 1000) : 0,
		.ops = ycsb_ops_done(rn), .todo = todo,
	};
	/* measurementtype = timeseries: on stdout too (StatusThread's standardstatus). */
	ycsb_status_line(&sh->status, &in, stderr,
			 o->measurementtype == YT_TIMESERIES && !rn->quiet ? stdout : NULL);
}

/* ---- at the end ---- */

static FILE *create_in(const char *dir, const char *name)
{
	char path[4096];
	if (!dir || rpb_path_join(path, sizeof path, dir, name) != 0)
		return NULL;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f && fd >= 0)
		close(fd);
	if (!f)
		fprintf(stderr, "rpbench: cannot create %s: %s\n", path, strerror(errno));
	return f;
}

static void close_out(FILE *f, const char *dir, const char *name)
{
	if (f && (ferror(f) | fclose(f)))
		fprintf(stderr, "rpbench: cannot write %s/%s\n", dir, name);
}

static void export_to(FILE *f, const struct ycsb_export_in *in, int kind)
{
	struct ycsb_exporter e;
	ycsb_exp_begin(&e, f, kind);
	ycsb_export(&e, in);
	ycsb_exp_end(&e); /* Jackson ends its output without a newline, and so does this */
}

void ycsb_write_report(struct rpb_runner *rn, const json_t *result, FILE *f)
{
	struct ycsb_shared *sh = rn->pattern_state;
	if (json_object_get(result, "nodes") || !sh) { /* the ranks merged */
		ycsb_format_json(f, result);
		if (!rn->quiet)
			ycsb_format_json(stdout, result);
		return;
	}
	const struct rpb_ycsb_opts *o = ycsb_opts(rn->job);
	sh->mc.t0_ns = rn->t_start;
	sh->mc.wall0_ms = rn->wall_start_ms;
	if (!sh->merged) {
		sh->merge_rc = ycsb_meas_merge(&sh->res, &sh->mc, sh->wm, sh->nw);
		sh->merged = true;
		if (sh->merge_rc)
			fprintf(stderr, "rpbench: out of memory merging YCSB's measurements\n");
		if (sh->res.dropped)
			fprintf(stderr, "rpbench: %" PRIu64 " YCSB samples were not kept (out of memory or "
				"beyond a thread's reserve of 2^28)\n", sh->res.dropped);
	}
	if (sh->merge_rc)
		return;
	struct ycsb_export_in in = {
		.c = &sh->mc, .r = &sh->res,
		/* RunTime(ms): whole milliseconds of the run (YCSB's two clock readings) */
		.runtime_ms = (int64_t)((rn->t_end - rn->t_start) / 1000000),
		.ops = ycsb_ops_done(rn), .pct = o->pct, .npct = o->npct, .verbose = o->verbose,
		.raw_no_summary = o->raw_no_summary, .granularity_ms = o->granularity,
	};
	export_to(f, &in, YE_TEXT);
	bool raw_out = !*o->raw_file; /* the samples on stdout, and in ycsb.txt */
	FILE *y = create_in(rn->out_dir, "ycsb.txt");
	if (y) {
		if (raw_out)
			ycsb_export_raw(y, &in);
		export_to(y, &in, YE_TEXT);
		close_out(y, rn->out_dir, "ycsb.txt");
	}
	if (!raw_out && (y = create_in(rn->out_dir, o->raw_file))) {
		ycsb_export_raw(y, &in);
		close_out(y, rn->out_dir, o->raw_file);
	}
	if (*o->exportfile && (y = create_in(rn->out_dir, o->exportfile))) {
		export_to(y, &in, o->exporter_kind);
		close_out(y, rn->out_dir, o->exportfile);
	}
	if (rn->quiet)
		return;
	ycsb_export_raw_notices(stdout, &in, o->raw_file);
	if (raw_out)
		ycsb_export_raw(stdout, &in);
	if (!*o->exportfile)
		export_to(stdout, &in, o->exporter_kind);
	fflush(stdout);
}

/* ---- several ranks: from the merged result.json ---- */

static double num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : 0;
}

void ycsb_format_json(FILE *f, const json_t *result)
{
	const json_t *totals = json_object_get(result, "totals");
	const json_t *labels = json_object_get(result, "labels");
	struct ycsb_exporter e;
	ycsb_exp_begin(&e, f, YE_TEXT);
	double ms = floor(num(totals, "elapsed_s") * 1000), ops = num(totals, "acked");
	ycsb_exp_long(&e, "OVERALL", "RunTime(ms)", (int64_t)ms);
	ycsb_exp_double(&e, "OVERALL", "Throughput(ops/sec)", 1000.0 * ops / ms);
	for (int op = 0; op < YCSB_NOPS; op++) {
		const char *name = ycsb_op_names[op];
		const json_t *l = json_object_get(labels, name);
		double measured = num(l, "measured"), errors = num(l, "errors");
		if (!l || measured <= 0)
			continue;
		ycsb_exp_long(&e, name, "Operations", (int64_t)measured);
		ycsb_exp_double(&e, name, "AverageLatency(us)", num(l, "mean_us"));
		ycsb_exp_long(&e, name, "MinLatency(us)", (int64_t)floor(num(l, "min_us")));
		ycsb_exp_long(&e, name, "MaxLatency(us)", (int64_t)ceil(num(l, "max_us")));
		ycsb_exp_long(&e, name, "95thPercentileLatency(us)", (int64_t)ceil(num(l, "p95_us")));
		ycsb_exp_long(&e, name, "99thPercentileLatency(us)", (int64_t)ceil(num(l, "p99_us")));
		if (op != YCSB_RMW && measured > errors)
			ycsb_exp_long(&e, name, "Return=OK", (int64_t)(measured - errors));
		if (op != YCSB_RMW && errors > 0)
			ycsb_exp_long(&e, name, "Return=ERROR", (int64_t)errors);
	}
	ycsb_exp_end(&e);
}
