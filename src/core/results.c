/* summary.txt and result.json: everything measured, computed only from what
 * the workers recorded, and read back by verify. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildinfo.h"
#include "clock.h"
#include "dsn.h"
#include "fsutil.h"
#include "hdrlog.h"
#include "hostinfo.h"
#include "jsontext.h"
#include "options.h"
#include "paths.h"
#include "profile.h"
#include "progress.h"
#include "results.h"
#include "runlimits.h"
#include "text.h"
#include "usage.h"

/* 1234567 -> "1,234,567" */
/* Measured (post warm-up) statistics of one label, summed over workers. */
struct label_totals {
	struct rpb_hist_snap snap;
	uint64_t samples, errors, bytes;
};

static void label_measured(struct rpb_runner *rn, unsigned l, struct label_totals *lt,
			   struct rpb_hist_snap *tmp, struct rpb_hist_snap *diff)
{
	rpb_snap_init(&lt->snap);
	lt->samples = lt->errors = lt->bytes = 0;
	for (unsigned t = 0; t < rn->nworkers; t++) {
		struct rpb_worker *w = &rn->workers[t];
		rpb_hist_snapshot(&w->labels[l].hist, tmp);
		rpb_snap_diff(diff, tmp, &w->baseline[l]);
		rpb_snap_add(&lt->snap, diff);
		lt->samples += atomic_load(&w->labels[l].samples); /* warm-up included */
		lt->errors += atomic_load(&w->labels[l].errors) - w->base_errors[l];
		lt->bytes += atomic_load(&w->labels[l].bytes) - w->base_bytes[l];
	}
	/* The diff's min and max are bucket bounds; the exact ones are known
	 * when nothing was excluded. */
	if (rn->job->run.warmup.ops == 0 && rn->job->run.warmup.seconds <= 0 && lt->snap.count) {
		lt->snap.min = UINT64_MAX;
		lt->snap.max = 0;
		for (unsigned t = 0; t < rn->nworkers; t++) {
			rpb_hist_snapshot(&rn->workers[t].labels[l].hist, tmp);
			if (tmp->count && tmp->min < lt->snap.min)
				lt->snap.min = tmp->min;
			if (tmp->max > lt->snap.max)
				lt->snap.max = tmp->max;
		}
	}
}

int rpb_label_measured_snap(struct rpb_runner *rn, unsigned l, struct rpb_hist_snap *out)
{
	struct rpb_hist_snap *tmp = malloc(sizeof *tmp), *diff = malloc(sizeof *diff);
	struct label_totals *lt = malloc(sizeof *lt);
	if (tmp && diff && lt) {
		label_measured(rn, l, lt, tmp, diff);
		*out = lt->snap;
	}
	int rc = tmp && diff && lt ? 0 : -1;
	free(tmp), free(diff), free(lt);
	return rc;
}

static uint64_t total_acked(struct rpb_runner *rn)
{
	uint64_t n = 0;
	for (unsigned t = 0; t < rn->nworkers; t++)
		n += atomic_load(&rn->workers[t].acked);
	return n;
}

/* Payload bytes the acknowledged main operations stored (each operation's
 * op_bytes, pattern.h), of the first upto workers: whatever their labels,
 * and nothing of a failed or retried attempt. */
static uint64_t acked_bytes(struct rpb_runner *rn, unsigned upto)
{
	uint64_t n = 0;
	for (unsigned t = 0; t < upto && t < rn->nworkers; t++)
		n += atomic_load(&rn->workers[t].acked_bytes);
	return n;
}

/* Time span the measured samples come from: from the first warm worker. */
static double measured_seconds(struct rpb_runner *rn)
{
	uint64_t from = rn->t_end;
	for (unsigned t = 0; t < rn->nworkers; t++)
		if (rn->workers[t].t_warm && rn->workers[t].t_warm < from)
			from = rn->workers[t].t_warm;
	return (double)(rn->t_end - from) / 1e9;
}

/* The pattern's own operations, those the Status line's noun names: the
 * threads', not those of workers with another role (harvest's writers and
 * fillers). */
static uint64_t threads_acked(struct rpb_runner *rn)
{
	uint64_t n = 0;
	for (unsigned t = 0; t < rn->nthreads && t < rn->nworkers; t++)
		n += atomic_load(&rn->workers[t].acked);
	return n;
}

void rpb_status_line(struct rpb_runner *rn, char *buf, size_t n)
{
	char acked[32], bytes[32], stored[48] = "", hms[32];
	const char *noun = rn->pattern->noun;
	rpb_text_grouped(acked, sizeof acked, threads_acked(rn));
	/* Patterns that write no payload (metadata) say nothing about bytes. */
	if (acked_bytes(rn, rn->nthreads)) { /* the threads' own, as their count */
		rpb_text_bytes(bytes, sizeof bytes, acked_bytes(rn, rn->nthreads));
		snprintf(stored, sizeof stored, " (%s stored)", bytes);
	}
	rpb_hms(hms, sizeof hms, (double)(rn->t_end - rn->t_start) / 1e9);
	const struct rpb_err *e = &rn->stop_err;
	if (rn->stop_by_peer) { /* another rank's error, slow limit or signal (dist.h) */
		snprintf(buf, n, "Test stopped with the other ranks after %s %s%s: %s", acked, noun,
			 stored, e->msg);
		return;
	}
	switch ((enum rpb_stop)atomic_load(&rn->stop)) {
	case RPB_STOP_DURATION:
		snprintf(buf, n, "Test ended at its duration limit (%g s) after %s %s%s",
			 rn->job->run.duration, acked, noun, stored);
		return;
	case RPB_STOP_BYTES:
		snprintf(buf, n, "Test ended at its bytes limit after %s %s%s", acked, noun,
			 stored);
		return;
	case RPB_STOP_SIGNAL:
		snprintf(buf, n, "Test stopped by %s after %s %s%s",
			 e->native == 15 ? "SIGTERM" : "SIGINT", acked, noun, stored);
		return;
	case RPB_STOP_SLOW:
		snprintf(buf, n,
			 "Test ended after %" PRIu64 " samples slower than %" PRIu64
			 " ms (max_slow) after %s %s: %s",
			 rn->job->run.max_slow, rn->job->run.slow_ms, acked, noun, e->msg);
		return;
	case RPB_STOP_ERROR: {
		char op[32];
		rpb_text_grouped(op, sizeof op, rn->stop_op + 1);
		const char *label =
			rn->pattern->labels[rn->pattern->op_label
						    ? rn->pattern->op_label(rn->job, rn->stop_worker, rn->stop_op)
						    : 0];
		switch (e->status) {
		case RPB_DISK_FULL:
			snprintf(buf, n,
				 "Test ended when the store reported disk full after %s %s%s: %s",
				 acked, noun, stored, e->msg);
			return;
		case RPB_TXN_TIMEOUT:
			if (!rn->stop_reaped) {
				snprintf(buf, n,
					 "Test ended when the store timed a transaction out (%s %s of thread %u): %s",
					 label, op, rn->stop_worker + 1, e->msg);
				return;
			}
			snprintf(buf, n,
				 "Test ended when the transaction reaper aborted a transaction after %" PRIu64
				 " ms (%s %s of thread %u): %s",
				 rn->job->run.txn_timeout, label, op, rn->stop_worker + 1,
				 e->msg);
			return;
		case RPB_CONN_LOST:
			snprintf(buf, n,
				 "Test ended when the connection to the server was lost after %s %s: %s",
				 acked, noun, e->msg);
			return;
		default:
			snprintf(buf, n, "Test ended on a failed sample (%s) after %s %s: %s",
				 rpb_status_name(e->status), acked, noun, e->msg);
			return;
		}
	}
	default:
		snprintf(buf, n, "Test completed: %s %s in %s%s", acked, noun, hms, stored);
	}
}

enum rpb_exit rpb_exit_code(struct rpb_runner *rn)
{
	switch ((enum rpb_stop)atomic_load(&rn->stop)) {
	case RPB_STOP_ERROR:
	case RPB_STOP_SLOW:
		return RPB_EXIT_STOPPED;
	case RPB_STOP_SIGNAL:
		return RPB_EXIT_SIGNAL;
	default:
		return RPB_EXIT_OK;
	}
}

json_t *rpb_hist_json(const struct rpb_hist_snap *s, uint64_t samples, uint64_t errors,
		      uint64_t bytes, double seconds)
{
	static const struct {
		const char *key;
		double p;
	} pct[] = {{"p50_us", 50},   {"p90_us", 90},     {"p95_us", 95},
		   {"p99_us", 99},   {"p99.9_us", 99.9}, {"p99.99_us", 99.99}};
	json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:f, s:f}", "samples", (json_int_t)samples,
			      "measured", (json_int_t)s->count, "errors", (json_int_t)errors, "bytes",
			      (json_int_t)bytes, "throughput_per_s",
			      seconds > 0 ? (double)s->count / seconds : 0.0, "mean_us",
			      rpb_snap_mean(s) / 1e3);
	json_object_set_new(o, "stddev_us", json_real(rpb_snap_stddev(s) / 1e3));
	json_object_set_new(o, "min_us", json_real(s->count ? (double)s->min / 1e3 : 0));
	for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++)
		json_object_set_new(o, pct[i].key, json_real((double)rpb_snap_percentile(s, pct[i].p) / 1e3));
	json_object_set_new(o, "max_us", json_real((double)s->max / 1e3));
	return o;
}

/* Adds the command line: exact bytes kept (jsontext.h), never dropped. */
static int set_command(json_t *man, const struct rpb_store_where *where)
{
	return where->command ? rpb_json_set_exact(man, "command", where->command) : 0;
}

/* The file system quota-run mounted for the store (quota_env.h). */
static int set_quota(json_t *man, const struct rpb_quota *q)
{
	if (!q || !q->fs)
		return 0;
	json_t *o = json_pack("{s:s}", "fs", q->fs);
	if (o && q->have_size)
		json_object_set_new(o, "size_bytes", json_integer((json_int_t)q->size_bytes));
	return o ? json_object_set_new(man, "quota", o) : -1;
}

/* The mount holding the store directory: where the bytes went and how. */
static int set_mount(json_t *store, const char *dir)
{
	struct rpb_mount *m = malloc(sizeof *m);
	if (!m)
		return -1;
	int rc = 0;
	if (rpb_mount_of(dir, m) == 0) {
		json_t *o = json_object();
		rc = !o || rpb_json_set_exact(o, "point", m->point) ||
		     json_object_set_new(o, "fs_type", rpb_json_text(m->fs_type)) ||
		     json_object_set_new(o, "source", rpb_json_text(m->source)) ||
		     json_object_set_new(o, "options", rpb_json_text(m->options)) ||
		     json_object_set_new(o, "super_options", rpb_json_text(m->super_options)) ||
		     json_object_set_new(store, "mount", o)
			     ? -1
			     : 0;
	}
	free(m);
	return rc;
}

/* The machine, beside cores and memory: what a number was measured on. */
static int set_host(json_t *man)
{
	char cpu[256], kernel[512];
	rpb_cpu_model(cpu, sizeof cpu);
	rpb_kernel(kernel, sizeof kernel);
	json_t *host = json_object_get(man, "host");
	return json_object_set_new(host, "cpu_model", rpb_json_text(cpu)) ||
	       json_object_set_new(host, "kernel", rpb_json_text(kernel));
}

/* How this program was built (buildinfo.h). */
static int set_build(json_t *man)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "commit", rpb_build_commit, "compiler",
			      rpb_build_compiler, "build_type", rpb_build_type, "flags",
			      rpb_build_flags);
	return o ? json_object_set_new(man, "build", o) : -1;
}

/* The store's facts (store.h describe): a server's version and settings,
 * as "server"; an embedded library's settings in effect, as "settings". A
 * server that cannot tell says why instead. */
static int set_server(json_t *man, struct rpb_runner *rn)
{
	if (!rn->backend->describe || !rn->store)
		return 0;
	struct rpb_fact facts[RPB_FACTS_MAX];
	size_t n = 0;
	struct rpb_err err;
	json_t *o = json_object();
	if (!o)
		return -1;
	if (rn->backend->describe(rn->store, facts, &n, &err) != RPB_OK)
		json_object_set_new(o, "error", rpb_json_text(err.msg));
	for (size_t i = 0; i < n && i < RPB_FACTS_MAX; i++)
		json_object_set_new(o, facts[i].name, rpb_json_text(facts[i].value));
	bool server = rn->backend->flags & RPB_BF_SERVER;
	return json_object_set_new(man, server ? "server" : "settings", o);
}

/* The backend's tuning options as its table read them for this run, as
 * "backend_options": every row, at the profile's default or as given, in
 * the text --set accepts, a secret redacted (dsn.h). */
static int set_backend_options(json_t *man, const struct rpb_runner *rn)
{
	const struct rpb_backend *b = rn->backend;
	if (!b->options || !b->options->key)
		return 0;
	struct rpb_store_cfg cfg = {.profile = rpb_profile_names[rn->job->run.profile]};
	const struct rpb_backend_section *sec = rpb_job_backend(rn->job, b->name);
	if (sec) {
		cfg.opts = sec->kv;
		cfg.nopts = sec->n;
	}
	void *conf = calloc(1, b->config_size);
	json_t *o = json_object();
	struct rpb_err err;
	/* The store opened with these options, so they parse. */
	bool ok = conf && o && rpb_cfg_parse(&cfg, b->name, b->options, conf, &err) == RPB_OK;
	for (const struct rpb_optdef *d = b->options; ok && d->key; d++) {
		char text[RPB_JOB_VALUE_MAX + 1];
		rpb_opt_format(text, sizeof text, conf, d);
		char *shown = rpb_value_redacted(d->key, strlen(d->key), text);
		ok = shown && !json_object_set_new(o, d->key, rpb_json_text(shown));
		free(shown);
	}
	free(conf);
	if (!ok) {
		json_decref(o);
		return -1;
	}
	return json_object_set_new(man, "backend_options", o);
}

static json_t *manifest_json(struct rpb_runner *rn, const struct rpb_store_where *where)
{
	char start[40], end[40], fstype[32];
	uint64_t fs_free = 0, fs_total = 0;
	rpb_iso_time(start, sizeof start, rn->wall_start_ms);
	rpb_iso_time(end, sizeof end, rn->wall_end_ms);
	rpb_fs_info(where->dir, fstype, sizeof fstype, &fs_free, &fs_total);
	json_t *store = json_object();
	bool ok = store != NULL;
	if (ok && where->dir) {
		ok = !rpb_json_set_exact(store, "dir", where->dir) &&
		     !json_object_set_new(store, "fs_type", json_string(fstype)) &&
		     !json_object_set_new(store, "fs_free_bytes", json_integer((json_int_t)fs_free)) &&
		     !json_object_set_new(store, "fs_total_bytes", json_integer((json_int_t)fs_total)) &&
		     !set_mount(store, where->dir);
	}
	if (ok && where->dsn)
		ok = !rpb_json_set_exact(store, "dsn", where->dsn);
	if (ok && where->name)
		ok = !rpb_json_set_exact(store, "name", where->name);
	if (!ok) {
		json_decref(store);
		return NULL;
	}
	/* The seed as text: it goes up to 2^64-1 (jsontext.h). */
	json_t *man = json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:o, s:s, s:s, s:s, s:s, s:{s:i, s:I}, s:o}",
				"rpbench_version", RPB_VERSION, "backend", rn->backend->name,
				"backend_version", rn->backend->version(), "pattern", rn->pattern->name,
				"pattern_noun", rn->pattern->noun, "stores_objects",
				rn->pattern->stores_objects,
				"options", rpb_job_to_json(rn->job), "seed", rpb_json_u64(rn->job->run.seed),
				"sync", rn->job->run.sync == RPB_SYNC_COMMIT ? "commit" : "none", "run_tag",
				rn->run_tag, "start", start, "end", end, "host", "cores",
				(int)rpb_host_cores(), "memory_bytes", (json_int_t)rpb_host_memory(), "store",
				store);
	/* Where the run kept its results and read its workload, absolute. */
	if (man && ((where->out && rpb_json_set_exact(man, "out", where->out)) ||
		    (where->workload && rpb_json_set_exact(man, "workload", where->workload)) ||
		    set_command(man, where) || set_quota(man, where->quota) || set_host(man) ||
		    set_build(man) || set_server(man, rn) || set_backend_options(man, rn) ||
		    json_object_set_new(man, "clock_source", json_string(rpb_clock_source())))) {
		json_decref(man);
		return NULL;
	}
	return man;
}

/* [op, class, in_doubt] per failed main operation; [op, class, in_doubt,
 * label] per failed side step, a list written only when there is one (so
 * files without it read as before). */
static json_t *failures_json(const struct rpb_failure_list *l, const char *const *labels)
{
	json_t *a = json_array();
	for (size_t i = 0; i < l->n; i++) {
		const struct rpb_failure *f = &l->v[i];
		json_t *e = json_pack("[I, s, b]", (json_int_t)f->op, rpb_status_name(f->status),
				      f->in_doubt);
		if (f->label)
			json_array_append_new(e, json_string(labels[f->label]));
		json_array_append_new(a, e);
	}
	return a;
}

static json_t *ledger_json(struct rpb_runner *rn)
{
	json_t *workers = json_array();
	for (unsigned t = 0; t < rn->nworkers; t++) {
		struct rpb_worker *w = &rn->workers[t];
		json_t *o = json_pack("{s:I, s:I, s:o}", "issued", (json_int_t)atomic_load(&w->issued),
				      "acked", (json_int_t)atomic_load(&w->acked), "failures",
				      failures_json(&w->failures, rn->pattern->labels));
		if (w->steps.n)
			json_object_set_new(o, "step_failures",
					    failures_json(&w->steps, rn->pattern->labels));
		json_array_append_new(workers, o);
	}
	return json_pack("{s:s, s:o}", "run_tag", rn->run_tag, "workers", workers);
}

static json_t *errors_json(struct rpb_runner *rn)
{
	json_t *o = json_object();
	for (unsigned c = 1; c < RPB_STATUS_COUNT; c++) {
		uint64_t count = 0;
		const struct rpb_err *first = NULL;
		for (unsigned t = 0; t < rn->nworkers; t++) {
			uint64_t k = atomic_load(&rn->workers[t].errors[c]);
			if (k && !first)
				first = &rn->workers[t].first_err[c];
			count += k;
		}
		if (count)
			json_object_set_new(o, rpb_status_name((enum rpb_status)c),
					    json_pack("{s:I, s:o, s:i, s:s}", "count", (json_int_t)count,
						      "first_message", rpb_json_text(first->msg), "native",
						      first->native, "sqlstate", first->sqlstate));
	}
	return o;
}

static json_t *threads_json(struct rpb_runner *rn)
{
	json_t *a = json_array();
	for (unsigned t = 0; t < rn->nworkers; t++) {
		struct rpb_worker *w = &rn->workers[t];
		double secs = (double)(w->t_end - w->t_start) / 1e9;
		uint64_t acked = atomic_load(&w->acked);
		/* When the thread's loop ended, from the run's start: the run ends
		 * with its last thread (elapsed_s is the largest end_s). */
		double end_s = w->t_end > rn->t_start ? (double)(w->t_end - rn->t_start) / 1e9 : 0.0;
		json_array_append_new(a, json_pack("{s:i, s:I, s:I, s:I, s:f, s:f, s:f}", "thread", (int)t,
						   "issued", (json_int_t)atomic_load(&w->issued), "acked",
						   (json_int_t)acked, "retries",
						   (json_int_t)atomic_load(&w->retries), "active_s", secs,
						   "end_s", end_s,
						   "ops_per_s", secs > 0 ? (double)acked / secs : 0.0));
	}
	return a;
}

/* Writes all of text to fd; 0, or -1 with errno. */
static int write_all(int fd, const char *text, size_t len)
{
	while (len) {
		ssize_t w = write(fd, text, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		text += w;
		len -= (size_t)w;
	}
	return 0;
}

/* A new file at tmp holding text, synced: 0, or -1 with errno (tmp removed). */
static int write_synced(const char *tmp, const char *text, bool exclusive)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC), 0644);
	if (fd < 0)
		return -1;
	int rc = write_all(fd, text, strlen(text)) == 0 && fsync(fd) == 0 ? 0 : -1;
	int e = errno;
	if (close(fd) != 0 && !rc) {
		rc = -1;
		e = errno;
	}
	if (rc) {
		unlink(tmp);
		errno = e;
	}
	return rc;
}

/* Writes a temporary file, syncs it, renames it and syncs the directory: a
 * reader, a run killed while writing, or a machine that loses power, sees
 * the old file or the new one, never half of one. */
int rpb_results_file(const char *dir, const char *name, const char *text, char *msg, size_t n)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	if (rpb_path_join(path, sizeof path, dir, name) != 0 ||
	    snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		snprintf(msg, n, "results directory %.256s... is too long; choose a shorter --out", dir);
		return -1;
	}
	if (write_synced(tmp, text, false) != 0 || rename(tmp, path) != 0 || rpb_fsync_dir(dir) != 0) {
		snprintf(msg, n, "cannot write %s: %s; check the results directory (--out)", path,
			 strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* report.txt, the pattern's own text report, written as rpb_results_file
 * writes, but never over a file of that name: the driver refused a results
 * directory holding one, so an existing file is not ours (link(2) refuses
 * to replace it). */
int rpb_results_report(struct rpb_runner *rn, const json_t *root, const char *dir, char *msg,
		       size_t n)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	if (rpb_path_join(path, sizeof path, dir, "report.txt") != 0 ||
	    snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		snprintf(msg, n, "results directory %.256s... is too long; choose a shorter --out",
			 dir);
		return -1;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		snprintf(msg, n, "out of memory writing %s", path);
		return -1;
	}
	rn->pattern->write_report(rn, root, f);
	bool ok = !ferror(f);
	if (fclose(f) != 0 || !ok) {
		free(text);
		snprintf(msg, n, "out of memory writing %s", path);
		return -1;
	}
	int rc = write_synced(tmp, text, true);
	free(text);
	if (rc == 0 && link(tmp, path) != 0) {
		rc = -1;
		int e = errno;
		unlink(tmp);
		errno = e;
	} else if (rc == 0) {
		unlink(tmp);
		rc = rpb_fsync_dir(dir);
	}
	if (rc) {
		snprintf(msg, n, "cannot %s %s: %s; %s", errno == EEXIST ? "create" : "write", path,
			 strerror(errno),
			 errno == EEXIST ? "choose a new --out" : "check the results directory (--out)");
		return -1;
	}
	return 0;
}

/* The streamed result files (written while the run went on) synced, so
 * once result.json is replaced they are on the disk too. */
static void sync_streamed(struct rpb_runner *rn)
{
	static const char *const core[] = {"intervals.csv", "samples.jtl", NULL};
	if (rn->jtl)
		fflush(rn->jtl);
	rpb_results_sync_files(rn->out_dir, core);
	rpb_results_sync_files(rn->out_dir, rn->pattern->files);
}

void rpb_results_sync_files(const char *dir, const char *const *names)
{
	char path[PATH_MAX];
	for (size_t i = 0; names && names[i]; i++)
		if (rpb_path_join(path, sizeof path, dir, names[i]) == 0)
			rpb_fsync_path(path); /* one that is not there needs nothing */
}

int rpb_results_begin(struct rpb_runner *rn, const struct rpb_store_where *where, char *msg,
		      size_t n)
{
	json_t *man = manifest_json(rn, where);
	json_object_del(man, "end"); /* not known yet */
	json_t *root = json_pack("{s:o, s:s, s:{s:s}}", "manifest", man,
				 "status", "running (or ended without writing its results)", "stop",
				 "reason", "running");
	char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	int rc = text ? rpb_results_file(rn->out_dir, "result.json", text, msg, n) : -1;
	if (!text)
		snprintf(msg, n, "cannot encode result.json");
	/* The results directory's own entry too (make_out may have made it). */
	char parent[PATH_MAX];
	if (!rc && rpb_path_join(parent, sizeof parent, rn->out_dir, "..") == 0)
		rpb_fsync_dir(parent);
	free(text);
	json_decref(root);
	return rc;
}

/* histograms.hlog (hdrlog.h): the labels result.json has, over the
 * measured window, timed from the run's start. */
static int write_hdrlog(struct rpb_runner *rn, const struct rpb_hist_snap *const *snaps,
			const bool *listed, char *msg, size_t n)
{
	struct rpb_hdrlog_label labels[RPB_MAX_LABELS];
	unsigned k = 0;
	for (unsigned l = 0; l < rn->pattern->nlabels; l++)
		if (listed[l])
			labels[k++] = (struct rpb_hdrlog_label){rn->pattern->labels[l], snaps[l]};
	double secs = measured_seconds(rn);
	double start = (double)(rn->t_end - rn->t_start) / 1e9 - secs;
	char *text = rpb_hdrlog_text(rn->wall_start_ms, start > 0 ? start : 0, secs, labels, k);
	if (!text) {
		snprintf(msg, n, "out of memory writing histograms.hlog");
		return -1;
	}
	int rc = rpb_results_file(rn->out_dir, "histograms.hlog", text, msg, n);
	free(text);
	return rc;
}

/* The end-of-run latency table, one row per label with measured samples,
 * in microseconds (fio's clat and pgbench's latency lines, per label). */
static void latency_table(char *buf, size_t n, const char *const *names,
			  const struct rpb_hist_snap *const *snaps, unsigned nlabels)
{
	static const double pct[] = {50, 90, 99, 99.9};
	int width = 12; /* the longest label, at least "Latency us" and a space */
	for (unsigned l = 0; l < nlabels; l++)
		if ((int)strlen(names[l]) > width)
			width = (int)strlen(names[l]);
	size_t used = strlen(buf);
	snprintf(buf + used, n - used, "%-*s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n", width,
		 "Latency us", "count", "mean", "stddev", "min", "p50", "p90", "p99", "p99.9", "max");
	for (unsigned l = 0; l < nlabels; l++) {
		const struct rpb_hist_snap *s = snaps[l];
		if (!s->count)
			continue;
		used = strlen(buf);
		snprintf(buf + used, n - used, "%-*s %10" PRIu64 " %10.1f %10.1f %10.1f", width, names[l],
			 s->count, rpb_snap_mean(s) / 1e3, rpb_snap_stddev(s) / 1e3,
			 (double)s->min / 1e3);
		for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++) {
			used = strlen(buf);
			snprintf(buf + used, n - used, " %10.1f",
				 (double)rpb_snap_percentile(s, pct[i]) / 1e3);
		}
		used = strlen(buf);
		snprintf(buf + used, n - used, " %10.1f\n", (double)s->max / 1e3);
	}
}

int rpb_results_write(struct rpb_runner *rn, const struct rpb_store_where *where, char *msg,
		      size_t n)
{
	struct rpb_hist_snap *tmp = malloc(sizeof *tmp), *diff = malloc(sizeof *diff),
			     *all = malloc(sizeof *all);
	struct label_totals *lt = malloc(RPB_MAX_LABELS * sizeof *lt);
	if (!tmp || !diff || !all || !lt) {
		free(tmp), free(diff), free(all), free(lt);
		snprintf(msg, n, "out of memory writing results");
		return -1;
	}
	double secs = measured_seconds(rn), elapsed = (double)(rn->t_end - rn->t_start) / 1e9;
	json_t *labels = json_object();
	uint64_t samples = 0, errors = 0, bytes = 0, measured_all = 0;
	rpb_snap_init(all);
	const struct rpb_hist_snap *snaps[RPB_MAX_LABELS];
	bool listed[RPB_MAX_LABELS] = {false};
	for (unsigned l = 0; l < rn->pattern->nlabels; l++) {
		struct label_totals *t = &lt[l];
		label_measured(rn, l, t, tmp, diff);
		snaps[l] = &t->snap;
		if (!t->samples && l)
			continue;
		listed[l] = true;
		json_object_set_new(labels, rn->pattern->labels[l],
				    rpb_hist_json(&t->snap, t->samples, t->errors, t->bytes, secs));
		rpb_snap_add(all, &t->snap);
		samples += t->samples;
		errors += t->errors;
		bytes += t->bytes;
		measured_all += t->snap.count;
	}
	/* Failed samples among the measured ones, for the summary line. */
	uint64_t measured_errors = 0;
	for (unsigned l = 0; l < rn->pattern->nlabels; l++)
		for (unsigned t = 0; t < rn->nworkers; t++)
			measured_errors += atomic_load(&rn->workers[t].labels[l].errors) -
					   rn->workers[t].base_errors[l];

	char status[1024], line[256], seedline[256], c1[32], c2[32];
	rpb_status_line(rn, status, sizeof status);
	rpb_summary_line(line, sizeof line, '=', all, measured_errors, secs, -1, 0, 0);
	snprintf(seedline, sizeof seedline,
		 "Summary: %s in %.0fs = %.1f/s, Avg: %.0f, Min: %.0f, Max: %.0f, Err: %s (%.2f%%)",
		 rpb_text_grouped(c1, sizeof c1, all->count), secs, secs > 0 ? (double)all->count / secs : 0,
		 rpb_snap_mean(all) / 1e6, all->count ? (double)all->min / 1e6 : 0,
		 (double)all->max / 1e6, rpb_text_grouped(c2, sizeof c2, measured_errors),
		 all->count ? 100.0 * (double)measured_errors / (double)all->count : 0);

	uint64_t store_bytes = 0;
	bool have_usage = rpb_store_bytes(rn, &store_bytes);
	uint64_t lag_n = 0, lag_max = 0;
	double lag_sum = 0;
	for (unsigned t = 0; t < rn->nworkers; t++) {
		rpb_hist_snapshot(&rn->workers[t].lag, tmp);
		rpb_snap_diff(diff, tmp, &rn->workers[t].baseline[RPB_MAX_LABELS]);
		lag_n += diff->count;
		lag_sum += (double)diff->sum;
		if (tmp->max > lag_max)
			lag_max = tmp->max;
	}

	json_t *totals = json_pack(
		"{s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:I}", "elapsed_s", elapsed,
		"measured_s", secs, "samples", (json_int_t)samples, "measured_samples",
		(json_int_t)measured_all, "failed_samples", (json_int_t)errors, "acked",
		(json_int_t)total_acked(rn), "acked_bytes", (json_int_t)acked_bytes(rn, rn->nworkers), "bytes",
		(json_int_t)bytes, "throughput_per_s", secs > 0 ? (double)all->count / secs : 0.0,
		"peak_rss_bytes", (json_int_t)rpb_peak_rss_bytes());
	if (rn->rss_peak.seen) {
		/* Sampled with the gauges: a peak between readings can be missed. */
		json_object_set_new(totals, "peak_rss_anon_bytes",
				    json_integer((json_int_t)rn->rss_peak.anon));
		json_object_set_new(totals, "peak_rss_file_bytes",
				    json_integer((json_int_t)rn->rss_peak.file));
	}
	if (have_usage)
		json_object_set_new(totals, "store_bytes", json_integer((json_int_t)store_bytes));
	/* A server's WAL is not in its tables' sizes (an embedded store's log
	 * is in its directory): what the run wrote of it, from the gauge's
	 * reading after the workers stopped. */
	double wal;
	if ((rn->backend->flags & RPB_BF_SERVER) && rpb_gauges_last(&rn->gauges, "wal_bytes", &wal) &&
	    wal >= 0)
		json_object_set_new(totals, "wal_bytes", json_integer((json_int_t)wal));
	if (rn->job->run.txn_timeout) {
		uint64_t reaped = 0, late = 0;
		for (unsigned t = 0; t < rn->nworkers; t++) {
			reaped += atomic_load(&rn->workers[t].reaped);
			late += atomic_load(&rn->workers[t].late);
		}
		json_object_set_new(totals, "reaped_txns", json_integer((json_int_t)reaped));
		json_object_set_new(totals, "late_commits", json_integer((json_int_t)late));
	}
	const struct rpb_err *se = &rn->stop_err;
	enum rpb_stop why = (enum rpb_stop)atomic_load(&rn->stop);
	json_t *stop = json_pack("{s:s}", "reason", rpb_stop_name(why));
	/* Added beside reason, whose values stay as they were: which limit
	 * ended a run that ended on one, and in words when others were set. */
	char ended[256];
	const char *limit = rn->stop_by_peer ? NULL : rpb_ended_limit(rn);
	bool ended_early = limit && rpb_ended_line(rn, ended, sizeof ended);
	if (limit)
		json_object_set_new(stop, "limit", json_string(limit));
	if (ended_early)
		json_object_set_new(stop, "ended", json_string(ended));
	/* A rank that another rank's stop ended (dist.h) has no error of its
	 * own: only the message, which names that rank. */
	bool own_err = !rn->stop_by_peer;
	if (why == RPB_STOP_ERROR || why == RPB_STOP_SLOW) {
		if (own_err)
			json_object_set_new(stop, "class", json_string(rpb_status_name(se->status)));
		json_object_set_new(stop, "message", rpb_json_text(se->msg));
	}
	if ((why == RPB_STOP_ERROR || why == RPB_STOP_SLOW) && own_err) {
		json_object_set_new(stop, "native", json_integer(se->native));
		json_object_set_new(stop, "sqlstate", json_string(se->sqlstate));
		json_object_set_new(stop, "thread", json_integer(rn->stop_worker));
		json_object_set_new(stop, "op", json_integer((json_int_t)rn->stop_op));
	}
	json_t *root = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:o, s:o}", "manifest",
				 manifest_json(rn, where), "totals", totals, "labels", labels, "errors",
				 errors_json(rn), "stop", stop, "status", rpb_json_text(status), "summary",
				 line, "threads", threads_json(rn), "ledger", ledger_json(rn));
	if (rn->job->run.rate > 0)
		json_object_set_new(root, "rate",
				    json_pack("{s:f, s:f, s:f}", "target_per_s", rn->job->run.rate,
					      "lag_mean_us", lag_n ? lag_sum / (double)lag_n / 1e3 : 0.0,
					      "lag_max_us", (double)lag_max / 1e3));
	json_t *gauges = rpb_gauges_json(&rn->gauges);
	if (gauges)
		json_object_set_new(root, "backend_gauges", gauges);
	json_t *pat = json_object();
	if (rn->pattern->report_json)
		rn->pattern->report_json(rn, pat);
	json_object_set_new(root, "pattern", pat);

	int rc = 0;
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	char summary[4096];
	snprintf(summary, sizeof summary, "%s\n%s\nStatus: %s\n%s%s%sBackend: %s (%s), profile = %s, sync = %s, pattern %s, seed %" PRIu64 "\n",
		 line, seedline, status, ended_early ? "ended: " : "", ended_early ? ended : "",
		 ended_early ? "\n" : "", rn->backend->name, rn->backend->version(),
		 rpb_profile_names[rn->job->run.profile],
		 rn->job->run.sync == RPB_SYNC_COMMIT ? "commit" : "none", rn->pattern->name,
		 rn->job->run.seed);
	if (rpb_gauges_any(&rn->gauges)) {
		char gline[1024];
		size_t used = strlen(summary);
		rpb_gauges_summary(&rn->gauges, gline, sizeof gline);
		snprintf(summary + used, sizeof summary - used, "Gauges: %s\n", gline);
	}
	latency_table(summary, sizeof summary, rn->pattern->labels, snaps, rn->pattern->nlabels);
	if (!text) {
		snprintf(msg, n, "cannot encode result.json");
		rc = -1;
	} else {
		sync_streamed(rn);
		rc = rpb_results_file(rn->out_dir, "result.json", text, msg, n);
		if (!rc)
			rc = write_hdrlog(rn, snaps, listed, msg, n);
		if (!rc)
			rc = rpb_results_file(rn->out_dir, "summary.txt", summary, msg, n);
		if (!rc && rn->pattern->write_report)
			rc = rpb_results_report(rn, root, rn->out_dir, msg, n);
	}
	if (!rn->quiet) {
		FILE *say = rn->say ? rn->say : stdout;
		fputs(summary, say);
		/* Whole ms hide a fast backend's latencies (not with --quiet:
		 * the summariser line alone). */
		char warn[160];
		if (rpb_jtl_zero_warning(rn, warn, sizeof warn))
			fprintf(say, "warning: %s\n", warn);
		fprintf(say, "Results: %s\n", where->out ? where->out : rn->out_dir);
		rpb_stdout_lost();
	} else if (rn->summary_only && !rn->pattern->stdout_output) {
		/* --quiet: the final summariser line alone (not where stdout is the
		 * pattern's own output, YCSB's exporter) */
		fprintf(rn->say ? rn->say : stdout, "%s\n", line);
		rpb_stdout_lost();
	}
	free(text);
	json_decref(root);
	free(tmp), free(diff), free(all), free(lt);
	return rc;
}
